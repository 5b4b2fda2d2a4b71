"""One memory, one thing (issue 24): whether a new statement may join an existing memory.

A merge keeps a memory coherent: the newer statement of the same slot, or a short list of items of
one kind ("I like hiking; I also love trail running"), never unrelated clauses glued from many turns
(a food preference that collects a remark about a film). ``one_thing`` says whether ``new`` joins
``old``: a preference or a goal joins only when it is about the same topic (``topics.topic_of``; a
list slot such as ``preference-hobby`` takes items of any topic, a topical slot such as
``preference-food`` only its own) or shares a salient word with it, and the merged text stays
within ``MERGED_MAX_CHARS`` and ``MERGED_MAX_PIECES`` statements. Under the same key: a list slot takes
an item that names a liking or shares a word ("Lately I keep burning my ingredients" does not join the
hobbies); a topical slot takes a statement of its topic only beside statements of its topic (a food
taste does not join "I loved the island" that an earlier turn filed under food), or one sharing a
word. A fact joins its slot within the bounds, except a catch-all key (``fact-personal``,
``fact-background``, ``fact-health``), which takes only a statement sharing a word with it.
Otherwise the statement becomes a memory of its own under ``own_key``. Pure functions.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.extraction.rules import lexicon
from core.extraction.rules.keys import content_slug, salient_tokens
from core.extraction.rules.segment import normalise
from core.extraction.rules.topics import topic_of
from core.filters import normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

# The shipped embedder's cosine below which a statement is not about the memory's thing (the nearest of its
# statements): fewer than 5% of one-thing pairs held out fall below it (``training.calibrate_one_thing``).
_CALIBRATION = Path(__file__).resolve().parents[1] / "data" / "one_thing_calibration.json"
ONE_THING_COSINE = float(next(iter(json.loads(_CALIBRATION.read_text(encoding="utf-8")).values()))["cosine"])
Related = Callable[[str, str], float]  # (memory content, statement) -> the cosine of the nearest statement
MERGED_MAX_CHARS = 240
MERGED_MAX_PIECES = 4
_PIECES = re.compile(r"；|; ")
LIST_SLOTS = frozenset({"hobby", "skill"})  # lists of items of one kind, whatever their topic
_TOPICAL = {MemoryType.PREFERENCE: "preference", MemoryType.GOAL: "goal"}
# a statement that names a liking or an interest (what a list of hobbies takes)
_LIKING = re.compile(r"\b(?:like|likes|love|loves|enjoy|enjoys|into|fan of|hobby|hobbies|interested in|"
                     r"passion(?:ate)?|favou?rite)\b|喜欢|爱好|兴趣|热爱|最爱|迷上|着迷")


def _topic(kind: str, text: str) -> str | None:
    return topic_of(kind, normalise(text))


def _slot_topic(kind: str, key: str) -> str | None:
    """The topic a key names ("preference-food" -> "food"), ``None`` for a free-form or list key."""
    suffix = key.split("-", 1)[1] if "-" in key else ""
    tables = (lexicon.PREF_TOPICS_EN, lexicon.PREF_TOPICS_ZH) if kind == "preference" else (
        lexicon.GOAL_TOPICS_EN, lexicon.GOAL_TOPICS_ZH)
    names = {name for table in tables for name, _ in table}
    return suffix if suffix in names and suffix not in LIST_SLOTS else None


def one_thing(old: str, new: str, memory_type: MemoryType, key: str, same_key: bool,
              related: Related | None = None) -> bool:
    """``new`` may be merged into the memory ``key`` whose content is ``old``; ``same_key``: the
    extractor itself filed ``new`` under ``key`` (see the module doc). ``related``: the embedder's
    cosine; where only the topic words join them (no salient word shared), it must reach
    ``ONE_THING_COSINE`` too ("a studio with privacy" and "learning a programming language" both read
    as the topic "language")."""
    pieces = [p for p in _PIECES.split(old) if p.strip()] + [p for p in _PIECES.split(new) if p.strip()]
    if len(pieces) > MERGED_MAX_PIECES or sum(len(p) + 2 for p in pieces) > MERGED_MAX_CHARS:
        return False
    shared = bool(salient_tokens(old) & salient_tokens(new))
    kind = _TOPICAL.get(memory_type)
    if kind is None:  # a fact joins its own slot, but a catch-all key only what shares a word with it
        return shared or not (same_key and _catch_all(key))
    t_new = _topic(kind, new)
    t_old = _topic(kind, old)
    if same_key:
        slot = _slot_topic(kind, key)
        if slot is None and key.split("-", 1)[-1] in LIST_SLOTS:  # a list slot: items of any topic, liked
            return shared or bool(_LIKING.search(normalise(new)))
        if slot is not None:  # a topical slot: a statement of its topic beside one of its topic
            return shared or (t_new == t_old == slot and _near(related, old, new))
        return True  # a key of the statement's own words
    if t_old and t_new:
        return t_old == t_new and (shared or _near(related, old, new))
    return shared


def nearest_cosine(embed: Callable[[list[str]], npt.NDArray[np.float32]], old: str, new: str) -> float:
    """The cosine (vectors of ``embed``) between ``new`` and the nearest statement of ``old`` (a memory's
    content, its statements joined by "；"/"; ")."""
    pieces = [p for p in _PIECES.split(old) if p.strip()] or [old]
    vectors = embed([new, *pieces])
    vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return float(np.max(vectors[1:] @ vectors[0]))


def _near(related: Related | None, old: str, new: str) -> bool:
    """The embedder (when given) reads ``new`` as about the thing of one of ``old``'s statements."""
    return related is None or related(old, new) >= ONE_THING_COSINE


def _catch_all(key: str) -> bool:
    """``fact-personal``, ``fact-background``, ``fact-health`` and their salient-word variants: keys
    that collect statements of any topic, so sharing the key says nothing about sharing a topic."""
    return key.split("-", 2)[1:2] in (["personal"], ["background"], ["health"])


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
