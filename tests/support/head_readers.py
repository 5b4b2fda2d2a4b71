"""A named test double for a learned head's reader: fixed probabilities, every call recorded."""

from __future__ import annotations

from collections.abc import Callable


def recording_reader(hits: set[str], high: float = 0.99,
                     low: float = 0.1) -> tuple[Callable[[list[str]], list[float]], list[list[str]]]:
    """A reader that gives ``high`` to a text in ``hits`` and ``low`` to any other, and the list of the texts
    of each call (what the code under test asked the head)."""
    calls: list[list[str]] = []

    def read(texts: list[str]) -> list[float]:
        calls.append(list(texts))
        return [high if t in hits else low for t in texts]
    return read, calls
