"""Filling slot templates into labelled utterance rows: the one recipe of the weak-label template sets.

A template names its slots in braces (``"I love {food_en}"``); ``fill`` gives the ``k``-th filling of the
``t``-th template, stepping each slot (in name order) by its own stride of ``steps`` so fillings vary
together without repeating. ``family_rows`` fills every family's templates ``per_template`` times (a
template without slots once), keeps distinct texts only, in a fixed order: the same inputs always give
the same rows, so a corpus built from them has a stable hash.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

Family = tuple[str, bool, str | None, list[str]]
"""(family name, keep, memory type or None, templates)."""


def fill(template: str, slots: Mapping[str, Sequence[str]], steps: Sequence[int], k: int, t: int) -> str:
    """The ``k``-th filling of template number ``t``."""
    names = sorted({part.split("}")[0] for part in template.split("{")[1:]})
    values = {name: slots[name][(k * steps[s % len(steps)] + t) % len(slots[name])]
              for s, name in enumerate(names)}
    return template.format(**values)


def family_rows(families: Sequence[Family], slots: Mapping[str, Sequence[str]], steps: Sequence[int],
                per_template: int, source: str, *, skip: Collection[str] = (),
                typed: Callable[[str, bool, str | None], str | None] | None = None) -> list[dict[str, Any]]:
    """Rows ``{text, keep, type, family, relation: None, source}`` of every family not in ``skip``;
    ``typed(text, keep, memory_type)``: the row's type when it depends on the text (default: the family's)."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for family, keep, memory_type, templates in families:
        if family in skip:
            continue
        for t, template in enumerate(templates):
            for k in range(per_template if "{" in template else 1):
                text = fill(template, slots, steps, k, t)
                if text in seen:
                    continue
                seen.add(text)
                kind = typed(text, keep, memory_type) if typed is not None else memory_type
                out.append({"text": text, "keep": keep, "type": kind, "family": family,
                            "relation": None, "source": source})
    return out


def written_rows(positive: Mapping[str, Sequence[str]], negative: Mapping[str, Sequence[str]],
                 prefix: str) -> list[dict[str, Any]]:
    """Hand-written lines by family as trainer rows (``text``, ``label`` 1 for ``positive`` and 0 for
    ``negative``, ``group``: ``<prefix>-<family>``), in the mappings' order, each text once (its first
    family wins)."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for lines, label in ((positive, 1), (negative, 0)):
        for family, texts in lines.items():
            for text in texts:
                if text not in seen:
                    seen.add(text)
                    out.append({"text": text, "label": label, "group": f"{prefix}-{family}"})
    return out


ContextFamily = tuple[str, bool, str | None, list[tuple[str, str]]]
"""(family name, keep, memory type or None, written (assistant turn, user reply) pairs)."""


def context_rows(families: Sequence[ContextFamily], source: str) -> list[dict[str, Any]]:
    """Written (turn, reply) pairs as rows of the precision model's corpus: in a fixed order, each reply text
    once (its first family wins), ``source`` as given, the turn in ``prev``."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for family, keep, memory_type, pairs in families:
        for prev, text in pairs:
            if text in seen:
                continue
            seen.add(text)
            out.append({"text": text, "keep": keep, "type": memory_type, "family": family,
                        "relation": None, "source": source, "prev": prev})
    return out
