"""Index side of the memory truth: bring Milvus (and the ``vector_*`` columns) in line with PostgreSQL.

``MemoryIndexer.sync(memory_ids)`` is the whole job of the indexer consumer, without Kafka:

1. read the current rows of those ids from PostgreSQL (an event only says *that* a memory changed);
2. decide per row: a live row (active, unexpired, past the read filters) whose index text
   ``[{memory_type}] {memory_key}: {content}`` hashes to ``vector_text_hash`` with the same model and
   collection version is *skipped* when ``SYNCED`` (no work at all) or *refreshed* otherwise (marked
   ``SYNCED`` without embedding: the vector in Milvus is already that text's); other live rows are
   embedded (in batches of ``embed_batch_size``, up to ``max_in_flight_batches`` calls at once: the
   ``openai`` provider's ``MEMORY_INDEX_MAX_IN_FLIGHT_BATCHES``) and upserted; a failed batch fails only its
   rows, the others are written; rows that are not live are deleted
   from Milvus; ids missing from PostgreSQL (erased) are deleted from Milvus;
3. mark the rows in one transaction: ``SYNCED`` with ``vector_synced_at``/``vector_model``/
   ``vector_version``/``vector_text_hash`` (``vector_text_hash`` NULL for rows removed from the index),
   or ``FAILED`` with ``vector_error`` (and ``vector_text_hash`` NULL, so nothing is skipped later).

Invariants:
- A row is marked only if its ``updated_at`` is still the one that was read (optimistic check in the
  UPDATE's WHERE clause), so a duplicate or late event can never mark a newer version synced with an
  older vector. A row that changed meanwhile is indexed again at once (up to ``MAX_PASSES`` passes,
  without the skip shortcut, since this pass may have overwritten a newer vector); if it keeps
  changing it is left ``DIRTY`` for the newer ``memory.dirty`` event that its writer enqueued.
- ``vector_text_hash`` non-NULL with a matching model and collection version means Milvus holds that
  text's vector for the row; every path that may leave Milvus otherwise clears it.
- Nothing is read from the event payload but the memory id.
- Failures of the embedder or Milvus mark the affected rows ``FAILED`` and raise ``IndexSyncFailed``;
  database failures raise ``IndexSyncFailed`` too (stage ``database``). Callers retry the same ids;
  everything here is idempotent. ``IndexModelMismatch`` (the active collection holds another model or
  dimension) is never retried: it needs an operator.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
from sqlalchemy import DateTime, Integer, String, column, select, update, values
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from core import metrics, tracing
from core.config import EmbeddingProvider, Settings
from core.embedding.base import Embedder, EmbeddingError, Vectors
from core.embedding.factory import build_embedder
from core.memory.text import INDEX_STATE_COLUMNS, IndexState, embedding_text, is_indexable, text_hash
from core.storage.db import engine_for, session_factory, transaction
from core.storage.models import LongTermMemory
from core.types import VectorStatus
from core.vectorstore import (
    IndexModelMismatch,
    IndexRow,
    MilvusMemoryIndex,
    VectorStoreError,
    active_collection,
    check_collection_matches,
    ensure_active_collection,
)

log = logging.getLogger(__name__)

MAX_PASSES = 3
"""Passes over rows that changed while being indexed before leaving them to their newer event."""
MAX_ERROR_CHARS = 1000
"""``vector_error`` is truncated to this many characters."""


class IndexingError(RuntimeError):
    """Base of the indexer's errors."""


class IndexSyncFailed(IndexingError):
    """A sync did not complete; ``memory_ids`` are not (all) in their final state. Retry them.

    ``stage`` is ``embed``, ``milvus`` or ``database``; ``failed_ids`` were marked ``FAILED`` (empty
    when the database itself failed).
    """

    def __init__(self, stage: str, memory_ids: Sequence[int], failed_ids: Sequence[int],
                 message: str) -> None:
        super().__init__(f"indexing {len(memory_ids)} memories failed at {stage}: {message}")
        self.stage = stage
        self.memory_ids = list(memory_ids)
        self.failed_ids = list(failed_ids)


@dataclass(frozen=True)
class ActiveTarget:
    """The collection vectors are written to: Milvus view, registry name and version."""

    name: str
    version: int
    view: MilvusMemoryIndex


@dataclass
class SyncReport:
    """What one ``sync`` did, by memory id (each id in at most one list)."""

    requested: int = 0
    upserted: list[int] = field(default_factory=list)  # embedded, written to Milvus, SYNCED
    refreshed: list[int] = field(default_factory=list)  # text unchanged: SYNCED without embedding
    skipped: list[int] = field(default_factory=list)  # already SYNCED for this text, model, collection
    deleted: list[int] = field(default_factory=list)  # not live: removed from Milvus, SYNCED
    erased: list[int] = field(default_factory=list)  # not in PostgreSQL: removed from Milvus
    superseded: list[int] = field(default_factory=list)  # kept changing: left DIRTY for the newer event
    embedded_texts: int = 0
    embed_calls: int = 0
    reused_vectors: int = 0  # texts whose vector came with the row (``write_vector``): no model call
    passes: int = 0
    embed_sec: float = 0.0
    milvus_sec: float = 0.0
    db_sec: float = 0.0

    @property
    def indexed(self) -> int:
        """Memories whose index entry was written or removed (the work the indexer exists for)."""
        return len(self.upserted) + len(self.deleted) + len(self.erased)

    def as_dict(self) -> dict[str, Any]:
        return {"requested": self.requested, "upserted": len(self.upserted), "refreshed": len(self.refreshed),
                "skipped": len(self.skipped), "deleted": len(self.deleted), "erased": len(self.erased),
                "superseded": len(self.superseded), "embedded_texts": self.embedded_texts,
                "embed_calls": self.embed_calls,
                "reused_vectors": self.reused_vectors, "passes": self.passes,
                "embed_sec": round(self.embed_sec, 6),
                "milvus_sec": round(self.milvus_sec, 6), "db_sec": round(self.db_sec, 6)}


@dataclass(frozen=True)
class _Row(IndexState):
    updated_at: datetime
    write_vector: bytes | None
    write_vector_model: str | None
    write_vector_hash: str | None


@dataclass
class _Plan:
    erase: list[int] = field(default_factory=list)
    delete: list[_Row] = field(default_factory=list)
    embed: list[tuple[_Row, str, str]] = field(default_factory=list)  # row, text, hash
    refresh: list[tuple[_Row, str]] = field(default_factory=list)  # row, hash
    skip: list[int] = field(default_factory=list)


_COLUMNS = (*INDEX_STATE_COLUMNS, LongTermMemory.updated_at, LongTermMemory.write_vector,
            LongTermMemory.write_vector_model, LongTermMemory.write_vector_hash)


def _first_line(exc: BaseException) -> str:
    lines = str(exc).splitlines()
    return lines[0] if lines else type(exc).__name__


def _error_text(stage: str, exc: BaseException) -> str:
    """The ``vector_error`` text: NUL escaped (PostgreSQL text cannot hold it), capped."""
    return f"{stage}: {type(exc).__name__}: {exc}".replace("\x00", "\\0")[:MAX_ERROR_CHARS]


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
        """One read-decide-write pass; returns the ids that changed since they were read."""
        started = time.perf_counter()
        try:
            target = self._current_target()
            with self.sessions() as session:
                result = session.execute(select(*_COLUMNS).where(LongTermMemory.id.in_(ids)))
                rows = [_Row(**dict(r._mapping)) for r in result]
        except DBAPIError as exc:
            raise IndexSyncFailed("database", ids, [], _first_line(exc)) from exc
        except IndexModelMismatch:
            raise
        except VectorStoreError as exc:  # the collection check at (re)start could not reach Milvus
            self._target = None
            raise IndexSyncFailed("milvus", ids, [], str(exc)) from exc
        report.db_sec += time.perf_counter() - started
        plan = self._plan(ids, rows, target, force)
        report.skipped.extend(plan.skip)

        failure: tuple[str, BaseException] | None = None
        failed: list[_Row] = []
        vectors: Vectors | None = None
        if plan.embed:
            started = time.perf_counter()
            embedded: list[tuple[_Row, str, str]] = []
            parts: list[Vectors] = []
            carried, to_embed = self._carried(plan.embed)
            if carried:
                embedded.extend(row for row, _ in carried)
                parts.append(np.stack([vec for _, vec in carried]))
                report.reused_vectors += len(carried)
                metrics.EMBEDDING_VECTORS_REUSED.labels("indexer").inc(len(carried))
            chunks = self._chunks(to_embed)
            with tracing.stage("embed", {"pai.texts": len(to_embed), "pai.embed_calls": len(chunks),
                                         "pai.vectors_reused": len(carried)}):
                results = self._embed_chunks(chunks)
            for chunk, got in zip(chunks, results, strict=True):
                if isinstance(got, EmbeddingError):
                    failure = failure or ("embed", got)
                    failed.extend(row for row, _, _ in chunk)
                else:
                    embedded.extend(chunk)
                    parts.append(got)
            report.embed_calls += len(chunks)
            report.embedded_texts += len(embedded) - len(carried)
            report.embed_sec += time.perf_counter() - started
            plan.embed = embedded  # rows of failed batches are marked FAILED below, never written
            if embedded:
                vectors = np.concatenate(parts, axis=0)

        started = time.perf_counter()
        removed: list[_Row] = []
        written: list[tuple[_Row, str]] = []
        span = tracing.start_stage("milvus", {"pai.upserts": len(plan.embed) if vectors is not None else 0,
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
                             vector=vectors[i]) for i, (row, _, _) in enumerate(plan.embed)])
                written = [(row, digest) for row, _, digest in plan.embed]
                self._unsealed += len(written)
        except IndexModelMismatch:
            raise
        except (VectorStoreError, ValueError) as exc:
            tracing.failed(span, exc)
            failure = failure or ("milvus", exc)
            failed.extend(row for row in plan.delete if not removed)
            failed.extend(row for row, _, _ in plan.embed if vectors is not None)
            self._target = None  # re-check the collection (it may have been dropped) before the next try
        finally:
            span.end()
        report.milvus_sec += time.perf_counter() - started

        started = time.perf_counter()
        span = tracing.start_stage("mark synced", {"pai.synced": len(written) + len(plan.refresh)})
        try:
            with transaction(self.sessions) as session:
                now = self.clock()
                synced = self._mark_synced(session, written + plan.refresh, target, now)
                cleared = self._mark_removed(session, removed, now)
                if failure is not None:
                    self._mark_failed(session, failed, _error_text(*failure))
        except DBAPIError as exc:
            raise IndexSyncFailed("database", ids, [], _first_line(exc)) from exc
        finally:
            span.end()
            report.db_sec += time.perf_counter() - started
        if failure is not None:
            stage, cause = failure
            raise IndexSyncFailed(stage, ids, [row.id for row in failed], str(cause)) from cause

        report.erased.extend(plan.erase)
        changed: list[int] = []
        for row, _ in written:
            (report.upserted if row.id in synced else changed).append(row.id)
        for row, _ in plan.refresh:
            (report.refreshed if row.id in synced else changed).append(row.id)
        for row in removed:
            (report.deleted if row.id in cleared else changed).append(row.id)
        return sorted(changed)

    def _plan(self, ids: list[int], rows: list[_Row], target: ActiveTarget, force: bool) -> _Plan:
        plan = _Plan()
        now = self.clock()
        found = {row.id for row in rows}
        plan.erase = [i for i in ids if i not in found]
        model = self.embedder.model
        for row in rows:
            if not is_indexable(row, now):
                if not force and row.vector_status == VectorStatus.SYNCED and row.vector_text_hash is None:
                    plan.skip.append(row.id)
                else:
                    plan.delete.append(row)
                continue
            text = embedding_text(row.memory_type, row.memory_key, row.content)
            digest = text_hash(text)
            same = (row.vector_text_hash == digest and row.vector_model == model
                    and row.vector_version == target.version)
            if same and not force:
                if row.vector_status == VectorStatus.SYNCED:
                    plan.skip.append(row.id)
                else:
                    plan.refresh.append((row, digest))
            else:
                plan.embed.append((row, text, digest))
        return plan

    def _carried(self, items: list[tuple[_Row, str, str]]
                 ) -> tuple[list[tuple[tuple[_Row, str, str], Vectors]], list[tuple[_Row, str, str]]]:
        """Split ``items`` into those whose row carries the vector of exactly this text from this model
        and dimension (written by the extractor, ``write_vector*``) and those still to embed."""
        carried: list[tuple[tuple[_Row, str, str], Vectors]] = []
        rest: list[tuple[_Row, str, str]] = []
        model, size = self.embedder.model, self.embedder.dim * 4
        for item in items:
            row, _, digest = item
            if (row.write_vector is not None and len(row.write_vector) == size
                    and row.write_vector_model == model and row.write_vector_hash == digest):
                carried.append((item, np.frombuffer(row.write_vector, dtype=np.float32)))
            else:
                rest.append(item)
        return carried, rest

    def _chunks(self, items: list[tuple[_Row, str, str]]) -> list[list[tuple[_Row, str, str]]]:
        if not items:
            return []
        size = self.embed_batch_size or len(items)
        return [items[i:i + size] for i in range(0, len(items), size)]

    def _embed_chunks(self, chunks: list[list[tuple[_Row, str, str]]]) -> list[Vectors | EmbeddingError]:
        """Vectors (or the error) per chunk; up to ``max_in_flight_batches`` embedding calls at once."""

        def one(chunk: list[tuple[_Row, str, str]]) -> Vectors | EmbeddingError:
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

    # --- marking (optimistic: only rows still at the version that was read) ----------------------
    def _mark_synced(self, session: Session, rows: list[tuple[_Row, str]], target: ActiveTarget,
                     now: datetime) -> set[int]:
        if not rows:
            return set()
        v = values(column("id", Integer), column("read_at", DateTime(timezone=True)),
                   column("digest", String), name="v").data(
                       [(row.id, row.updated_at, digest) for row, digest in rows])
        stmt = (update(LongTermMemory)
                .where(LongTermMemory.id == v.c.id, LongTermMemory.updated_at == v.c.read_at)
                .values(vector_status=VectorStatus.SYNCED.value, vector_synced_at=now,
                        vector_model=self.embedder.model, vector_version=target.version,
                        vector_text_hash=v.c.digest, vector_error=None, write_vector=None,
                        write_vector_model=None, write_vector_hash=None)
                .returning(LongTermMemory.id))
        return set(session.scalars(stmt).all())

    @staticmethod
    def _mark_removed(session: Session, rows: list[_Row], now: datetime) -> set[int]:
        if not rows:
            return set()
        v = values(column("id", Integer), column("read_at", DateTime(timezone=True)),
                   name="v").data([(row.id, row.updated_at) for row in rows])
        stmt = (update(LongTermMemory)
                .where(LongTermMemory.id == v.c.id, LongTermMemory.updated_at == v.c.read_at)
                .values(vector_status=VectorStatus.SYNCED.value, vector_synced_at=now,
                        vector_text_hash=None, vector_error=None, write_vector=None,
                        write_vector_model=None, write_vector_hash=None)
                .returning(LongTermMemory.id))
        return set(session.scalars(stmt).all())

    @staticmethod
    def _mark_failed(session: Session, rows: list[_Row], error: str) -> None:
        if not rows:
            return
        v = values(column("id", Integer), column("read_at", DateTime(timezone=True)),
                   name="v").data([(row.id, row.updated_at) for row in rows])
        session.execute(update(LongTermMemory)
                        .where(LongTermMemory.id == v.c.id, LongTermMemory.updated_at == v.c.read_at)
                        .values(vector_status=VectorStatus.FAILED.value, vector_error=error,
                                vector_text_hash=None))


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
