"""The bounds of one extraction's input (``MessageProcessor``'s ``split_burst`` and the cut of a long
message).

Contract: ``split_burst`` covers every message position exactly once, in order, in consecutive groups of
at most ``max_messages`` messages whose joined text (a message counted at most ``max_chars``) fits
``max_chars``; ``cut_for_extraction`` returns at most ``max_chars`` characters, the text itself when it
fits, else its head and ``TRUNCATION_MARKER``. Pure functions.
"""

from __future__ import annotations

from collections.abc import Sequence

TRUNCATION_MARKER = "…[truncated for extraction: {kept} of {total} characters]"


def split_burst(sizes: Sequence[int], max_messages: int, max_chars: int) -> list[range]:
    """Consecutive groups of message positions covering ``sizes`` in order: each group has at most
    ``max_messages`` messages whose joined length (one separator between messages, a message counted
    at most ``max_chars``) is at most ``max_chars``; a message of ``max_chars`` or more is alone."""
    groups: list[range] = []
    start, used = 0, 0
    for i, raw in enumerate(sizes):
        size = min(raw, max_chars)
        if i == start:
            used = size
        elif i - start >= max_messages or used + 1 + size > max_chars:
            groups.append(range(start, i))
            start, used = i, size
        else:
            used += 1 + size
    if sizes:
        groups.append(range(start, len(sizes)))
    return groups


def cut_for_extraction(text: str, max_chars: int) -> str:
    """``text`` if it fits ``max_chars``, else its head and ``TRUNCATION_MARKER``, ``max_chars`` in all."""
    if len(text) <= max_chars:
        return text
    longest = TRUNCATION_MARKER.format(kept=max_chars, total=len(text))  # kept <= max_chars: no longer
    kept = max(0, max_chars - len(longest))
    return text[:kept] + TRUNCATION_MARKER.format(kept=kept, total=len(text))
