"""Reindex: rebuild the vector index into a new collection while the old one serves, then switch over.

``Reindexer.rebuild()`` (an embedding model or dimension change, or a clean rebuild):

1. registers a NEW collection (``{base}_v{n}``, ``n`` = next registry version; ``base`` is
   ``MEMORY_MILVUS_COLLECTION`` without a trailing ``_v<digits>``) for the embedder's model and
   dimension, inactive, and creates it in Milvus. Readers and the indexer keep using the active one;
2. embeds every indexable memory (active, unexpired, past the read filters) in batches, in id order,
   and upserts the vectors into the new collection, remembering the ``updated_at`` it read per row;
3. switches over in ONE PostgreSQL transaction: the registry row of the new collection becomes the
   active one (the partial unique index allows one), rows whose ``updated_at`` is still the one read
   are marked ``SYNCED`` with the new ``vector_model``/``vector_version``/``vector_text_hash``, and
   every row updated since the rebuild began (written during it: the old indexer put those into the
   old collection, or not yet) gets a ``memory.dirty`` outbox row, so the indexer brings it into the new
   collection (its version no longer matches) - nothing written during the rebuild is lost;
4. after ``drop_grace_sec`` (readers cache the active collection for a few seconds) drops the old
   collection from Milvus and the registry.

Retrieval and the indexer look the active collection up per request/pass
(``core.retrieval.ActiveCollectionSearch``, ``MemoryIndexer``); processes configured for another model
than the active collection refuse it (``IndexModelMismatch``) and fall back or stop, so after a model
change they must be restarted with the new embedding configuration. A failed rebuild drops the new
collection and its registry row; the old one never stopped serving. One rebuild at a time
(PostgreSQL advisory lock).

``emit_dirty(user)`` re-drives rows through the outbox instead: each row of the user (or everyone) is
set ``DIRTY`` with its text hash cleared and gets a ``memory.dirty`` event, so the indexer re-embeds it
into the active collection.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import DateTime, Engine, Integer, String, column, delete, select, text, update, values
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from core.embedding.base import Embedder
from core.episodes.verify import reindex_episodes
from core.filters import passes_read_filters
from core.memory.outbox import enqueue_memory_dirty
from core.memory.store import lock_user
from core.memory.text import dirty_operation, embedding_text, text_hash
from core.storage.db import transaction
from core.storage.locks import AdvisoryLock
from core.storage.models import LongTermMemory, User, VectorCollection
from core.types import VectorStatus
from core.vectorstore import IndexRow, MilvusMemoryIndex, active_collection, register_collection

log = logging.getLogger(__name__)

REINDEX_LOCK = (int(AdvisoryLock.REINDEX), 1)
"""Advisory lock (namespace, key) held for a whole rebuild (``core.storage.locks``)."""
CLOCK_SKEW = timedelta(seconds=5)
"""Rows updated this long before the rebuild began are re-emitted too (clocks of writer hosts differ)."""
_VERSION_SUFFIX = re.compile(r"_v\d+$")


class ReindexError(RuntimeError):
    """The rebuild did not complete; the old collection is still the active one."""


@dataclass
class ReindexReport:
    old_collection: str | None
    old_version: int | None
    new_collection: str
    new_version: int
    model: str
    dim: int
    indexed: int = 0
    batches: int = 0
    marked_synced: int = 0
    reemitted: int = 0
    dropped_old: bool = False
    served_ready: bool | None = None
    served_wait_sec: float = 0.0
    served_state: dict[str, Any] = field(default_factory=dict)
    embed_sec: float = 0.0
    milvus_sec: float = 0.0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


@dataclass
class EmitReport:
    user: str | None
    enqueued: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.enqueued.values())

    def as_dict(self) -> dict[str, Any]:
        return {"user": self.user, "enqueued": dict(sorted(self.enqueued.items())), "total": self.total}


@dataclass(frozen=True)
class _Seen:
    id: int
    updated_at: datetime
    digest: str


class Reindexer:
    """Rebuilds the index for ``embedder`` (see module docstring)."""

    def __init__(self, sessions: sessionmaker[Session], embedder: Embedder, index: MilvusMemoryIndex, *,
                 dirty_topic: str, batch_size: int = 256,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 episode_collection: str | None = None, episode_partitions: int = 64) -> None:
        """``episode_collection``: the episodes' collection (default ``<index.collection>_episodes``,
        ``Settings.episode_collection``), rebuilt after the switch when the model or dimension changed,
        or when its layout is not ``episode_partitions`` user buckets (``EPISODE_MILVUS_USER_PARTITIONS``)."""
        self.episode_collection = episode_collection or f"{index.collection}_episodes"
        self.episode_partitions = episode_partitions
        self.sessions = sessions
        self.embedder = embedder
        self.index = index  # any view on the Milvus server; its collection name gives the base name
        self.dirty_topic = dirty_topic
        self.batch_size = batch_size
        self.clock = clock

    # --- full rebuild ---------------------------------------------------------------------------
    def rebuild(self, *, collection: str | None = None, drop_old: bool = True, drop_grace_sec: float = 15.0,
                on_batch: Callable[[int], None] | None = None,
                ready_timeout_sec: float = 600.0) -> ReindexReport:
        """Build a new collection, switch over atomically, drop the old one. Raises ``ReindexError``.

        Before the switch the new collection is flushed and the rebuild waits up to ``ready_timeout_sec``
        until it is served only from sealed, indexed segments (``MilvusMemoryIndex.wait_served``), so the
        first searches do not compete with the server's index building and segment hand-offs; the wait
        and the state are in the report (``served_*``). Still not ready then: it switches anyway (the
        searches are right, only slower until the server settles) and says so."""
        t0 = time.perf_counter()
        with self._exclusive():
            started = self.clock() - CLOCK_SKEW
            with transaction(self.sessions) as session:
                old = active_collection(session)
                old_name, old_version = (old.name, old.version) if old else (None, None)
                old_spec = (old.model, old.dim) if old else None
                version = (session.scalar(select(VectorCollection.version).order_by(
                    VectorCollection.version.desc()).limit(1)) or 0) + 1
                name = collection or f"{_VERSION_SUFFIX.sub('', self.index.collection)}_v{version}"
                if session.get(VectorCollection, name) is not None:
                    raise ReindexError(f"collection {name!r} is already registered; choose another name")
                row = register_collection(session, name, self.embedder.model, self.embedder.dim,
                                          activate=False)
                report = ReindexReport(old_name, old_version, name, row.version, self.embedder.model,
                                       self.embedder.dim)
            target = self.index.for_collection(name, self.embedder.dim)
            try:
                if target.has_collection():  # left by a crashed run: it never served
                    target.drop_collection()
                target.ensure_collection()
                seen = self._fill(target, report, on_batch)
                state, waited = target.wait_served(ready_timeout_sec)  # sealed, indexed from query one
                report.served_ready, report.served_wait_sec = state.ready, waited
                report.served_state = state.as_dict()
                if not state.ready:
                    log.warning("switching to %r before the server settled (%.0fs): %s", name, waited,
                                state.render())
                self._switch(report, seen, started)
                self._episodes(old_spec)
            except Exception as exc:
                self._abandon(target, name)
                if isinstance(exc, ReindexError):
                    raise
                raise ReindexError(f"rebuild into {name!r} failed ({type(exc).__name__}: {exc}); "
                                   f"{old_name!r} is still active") from exc
        if drop_old and old_name is not None and old_name != name:
            time.sleep(max(0.0, drop_grace_sec))
            old_view = self.index.for_collection(old_name)
            if old_view.has_collection():
                old_view.drop_collection()
            with transaction(self.sessions) as session:
                session.execute(delete(VectorCollection).where(VectorCollection.name == old_name,
                                                               VectorCollection.active.is_(False)))
            report.dropped_old = True
        report.seconds = time.perf_counter() - t0
        return report

    def _episodes(self, old: tuple[str, int] | None) -> None:
        """After a model or dimension change, or when its layout is another (``core.vector_buckets``), the
        episodes' collection is dropped, created for the new dimension and every episode announced for
        re-embedding (``core.episodes.verify``); episodes are not searchable until the indexer has
        embedded them again. Same model, dimension and layout: nothing."""
        view = self.index.for_collection(self.episode_collection, self.embedder.dim)
        changed = old is None or old != (self.embedder.model, self.embedder.dim)
        current = view.describe_dim()
        if changed or (current is not None and (current != self.embedder.dim
                                                or view.layout(refresh=True) != self.episode_partitions)):
            reindex_episodes(self.sessions, view, topic=self.dirty_topic, dim=self.embedder.dim, rebuild=True,
                             user_partitions=self.episode_partitions)

    def _fill(self, target: MilvusMemoryIndex, report: ReindexReport,
              on_batch: Callable[[int], None] | None) -> list[_Seen]:
        seen: list[_Seen] = []
        after = 0
        while True:
            now = self.clock()
            with self.sessions() as session:
                rows = list(session.scalars(
                    select(LongTermMemory)
                    .where(LongTermMemory.id > after, LongTermMemory.is_active.is_(True),
                           (LongTermMemory.expires_at.is_(None)) | (LongTermMemory.expires_at > now))
                    .order_by(LongTermMemory.id).limit(self.batch_size)).all())
            if not rows:
                return seen
            after = rows[-1].id
            live = [r for r in rows if passes_read_filters(r.memory_key, r.content or "")]
            if live:
                texts = [embedding_text(r.memory_type, r.memory_key, r.content) for r in live]
                t = time.perf_counter()
                vectors = self.embedder.embed_passages(texts)
                report.embed_sec += time.perf_counter() - t
                t = time.perf_counter()
                target.upsert([IndexRow(id=r.id, user_id=r.user_id, memory_type=r.memory_type or "fact",
                                        vector=vectors[i]) for i, r in enumerate(live)])
                report.milvus_sec += time.perf_counter() - t
                seen.extend(_Seen(r.id, r.updated_at, text_hash(texts[i])) for i, r in enumerate(live))
                report.indexed += len(live)
            report.batches += 1
            if on_batch is not None:
                on_batch(report.batches)

    def _switch(self, report: ReindexReport, seen: list[_Seen], started: datetime) -> None:
        for attempt in range(3):
            try:
                with transaction(self.sessions) as session:
                    session.execute(text("SET LOCAL lock_timeout = 10000"))
                    session.execute(select(VectorCollection.name).with_for_update())  # registry lock
                    current = active_collection(session)
                    if (current.name if current else None) != report.old_collection:
                        raise ReindexError(f"the active collection changed during the rebuild (now "
                                           f"{current.name if current else None!r}); nothing switched")
                    register_collection(session, report.new_collection, report.model, report.dim,
                                        activate=True)
                    report.marked_synced = self._mark(session, seen, report.new_version)
                    report.reemitted = self._reemit_changed(session, started)
                return
            except OperationalError as exc:  # deadlock or lock timeout against a writer: try again
                if attempt == 2:
                    raise
                log.warning("switch-over attempt %d failed, retrying: %s", attempt + 1, exc)
                time.sleep(1.0)

    def _mark(self, session: Session, seen: list[_Seen], version: int) -> int:
        marked = 0
        now = self.clock()
        for start in range(0, len(seen), 5000):
            chunk = seen[start:start + 5000]
            v = values(column("id", Integer), column("read_at", DateTime(timezone=True)),
                       column("digest", String), name="v").data(
                           [(s.id, s.updated_at, s.digest) for s in chunk])
            result = session.execute(
                update(LongTermMemory)
                .where(LongTermMemory.id == v.c.id, LongTermMemory.updated_at == v.c.read_at)
                .values(vector_status=VectorStatus.SYNCED.value, vector_synced_at=now,
                        vector_model=self.embedder.model, vector_version=version,
                        vector_text_hash=v.c.digest, vector_error=None)
                .returning(LongTermMemory.id))
            marked += len(result.all())
        return marked

    def _reemit_changed(self, session: Session, since: datetime) -> int:
        rows = session.execute(
            select(LongTermMemory, User.external_id).join(User, User.id == LongTermMemory.user_id)
            .where(LongTermMemory.updated_at >= since)
            .order_by(LongTermMemory.user_id, LongTermMemory.id)).all()
        now = self.clock()
        locked: set[int] = set()
        for memory, external_id in rows:
            if memory.user_id not in locked:
                lock_user(session, memory.user_id)
                locked.add(memory.user_id)
            enqueue_memory_dirty(session, topic=self.dirty_topic, user_external_id=external_id,
                                 user_pk=memory.user_id, memory_id=memory.id, memory_key=memory.memory_key,
                                 operation=dirty_operation(memory.is_active, memory.expires_at, now))
        return len(rows)

    def _abandon(self, target: MilvusMemoryIndex, name: str) -> None:
        try:
            with transaction(self.sessions) as session:
                session.execute(delete(VectorCollection).where(VectorCollection.name == name,
                                                               VectorCollection.active.is_(False)))
            if target.has_collection():
                target.drop_collection()
        except Exception:  # the original failure matters more; leftovers are dropped by the next run
            log.exception("cleaning up the abandoned collection %r failed", name)

    @contextmanager
    def _exclusive(self) -> Iterator[None]:
        """Hold the session-level advisory lock on ONE dedicated connection for the whole rebuild.

        (A Session returns its connection to the pool at commit, so a lock taken through it would
        stay with whichever pooled connection happened to run it and the unlock could run on
        another one, leaving the lock held.)"""
        with self.sessions() as probe:
            bind = probe.get_bind()
        engine = bind if isinstance(bind, Engine) else bind.engine
        with engine.connect() as conn:
            conn = conn.execution_options(isolation_level="AUTOCOMMIT")
            params = {"ns": REINDEX_LOCK[0], "key": REINDEX_LOCK[1]}
            if not conn.scalar(text("SELECT pg_try_advisory_lock(:ns, :key)"), params):
                raise ReindexError("another reindex is running")
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:ns, :key)"), params)

def emit_dirty(sessions: sessionmaker[Session], *, dirty_topic: str, user: str | None = None,
               batch_size: int = 500) -> EmitReport:
    """Re-drive every memory row of ``user`` (or everyone) through the outbox (see module docstring).

    Raises ``LookupError`` for an unknown user. Each batch is one transaction; per user, its advisory
    lock is taken before its rows are touched (the writers' order), so outbox ids stay in commit order.
    """
    report = EmitReport(user)
    user_pk: int | None = None
    if user is not None:
        with sessions() as session:
            user_pk = session.scalar(select(User.id).where(User.external_id == user))
        if user_pk is None:
            raise LookupError(f"no user with id {user!r}")
    after = (0, 0)
    while True:
        with transaction(sessions) as session:
            stmt = (select(LongTermMemory.user_id, LongTermMemory.id)
                    .where((LongTermMemory.user_id > after[0])
                           | ((LongTermMemory.user_id == after[0]) & (LongTermMemory.id > after[1])))
                    .order_by(LongTermMemory.user_id, LongTermMemory.id).limit(batch_size))
            if user_pk is not None:
                stmt = stmt.where(LongTermMemory.user_id == user_pk)
            keys = [(int(u), int(i)) for u, i in session.execute(stmt).all()]
            if not keys:
                return report
            now = datetime.now(UTC)
            by_user: dict[int, list[int]] = {}
            for u, i in keys:
                by_user.setdefault(u, []).append(i)
            for u, ids in by_user.items():
                lock_user(session, u)
                external_id = session.scalar(select(User.external_id).where(User.id == u))
                rows = session.scalars(select(LongTermMemory).where(LongTermMemory.id.in_(ids))
                                       .order_by(LongTermMemory.id).with_for_update()).all()
                for row in rows:
                    row.vector_status = VectorStatus.DIRTY.value
                    row.vector_text_hash = None
                    row.vector_error = None
                    op = dirty_operation(row.is_active, row.expires_at, now)
                    enqueue_memory_dirty(session, topic=dirty_topic, user_external_id=str(external_id),
                                         user_pk=u, memory_id=row.id, memory_key=row.memory_key, operation=op)
                    report.enqueued[op.value] = report.enqueued.get(op.value, 0) + 1
            after = keys[-1]
