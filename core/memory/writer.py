"""Writes to the memory truth: every change is row + history + outbox in the caller's transaction.

What a write is (``WriteContext``, ``MemoryWrite``, ``WriteResult``, ``validate_key``) lives in
``core.memory.writes`` and is importable from here too.

Invariants:
- a write that changes nothing (same type, content, importance, confidence, active, not expired)
  writes nothing: no history, no outbox row; this is what makes redelivery and replay harmless;
- every effective write sets ``vector_status = DIRTY`` and enqueues one ``memory.dirty`` row;
- keys and content pass the hard filters before anything is written;
- the caller holds the user's advisory lock (``store.lock_user``) for the transaction;
- per-user cap (``max_active_per_user``, LONG_TERM_MEMORY_MAX_ACTIVE_PER_USER, 0 = none): after a
  write that makes a memory live (create or reactivate), if the user holds more live memories
  (active, unexpired) than the cap, the excess is retired in the same transaction: deactivated
  with operation ``delete``, a history row whose reason says so, and an outbox row, lowest
  importance first, then least recently used (``max(updated_at, last_accessed_at)``), then oldest
  id. The memories written by this write are retired last, so a write always lands unless it
  alone exceeds the cap. Inside ``capped_batch`` the check runs once, at the end of the batch.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
from sqlalchemy import DateTime, bindparam, case, func, select, text, update
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from core import metrics
from core.config import Settings
from core.filters import is_instruction_content, is_noise_content, normalise_key
from core.memory.errors import InvalidMemoryInput, MemoryNotFound
from core.memory.outbox import ENQUEUE_SQL, memory_dirty_params
from core.memory.reader import live_clause
from core.memory.store import user_external_id
from core.memory.text import embedding_text, text_hash

# the vocabulary of a write, importable from here as before
from core.memory.writes import KnownVectors as KnownVectors
from core.memory.writes import MemoryWrite as MemoryWrite
from core.memory.writes import WriteContext as WriteContext
from core.memory.writes import WriteResult as WriteResult
from core.memory.writes import clean_content
from core.memory.writes import validate_key as validate_key
from core.storage.models import LongTermMemory
from core.types import MemoryOperation, MemoryType, VectorStatus
from schemas.events import DEFAULT_MEMORY_CONFIDENCE, MAX_MEMORY_CONTENT_CHARS

DEFAULT_MAX_ACTIVE_PER_USER: int = Settings.model_fields["LONG_TERM_MEMORY_MAX_ACTIVE_PER_USER"].default

# Session.info keys of a capped batch (per session, so one writer may serve many threads)
_BATCH_DEPTH = "pai_memory.cap_batch_depth"
_BATCH_WRITTEN = "pai_memory.cap_batch_written"
_RECORD = text(
    "WITH history AS (INSERT INTO memory_history (memory_id, user_id, memory_key, operation, source, "
    "source_message_id, command_id, old_content, new_content, memory_type, reason) VALUES (:h_memory_id, "
    ":h_user_id, :h_memory_key, :h_operation, :h_source, :h_source_message_id, :h_command_id, "
    ":h_old_content, :h_new_content, :h_memory_type, :h_reason))" + ENQUEUE_SQL
)
# a new memory, its history row and its outbox row in ONE round trip: the memory's id, drawn by the first
# INSERT, goes into the history row and the outbox row (``aggregate_id`` and the payload's
# ``data.memory_id``, written as 1 by ``memory_dirty_params``); returns the memory's id
_CREATE = text(
    "WITH mem AS (INSERT INTO long_term_memories (user_id, conversation_id, source_message_id, memory_key, "
    "memory_type, content, importance, confidence, is_active, expires_at, vector_status, created_at, "
    "updated_at, write_vector, write_vector_model, write_vector_hash) VALUES (:user_id, :conversation_id, "
    ":source_message_id, :memory_key, :memory_type, :content, :importance, :confidence, :is_active, "
    ":expires_at, :vector_status, :m_created_at, :m_updated_at, :write_vector, :write_vector_model, "
    ":write_vector_hash) RETURNING id), "
    "history AS (INSERT INTO memory_history (memory_id, user_id, memory_key, operation, source, "
    "source_message_id, command_id, old_content, new_content, memory_type, reason) SELECT mem.id, "
    ":h_user_id, :h_memory_key, :h_operation, :h_source, :h_source_message_id, :h_command_id, "
    ":h_old_content, :h_new_content, :h_memory_type, :h_reason FROM mem) "
    "INSERT INTO outbox (id, topic, message_key, event_type, aggregate_id, payload, created_at) "
    "SELECT s.id, :topic, :message_key, :event_type, mem.id, "
    "jsonb_set(jsonb_set(jsonb_set(CAST(:payload AS jsonb), '{id}', to_jsonb('outbox-' || s.id)), "
    "'{data,outbox_id}', to_jsonb(s.id)), '{data,memory_id}', to_jsonb(mem.id)), :created_at "
    "FROM mem, (SELECT nextval(pg_get_serial_sequence('outbox', 'id')) AS id) AS s "
    "RETURNING aggregate_id"
)
_COUNT_LIVE = (  # built once: counted after every write that makes a memory live
    select(func.count()).select_from(LongTermMemory)
    .where(LongTermMemory.user_id == bindparam("user_pk"),
           *live_clause(bindparam("now", type_=DateTime(timezone=True))))
)
_FOR_UPDATE = (  # built once: the extractor locks a row per write
    select(LongTermMemory)
    .where(LongTermMemory.user_id == bindparam("user_pk"), LongTermMemory.memory_key == bindparam("key"))
    .with_for_update()
)
_LOCKED = "pai_memory.locked_memories"  # (transaction, {(user pk, key): row}) of get_for_update



class MemoryWriter:
    """Applies resolved writes to one user's memories."""

    def __init__(self, *, dirty_topic: str, default_ttl_days: int,
                 max_active_per_user: int = DEFAULT_MAX_ACTIVE_PER_USER,
                 vectors: KnownVectors | None = None) -> None:
        """``vectors``: where a write finds the vector of its index text already computed (the
        extractor's deduper); the row then carries it (``write_vector*``) and the indexer reuses it."""
        self._topic = dirty_topic
        self._default_ttl_days = default_ttl_days
        self.max_active_per_user = max_active_per_user
        self.vectors = vectors

    @property
    def dirty_topic(self) -> str:
        """The topic of the outbox rows this writer enqueues (``TOPIC_MEMORY_DIRTY``)."""
        return self._topic

    @classmethod
    def from_settings(cls, settings: Settings, vectors: KnownVectors | None = None) -> MemoryWriter:
        """``vectors`` is dropped when ``MEMORY_INDEX_REUSE_WRITE_VECTORS`` is off."""
        return cls(
            dirty_topic=settings.TOPIC_MEMORY_DIRTY,
            default_ttl_days=settings.LONG_TERM_MEMORY_DEFAULT_TTL_DAYS,
            max_active_per_user=settings.LONG_TERM_MEMORY_MAX_ACTIVE_PER_USER,
            vectors=vectors if settings.MEMORY_INDEX_REUSE_WRITE_VECTORS else None,
        )

    def _write_vector(self, memory_type: str, key: str, content: str) -> dict[str, object]:
        """The ``write_vector*`` column values for this index text: its vector, or NULLs without
        ``vectors`` (a stale vector of an older text must never survive an update)."""
        if self.vectors is not None:
            text = embedding_text(memory_type, key, content)
            vec = self.vectors.vector(text)
            return {"write_vector": np.asarray(vec, dtype=np.float32).tobytes(),
                    "write_vector_model": self.vectors.model, "write_vector_hash": text_hash(text)}
        return {"write_vector": None, "write_vector_model": None, "write_vector_hash": None}

    # --- reads used by writers ----------------------------------------------------------------
    @staticmethod
    def get_for_update(session: Session, user_pk: int, key: str) -> LongTermMemory | None:
        """The user's row with this key, locked for the rest of the transaction. A row already locked
        in this transaction is returned without a second statement (the same object the select would
        return: the session never refreshes a loaded row). A key found absent is remembered too, until
        ``save`` creates its row (the only insert of memory rows), so a caller that looks before ``save``
        costs no second statement."""
        tx = session.get_transaction()
        memo: tuple[object, dict[tuple[int, str], LongTermMemory | None]] | None = session.info.get(_LOCKED)
        if memo is None or memo[0] is not tx:
            memo = session.info[_LOCKED] = (tx, {})
        locked = memo[1]
        if (user_pk, key) in locked:
            return locked[(user_pk, key)]
        row = session.scalar(_FOR_UPDATE, {"user_pk": user_pk, "key": key})
        if tx is not None:
            locked[(user_pk, key)] = row
        return row

    @staticmethod
    def _forget(session: Session, user_pk: int, key: str) -> None:
        """Drop what ``get_for_update`` remembers of this key (its row was just created)."""
        memo: tuple[object, dict[tuple[int, str], LongTermMemory | None]] | None = session.info.get(_LOCKED)
        if memo is not None:
            memo[1].pop((user_pk, key), None)

    @staticmethod
    def _update_row(session: Session, row: LongTermMemory, values: dict[str, object]) -> None:
        """Set ``values`` on the (locked) row with one Core UPDATE and mark them as the row's loaded
        state (no unit-of-work flush; later reads in the session see them). Pending ORM changes of the
        row are flushed first so they can never land after, and over, this update."""
        if sa_inspect(row).modified:
            session.flush()
        session.connection().execute(
            update(LongTermMemory).where(LongTermMemory.id == row.id).values(**values))
        for column, value in values.items():
            set_committed_value(row, column, value)

    # --- writes -------------------------------------------------------------------------------
    def save(
        self,
        session: Session,
        ctx: WriteContext,
        write: MemoryWrite,
        operation: MemoryOperation | None = None,
    ) -> WriteResult:
        """Create the memory, or overwrite the one with the same key (reactivating it)."""
        key = validate_key(write.key)
        content = clean_content(write.content)
        if is_noise_content(content):
            if is_instruction_content(content):  # say why truthfully (issue 26), not "noise"
                raise InvalidMemoryInput("memory content reads as instructions to the assistant (prompt "
                                         "injection, e.g. about the system prompt), not something about "
                                         "the user; not stored")
            raise InvalidMemoryInput("memory content is filtered noise (tool list, weather, system state)")
        now = datetime.now(UTC)
        ttl = write.ttl_days or self._default_ttl_days
        expires_at = now + timedelta(days=ttl)
        row = self.get_for_update(session, ctx.user_pk, key)
        if row is None:
            op = operation or MemoryOperation.CREATE
            # one Core statement on the session's connection (no ORM bulk layer) on the hot path: the row,
            # its history row and its outbox row
            memory_id = session.connection().execute(_CREATE, {
                **self._record_params(session, ctx, 1, key, op, None, content, write.memory_type.value),
                "user_id": ctx.user_pk,
                "conversation_id": ctx.conversation_pk,
                "source_message_id": ctx.source_message_pk,
                "memory_key": key,
                "memory_type": write.memory_type.value,
                "content": content,
                "importance": write.importance,
                "confidence": write.confidence,
                "is_active": True,
                "expires_at": expires_at,
                "vector_status": VectorStatus.DIRTY.value,
                "m_created_at": now,
                "m_updated_at": now,
                **self._write_vector(write.memory_type.value, key, content),
            }).scalar_one()
            self._forget(session, ctx.user_pk, key)  # absent no more: the next look reads the new row
            self._became_live(session, ctx, memory_id)
            return WriteResult(memory_id, key, op)

        live = bool(row.is_active) and (row.expires_at is None or row.expires_at > now)
        unchanged = (
            live
            and row.content == content
            and row.memory_type == write.memory_type.value
            and row.importance == write.importance
            and abs((row.confidence or 0) - write.confidence) < 1e-9
        )
        if unchanged:
            return WriteResult(row.id, key, None)
        old = row.content if live else None
        self._update_row(session, row, {
            "memory_type": write.memory_type.value,
            "content": content,
            "importance": write.importance,
            "confidence": write.confidence,
            "is_active": True,
            "expires_at": expires_at,
            "conversation_id": ctx.conversation_pk or row.conversation_id,
            "source_message_id": ctx.source_message_pk or row.source_message_id,
            "vector_status": VectorStatus.DIRTY.value,
            "vector_error": None,
            "updated_at": now,
            **self._write_vector(write.memory_type.value, key, content),
        })
        op = operation or (MemoryOperation.OVERWRITE if live else MemoryOperation.CREATE)
        self._record(session, ctx, row.id, key, op, old, content, row.memory_type)
        if not live:
            self._became_live(session, ctx, row.id)
        return WriteResult(row.id, key, op)

    def append(
        self,
        session: Session,
        ctx: WriteContext,
        key: str,
        addition: str,
        memory_type: MemoryType = MemoryType.FACT,
        importance: int = 3,
        confidence: float = DEFAULT_MEMORY_CONFIDENCE,
        ttl_days: int | None = None,
    ) -> WriteResult:
        """Append ``addition`` to the memory with this key (created when absent). An addition
        already contained in the content changes nothing."""
        key = validate_key(key)
        addition = clean_content(addition)
        row = self.get_for_update(session, ctx.user_pk, key)
        now = datetime.now(UTC)
        if row is None or not row.is_active or (row.expires_at is not None and row.expires_at <= now):
            return self.save(
                session, ctx, MemoryWrite(key, memory_type, addition, importance, confidence, ttl_days)
            )
        current = row.content or ""
        if addition.casefold() in current.casefold():
            return WriteResult(row.id, key, None)
        joined = f"{current}; {addition}" if current else addition
        merged = MemoryWrite(
            key,
            MemoryType(row.memory_type or "fact"),
            joined[:MAX_MEMORY_CONTENT_CHARS],
            max(row.importance or 3, importance),
            max(row.confidence or 0.0, confidence),
            ttl_days,
        )
        return self.save(session, ctx, merged, operation=MemoryOperation.APPEND)

    def deactivate(
        self,
        session: Session,
        ctx: WriteContext,
        key: str,
        operation: MemoryOperation = MemoryOperation.DELETE,
        missing_ok: bool = False,
    ) -> WriteResult:
        """Deactivate the memory with this key; the indexer then removes its vector."""
        key = normalise_key(key)
        row = self.get_for_update(session, ctx.user_pk, key)
        if row is None or not row.is_active:
            if missing_ok:
                return WriteResult(row.id if row else None, key, None)
            raise MemoryNotFound(f"no active memory with key {key!r}")
        self._update_row(session, row, {"is_active": False, "vector_status": VectorStatus.DIRTY.value,
                                        "updated_at": datetime.now(UTC)})
        self._record(session, ctx, row.id, key, operation, row.content, None, row.memory_type)
        return WriteResult(row.id, key, operation)

    def deactivate_row(
        self, session: Session, ctx: WriteContext, row: LongTermMemory, operation: MemoryOperation
    ) -> WriteResult:
        """Deactivate this (locked) row whatever its key looks like: lifecycle jobs use it for rows
        whose stored key is not in normalised form, which ``deactivate`` cannot address by key."""
        if not row.is_active:
            return WriteResult(row.id, row.memory_key, None)
        self._update_row(session, row, {"is_active": False, "vector_status": VectorStatus.DIRTY.value,
                                        "updated_at": datetime.now(UTC)})
        self._record(session, ctx, row.id, row.memory_key, operation, row.content, None, row.memory_type)
        return WriteResult(row.id, row.memory_key, operation)

    def correct(
        self,
        session: Session,
        ctx: WriteContext,
        row: LongTermMemory,
        *,
        content: str | None = None,
        importance: int | None = None,
        ttl_days: int | None = None,
    ) -> WriteResult:
        """A human correction of this (locked, active) row: the given fields change, the others stay
        (the expiry too, unless ``ttl_days`` sets a new one from now). Same invariants as every write:
        filters, history (operation ``overwrite``, ``ctx.reason`` says who), outbox row, DIRTY. A
        correction that changes nothing writes nothing."""
        now = datetime.now(UTC)
        values: dict[str, object] = {}
        new_content = row.content
        if content is not None:
            new_content = clean_content(content)
            if is_noise_content(new_content):
                raise InvalidMemoryInput(
                    "memory content is filtered noise (tool list, weather, system state)")
            if new_content != row.content:
                values["content"] = new_content
                values.update(self._write_vector(row.memory_type or "fact", row.memory_key, new_content))
        if importance is not None and importance != row.importance:
            if not 1 <= importance <= 5:
                raise InvalidMemoryInput("importance must be between 1 and 5")
            values["importance"] = importance
        if ttl_days is not None:
            values["expires_at"] = now + timedelta(days=ttl_days)
        if not values:
            return WriteResult(row.id, row.memory_key, None)
        old = row.content
        self._update_row(session, row, {**values, "vector_status": VectorStatus.DIRTY.value,
                                        "vector_error": None, "updated_at": now})
        self._record(session, ctx, row.id, row.memory_key, MemoryOperation.OVERWRITE, old, new_content,
                     row.memory_type)
        return WriteResult(row.id, row.memory_key, MemoryOperation.OVERWRITE)

    # --- the per-user cap ---------------------------------------------------------------------
    @contextmanager
    def capped_batch(self, session: Session, ctx: WriteContext) -> Iterator[None]:
        """Check the per-user cap once when the block ends without error, instead of after each write
        inside it (a batch that creates one memory and then merges away another must not retire a
        third). Nested batches check at the end of the outermost one."""
        depth = session.info.get(_BATCH_DEPTH, 0)
        session.info[_BATCH_DEPTH] = depth + 1
        if depth == 0:
            session.info[_BATCH_WRITTEN] = set()
        try:
            yield
        finally:
            session.info[_BATCH_DEPTH] = depth
            written: set[int] = session.info.pop(_BATCH_WRITTEN, set()) if depth == 0 else set()
        if written:
            self.enforce_cap(session, ctx, written)

    def _became_live(self, session: Session, ctx: WriteContext, memory_id: int) -> None:
        if self.max_active_per_user <= 0:
            return
        if session.info.get(_BATCH_DEPTH, 0) > 0:
            session.info.setdefault(_BATCH_WRITTEN, set()).add(memory_id)
            return
        self.enforce_cap(session, ctx, {memory_id})

    def enforce_cap(self, session: Session, ctx: WriteContext, written: set[int]) -> list[WriteResult]:
        """Retire the user's live memories beyond ``max_active_per_user`` (see module docstring);
        ``written`` are the ids this write made live, retired last."""
        cap = self.max_active_per_user
        if cap <= 0:
            return []
        now = datetime.now(UTC)
        # a Core statement on the session's connection (no ORM execution path): pending ORM changes are
        # flushed first, as the ORM's autoflush would (a no-op when there are none)
        session.flush()
        count = session.connection().execute(_COUNT_LIVE, {"user_pk": ctx.user_pk, "now": now}).scalar() or 0
        if count <= cap:
            return []
        live = [LongTermMemory.user_id == ctx.user_pk, *live_clause(now)]
        victims = session.scalars(
            select(LongTermMemory)
            .where(*live)
            .order_by(
                case((LongTermMemory.id.in_(sorted(written)), 1), else_=0),
                func.coalesce(LongTermMemory.importance, 3),
                func.greatest(LongTermMemory.updated_at, LongTermMemory.last_accessed_at),
                LongTermMemory.id,
            )
            .limit(count - cap)
            .with_for_update()
        ).all()
        retire_ctx = replace(
            ctx,
            reason=(
                f"retired: the user holds more than {cap} active memories "
                "(LONG_TERM_MEMORY_MAX_ACTIVE_PER_USER); lowest importance, least recently used first"
            ),
        )
        results = [self.deactivate_row(session, retire_ctx, row, MemoryOperation.DELETE) for row in victims]
        metrics.MEMORIES_RETIRED.labels(ctx.source.value).inc(len(results))
        return results

    def _record(
        self,
        session: Session,
        ctx: WriteContext,
        memory_id: int,
        key: str,
        op: MemoryOperation,
        old: str | None,
        new: str | None,
        memory_type: str | None,
    ) -> None:
        # the history row and the outbox row in one round trip (a data-modifying CTE always runs)
        session.connection().execute(_RECORD, self._record_params(session, ctx, memory_id, key, op, old, new,
                                                                  memory_type))

    def _record_params(
        self,
        session: Session,
        ctx: WriteContext,
        memory_id: int,
        key: str,
        op: MemoryOperation,
        old: str | None,
        new: str | None,
        memory_type: str | None,
    ) -> dict[str, object]:
        """The parameters of ``_RECORD`` (and of the history and outbox part of ``_CREATE``)."""
        return {
            "h_memory_id": memory_id, "h_user_id": ctx.user_pk, "h_memory_key": key, "h_operation": op.value,
            "h_source": ctx.source.value, "h_source_message_id": ctx.source_message_pk,
            "h_command_id": ctx.command_id, "h_old_content": old, "h_new_content": new,
            "h_memory_type": memory_type, "h_reason": ctx.reason,
            **memory_dirty_params(
                topic=self._topic,
                user_external_id=user_external_id(session, ctx.user_pk),
                user_pk=ctx.user_pk,
                memory_id=memory_id,
                memory_key=key,
                operation=op,
                origin_at=ctx.origin_at,
            ),
        }
