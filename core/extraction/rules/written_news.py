"""The day's news read where it is written (issue 24, session 26, helper prec45).

Session 24 (prec43) read the day's-news head (``core.extraction.day_news``) on the rule candidates at the
precision pass (``precision.precise_parts``), where it reached little of what MemoryBank stores: most of the
day's news and moods of the public stores reach the store by later paths, the gate's rescues, the update
judge, the answers and project news of ``_over_turns``, or glued by refine's merge onto a taste told days
before (the blobs). Here the head reads what a write would add, after all of them: each statement of an upsert
that its memory does not hold yet (a new memory's every statement; a merge's new statements), of a goal, a
taste or a fact that is not a single identity slot, a life event nor a list item
(``precision.reads_day_news``). A statement read at ``WRITTEN_NEWS_DROP`` or more is not written: a merge
keeps the memory's old statements and its other new ones; a write left with nothing new is no write. Never
read: a statement in which the user does not speak of themself (no "I", "my", "我": a clause cut from a long
message), a replacement (the old statements gone from the new content: an update, which the judge decided), a
statement that names a horizon beyond the day or a habit (``precision.HORIZON_CUE``, ``HABIT_CUE``), and one
the standing-instruction model reads at ``precision.DAY_NEWS_RULE`` or more. A statement the gate's rescue
wrote (no rule fired on it, kept on the classifier's p(keep) alone: ``CandidateMeta.rescued``) is read at the
lower ``RESCUE_NEWS_DROP`` (session 27, prec46: the rescues wrote half of MemoryBank's bad memories). A rule
is never read for the day's news; ``without_remarks`` reads what a constraint's write would add with the
companion-remark head instead (session 28, prec47: all nine of MemoryBank's stored rules were thanks, praise
or worries said to the companion). Pure functions of their inputs and the readers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.rules.events import is_event_key
from core.extraction.rules.precision import DAY_NEWS_RULE, HABIT_CUE, HORIZON_CUE, reads_day_news
from core.extraction.rules.refine import CandidateMeta, contained
from core.extraction.rules.segment import has_cjk, normalise
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

_PIECES = re.compile(r"；|; ")
# the user speaking of themself: the head learned whole statements ("I went to a coffee shop today",
# "我最近在准备一场演讲"), not the verbless clauses a long message is cut into ("two cats (Miso and Tofu)",
# "对花粉过敏", "bad left knee from a skiing accident"), which it reads 0.72-0.82 (pool_tune at 0.70: -3)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|i'd|i'll|my|me)\b|我")
Reader = Callable[[list[str]], list[float]]


def _pieces(text: str) -> list[str]:
    return [p.strip() for p in _PIECES.split(text) if p.strip()]


def _new_pieces(cand: MemoryCandidate, old: str | None) -> list[str] | None:
    """The statements ``cand`` would add to its memory (``old``: the live memory of its key, if any); None for
    a replacement (an old statement is gone from the new content), which is never read."""
    pieces = _pieces(cand.content)
    if old is None:
        return pieces
    olds = _pieces(old)
    if not all(any(contained(o, p) for p in pieces) for o in olds):
        return None
    return [p for p in pieces if not any(contained(p, o) for o in olds)]


def _worth_reading(piece: str) -> bool:
    """The user speaks of themself, and names no horizon beyond the day and no habit."""
    norm = normalise(piece)
    return bool(_FIRST_PERSON.search(norm)) and not HORIZON_CUE.search(norm) and not HABIT_CUE.search(norm)


def _timeless(piece: str) -> bool:
    """The statement names no horizon beyond the day and no habit (a habit word, "每天", "usually", is a
    lasting statement whatever turn it is told in)."""
    norm = normalise(piece)
    return not HORIZON_CUE.search(norm) and not HABIT_CUE.search(norm)


def _read_additions(candidates: Sequence[MemoryCandidate], existing: Sequence[ExistingMemory],
                    listed: frozenset[str]) -> dict[int, list[str]]:
    """The statements each candidate's write would add (candidate index -> pieces) where the day's-news
    passes read them: an upsert the head reads (``reads_day_news``), not a list item (``listed``), not a
    replacement."""
    live = {m.key: m.content for m in existing}
    adds: dict[int, list[str]] = {}
    for i, cand in enumerate(candidates):
        if cand.op is not CandidateOp.UPSERT or cand.key in listed or cand.supersedes \
                or not reads_day_news(cand):
            continue
        new = _new_pieces(cand, live.get(cand.key))
        if new:
            adds[i] = new
    return adds


def without_written_news(candidates: Sequence[MemoryCandidate], existing: Sequence[ExistingMemory],
                         day_news: Reader, bar: float, standing: Reader | None = None,
                         listed: frozenset[str] = frozenset(), rescued: frozenset[str] = frozenset(),
                         rescue_bar: float | None = None) -> list[MemoryCandidate]:
    """``candidates`` (refine's, the last step before the write) without the statements they would add that
    ``day_news`` reads at ``bar`` or more (see the module doc); ``listed``: keys of list items, never read;
    ``rescued``: the statements the gate's rescue wrote (no rule fired on them), read at ``rescue_bar``
    (the lower of the two) when one is given."""
    adds = _read_additions(candidates, existing, listed)
    texts = list(dict.fromkeys(p for new in adds.values() for p in new if _worth_reading(p)))
    if not texts:
        return list(candidates)
    low = bar if rescue_bar is None else min(bar, rescue_bar)
    news = [p for p, q in zip(texts, day_news(texts), strict=True) if q >= (low if p in rescued else bar)]
    if standing is not None and news:
        news = [p for p, r in zip(news, standing(news), strict=True) if r < DAY_NEWS_RULE]
    if not news:
        return list(candidates)
    return _without_pieces(candidates, adds, frozenset(news))


def rescued_pieces(candidates: Sequence[MemoryCandidate],
                   meta: Mapping[str, CandidateMeta]) -> frozenset[str]:
    """The statements of the gate's candidates that its rescue wrote (``CandidateMeta.rescued``)."""
    return frozenset(p for c in candidates if c.key in meta and meta[c.key].rescued
                     for p in _pieces(c.content))


def without_rescue_turns(candidates: Sequence[MemoryCandidate], existing: Sequence[ExistingMemory],
                         rescued: frozenset[str], read: Reader, bar: float,
                         listed: frozenset[str] = frozenset(),
                         others_bar: float | None = None) -> list[MemoryCandidate]:
    """``candidates`` without the statements the gate's rescue wrote (``rescued``) that a write would add and
    the rescue-turn head (``core.extraction.rescue_turn``; ``read``: each statement read with the user's turn)
    reads at ``bar`` or more: the day's outing, a trip being booked, a doubt after advice, a plot, an answer
    whose referent is in the assistant's question (issue 24, session 29, prec48). Read: an upsert of a goal, a
    taste or a fact the day's-news head reads too (``precision.reads_day_news``), not a list item, not a
    replacement, and a statement that names no horizon and no habit (``_timeless``). One head call reads
    the burst.

    ``others_bar`` (issue 24, session 31, prec50; ``rescue_turn.RESCUE_TURN_RULES_ON``): the statements no
    rescue wrote (a rule's goal, taste or fact: a trip being planned, a mood of these days, a film watched),
    where the user speaks of themself (``_worth_reading``), are read too, at this bar."""
    if not rescued and others_bar is None:
        return list(candidates)
    adds = _read_additions(candidates, existing, listed)
    def read_here(p: str) -> bool:
        if p in rescued:
            return _timeless(p)
        return others_bar is not None and _worth_reading(p)

    texts = list(dict.fromkeys(p for new in adds.values() for p in new if read_here(p)))
    return without_read(candidates, adds, texts, read,
                        lambda p: bar if p in rescued or others_bar is None else others_bar)


def _asked_additions(candidates: Sequence[MemoryCandidate], existing: Sequence[ExistingMemory],
                     listed: frozenset[str]) -> dict[int, list[str]]:
    """The statements each candidate's write would add where the asked-turn pass reads them: an upsert of a
    goal, a taste or a fact, not a life event, not a list item (``listed``), not a replacement; of a single
    slot of who the user is (a job, a home, a pet's name) only the statements glued onto its live memory (a
    new write of the slot is the slot detectors' and never read)."""
    live = {m.key: m.content for m in existing}
    adds: dict[int, list[str]] = {}
    for i, cand in enumerate(candidates):
        if cand.op is not CandidateOp.UPSERT or cand.key in listed or cand.supersedes \
                or cand.memory_type not in (MemoryType.GOAL, MemoryType.PREFERENCE, MemoryType.FACT) \
                or is_event_key(cand.key):
            continue
        old = live.get(cand.key)
        if old is None and not reads_day_news(cand):
            continue
        new = _new_pieces(cand, old)
        if new:
            adds[i] = new
    return adds


def without_asked_news(candidates: Sequence[MemoryCandidate], existing: Sequence[ExistingMemory],
                       read: Reader, bar: float,
                       listed: frozenset[str] = frozenset()) -> list[MemoryCandidate]:
    """``candidates`` without the statements their writes would add (``_asked_additions``) that the asked-turn
    head (``core.extraction.asked_turn``; ``read``: each statement read as the answer to the companion's
    question before the turn) reads at ``bar`` or more: the day's news, a plan of these days or a mood told
    because the companion asked about now (issue 24, session 32, prec51). A statement that names a horizon
    beyond the day or a habit (``_timeless``) is never read. One head call reads the burst; the caller reads
    only when the turn before is the companion's and asks a question."""
    adds = _asked_additions(candidates, existing, listed)
    texts = list(dict.fromkeys(p for new in adds.values() for p in new if _timeless(p)))
    return without_read(candidates, adds, texts, read, bar)


REMARK_EXEMPT = frozenset({"constraint-food"})
"""Rule keys never read for a remark: a diet or an allergy said as a statement ("I'm allergic to shellfish")
is a limitation the assistant must respect, which the companion-remark head, trained on the user's own talk,
reads 0.7-0.9."""


def without_remarks(candidates: Sequence[MemoryCandidate], existing: Sequence[ExistingMemory],
                    remark: Reader, bar: float) -> list[MemoryCandidate]:
    """``candidates`` without the statements a constraint's write would add (a new rule's every statement, a
    merge's new ones; never a replacement, never a key of ``REMARK_EXEMPT``) that the companion-remark head
    (``core.extraction.companion_remark``) reads at ``bar`` or more: thanks, praise of the assistant, a
    promise to try its advice, a worry of the user's own, typed as a rule by whichever path wrote it (issue
    24, session 28, prec47). One head call reads the burst."""
    live = {m.key: m.content for m in existing}
    adds: dict[int, list[str]] = {}
    for i, cand in enumerate(candidates):
        if cand.op is not CandidateOp.UPSERT or cand.memory_type is not MemoryType.CONSTRAINT \
                or cand.key in REMARK_EXEMPT:
            continue
        new = _new_pieces(cand, live.get(cand.key))
        if new:
            adds[i] = new
    return without_read(candidates, adds, list(dict.fromkeys(p for new in adds.values() for p in new)),
                        remark, bar)


def without_read(candidates: Sequence[MemoryCandidate], adds: Mapping[int, Sequence[str]], texts: list[str],
                 read: Reader, bar: float | Callable[[str], float]) -> list[MemoryCandidate]:
    """``candidates`` without the statements of ``texts`` (each once, among those the writes of ``adds``
    would add) that ``read`` reads at ``bar`` (a number, or each statement's own) or more; one call reads
    them all, none when there is nothing to read."""
    if not texts:
        return list(candidates)
    bar_of = bar if callable(bar) else (lambda _p: bar)
    drop = frozenset(p for p, q in zip(texts, read(texts), strict=True) if q >= bar_of(p))
    return _without_pieces(candidates, adds, drop) if drop else list(candidates)


def _without_pieces(candidates: Sequence[MemoryCandidate], adds: Mapping[int, Sequence[str]],
                    drop: frozenset[str]) -> list[MemoryCandidate]:
    """``candidates`` with the statements of ``drop`` taken out of the ones whose write would add them
    (``adds``: candidate index -> the statements it adds): a write that adds nothing but those is no write
    (the memory, if any, stays as it was); another keeps its other statements."""
    out: list[MemoryCandidate] = []
    for i, cand in enumerate(candidates):
        new = adds.get(i)
        if not new or not drop.intersection(new):
            out.append(cand)
            continue
        if all(p in drop for p in new):
            continue
        kept = [p for p in _pieces(cand.content) if p not in drop]
        sep = "；" if has_cjk(cand.content) else "; "
        out.append(cand.model_copy(update={"content": sep.join(kept)}))
    return out
