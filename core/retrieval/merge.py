"""Memories and episodes in one order: the two kinds pooled by a calibrated score.

Pure: no I/O. A dense retrieval ranks each kind on its own (memories by the rerank, episodes by
``core.episodes.search.rank_episodes``); this module decides which of them a budget of ``total``
serves, and in what order across the kinds (``RetrievalResult.order``). The answer keeps the kinds
apart: ``items`` and ``episodes`` each in their own rank order.

The pooled score of a candidate is its query cosine (the one signal both kinds share: the same
model embeds the question, the memories and the passages) plus, with ``lexical_weight`` (hybrid
retrieval, ``EPISODE_LEXICAL_WEIGHT``), each kind's lexical part: an episode's its
``RetrievedEpisode.lexical``, a memory's BM25 coverage of the question's ``terms`` measured on the
same ruler, the BM25 of the user's episodes the episodes' part was measured on (``memory_lexical``
with ``corpus``; over the memory candidates themselves when there is none), so neither kind is
lifted over the other by words alone (a coverage over a dozen memory candidates gave a memory sharing
one word of the question most of the weight, and on LoCoMo put memories over the evidence turns in
the first five); plus:
- ``LEAN`` for the kind the question's time intent leans on (``core.episodes.search.time_intent``):
  episodes on a question about the past, memories on one about tastes and rules (on a question with
  neither intent, ``NEUTRAL_LEAN`` for the episodes when ``NEUTRAL_LEAN_ON``: off, measured);
- ``WINDOW_LEAN`` for an episode sent inside the window a relative date of the question names;
and ties go to the memory (the newer, distilled statement), then to each kind's own order.

A knowledge update: an episode whose message a candidate memory's overwrite replaced (``superseded``:
message id -> memory id, from the memory's history) is stale, and the memory that replaced it comes
right before it (its pooled score lifted to the episode's, plus ``STALE_GAP``): the newer statement
is read first, and the old one keeps its place as what was said then. Earlier versions moved the stale
episode down instead (below every other episode in session 10, below the memory in session 11): the
rules extractor overwrites a slot often, so on LoCoMo that pushed the evidence turn a question asks
about ("when did she draw a self-portrait?", a slot a later drawing overwrote) out of the first ten
for about one question in twenty.

One place per message (``one_per_message``, in ``take_pooled``): a memory and the episode of the
message it states (``stated``: memory id -> message id) say one thing; the one the pool ranks first
is served, the other gives its place to the next candidate. When the first is not served (its kind's
limit or the budget keeps it out) the second takes its own place back: until session 28 a memory
whose message's episode ranked above it but past the episodes' limit was served as neither.

Each kind on its own ruler (``Backgrounds``, ``calibrated``): before they are pooled, each kind's
scores are standardised against that kind's own background for the question, the cosines of its best
vector hits: a score becomes its distance above the kind's mean in units of the kind's spread, rescaled
to the two spreads' mean so the leans, the window and the lexical part keep their size in cosine. The
two backgrounds are the **same share of each kind's collection** (``Backgrounds.depths``) when the search
tells how many of each the user has (``collection_size``: a hit list shorter than asked is the whole
kind; the episodes' lexical corpus counts them): a user with 47 memories and 317 passages has all 47
memories among the hits and the best 96 passages, and cut at the same count (47 of each, as before
session 25) the memories' background was their whole spread and the episodes' the top 15 % of theirs,
so the best of 47 memories, as far above its kind as the best of any 47 lines is, passed the third and
fourth passages; on LoCoMo a memory took a top-5 place from an evidence episode that way. Cut at the same
share (30 %: the best 14 memories, the 96 passages), a memory must stand out of its kind as far as a
passage out of its own. Without both sizes the two lists are cut at the same count. The same share is on
since session 26 (``SAME_SHARE``; off, the lists are cut at the same count). A memory
is a distilled line and an episode what was said: the same question's cosines of the two kinds sit on
different levels and spreads (the memories' a few hundredths lower), so the raw cosines let the
episodes crowd the memories out of the first places on a question whose best answer is a memory (what
a user is like or would do: LoCoMo open-domain). This is z-score fusion: no constant, the question's
own hits calibrate it; with fewer than ``MIN_BACKGROUND`` hits of either kind the raw scores are kept.

The pool keeps each kind's own order: a candidate never passes one of its kind ranked above it
(its pooled score is capped by theirs), so ``items`` stays the rerank's top ``n`` and ``episodes``
the episode ranking's top ``m``; a memory lifted before a stale episode is the one exception.

``take_pooled`` serves a budget ``total``: each kind is sure of ``total // FLOOR_SHARE`` places
(its best ones, when it has them), the rest go down the pooled order; a kind never serves more than
its own limit (``LONG_TERM_MEMORY_RETRIEVE_LIMIT`` stays the memories' limit, ``EPISODE_RETRIEVE_LIMIT``
the episodes'). The cosines of the two kinds
are not on one scale (a memory is a distilled line, an episode what was said: the relevant memories'
cosines run a few hundredths below the relevant passages'), so a pure pool would let one kind crowd
out the other, whose best entry is often the only one that answers.
"""

from __future__ import annotations

import statistics
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from core.episodes.search import RetrievedEpisode
from core.lexical import BM25, cached_terms
from core.memory.text import index_text
from core.retrieval.ranking import RetrievedMemory

LEAN = 0.02
"""Added to the cosine of the kind the question's time intent leans on (e5 cosines of relevant
passages differ by a few hundredths: this moves a near tie, not a clear winner)."""
WINDOW_LEAN = 0.02
"""Added to the cosine of an episode inside the question's time window."""
NEUTRAL_LEAN = 0.02
"""Added to the episodes' cosine on a question with no time intent (``neutral``) when ``NEUTRAL_LEAN_ON``."""
NEUTRAL_LEAN_ON = False
"""Off: measured, not shipped. Shifting the served entries' pooled scores of a LoCoMo dump by it promised
r@5 409 -> 416 of 582 on the development conversations (1-4); the retrieval itself, on the same store,
gave r@5 408 -> 408 and r@10 454 -> 454 (+3 / -3 questions at r@5: bench/RESULTS.md, session 28, lead)."""

FLOOR_SHARE = 5
"""Each kind is sure of ``total // FLOOR_SHARE`` of a budget ``total`` (2 of the default 12)."""
STALE_GAP = 1e-6
"""How far above a stale episode the memory that replaced it is placed."""

MIN_BACKGROUND = 10
"""Hits of each kind needed to standardise the kinds against their backgrounds: the spread of a handful
of cosines is noise (a user with a few memories keeps the raw cosines)."""

SAME_SHARE = True
"""Standardise each kind against the same share of its collection (``Backgrounds.depths``), not the same
count: a user's whole memory store is no longer set against the top third of the episodes. On session 26's
whole LoCoMo store (conversations 5-10, as served, two speakers read by rank) r@5 704 -> 709 of 953
(open-domain 31 -> 32 of 62), r@10 763 -> 760 (bench/RESULTS.md, session 26, lead)."""

MEMORY = "memory"
EPISODE = "episode"


@dataclass(frozen=True)
class Backgrounds:
    """The cosines of each kind's vector hits for the question (any order): what each kind's scores
    are standardised against before the pool (module docstring). ``memory_total`` / ``episode_total``:
    how many of that kind the user has, the collection the hits are the top of (``None``: not known)."""

    memories: Sequence[float]
    episodes: Sequence[float]
    memory_total: int | None = None
    episode_total: int | None = None

    def depths(self) -> tuple[int, int]:
        """How many of each kind's best hits its background holds: the same share of each kind's
        collection when both sizes are known (``SAME_SHARE``), else the same count."""
        m, e = len(self.memories), len(self.episodes)
        same = min(m, e)
        m_total, e_total = self.memory_total, self.episode_total
        if (not SAME_SHARE or not m or not e or m_total is None or e_total is None
                or m_total < m or e_total < e):
            return same, same
        share = min(m / m_total, e / e_total)
        return (min(m, max(MIN_BACKGROUND, round(share * m_total))),
                min(e, max(MIN_BACKGROUND, round(share * e_total))))

    def calibration(self) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """``((scale, shift) of the memories, (scale, shift) of the episodes)``: a score ``x`` of a kind
        becomes ``scale * x + shift``; ``None`` when either kind has too few hits or no spread."""
        m_depth, e_depth = self.depths()
        if min(m_depth, e_depth) < MIN_BACKGROUND:
            return None
        tops = [sorted(self.memories, reverse=True)[:m_depth], sorted(self.episodes, reverse=True)[:e_depth]]
        means = [statistics.fmean(t) for t in tops]
        spreads = [statistics.pstdev(t) for t in tops]
        if min(spreads) <= 0:
            return None
        unit = statistics.fmean(spreads)
        (m_mean, e_mean), (m_spread, e_spread) = means, spreads
        return ((unit / m_spread, -m_mean * unit / m_spread), (unit / e_spread, -e_mean * unit / e_spread))


def collection_size(hits: Collection[int], asked: int, counted: int | None = None) -> int | None:
    """How many of a kind the user has, as far as a search tells: the distinct ``hits`` when fewer came
    back than were ``asked`` (they are the whole collection), else ``counted`` (the collection counted
    another way: the episodes' lexical corpus) when it holds them all, else ``None`` (not known)."""
    if len(hits) < asked:
        return len(hits)
    return counted if counted is not None and counted >= len(hits) else None


@dataclass(frozen=True)
class Pooled:
    """One entry of the pooled order: ``kind`` and the id of the memory or episode."""

    kind: str
    id: int
    score: float

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "id": self.id, "score": self.score}


def _scores(cosines: Sequence[float], bonus: Sequence[float]) -> list[float]:
    """Pooled scores down one kind's ranked list: cosine + bonus, never above the one ranked before."""
    out: list[float] = []
    for cosine, extra in zip(cosines, bonus, strict=True):
        score = cosine + extra
        out.append(min(score, out[-1]) if out else score)
    return out


def memory_lexical(items: Sequence[RetrievedMemory], terms: Collection[str], weight: float,
                   corpus: BM25 | None = None) -> list[float]:
    """The lexical part of each memory in the pool: ``weight x`` the BM25 coverage of the query by its
    index text, measured on ``corpus`` (the BM25 of the user's episodes the episodes' own lexical part
    was measured on, ``core.episodes.hybrid.hybrid_with_corpus``: one ruler for both kinds), else
    over the memory candidates themselves (``BM25.coverage``)."""
    if weight <= 0 or not terms or not items:
        return [0.0] * len(items)
    docs = [cached_terms(index_text(i.memory.memory_type, i.memory.key, i.memory.content)) for i in items]
    shares = corpus.coverage_of(docs, terms) if corpus is not None else BM25(docs).coverage(terms)
    return [weight * c for c in shares]


def calibrated(scores: Sequence[float], scale_shift: tuple[float, float] | None) -> list[float]:
    """``scores`` on the pool's ruler (``Backgrounds.calibration``); unchanged without one."""
    if scale_shift is None:
        return list(scores)
    scale, shift = scale_shift
    return [scale * x + shift for x in scores]


def pooled_order(items: Sequence[RetrievedMemory], episodes: Sequence[RetrievedEpisode],
                 intent: str, terms: Collection[str] = (), lexical_weight: float = 0.0,
                 superseded: Mapping[int, int] | None = None, corpus: BM25 | None = None,
                 backgrounds: Backgrounds | None = None) -> list[Pooled]:
    """Both kinds, best first (see the module docstring)."""
    m_lean = LEAN if intent == "taste" else 0.0
    e_lean = LEAN if intent == "past" else NEUTRAL_LEAN if NEUTRAL_LEAN_ON and intent == "neutral" else 0.0
    rulers = backgrounds.calibration() if backgrounds is not None else None
    m_raw = [i.components.raw_retrieval + m_lean + x
             for i, x in zip(items, memory_lexical(items, terms, lexical_weight, corpus), strict=True)]
    e_raw = [e.relevance + e_lean + (WINDOW_LEAN if e.in_window else 0.0) for e in episodes]
    m_scores = _scores(calibrated(m_raw, rulers[0] if rulers else None), [0.0] * len(items))
    e_scores = _scores(calibrated(e_raw, rulers[1] if rulers else None), [0.0] * len(episodes))
    # a memory whose overwrite replaced what a candidate episode said comes right before that episode
    stale = superseded or {}
    lifted: dict[int, float] = {}
    for e, score in zip(episodes, e_scores, strict=True):
        memory_id = stale.get(e.episode.message_id)
        if memory_id is not None:
            lifted[memory_id] = max(lifted.get(memory_id, score), score)
    m_scores = [max(s, lifted[i.memory.id] + STALE_GAP) if i.memory.id in lifted else s
                for i, s in zip(items, m_scores, strict=True)]
    pool = ([(s, 0, n, Pooled(MEMORY, i.memory.id, round(s, 6))) for n, (s, i) in enumerate(zip(
        m_scores, items, strict=True))]
            + [(s, 1, n, Pooled(EPISODE, e.episode.id, round(s, 6))) for n, (s, e) in enumerate(zip(
                e_scores, episodes, strict=True))])
    pool.sort(key=lambda entry: (-entry[0], entry[1], entry[2]))
    return [entry[3] for entry in pool]


def _message_of(items: Sequence[RetrievedMemory], episodes: Sequence[RetrievedEpisode],
                stated: Mapping[int, int]) -> dict[tuple[str, int], int | None]:
    """The message each candidate says: a memory's from ``stated`` (memory id -> message id), an
    episode's own."""
    message_of: dict[tuple[str, int], int | None] = {(MEMORY, i.memory.id): stated.get(i.memory.id)
                                                      for i in items}
    message_of.update({(EPISODE, e.episode.id): e.episode.message_id for e in episodes})
    return message_of


def one_per_message(order: Sequence[Pooled],
                    message_of: Mapping[tuple[str, int], int | None]) -> list[Pooled]:
    """``order`` without the second of a memory and the episode of the message it states (``message_of``,
    ``_message_of``): the two say one thing, so only the one the pool ranks first takes a place."""
    seen: set[int] = set()
    out: list[Pooled] = []
    for p in order:
        message = message_of.get((p.kind, p.id))
        if message is not None:
            if message in seen:
                continue
            seen.add(message)
        out.append(p)
    return out


def _served(order: Sequence[Pooled], total: int, caps: Mapping[str, int]) -> set[tuple[str, int]]:
    """The entries of ``order`` served by a budget ``total``: each kind's best ``total // FLOOR_SHARE``,
    then down the order, each kind within its cap."""
    floor = max(0, total) // FLOOR_SHARE
    chosen: set[tuple[str, int]] = set()
    for kind in (MEMORY, EPISODE):
        chosen.update((p.kind, p.id) for p in [p for p in order if p.kind == kind][:min(floor, caps[kind])])
    served = {kind: sum(1 for k, _ in chosen if k == kind) for kind in caps}
    for p in order:
        if len(chosen) >= total:
            break
        if (p.kind, p.id) in chosen or served[p.kind] >= caps[p.kind]:
            continue
        chosen.add((p.kind, p.id))
        served[p.kind] += 1
    return chosen


def take_pooled(items: Sequence[RetrievedMemory], episodes: Sequence[RetrievedEpisode], total: int,
                intent: str, *, max_items: int | None = None, max_episodes: int | None = None,
                terms: Collection[str] = (), lexical_weight: float = 0.0,
                superseded: Mapping[int, int] | None = None, stated: Mapping[int, int] | None = None,
                corpus: BM25 | None = None, backgrounds: Backgrounds | None = None
                ) -> tuple[list[RetrievedMemory], list[RetrievedEpisode], list[Pooled]]:
    """``total`` entries of both kinds: each kind's best ``total // FLOOR_SHARE``, then the pooled order,
    at most ``max_items`` memories and ``max_episodes`` episodes (no cap: ``None``), one place per
    message (``one_per_message``, with ``stated``: memory id -> the message it states; a first of the
    two that is not served gives the place back to the second), each kind on its own ruler with
    ``backgrounds``; split back into the two kinds (each in its own order), and the served entries in
    pooled order."""
    full = pooled_order(items, episodes, intent, terms, lexical_weight, superseded, corpus, backgrounds)
    caps = {MEMORY: total if max_items is None else max_items,
            EPISODE: total if max_episodes is None else max_episodes}
    message_of = _message_of(items, episodes, stated) if stated else {}
    left_out: set[tuple[str, int]] = set()  # firsts of a message that were not served
    while True:
        order = one_per_message([p for p in full if (p.kind, p.id) not in left_out], message_of)
        chosen = _served(order, total, caps)
        kept = {(p.kind, p.id) for p in order}
        shadows = {message_of.get(k) for k in ((p.kind, p.id) for p in full)
                   if k not in kept and k not in left_out} - {None}
        unserved = {(p.kind, p.id) for p in order if (p.kind, p.id) not in chosen
                    and message_of.get((p.kind, p.id)) in shadows}
        if not unserved:
            break
        left_out |= unserved
    order = [p for p in order if (p.kind, p.id) in chosen]
    kept_m = {p.id for p in order if p.kind == MEMORY}
    kept_e = {p.id for p in order if p.kind == EPISODE}
    return ([i for i in items if i.memory.id in kept_m], [e for e in episodes if e.episode.id in kept_e],
            order)
