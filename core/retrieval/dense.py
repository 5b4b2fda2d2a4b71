"""The dense stage of retrieval: embed the query and search the user's vectors, in a bounded pool and
within a time budget, or say why not (``DenseFailure``, whose reason becomes ``fallback_reason``).

The search starts before the user's internal id is known (the embedding does not need it) and waits
for it on ``DenseStart.user_slot``, which the caller must always resolve. Nothing raised by Milvus or
the embedder leaves ``await_hits`` other than as ``DenseFailure``; a failure or a missed budget is
recorded in the ``DenseBreaker``.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass

from core.config import Settings
from core.embedding.base import Embedder
from core.embedding.long_lane import LANE_MAX_WAITING
from core.episodes.reader import EpisodeSearch
from core.redaction import one_line_error
from core.retrieval.fairness import DenseBreaker, UserSlots
from core.retrieval.plan import EpisodeAsk
from core.retrieval.query_vectors import QueryVectors
from core.retrieval.vector_search import VectorSearch
from core.vectorstore import VectorStoreError

log = logging.getLogger("core.retrieval")  # the retrieval's one logger name, as before the split

Hits = list[tuple[int, float]]  # (memory id, cosine), as the vector search returns them


class DenseFailure(Exception):
    """The dense stage could not answer; ``reason`` is what ``fallback_reason`` reports."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class DenseStart:
    """A dense search started beside the user lookup, or why none was (exactly one of ``search`` and
    ``reason`` is set)."""

    user_slot: Future[int | None]  # the user's internal id, ``None`` for an unknown user: set it always
    search: Future[Hits] | None
    reason: str | None
    started: float  # ``time.perf_counter()`` at the start: the time budget counts from here
    long: bool = False  # a long question, on the long-question lane: its failures pause its user only


class DensePath:
    """Embedder + ``VectorSearch`` (+ the episodes' search beside it) behind slots, a budget and a breaker.

    ``RETRIEVAL_DENSE_CONCURRENCY`` searches at once, at most ``RETRIEVAL_DENSE_PER_USER`` of one user;
    each answers within ``RETRIEVAL_DENSE_TIMEOUT_SEC``. A long question (the embedder's
    ``is_long_query``: it embeds on the long-question lane, ``core.embedding.long_lane``) takes none
    of those shared slots: it waits for its user's internal id, then for the lane (one running, at
    most ``LANE_MAX_WAITING`` waiting; beyond that it falls back at once), and its failures pause its
    user only. Thread-safe; ``close`` at shutdown.
    """

    def __init__(self, settings: Settings, embedder: Embedder | None, vector_search: VectorSearch | None,
                 episodes: EpisodeSearch | None) -> None:
        self.settings = settings
        self.embedder = embedder
        self.vector_search = vector_search
        self.episodes = episodes
        self.vectors = QueryVectors()
        self.user_slots = UserSlots(settings.RETRIEVAL_DENSE_PER_USER, settings.RETRIEVAL_DENSE_USER_WAIT_SEC)
        self.breaker = DenseBreaker(settings.RETRIEVAL_DENSE_COOLDOWN_SEC,
                                    settings.RETRIEVAL_DENSE_BREAKER_USERS)
        self._budget = settings.RETRIEVAL_DENSE_TIMEOUT_SEC
        self._slots = threading.BoundedSemaphore(settings.RETRIEVAL_DENSE_CONCURRENCY)
        # long questions: one thread each while it waits for the lane (its running one + its wait list)
        self._long_slots = threading.BoundedSemaphore(LANE_MAX_WAITING + 1)
        self._long_pool = ThreadPoolExecutor(max_workers=LANE_MAX_WAITING + 1,
                                             thread_name_prefix="retrieval-dense-long")
        self._pool = ThreadPoolExecutor(max_workers=settings.RETRIEVAL_DENSE_CONCURRENCY,
                                        thread_name_prefix="retrieval-dense")
        self._episode_pool = ThreadPoolExecutor(max_workers=settings.RETRIEVAL_DENSE_CONCURRENCY,
                                                thread_name_prefix="retrieval-episodes")

    def start(self, user_id: str, query: str, timings: dict[str, float], episodes: EpisodeAsk) -> DenseStart:
        """Start the search of ``query`` for ``user_id`` if the path is open to this user now."""
        reason = self.unavailable(user_id)
        user_slot: Future[int | None] = Future()
        search: Future[Hits] | None = None
        started = time.perf_counter()
        long = False
        if reason is None:
            # a long question is cut on the long-question lane (the tokenizer's CPU is the lane's); a
            # short one here, with an embedder that has no such lane (``fit_query``)
            long = self._is_long(query)
            query = query if long else self._fit_query(query)
            try:
                search = self._submit(user_id, user_slot, query, timings, episodes, long)
            except DenseFailure as failure:
                reason = failure.reason
        return DenseStart(user_slot, search, reason, started, long)

    def unavailable(self, user_id: str) -> str | None:
        """``None`` if the dense path may be tried now for this user, else why not."""
        if not self.settings.MEMORY_MILVUS_ENABLED or self.vector_search is None:
            return "vector search is disabled (MEMORY_MILVUS_ENABLED=false)"
        if self.embedder is None:
            return "no embedder is configured"
        return self.breaker.paused(user_id)

    def await_hits(self, user_id: str, start: DenseStart) -> Hits:
        """The hits of a started search within the time budget (counted from ``start.started``)."""
        assert start.search is not None
        remaining = max(0.0, self._budget - (time.perf_counter() - start.started))
        try:
            return start.search.result(timeout=remaining)
        except FutureTimeout:
            raise self._failed(user_id, f"dense path exceeded its time budget of {self._budget:g}s"
                               + (" (a long question, on the long-question lane)" if start.long else ""),
                               start.long) from None
        except Exception as exc:  # the fallback boundary: nothing from Milvus/the embedder may escape
            raise self._failed(user_id, f"{type(exc).__name__}: {one_line_error(exc)}", start.long) from exc

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._long_pool.shutdown(wait=False, cancel_futures=True)
        self._episode_pool.shutdown(wait=False, cancel_futures=True)

    def _fit_query(self, query: str) -> str:
        """The query cut to what the embedder reads (``fit_query`` when it has one)."""
        fit = getattr(self.embedder, "fit_query", None)
        return fit(query) if callable(fit) else query

    def _is_long(self, query: str) -> bool:
        """Whether the embedder puts ``query`` on its long-question lane (``is_long_query``)."""
        is_long = getattr(self.embedder, "is_long_query", None)
        return bool(is_long(query)) if callable(is_long) else False

    def _submit(self, user_id: str, user_slot: Future[int | None], query: str, timings: dict[str, float],
                episodes: EpisodeAsk, long: bool) -> Future[Hits]:
        """Start embed + vector search in the dense pool (the episodes' search beside it when asked), a
        long question in the long-question pool; or ``DenseFailure`` if the user already holds its
        share of the slots, the pool is full or closed.

        The search writes its stage times (``embed_ms``, ``milvus_ms``) into ``timings`` before its
        future resolves. Both the pool's slot and the user's are held until the search ends (also when
        its caller stopped waiting).
        """
        if not self.user_slots.take(user_id):
            raise DenseFailure(f"this user already has {self.user_slots.per_user} dense search(es) in flight "
                               f"(RETRIEVAL_DENSE_PER_USER); other users keep the dense path")
        slots, pool = (self._long_slots, self._long_pool) if long else (self._slots, self._pool)
        if not slots.acquire(blocking=False):
            self.user_slots.release(user_id)
            raise DenseFailure(f"the long-question lane is full ({LANE_MAX_WAITING} long questions waiting); "
                               f"short questions keep the dense path" if long
                               else "dense path saturated (too many concurrent vector searches)")
        try:
            future = pool.submit(self._search, user_slot, query, timings, episodes, long)
        except RuntimeError as exc:  # pool shut down
            slots.release()
            self.user_slots.release(user_id)
            raise DenseFailure(f"dense path closed: {exc}") from exc

        def _done(_f: Future[Hits]) -> None:
            slots.release()
            self.user_slots.release(user_id)

        future.add_done_callback(_done)
        return future

    def _search(self, user_slot: Future[int | None], query: str, timings: dict[str, float],
                episodes: EpisodeAsk, long: bool) -> Hits:
        assert self.embedder is not None and self.vector_search is not None
        if long and user_slot.result() is None:  # no lane time for a user who does not exist
            return []
        t0 = time.perf_counter()
        vector = self.vectors.vector(self.embedder, query)
        timings["embed_ms"] = (time.perf_counter() - t0) * 1000
        user_pk = user_slot.result()
        if user_pk is None:
            return []
        t0 = time.perf_counter()
        beside: Future[Hits] | None = None
        if episodes.limit > 0 and self.episodes is not None:
            # the episodes' search runs beside the memories' one (its own collection)
            beside = self._episode_pool.submit(self.episodes.search, user_pk, vector, episodes.limit)
        hits = self.vector_search.search(user_pk, vector, self.settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT)
        timings["milvus_ms"] = (time.perf_counter() - t0) * 1000
        if beside is not None:
            try:  # the episodes' collection failing must not cost the memories their dense answer
                episodes.hits.extend(beside.result())
            except VectorStoreError as exc:
                log.warning("episode search failed, serving memories only: %s", one_line_error(exc))
            timings["episode_milvus_ms"] = (time.perf_counter() - t0) * 1000
        return hits

    def _failed(self, user_id: str, reason: str, long: bool) -> DenseFailure:
        """Record a dense failure of ``user_id`` (``DenseBreaker.failed``; a long question's pauses
        its user only); the failure to raise."""
        self.breaker.failed(user_id, reason, everyone=not long)
        return DenseFailure(reason)
