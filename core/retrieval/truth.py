"""The PostgreSQL truth of retrieval: the user's internal id, and the live rows behind each path's
candidates, ranked (``rerank``).

Every read is scoped by the user's internal id and runs in autocommit (no BEGIN or ROLLBACK round
trips; each statement sees committed data, as under READ COMMITTED). Ids a vector search returned
for rows that are dead, filtered or another user's are dropped here.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.orm import Session, sessionmaker

from core.config import Settings
from core.episodes.hybrid import hybrid_with_corpus
from core.episodes.reader import SCAN_FACTOR
from core.episodes.reader import for_user as episodes_for_user
from core.episodes.reader import load as load_episodes
from core.episodes.search import EpisodeView, RetrievedEpisode, rank_episodes
from core.lexical import BM25, cached_terms
from core.memory.reader import get_live_by_ids, list_live, stated_sources, superseded_sources
from core.memory.store import find_user
from core.memory.text import index_text
from core.memory.tools import MemoryView
from core.retrieval.plan import EpisodeAsk
from core.retrieval.ranking import Candidate, RerankWeights, RetrievedMemory, rerank

LEXICAL_SCAN_MAX = 5000  # live memories scanned by the lexical fallback (most important first)
USER_CACHE_SIZE = 10_000

class RememberedUsers:
    """Internal user ids by external id, a bounded LRU (a known user's dense retrieval then needs no
    lookup: the truth read re-checks the id against the external id itself). Thread-safe."""

    def __init__(self, size: int = USER_CACHE_SIZE) -> None:
        self._size = size
        self._lock = threading.Lock()
        self.pks: OrderedDict[str, int] = OrderedDict()

    def get(self, user_id: str) -> int | None:
        with self._lock:
            user_pk = self.pks.get(user_id)
            if user_pk is not None:
                self.pks.move_to_end(user_id)
            return user_pk

    def note(self, user_id: str, user_pk: int | None) -> None:
        """Remember ``user_pk`` (forget the user when ``None``: it does not exist)."""
        with self._lock:
            if user_pk is None:
                self.pks.pop(user_id, None)
            else:
                self.pks[user_id] = user_pk
                self.pks.move_to_end(user_id)
                while len(self.pks) > self._size:
                    self.pks.popitem(last=False)


@dataclass(frozen=True)
class MemorySources:
    """The messages behind some memories: ``superseded`` message id -> the memory whose last overwrite
    replaced what it said; ``stated`` memory id -> the message whose statement it now holds."""

    superseded: dict[int, int]
    stated: dict[int, int]


class TruthReads:
    """The retrieval's reads of PostgreSQL, each returning ranked memories (or episodes)."""

    def __init__(self, settings: Settings, sessions: sessionmaker[Session], weights: RerankWeights) -> None:
        self.settings = settings
        self.sessions = sessions
        self.weights = weights

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session for reads only, in autocommit: no BEGIN and no ROLLBACK round trips around its
        statements (each statement sees committed data, as under READ COMMITTED)."""
        with self.sessions() as session:
            session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
            yield session

    def user_pk(self, user_id: str, timings: dict[str, float]) -> int | None:
        """The user's internal id (``user_lookup_ms`` added to ``timings``)."""
        t0 = time.perf_counter()
        with self.reading() as session:
            user_pk = find_user(session, user_id)
        timings["user_lookup_ms"] = timings.get("user_lookup_ms", 0.0) + (time.perf_counter() - t0) * 1000
        return user_pk

    def full_inject(self, user_id: str, limit: int) -> list[RetrievedMemory]:
        """Every live memory of the user (at most ``limit``): importance, then most recently updated."""
        with self.reading() as session:
            user_pk = find_user(session, user_id)
            if user_pk is None:
                return []
            rows = list_live(session, user_pk, None, limit)
            views = [MemoryView.of(r) for r in rows]
        now = datetime.now(UTC)
        ranked = rerank([Candidate(v, 0.0) for v in views], set(), self.weights, now, limit, normalise="none")
        # full_inject keeps the documented order: importance, then most recently updated
        ranked.sort(key=lambda r: (-r.memory.importance, -r.memory.updated_at.timestamp(), r.memory.id))
        return ranked

    def dense(self, user_id: str, user_pk: int, hits: list[tuple[int, float]], terms: set[str], limit: int,
              timings: dict[str, float], kinds: frozenset[str] = frozenset()) -> list[RetrievedMemory]:
        """The live memories behind the vector search's ``hits``, reranked on their cosines."""
        if not hits:
            return []
        scores: dict[int, float] = {}
        for memory_id, score in hits:
            scores[memory_id] = max(score, scores.get(memory_id, -math.inf))
        t0 = time.perf_counter()
        with self.reading() as session:  # one statement: the truth, checked against the external id
            rows = get_live_by_ids(session, user_pk, list(scores), external_id=user_id)
            views = [MemoryView.of(r) for r in rows if r.user_id == user_pk]
        t1 = time.perf_counter()
        now = datetime.now(UTC)
        ranked = rerank([Candidate(v, scores[v.id]) for v in views], terms, self.weights, now, limit,
                        normalise="window", kinds=kinds)
        timings["truth_read_ms"] = (t1 - t0) * 1000
        timings["rerank_ms"] = (time.perf_counter() - t1) * 1000
        return ranked

    def episodes(self, user_pk: int, want: EpisodeAsk, timings: dict[str, float],
                 terms: Collection[str] = ()) -> list[RetrievedEpisode]:
        """The episodes of the search's hits, read from PostgreSQL, fused with BM25 over the user's
        episodes for the query's ``terms`` (``EPISODE_LEXICAL_WEIGHT``), ranked and budgeted."""
        return self.episodes_with_corpus(user_pk, want, timings, terms)[0]

    def episodes_with_corpus(self, user_pk: int, want: EpisodeAsk, timings: dict[str, float],
                             terms: Collection[str] = ()) -> tuple[list[RetrievedEpisode], BM25 | None]:
        """``episodes``, and the BM25 of the episodes the lexical part was measured on (``None``:
        none was), so the memories' lexical part can be measured on the same ruler."""
        if not want.hits or want.limit < 1:
            return [], None
        t0 = time.perf_counter()
        cosines: dict[int, float] = {}
        for episode_id, score in want.hits:
            cosines[episode_id] = max(score, cosines.get(episode_id, -math.inf))
        now = datetime.now(UTC)
        weight = self.settings.EPISODE_LEXICAL_WEIGHT
        scan = self.settings.EPISODE_LEXICAL_SCAN_MAX
        scanned: list[EpisodeView] = []
        with self.reading() as session:
            views = load_episodes(session, user_pk, list(cosines), now, want.since, want.until)
            if weight > 0 and scan > 0 and terms and views:
                scanned = episodes_for_user(session, user_pk, now, scan, want.since, want.until)
        # hybrid: BM25 over the user's episodes beside the dense hits (core.episodes.hybrid); as many
        # lexical-only episodes may join as the search asked of the index
        fused, corpus = hybrid_with_corpus([(v, cosines[v.id]) for v in views], scanned, terms, weight,
                                           want.limit * SCAN_FACTOR)
        ranked = rank_episodes([(v, c) for v, c, _ in fused], want.limit,
                               self.settings.EPISODE_PROMPT_TOKEN_BUDGET, want.window,
                               {v.id: part for v, _, part in fused if part})
        timings["episode_read_ms"] = (time.perf_counter() - t0) * 1000
        return ranked, corpus

    def superseded_messages(self, memory_ids: Collection[int]) -> dict[int, int]:
        """Message id -> the id of the served memory whose last overwrite replaced what that message
        said (``core.memory.reader.superseded_sources``): the knowledge updates among ``memory_ids``."""
        return self.memory_sources(memory_ids).superseded

    def memory_sources(self, memory_ids: Collection[int]) -> MemorySources:
        """What the messages behind ``memory_ids`` are to them: the ones a memory's overwrite replaced
        (``superseded``) and the one each memory now states (``stated``); one session, two reads."""
        if not memory_ids:
            return MemorySources({}, {})
        with self.reading() as session:
            return MemorySources(superseded_sources(session, memory_ids), stated_sources(session, memory_ids))

    def lexical(self, user_pk: int, query: str, terms: set[str], limit: int,
                kinds: frozenset[str] = frozenset()) -> list[RetrievedMemory]:
        """BM25 over the user's live memories (at most ``LEXICAL_SCAN_MAX``), reranked."""
        with self.reading() as session:
            rows = list_live(session, user_pk, None, LEXICAL_SCAN_MAX)
            views = [MemoryView.of(r) for r in rows]
        if not views:
            return []
        bm25 = BM25([cached_terms(index_text(v.memory_type, v.key, v.content)) for v in views])
        raws = bm25.scores(terms)  # the query's terms (repeats count once in BM25: the set is the same)
        now = datetime.now(UTC)
        return rerank([Candidate(v, s) for v, s in zip(views, raws, strict=True)], terms, self.weights, now,
                      limit, normalise="max", kinds=kinds)
