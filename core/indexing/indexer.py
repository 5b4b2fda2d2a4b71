"""The indexer of memories: ``MemoryIndexer.sync`` as stages (read, plan, embed, write Milvus, mark),
the active collection it writes to, and its factory ``build_indexer`` (see ``core.indexing``)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from core import metrics, tracing
from core.config import EmbeddingProvider, Settings
from core.embedding.base import Embedder, EmbeddingError, Vectors
from core.embedding.factory import build_embedder
from core.indexing.marks import mark_failed, mark_removed, mark_synced
from core.indexing.plan import (
    ROW_COLUMNS,
    ActiveTarget,
    IndexedRow,
    SyncPlan,
    ToEmbed,
    plan_sync,
    split_carried,
)
from core.indexing.report import IndexSyncFailed, SyncReport, error_text, first_line
from core.storage.db import engine_for, session_factory, transaction
from core.storage.models import LongTermMemory
from core.vectorstore import (
    IndexModelMismatch,
    IndexRow,
    MilvusMemoryIndex,
    VectorStoreError,
    active_collection,
    check_collection_matches,
    ensure_active_collection,
)

log = logging.getLogger("core.indexing")  # the indexer's one logger name, as before the split

MAX_PASSES = 3
"""Passes over rows that changed while being indexed before leaving them to their newer event."""


@dataclass
class _Failures:
    """The first failure of a pass (stage, cause) and every row it leaves ``FAILED``, in order."""

    first: tuple[str, BaseException] | None = None
    rows: list[IndexedRow] = field(default_factory=list)

    def add(self, stage: str, cause: BaseException, rows: Iterable[IndexedRow]) -> None:
        self.first = self.first or (stage, cause)
        self.rows.extend(rows)


@dataclass(frozen=True)
class _Embedded:
    """The embed stage's answer: the rows with a vector (carried or new) and their vectors, in order."""

    rows: list[ToEmbed]
    vectors: Vectors | None  # None when no row has a vector


@dataclass(frozen=True)
class _Written:
    """The Milvus stage's answer: rows removed from the index, rows written with their text hash."""

    removed: list[IndexedRow]
    written: list[tuple[IndexedRow, str]]


class MemoryIndexer:
    """Synchronises memory ids from the PostgreSQL truth into the active Milvus collection.

    Not thread-safe (one instance per consumer). No network in the constructor: ``start`` (or the
    first ``sync``) checks the collection registry and creates the collection when needed.
    """

    def __init__(self, sessions: sessionmaker[Session], embedder: Embedder, index: MilvusMemoryIndex, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 seal_interval_sec: float = 0.0,
                 monotonic: Callable[[], float] = time.monotonic,
                 embed_batch_size: int | None = None, max_in_flight_batches: int = 1) -> None:
        if (embed_batch_size is not None and embed_batch_size < 1) or max_in_flight_batches < 1:
            raise ValueError("embed_batch_size and max_in_flight_batches must be >= 1")
        self.embed_batch_size = embed_batch_size
        self.max_in_flight_batches = max_in_flight_batches
        self._pool: ThreadPoolExecutor | None = None
        self.sessions = sessions
        self.embedder = embedder
        self.index = index
        self.clock = clock
        self.seal_interval_sec = seal_interval_sec
        self._monotonic = monotonic
        self._target: ActiveTarget | None = None
        self._unsealed = 0  # entities written or deleted since the last successful flush
        self._seal_not_before = 0.0

    # --- start-up -----------------------------------------------------------------------------
    def start(self) -> ActiveTarget:
        """Make sure the active collection exists and holds this embedder's model and dimension.

        Registers ``index.collection`` (version 1) when no collection is registered. Raises
        ``IndexModelMismatch`` when the active collection was built for another model or dimension,
        ``VectorStoreError``/``DBAPIError`` when Milvus or PostgreSQL fail.
        """
        if self.index.dim != self.embedder.dim:
            raise IndexModelMismatch(
                f"Milvus index is configured for dimension {self.index.dim}, the embedder "
                f"{self.embedder.model!r} produces {self.embedder.dim}")
        for attempt in range(2):
            try:
                with transaction(self.sessions) as session:
                    view = ensure_active_collection(session, self.index, self.embedder.model,
                                                    self.embedder.dim)
                    row = active_collection(session)
                    assert row is not None  # ensure_active_collection registered one
                    self._target = ActiveTarget(row.name, row.version, view)
                break
            except IntegrityError:  # another member registered the first collection at the same time
                if attempt:
                    raise
        assert self._target is not None
        log.info("indexing into Milvus collection %r (version %d, model %s, dim %d)", self._target.name,
                 self._target.version, self.embedder.model, self.embedder.dim)
        return self._target

    @property
    def target(self) -> ActiveTarget | None:
        return self._target

    def close(self) -> None:
        close = getattr(self.embedder, "close", None)
        if callable(close):
            close()  # stops embedding retries still waiting
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self.index.close()

    @property
    def sync_batch_size(self) -> int | None:
        """Memories worth handing to one ``sync``: ``embed_batch_size x max_in_flight_batches``."""
        if self.embed_batch_size is None:
            return None
        return self.embed_batch_size * self.max_in_flight_batches

    @property
    def unsealed(self) -> int:
        """Entities written or deleted in Milvus since the last successful ``seal_if_due``."""
        return self._unsealed

    def seal_if_due(self) -> bool:
        """Flush the active collection if it has unsealed writes and ``seal_interval_sec`` passed
        since the last flush (0 disables). Best effort: a failed flush is logged and retried after
        ten intervals; the rows stay searchable meanwhile. True when a flush ran and succeeded."""
        if self.seal_interval_sec <= 0 or not self._unsealed or self._target is None:
            return False
        now = self._monotonic()
        if now < self._seal_not_before:
            return False
        try:
            self._target.view.flush()
        except VectorStoreError as exc:
            self._seal_not_before = now + 10 * self.seal_interval_sec
            log.warning("Milvus flush of %r failed (retry in %.0fs): %s", self._target.name,
                        10 * self.seal_interval_sec, exc)
            return False
        self._unsealed = 0
        self._seal_not_before = self._monotonic() + self.seal_interval_sec
        return True

    # --- the job ------------------------------------------------------------------------------
    def sync(self, memory_ids: Iterable[int]) -> SyncReport:
        """Make the index and the ``vector_*`` columns of ``memory_ids`` reflect the current truth.

        Idempotent; safe under duplicate and out-of-order calls. Raises ``IndexSyncFailed`` (retry)
        or ``IndexModelMismatch`` (stop).
        """
        ids = sorted({int(i) for i in memory_ids if int(i) >= 1})
        report = SyncReport(requested=len(ids))
        pending = ids
        force = False
        while pending and report.passes < MAX_PASSES:
            report.passes += 1
            pending = self._sync_pass(pending, report, force)
            force = True
        if pending:
            log.info("memories %s kept changing while being indexed; left for their newer events", pending)
            report.superseded.extend(pending)
        return report

    def _sync_pass(self, ids: list[int], report: SyncReport, force: bool) -> list[int]:
        """One pass: read -> plan -> embed -> write Milvus -> mark; returns the ids that changed since
        they were read. A failed stage leaves its rows ``FAILED`` and raises after the marking."""
        target, rows = self._read(ids, report)
        plan = plan_sync(ids, rows, self.embedder.model, target.version, self.clock(), force)
        report.skipped.extend(plan.skip)
        failures = _Failures()
        embedded = self._embed_stage(plan.embed, report, failures)
        written = self._write_stage(target, plan, embedded, report, failures)
        synced, cleared = self._mark_stage(ids, target, plan, written, report, failures)
        if failures.first is not None:
            stage, cause = failures.first
            raise IndexSyncFailed(stage, ids, [row.id for row in failures.rows], str(cause)) from cause

        report.erased.extend(plan.erase)
        changed: list[int] = []
        for row, _ in written.written:
            (report.upserted if row.id in synced else changed).append(row.id)
        for row, _ in plan.refresh:
            (report.refreshed if row.id in synced else changed).append(row.id)
        for row in written.removed:
            (report.deleted if row.id in cleared else changed).append(row.id)
        return sorted(changed)

    def _read(self, ids: list[int], report: SyncReport) -> tuple[ActiveTarget, list[IndexedRow]]:
        """The active collection and the current rows of ``ids`` (erased ids have none)."""
        started = time.perf_counter()
        try:
            target = self._current_target()
            with self.sessions() as session:
                result = session.execute(select(*ROW_COLUMNS).where(LongTermMemory.id.in_(ids)))
                rows = [IndexedRow(**dict(r._mapping)) for r in result]
        except DBAPIError as exc:
            raise IndexSyncFailed("database", ids, [], first_line(exc)) from exc
        except IndexModelMismatch:
            raise
        except VectorStoreError as exc:  # the collection check at (re)start could not reach Milvus
            self._target = None
            raise IndexSyncFailed("milvus", ids, [], str(exc)) from exc
        report.db_sec += time.perf_counter() - started
        return target, rows

    def _embed_stage(self, to_embed: list[ToEmbed], report: SyncReport, failures: _Failures) -> _Embedded:
        """Vectors for ``to_embed``: carried by the row, else from the embedder in batches; the rows of
        a failed batch go to ``failures`` (marked ``FAILED`` later, never written)."""
        if not to_embed:
            return _Embedded([], None)
        started = time.perf_counter()
        embedded: list[ToEmbed] = []
        parts: list[Vectors] = []
        carried, rest = split_carried(to_embed, self.embedder.model, self.embedder.dim)
        if carried:
            embedded.extend(row for row, _ in carried)
            parts.append(np.stack([vec for _, vec in carried]))
            report.reused_vectors += len(carried)
            metrics.EMBEDDING_VECTORS_REUSED.labels("indexer").inc(len(carried))
        chunks = self._chunks(rest)
        with tracing.stage("embed", {"pai.texts": len(rest), "pai.embed_calls": len(chunks),
                                     "pai.vectors_reused": len(carried)}):
            results = self._embed_chunks(chunks)
        for chunk, got in zip(chunks, results, strict=True):
            if isinstance(got, EmbeddingError):
                failures.add("embed", got, (row for row, _, _ in chunk))
            else:
                embedded.extend(chunk)
                parts.append(got)
        report.embed_calls += len(chunks)
        report.embedded_texts += len(embedded) - len(carried)
        report.embed_sec += time.perf_counter() - started
        return _Embedded(embedded, np.concatenate(parts, axis=0) if embedded else None)

    def _write_stage(self, target: ActiveTarget, plan: SyncPlan, embedded: _Embedded, report: SyncReport,
                     failures: _Failures) -> _Written:
        """Delete the erased and dead rows from Milvus, upsert the embedded ones; on a Milvus failure the
        rows not done go to ``failures`` and the collection is re-checked before the next try."""
        started = time.perf_counter()
        removed: list[IndexedRow] = []
        written: list[tuple[IndexedRow, str]] = []
        vectors = embedded.vectors
        span = tracing.start_stage("milvus", {"pai.upserts": len(embedded.rows) if vectors is not None else 0,
                                              "pai.deletes": len(plan.erase) + len(plan.delete)})
        try:
            gone = plan.erase + [row.id for row in plan.delete]
            if gone:
                target.view.delete(gone)
                self._unsealed += len(gone)
            removed = plan.delete
            if vectors is not None:
                target.view.upsert([
                    IndexRow(id=row.id, user_id=row.user_id, memory_type=row.memory_type or "fact",
                             vector=vectors[i]) for i, (row, _, _) in enumerate(embedded.rows)])
                written = [(row, digest) for row, _, digest in embedded.rows]
                self._unsealed += len(written)
        except IndexModelMismatch:
            raise
        except (VectorStoreError, ValueError) as exc:
            tracing.failed(span, exc)
            failures.add("milvus", exc, [*(row for row in plan.delete if not removed),
                                         *(row for row, _, _ in embedded.rows if vectors is not None)])
            self._target = None  # re-check the collection (it may have been dropped) before the next try
        finally:
            span.end()
        report.milvus_sec += time.perf_counter() - started
        return _Written(removed, written)

    def _mark_stage(self, ids: list[int], target: ActiveTarget, plan: SyncPlan, written: _Written,
                    report: SyncReport, failures: _Failures) -> tuple[set[int], set[int]]:
        """Mark the pass in one transaction (optimistic, ``core.indexing.marks``); the ids marked
        synced (written or refreshed) and cleared (removed)."""
        started = time.perf_counter()
        span = tracing.start_stage("mark synced", {"pai.synced": len(written.written) + len(plan.refresh)})
        try:
            with transaction(self.sessions) as session:
                now = self.clock()
                synced = mark_synced(session, written.written + plan.refresh, self.embedder.model,
                                     target.version, now)
                cleared = mark_removed(session, written.removed, now)
                if failures.first is not None:
                    mark_failed(session, failures.rows, error_text(*failures.first))
        except DBAPIError as exc:
            raise IndexSyncFailed("database", ids, [], first_line(exc)) from exc
        finally:
            span.end()
            report.db_sec += time.perf_counter() - started
        return synced, cleared

    def _chunks(self, items: list[ToEmbed]) -> list[list[ToEmbed]]:
        if not items:
            return []
        size = self.embed_batch_size or len(items)
        return [items[i:i + size] for i in range(0, len(items), size)]

    def _embed_chunks(self, chunks: list[list[ToEmbed]]) -> list[Vectors | EmbeddingError]:
        """Vectors (or the error) per chunk; up to ``max_in_flight_batches`` embedding calls at once."""

        def one(chunk: list[ToEmbed]) -> Vectors | EmbeddingError:
            try:
                return self._embed([text for _, text, _ in chunk])
            except EmbeddingError as exc:
                return exc

        if len(chunks) == 1 or self.max_in_flight_batches == 1:
            return [one(chunk) for chunk in chunks]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.max_in_flight_batches, thread_name_prefix="index-embed")
        return list(self._pool.map(one, chunks))

    def _embed(self, texts: list[str]) -> Vectors:
        vectors = np.asarray(self.embedder.embed_passages(texts), dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape != (len(texts), self.embedder.dim):
            raise EmbeddingError(f"embedder returned shape {vectors.shape} for {len(texts)} texts of dim "
                                 f"{self.embedder.dim}")
        return vectors

    def _current_target(self) -> ActiveTarget:
        """The active collection, re-read from the registry (a reindex may have switched it)."""
        if self._target is None:
            return self.start()
        with self.sessions() as session:
            row = active_collection(session)
            if row is None:
                return self.start()
            if row.name == self._target.name and row.version == self._target.version:
                return self._target
            check_collection_matches(row, self.embedder.model, self.embedder.dim)
            name, version = row.name, row.version
        view = self.index.for_collection(name, self.embedder.dim)
        view.ensure_collection()
        self._target = ActiveTarget(name, version, view)
        log.info("active collection is now %r (version %d)", name, version)
        return self._target


def build_indexer(settings: Settings) -> MemoryIndexer:
    """A ``MemoryIndexer`` wired from settings (no network until ``start``/``sync``)."""
    sessions = session_factory(engine_for(settings.database_url, settings.DATABASE_POOL_SIZE))
    embedder = build_embedder(settings, "indexer")
    in_flight = (settings.MEMORY_INDEX_MAX_IN_FLIGHT_BATCHES
                 if settings.embedding_provider is EmbeddingProvider.OPENAI else 1)  # local: CPU-bound
    return MemoryIndexer(sessions, embedder, MilvusMemoryIndex.from_settings(settings, dim=embedder.dim),
                         seal_interval_sec=settings.MEMORY_MILVUS_FLUSH_INTERVAL_SEC,
                         embed_batch_size=settings.MEMORY_INDEX_WORKER_BATCH_SIZE,
                         max_in_flight_batches=in_flight)
