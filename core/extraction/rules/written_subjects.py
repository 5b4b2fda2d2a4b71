"""Statements with a subject of their own read where they are written (issue 24, session 31, helper multi50).

The own-subject head (``core.extraction.own_subject``) reads, in the gate, the
opening clause of a sentence no rule fired on. A long message reaches the store by
other paths too: a noun-subject remark cut from the same message as a first-person
statement is glued onto it as an item of its slot ("老婆在银行上班；隔壁那家店老板人挺怪的", "…,
especially jazz; jazz music is really great"), and a rule fires on a remark about a
thing ("楼下新开的那家麻辣烫味道一般般" as a taste, "医院的空调 always too cold" as a health fact). Here
the head reads what a write would add, after every path (the statements
``written_news`` reads: a new memory's every statement, a merge's new ones, never a
replacement): a statement of a fact, a taste or a goal that names neither the user
(``patterns.FIRST_PERSON``: "i", "my", "we", "我") nor a relative or partner
(``patterns.KIN_WORD``: the household is the user's), tells no change
(``patterns.CHANGE``: the update judge's) and that the head reads at
``OWN_SUBJECT_PIECE_BAR`` or more is not written. A merge keeps its other
statements; a write left with nothing new is no write. One head call reads the
burst; the vectors are the classifier's (cached where the gate embedded the clause
already). Pure function of its inputs and the reader.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.rules import patterns
from core.extraction.rules.precision import reads_day_news
from core.extraction.rules.segment import has_cjk, normalise
from core.extraction.rules.written_news import Reader, _new_pieces, without_read
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

_CJK = re.compile(r"[\u4e00-\u9fff]")

OWN_SUBJECT_PIECES_ON = True
"""Read each statement a write would add with the own-subject head (``without_own_subjects``). On since
session 31 (multi50, arm A2 in ``bench/RESULTS.md``): dev_multi50 14 -> 18, no guard lost, public recall
main's, exact precision 73.5 -> 73.8 %; ``False`` returns before reading (every set main's)."""
OWN_SUBJECT_PIECE_BAR = 0.70
"""A statement read at this or more names a subject of its own and is not written (the gate's bar for a
sentence read as written, ``gate_rescue.OWN_SUBJECT_WRITTEN_BAR``: out of fold 1.8 % of the head's elided
rows read over it)."""

READ_LISTED = True
"""List items are read too: a long message is read as a list-style self-introduction, and the remark between
its items ("隔壁那家店老板人挺怪的") is filed as an item of the slot before it."""

SLOTS_PRECISE = True
"""A single identity slot (a home, a job, a name) and a life event are not read (``precision.reads_day_news``,
the day's-news passes' own test: those detectors are precise). Off, dev_multi50 and the two pool_tune cases
of ``MIN_WORDS`` score the same."""

_READ_TYPES = (MemoryType.FACT, MemoryType.PREFERENCE, MemoryType.GOAL)


MIN_WORDS = 3
"""A tiny guard, not a decision: a statement of fewer words (fewer than ``MIN_CJK`` characters in
Chinese) is a bare item or answer with no predicate ("Boston", "广州" after "在哪个城市呀？"), which
cannot name a subject of its own and which the head, trained on clauses, reads as a noun phrase
(pool_tune ``multi27-multi-t010`` and ``-t021`` lost without it)."""
MIN_CJK = 5


def _worth_reading(piece: str) -> bool:
    """A clause that names neither the user nor a relative, and tells no change."""
    norm = normalise(piece)
    short = len(_CJK.findall(norm)) < MIN_CJK if has_cjk(norm) else len(norm.split()) < MIN_WORDS
    return not (short or patterns.FIRST_PERSON.search(norm) or patterns.KIN_WORD.search(norm)
                or patterns.CHANGE.search(norm))


def without_own_subjects(candidates: Sequence[MemoryCandidate], existing: Sequence[ExistingMemory],
                         read: Reader, bar: float,
                         listed: frozenset[str] = frozenset(),
                         taste: tuple[Reader, float] | None = None) -> list[MemoryCandidate]:
    """``candidates`` without the statements they would add that ``read`` (the own-subject head) reads at
    ``bar`` or more as naming a subject of their own (see the module doc); ``listed``: keys of list items,
    never read. ``taste``: the noun-subject taste head and its bar (``core.extraction.taste_subject``,
    session 32): a preference whose write adds that one statement alone, read at the bar or more as a
    taste for a kind of thing ("<a genre> is honestly the best"), is a taste, not a remark, and stays; a
    statement glued onto others is read as before."""
    live = {m.key: m.content for m in existing}
    adds: dict[int, list[str]] = {}
    for i, cand in enumerate(candidates):
        if cand.op is not CandidateOp.UPSERT or cand.memory_type not in _READ_TYPES \
                or cand.key in listed or cand.supersedes or (SLOTS_PRECISE and not reads_day_news(cand)):
            continue
        new = _new_pieces(cand, live.get(cand.key))
        if new:
            adds[i] = new
    texts = list(dict.fromkeys(p for new in adds.values() for p in new if _worth_reading(p)))
    alone = [new[0] for i, new in adds.items()
             if len(new) == 1 and candidates[i].memory_type is MemoryType.PREFERENCE and new[0] in texts]
    if taste is not None and alone:
        tastes = {p for p, q in zip(alone, taste[0](alone), strict=True) if q >= taste[1]}
        texts = [p for p in texts if p not in tastes]
    return without_read(candidates, adds, texts, read, bar)
