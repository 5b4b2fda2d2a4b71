"""One slot family of generated update/retraction pairs (shared by ``training.pair_templates`` and
``training.pair_templates_upd24``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    """One slot family: values and templates per language (``en``, ``zh``)."""

    slot: str
    values: dict[str, list[str]]
    olds: dict[str, list[str]]
    sups: dict[str, list[str]]
    rets: dict[str, list[str]]
    refs: dict[str, list[str]]


def _f(
    slot: str,
    ven: list[str],
    vzh: list[str],
    olds: tuple[list[str], list[str]],
    sups: tuple[list[str], list[str]],
    rets: tuple[list[str], list[str]],
    refs: tuple[list[str], list[str]],
) -> Family:
    return Family(
        slot,
        {"en": ven, "zh": vzh},
        {"en": olds[0], "zh": olds[1]},
        {"en": sups[0], "zh": sups[1]},
        {"en": rets[0], "zh": rets[1]},
        {"en": refs[0], "zh": refs[1]},
    )
