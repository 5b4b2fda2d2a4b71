"""The retrieval service: ``Retriever.retrieve`` as a sequence of named stages, and its factory.

A dense retrieval runs: plan (``plan.py``) -> start the dense search (``dense.py``) beside the
user's internal id -> the dense answer: truth from PostgreSQL and rerank (``truth.py``) -> or else
the lexical candidates -> render (``prompt.py``). Each stage returns a typed value; the first that
can serve returns the result.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from datetime import datetime

import numpy as np
import numpy.typing as npt
from sqlalchemy.orm import Session, sessionmaker

from core import metrics
from core.config import RetrieveMode, Settings
from core.embedding.base import Embedder
from core.episodes.reader import EpisodeSearch, scan_size
from core.episodes.search import RetrievedEpisode
from core.lexical import BM25, tokenize
from core.memory.store import find_user
from core.query_kinds import query_kinds
from core.retrieval.dense import DenseFailure, DensePath, DenseStart
from core.retrieval.merge import Backgrounds, Pooled, collection_size, pooled_order, take_pooled
from core.retrieval.plan import RetrievalPlan, build_query, plan_retrieval
from core.retrieval.prompt import full_prompt_block, prompt_block
from core.retrieval.ranking import RerankWeights, RetrievedMemory
from core.retrieval.result import RetrievalResult, ServedBy
from core.retrieval.touch import Toucher
from core.retrieval.truth import RememberedUsers, TruthReads
from core.retrieval.vector_search import ActiveCollectionSearch, VectorSearch
from core.vectorstore import MilvusMemoryIndex


@dataclass(frozen=True)
class _User:
    """The user's internal id (``None``: unknown user) and whether it came from the remembered ids."""

    pk: int | None
    remembered: bool


@dataclass(frozen=True)
class _DenseServed:
    """The dense path served: memories and/or episodes."""

    items: list[RetrievedMemory]
    episodes: list[RetrievedEpisode]
    order: list[Pooled]


@dataclass(frozen=True)
class _DenseMissed:
    """The dense path did not serve; ``reason`` is the fallback's. ``answered``: the search itself
    answered (empty or only dead rows), so an empty lexical scan confirms the answer."""

    reason: str
    answered: bool


class Retriever:
    """Retrieval service over the PostgreSQL truth, an embedder and a ``VectorSearch`` port.

    ``vector_search=None`` means vector search is off (``MEMORY_MILVUS_ENABLED=false``): the
    ``dense`` mode is served by the lexical fallback. Thread-safe; call ``close`` at shutdown.
    """

    def __init__(self, settings: Settings, sessions: sessionmaker[Session], embedder: Embedder | None,
                 vector_search: VectorSearch | None, weights: RerankWeights | None = None,
                 episodes: EpisodeSearch | None = None) -> None:
        self.settings = settings
        self.episodes = episodes  # None: no episodes (EPISODES_ENABLED=false or vector search off)
        self.sessions = sessions
        self.embedder = embedder
        self.vector_search = vector_search
        self.weights = weights or RerankWeights()
        self._dense = DensePath(settings, embedder, vector_search, episodes)
        self._truth = TruthReads(settings, sessions, self.weights)
        self._users = RememberedUsers()
        self._toucher = Toucher(sessions)

    @property
    def _embedding(self) -> dict[str, Future[npt.NDArray[np.float32]]]:
        """Query embeddings in flight, by cache key (``QueryVectors.in_flight``)."""
        return self._dense.vectors.in_flight

    @property
    def _user_pks(self) -> OrderedDict[str, int]:
        """The remembered internal ids by external id (``RememberedUsers.pks``)."""
        return self._users.pks

    # --- public ---------------------------------------------------------------------------------
    def retrieve(self, user_id: str, question: str, conversation_summary: str | None = None,
                 mode: RetrieveMode | None = None, limit: int | None = None, *,
                 episode_limit: int | None = None, since: datetime | None = None,
                 until: datetime | None = None, asked_at: datetime | None = None,
                 user_names: Sequence[str] = ()) -> RetrievalResult:
        """Memories of ``user_id`` for this question, ranked, with the path that served them.

        ``limit`` defaults to ``LONG_TERM_MEMORY_RETRIEVE_LIMIT`` (dense/lexical) or
        ``LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT`` (full_inject). Unknown users get an empty result.

        Episodes (``core.episodes``, dense only; ``full_inject`` and the lexical fallback serve memories
        only): up to ``episode_limit`` (default ``EPISODE_RETRIEVE_LIMIT``) within
        ``EPISODE_PROMPT_TOKEN_BUDGET``, sent in ``[since, until)`` when given; a relative date of the
        question is resolved from ``asked_at`` (default now) and favours episodes of that window. When
        the caller gives neither limit, both kinds are served by their pooled order
        (``core.retrieval.merge``: a question about the past leans on episodes, one about tastes and
        rules on memories), each within its own limit. ``order`` gives the served entries of both kinds
        in that order. ``user_names``: the names the user goes by, taken out of the question the
        search reads (``core.retrieval.plan.without_names``: "what might Alice's career be?" asked for
        Alice); the question's time intent reads those names as the user ("when did Alice…" is "when
        did I…", ``core.retrieval.plan.in_first_person``), its dates are read as asked.
        """
        started = time.perf_counter()
        mode = RetrieveMode(mode) if mode is not None else self.settings.LONG_TERM_MEMORY_RETRIEVE_MODE
        if limit is not None and limit < 1:
            raise ValueError("limit must be >= 1")
        timings: dict[str, float] = {}
        if not self.settings.LONG_TERM_MEMORY_ENABLED:
            return self._result(user_id, mode, ServedBy.DISABLED, [], started, timings,
                                "LONG_TERM_MEMORY_ENABLED is false")
        if mode is RetrieveMode.FULL_INJECT:
            scan_limit = limit or self.settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT
            items = self._truth.full_inject(user_id, scan_limit)
            self._touch(items)
            return self._result(user_id, mode, ServedBy.FULL_INJECT, items, started, timings)

        plan = plan_retrieval(self.settings, self.episodes is not None, question, conversation_summary,
                              limit, episode_limit, since, until, asked_at, user_names)
        # the query embedding starts before the user lookup (it does not need the user) and runs
        # beside it; the vector search waits for the user's internal id
        dense = self._dense.start(user_id, plan.query, timings, plan.episodes)
        user = self._resolve_user(user_id, dense.user_slot, timings)
        if user.pk is None:
            served = ServedBy.DENSE if dense.reason is None else ServedBy.LEXICAL_FALLBACK
            return self._result(user_id, mode, served, [], started, timings, dense.reason)

        answer = self._dense_answer(user_id, user.pk, plan, dense, timings)
        if isinstance(answer, _DenseServed):
            self._touch(answer.items)
            return self._result(user_id, mode, ServedBy.DENSE, answer.items, started, timings,
                                episodes=answer.episodes, intent=plan.intent, order=answer.order)
        user_pk: int | None = user.pk
        missed = answer
        if user.remembered:  # an empty or failed answer: make sure the remembered id still holds
            user_pk, missed = self._recheck_user(user_id, user.pk, missed, timings)
        if user_pk is None:  # the remembered user no longer exists
            served = ServedBy.DENSE if missed.answered else ServedBy.LEXICAL_FALLBACK
            return self._result(user_id, mode, served, [], started, timings, missed.reason)
        return self._serve_lexical(user_id, mode, user_pk, plan, missed, started, timings)

    def retrieve_lexical(self, user_id: str, question: str, conversation_summary: str | None = None,
                         limit: int | None = None) -> RetrievalResult:
        """The lexical path alone (BM25 + the same rerank) for this question, as the fallback would serve
        it; for comparing modes (operator console). Does not update ``last_accessed_at``."""
        started = time.perf_counter()
        if limit is not None and limit < 1:
            raise ValueError("limit must be >= 1")
        query = build_query(question, conversation_summary)
        with self.sessions() as session:
            user_pk = find_user(session, user_id)
        items = ([] if user_pk is None else
                 self._truth.lexical(user_pk, query, set(tokenize(query)),
                                     limit or self.settings.LONG_TERM_MEMORY_RETRIEVE_LIMIT,
                                     query_kinds(question)))
        # not through ``_result``: a comparison is no fallback and must not count in the retrieval metrics
        took = round((time.perf_counter() - started) * 1000, 3)
        return RetrievalResult(user_id, RetrieveMode.DENSE, ServedBy.LEXICAL_FALLBACK, items,
                               prompt_block(items), "lexical path requested", took)

    def flush_touches(self, timeout: float = 10.0) -> bool:
        """Wait until queued ``last_accessed_at`` updates are written; False on timeout."""
        return self._toucher.flush(timeout)

    def close(self) -> None:
        self._toucher.close()
        self._dense.close()
        closer = getattr(self.vector_search, "close", None)
        if callable(closer):
            closer()

    # --- the stages of a dense retrieval ----------------------------------------------------------
    def _resolve_user(self, user_id: str, user_slot: Future[int | None], timings: dict[str, float]) -> _User:
        """The user's internal id, remembered or looked up; handed to the dense search waiting on
        ``user_slot`` (also when the lookup fails, so the search ends and frees its slot)."""
        remembered = self._users.get(user_id)
        if remembered is not None:
            user_slot.set_result(remembered)
            return _User(remembered, remembered=True)
        try:
            user_pk = self._lookup_user(user_id, timings)
        except BaseException as exc:
            user_slot.set_exception(exc)
            raise
        user_slot.set_result(user_pk)
        return _User(user_pk, remembered=False)

    def _dense_answer(self, user_id: str, user_pk: int, plan: RetrievalPlan, dense: DenseStart,
                      timings: dict[str, float]) -> _DenseServed | _DenseMissed:
        """The search's hits within the budget, their truth from PostgreSQL, reranked; or why not."""
        if dense.search is None:
            assert dense.reason is not None  # no search started: it says why
            return _DenseMissed(dense.reason, answered=False)
        try:
            hits = self._dense.await_hits(user_id, dense)
        except DenseFailure as failure:
            return _DenseMissed(failure.reason, answered=False)
        timings["dense_ms"] = (time.perf_counter() - dense.started) * 1000
        items = self._truth.dense(user_id, user_pk, hits, plan.terms, plan.limit, timings, plan.kinds)
        episodes, corpus = self._truth.episodes_with_corpus(user_pk, plan.episodes, timings, plan.terms)
        lexical = self.settings.EPISODE_LEXICAL_WEIGHT if episodes else 0.0
        sources = self._truth.memory_sources([i.memory.id for i in items] if episodes else [])
        # each kind standardised against its own vector hits for this question (merge.Backgrounds)
        backgrounds = Backgrounds([c for _, c in hits], [c for _, c in plan.episodes.hits],
                                  *self._collection_sizes(hits, plan, corpus))
        if plan.pool is not None:
            items, episodes, order = take_pooled(items, episodes, plan.pool, plan.intent,
                                                 max_items=plan.pool_caps[0], max_episodes=plan.pool_caps[1],
                                                 terms=plan.terms, lexical_weight=lexical,
                                                 superseded=sources.superseded, stated=sources.stated,
                                                 corpus=corpus, backgrounds=backgrounds)
        else:
            order = pooled_order(items, episodes, plan.intent, plan.terms, lexical, sources.superseded,
                                 corpus, backgrounds)
        if items or episodes:
            return _DenseServed(items, episodes, order)
        return _DenseMissed("the vector index returned no live memory of this user" if hits
                            else "the vector index has no entries for this user yet", answered=True)

    def _collection_sizes(self, hits: Sequence[tuple[int, float]], plan: RetrievalPlan,
                          corpus: BM25 | None) -> tuple[int | None, int | None]:
        """How many memories and episodes the user has, when the search tells (``merge.collection_size``):
        the episodes' lexical corpus counts them all when it was read without a time filter and under
        its scan cap."""
        whole = (corpus.size if corpus is not None and plan.episodes.since is None
                 and plan.episodes.until is None and corpus.size < self.settings.EPISODE_LEXICAL_SCAN_MAX
                 else None)
        return (collection_size({i for i, _ in hits}, self.settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT),
                collection_size({i for i, _ in plan.episodes.hits}, scan_size(plan.episodes.limit), whole))

    def _recheck_user(self, user_id: str, remembered: int, missed: _DenseMissed,
                      timings: dict[str, float]) -> tuple[int | None, _DenseMissed]:
        """The user's internal id looked up again; when it is no longer ``remembered`` (the user was
        erased and came back) the search used the old id, so its answer counts for nothing."""
        user_pk = self._lookup_user(user_id, timings)
        if user_pk is not None and user_pk != remembered:
            changed = "the user's internal id changed since the last retrieval"
            missed = replace(missed, answered=False, reason=missed.reason or changed)
        return user_pk, missed

    def _serve_lexical(self, user_id: str, mode: RetrieveMode, user_pk: int, plan: RetrievalPlan,
                       missed: _DenseMissed, started: float, timings: dict[str, float]) -> RetrievalResult:
        """The lexical candidates (BM25 over the live memories), reranked: the fallback's result."""
        t0 = time.perf_counter()
        items = self._truth.lexical(user_pk, plan.query, plan.terms, plan.limit, plan.kinds)
        timings["lexical_ms"] = (time.perf_counter() - t0) * 1000
        if missed.answered and not items:  # the user has no live memories: dense answered correctly
            return self._result(user_id, mode, ServedBy.DENSE, [], started, timings)
        self._touch(items)
        return self._result(user_id, mode, ServedBy.LEXICAL_FALLBACK, items, started, timings, missed.reason)

    # --- shared ---------------------------------------------------------------------------------
    def _lookup_user(self, user_id: str, timings: dict[str, float]) -> int | None:
        """The user's internal id from PostgreSQL (remembered when found, forgotten when not)."""
        user_pk = self._truth.user_pk(user_id, timings)
        self._users.note(user_id, user_pk)
        return user_pk

    def _touch(self, items: Sequence[RetrievedMemory]) -> None:
        """Queue the ``last_accessed_at`` update of the returned memories (off the request path)."""
        if items:
            self._toucher.submit([i.memory.id for i in items])

    def _result(self, user_id: str, mode: RetrieveMode, served: ServedBy, items: list[RetrievedMemory],
                started: float, timings: dict[str, float], reason: str | None = None, *,
                episodes: list[RetrievedEpisode] | None = None, intent: str | None = None,
                order: list[Pooled] | None = None) -> RetrievalResult:
        """The result, rendered (``full_prompt_block``) and counted in ``RETRIEVAL_DURATION``; the
        reason is kept only for the lexical fallback and the disabled switch."""
        took = (time.perf_counter() - started) * 1000
        metrics.RETRIEVAL_DURATION.labels(mode.value, served.value).observe(took / 1000)
        episodes = episodes or []
        return RetrievalResult(user_id, mode, served, items, full_prompt_block(items, episodes),
                               reason if served in (ServedBy.LEXICAL_FALLBACK, ServedBy.DISABLED) else None,
                               round(took, 3), timings, episodes, intent, order or [])


def build_retriever(settings: Settings, sessions: sessionmaker[Session] | None = None,
                    embedder: Embedder | None = None) -> Retriever:
    """The retriever the settings describe. Does no network I/O (clients connect on first use)."""
    from core.embedding.factory import build_embedder
    from core.storage.db import engine_for, session_factory

    if sessions is None:
        sessions = session_factory(engine_for(settings.database_url, settings.DATABASE_POOL_SIZE))
    if embedder is None:
        embedder = build_embedder(settings)
    search: VectorSearch | None = None
    episodes: EpisodeSearch | None = None
    if settings.MEMORY_MILVUS_ENABLED:
        index = MilvusMemoryIndex.from_settings(settings)
        search = ActiveCollectionSearch(index, sessions, embedder.model, embedder.dim)
        if settings.EPISODES_ENABLED:
            episodes = EpisodeSearch(index.for_collection(settings.episode_collection, embedder.dim))
    return Retriever(settings, sessions, embedder, search, episodes=episodes)
