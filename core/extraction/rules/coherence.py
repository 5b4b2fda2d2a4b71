"""One memory, one thing (issue 24): whether a new statement may join an existing memory.

A merge keeps a memory coherent: the newer statement of the same slot, or a short list of items of
one kind ("I like hiking; I also love trail running"), never unrelated clauses glued from many turns
(a food preference that collects a remark about a film). ``one_thing`` says whether ``new`` joins
``old``: a preference or a goal joins only when it is about the same topic (``topics.topic_of``; a
list slot such as ``preference-hobby`` takes items of any topic, a topical slot such as
``preference-food`` only its own) or shares a salient word with it, and the merged text stays
within ``MERGED_MAX_CHARS`` and ``MERGED_MAX_PIECES`` statements; a fact joins within those bounds.
Otherwise the statement becomes a memory of its own under ``own_key``. Pure functions.
"""

from __future__ import annotations

from collections.abc import Collection

from core.extraction.rules import lexicon
from core.extraction.rules.keys import content_slug, salient_tokens
from core.extraction.rules.segment import normalise
from core.extraction.rules.topics import topic_of
from core.filters import normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

MERGED_MAX_CHARS = 240
MERGED_MAX_PIECES = 4
_PIECES = re.compile(r"；|; ")
LIST_SLOTS = frozenset({"hobby", "skill"})  # lists of items of one kind, whatever their topic
_TOPICAL = {MemoryType.PREFERENCE: "preference", MemoryType.GOAL: "goal"}


def _topic(kind: str, text: str) -> str | None:
    return topic_of(kind, normalise(text))


def _slot_topic(kind: str, key: str) -> str | None:
    """The topic a key names ("preference-food" -> "food"), ``None`` for a free-form or list key."""
    suffix = key.split("-", 1)[1] if "-" in key else ""
    tables = (lexicon.PREF_TOPICS_EN, lexicon.PREF_TOPICS_ZH) if kind == "preference" else (
        lexicon.GOAL_TOPICS_EN, lexicon.GOAL_TOPICS_ZH)
    names = {name for table in tables for name, _ in table}
    return suffix if suffix in names and suffix not in LIST_SLOTS else None


def one_thing(old: str, new: str, memory_type: MemoryType, key: str, same_key: bool) -> bool:
    """``new`` may be merged into the memory ``key`` whose content is ``old``; ``same_key``: the
    extractor itself filed ``new`` under ``key`` (see the module doc)."""
    pieces = [p for p in _PIECES.split(old) if p.strip()] + [p for p in _PIECES.split(new) if p.strip()]
    if len(pieces) > MERGED_MAX_PIECES or sum(len(p) + 2 for p in pieces) > MERGED_MAX_CHARS:
        return False
    kind = _TOPICAL.get(memory_type)
    if kind is None:
        return True
    t_new = _topic(kind, new)
    if same_key:  # a list slot takes items of any topic; a topical slot those of its topic
        slot = _slot_topic(kind, key)
        return slot is None or t_new is None or t_new in (slot, _topic(kind, old))
    t_old = _topic(kind, old)
    if t_old and t_new:
        return t_old == t_new
    return bool(salient_tokens(old) & salient_tokens(new))


def own_key(memory_type: MemoryType, key: str, content: str, taken: Collection[str]) -> str:
    """A key for ``content`` as a memory of its own, beside ``key`` (the memory it did not join) and
    the ``taken`` keys: its topic's slot when free ("preference-movies"), else the key with the
    content's salient words."""
    kind = _TOPICAL.get(memory_type)
    topic = _topic(kind, content) if kind else None
    if topic:
        by_topic = normalise_key(f"{kind}-{topic}")
        if by_topic != key and by_topic not in taken:
            return by_topic
    prefix = key if kind is None else f"{kind}"
    return normalise_key(f"{prefix}-{content_slug(content)}")
