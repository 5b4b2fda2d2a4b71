"""Read-only views of the truth for the operator console: users, memories, history, messages, outbox.

Every list is paged in SQL (``LIMIT``/``OFFSET`` over a deterministic order, at most ``MAX_PAGE_SIZE``
rows and ``MAX_PAGE`` pages) and filtered in SQL; nothing here loads a user's rows into Python to
filter them. Counts stop at ``COUNT_CAP`` (``Page.capped``), so a page costs the same for a user with
100k rows as for one with 10k. A user's memories are ordered like ``memory_list`` (importance, then
most recently updated, then id), which the ``ix_ltm_user_live_order`` index serves for the active
ones. Nothing in this module writes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import ColumnElement, ScalarSelect, Select, and_, func, literal, select
from sqlalchemy.orm import Session

from core.storage.models import (
    Conversation,
    Episode,
    LongTermMemory,
    MemoryHistory,
    Message,
    OutboxEvent,
    User,
)

MAX_PAGE_SIZE = 200
MAX_PAGE = 10_000
COUNT_CAP = 10_000

T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a list: ``items``, the 1-based ``page`` number, ``page_size`` and the ``total`` count
    (counted up to ``COUNT_CAP``; beyond it ``capped`` is true and ``total`` is the cap)."""

    items: list[T]
    page: int
    page_size: int
    total: int
    capped: bool = False

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))

    @property
    def has_next(self) -> bool:
        return self.page < self.pages or (self.capped and len(self.items) == self.page_size)


def _count(session: Session, stmt: Select[Any]) -> tuple[int, bool]:
    """Rows of ``stmt`` counted up to ``COUNT_CAP`` (and whether there are more)."""
    n = int(session.execute(select(func.count()).select_from(stmt.limit(COUNT_CAP + 1).subquery()))
            .scalar_one())
    return min(n, COUNT_CAP), n > COUNT_CAP


def _capped_count(where: ColumnElement[bool]) -> ScalarSelect[Any]:
    """A correlated count of memories matching ``where``, stopping at ``COUNT_CAP + 1``."""
    inner = select(literal(1)).where(where).limit(COUNT_CAP + 1).correlate(User).subquery()
    return select(func.count()).select_from(inner).scalar_subquery()


def _check_page(page: int, page_size: int) -> int:
    if not 1 <= page <= MAX_PAGE:
        raise ValueError(f"page must be between 1 and {MAX_PAGE}")
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise ValueError(f"page_size must be between 1 and {MAX_PAGE_SIZE}")
    return (page - 1) * page_size


@dataclass(frozen=True)
class UserRow:
    external_id: str
    created_at: datetime
    active_memories: int
    memories: int


def list_users(session: Session, *, prefix: str | None = None, page: int = 1,
               page_size: int = 50) -> Page[UserRow]:
    """Users by external id (optionally those starting with ``prefix``), with their memory counts."""
    offset = _check_page(page, page_size)
    where: list[ColumnElement[bool]] = []
    if prefix:
        where.append(User.external_id.startswith(prefix, autoescape=True))
    total, capped = _count(session, select(User.id).where(*where))
    active = _capped_count(and_(LongTermMemory.user_id == User.id, LongTermMemory.is_active.is_(True)))
    every = _capped_count(LongTermMemory.user_id == User.id)
    rows = session.execute(
        select(User.external_id, User.created_at, active, every).where(*where)
        .order_by(User.external_id).limit(page_size).offset(offset)).all()
    return Page([UserRow(r[0], r[1], int(r[2]), int(r[3])) for r in rows], page, page_size, total, capped)


def find_user_pk(session: Session, external_id: str) -> int | None:
    return session.execute(select(User.id).where(User.external_id == external_id)).scalar_one_or_none()


@dataclass(frozen=True)
class MemoryFilter:
    """SQL filters of a user's memories; ``None`` = no filter on that column."""

    memory_type: str | None = None
    active: bool | None = None
    vector_status: str | None = None
    key_prefix: str | None = None

    def clauses(self) -> list[ColumnElement[bool]]:
        out: list[ColumnElement[bool]] = []
        if self.memory_type is not None:
            out.append(LongTermMemory.memory_type == self.memory_type)
        if self.active is True:
            out.append(LongTermMemory.is_active.is_(True))
        elif self.active is False:
            out.append(LongTermMemory.is_active.is_not(True))
        if self.vector_status is not None:
            out.append(LongTermMemory.vector_status == self.vector_status)
        if self.key_prefix:
            out.append(LongTermMemory.memory_key.startswith(self.key_prefix, autoescape=True))
        return out


@dataclass(frozen=True)
class MemoryRow:
    id: int
    user_id: str
    key: str
    memory_type: str | None
    content: str | None
    importance: int | None
    confidence: float | None
    is_active: bool
    expires_at: datetime | None
    vector_status: str | None
    vector_error: str | None
    vector_synced_at: datetime | None
    source_message_id: int | None
    created_at: datetime
    updated_at: datetime

    @property
    def expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= datetime.now(UTC)

    @property
    def ttl_days(self) -> float | None:
        """Days left until ``expires_at`` (negative once expired); ``None`` = never expires."""
        if self.expires_at is None:
            return None
        return round((self.expires_at - datetime.now(UTC)).total_seconds() / 86400.0, 1)


def _memory_row(m: LongTermMemory, user_external_id: str) -> MemoryRow:
    return MemoryRow(m.id, user_external_id, m.memory_key, m.memory_type, m.content, m.importance,
                     m.confidence, bool(m.is_active), m.expires_at, m.vector_status, m.vector_error,
                     m.vector_synced_at, m.source_message_id, m.created_at, m.updated_at)


def list_memories(session: Session, user_pk: int, user_external_id: str, flt: MemoryFilter | None = None, *,
                  page: int = 1, page_size: int = 50) -> Page[MemoryRow]:
    """One page of a user's memories matching ``flt``, by importance, recency, id (like ``memory_list``)."""
    offset = _check_page(page, page_size)
    where = [LongTermMemory.user_id == user_pk, *(flt or MemoryFilter()).clauses()]
    total, capped = _count(session, select(LongTermMemory.id).where(*where))
    rows = session.execute(
        select(LongTermMemory).where(*where)
        .order_by(LongTermMemory.importance.desc(), LongTermMemory.updated_at.desc(), LongTermMemory.id)
        .limit(page_size).offset(offset)).scalars().all()
    return Page([_memory_row(m, user_external_id) for m in rows], page, page_size, total, capped)


def get_memory(session: Session, memory_id: int) -> MemoryRow | None:
    row = session.execute(select(LongTermMemory, User.external_id)
                          .join(User, User.id == LongTermMemory.user_id)
                          .where(LongTermMemory.id == memory_id)).first()
    return None if row is None else _memory_row(row[0], row[1])


def get_user_memory(session: Session, user_external_id: str, memory_id: int) -> MemoryRow | None:
    """Memory ``memory_id`` if it belongs to ``user_external_id``; ``None`` otherwise (a memory of another
    user and a missing one look the same)."""
    row = session.execute(select(LongTermMemory, User.external_id)
                          .join(User, User.id == LongTermMemory.user_id)
                          .where(LongTermMemory.id == memory_id,
                                 User.external_id == user_external_id)).first()
    return None if row is None else _memory_row(row[0], row[1])


@dataclass(frozen=True)
class SourceMessage:
    id: int
    upstream_message_id: str
    conversation_id: str
    role: str
    content: str
    memory_status: str
    created_at: datetime


@dataclass(frozen=True)
class HistoryRow:
    id: int
    operation: str
    source: str
    command_id: str | None
    old_content: str | None
    new_content: str | None
    memory_type: str | None
    reason: str | None
    created_at: datetime
    message: SourceMessage | None


def memory_history(session: Session, memory_id: int, limit: int = 500) -> list[HistoryRow]:
    """A memory's changes, oldest first, each with the stored message that produced it (if any)."""
    rows = session.execute(
        select(MemoryHistory, Message, Conversation.external_id)
        .outerjoin(Message, Message.id == MemoryHistory.source_message_id)
        .outerjoin(Conversation, Conversation.id == Message.conversation_id)
        .where(MemoryHistory.memory_id == memory_id)
        .order_by(MemoryHistory.created_at, MemoryHistory.id).limit(limit)).all()
    out = []
    for h, m, conv in rows:
        msg = None if m is None else SourceMessage(m.id, m.upstream_message_id, conv or "", m.role, m.content,
                                                   m.memory_status, m.created_at)
        out.append(HistoryRow(h.id, h.operation, h.source, h.command_id, h.old_content, h.new_content,
                              h.memory_type, h.reason, h.created_at, msg))
    return out


@dataclass(frozen=True)
class MessageRow:
    id: int
    upstream_message_id: str
    conversation_id: str
    role: str
    content: str
    memory_status: str
    memory_attempts: int
    memory_error: str | None
    created_at: datetime
    processed_at: datetime | None
    memory_changes: int  # memory_history rows this message produced


def list_messages(session: Session, user_pk: int, *, status: str | None = None, page: int = 1,
                  page_size: int = 50) -> Page[MessageRow]:
    """One page of a user's stored messages, newest first, with their memory status and the number of
    memory changes each produced."""
    offset = _check_page(page, page_size)
    where: list[ColumnElement[bool]] = [Message.user_id == user_pk]
    if status is not None:
        where.append(Message.memory_status == status)
    total, capped = _count(session, select(Message.id).where(*where))
    rows = session.execute(
        select(Message, Conversation.external_id)
        .join(Conversation, Conversation.id == Message.conversation_id)
        .where(*where).order_by(Message.created_at.desc(), Message.id.desc())
        .limit(page_size).offset(offset)).all()
    ids = [m.id for m, _ in rows]
    changes: dict[int, int] = {}
    if ids:
        changes = {int(k or 0): int(v) for k, v in session.execute(
            select(MemoryHistory.source_message_id, func.count())
            .where(MemoryHistory.user_id == user_pk, MemoryHistory.source_message_id.in_(ids))
            .group_by(MemoryHistory.source_message_id)).all()}
    items = [MessageRow(m.id, m.upstream_message_id, conv, m.role, m.content, m.memory_status,
                        m.memory_attempts, m.memory_error, m.created_at, m.processed_at, changes.get(m.id, 0))
             for m, conv in rows]
    return Page(items, page, page_size, total, capped)


@dataclass(frozen=True)
class EpisodeRow:
    id: int
    upstream_message_id: str
    conversation: str
    passage_index: int
    content: str
    sent_at: datetime
    expires_at: datetime | None
    vector_status: str
    vector_error: str | None


def list_episodes(session: Session, user_pk: int, *, page: int = 1, page_size: int = 50) -> Page[EpisodeRow]:
    """One page of a user's episodes (``core.episodes``: passages of what they said), newest first, with
    their message, conversation, expiry and index state."""
    offset = _check_page(page, page_size)
    total, capped = _count(session, select(Episode.id).where(Episode.user_id == user_pk))
    rows = session.execute(
        select(Episode, Message.upstream_message_id, Conversation.external_id)
        .join(Message, Message.id == Episode.message_id)
        .join(Conversation, Conversation.id == Episode.conversation_id)
        .where(Episode.user_id == user_pk)
        .order_by(Episode.sent_at.desc(), Episode.id.desc()).limit(page_size).offset(offset)).all()
    items = [EpisodeRow(e.id, up, conv, e.passage_index, e.content, e.sent_at, e.expires_at, e.vector_status,
                        e.vector_error) for e, up, conv in rows]
    return Page(items, page, page_size, total, capped)


@dataclass(frozen=True)
class OutboxBacklog:
    topic: str
    unpublished: int
    oldest_created_at: datetime | None
    max_attempts: int
    last_error: str | None


def outbox_backlog(session: Session) -> list[OutboxBacklog]:
    """Unpublished outbox rows per topic: how many, the oldest, the most attempts and an error seen."""
    rows = session.execute(
        select(OutboxEvent.topic, func.count(), func.min(OutboxEvent.created_at),
               func.max(OutboxEvent.attempts), func.max(OutboxEvent.last_error))
        .where(OutboxEvent.published_at.is_(None))
        .group_by(OutboxEvent.topic).order_by(OutboxEvent.topic)).all()
    return [OutboxBacklog(str(t), int(n), oldest, int(att or 0), err) for t, n, oldest, att, err in rows]


# --- export of one user's data (GDPR art. 15/20): server-side cursors, one row at a time ------------
EXPORT_BATCH = 500


def iter_user_memories(session: Session, user_pk: int) -> Iterator[dict[str, Any]]:
    """Every memory of the user (live or not), by id, as JSON-ready dicts (streamed from the server)."""
    stmt = (select(LongTermMemory).where(LongTermMemory.user_id == user_pk).order_by(LongTermMemory.id)
            .execution_options(yield_per=EXPORT_BATCH))
    for m in session.scalars(stmt):
        yield {"id": m.id, "key": m.memory_key, "memory_type": m.memory_type, "content": m.content,
               "importance": m.importance, "confidence": m.confidence, "is_active": bool(m.is_active),
               "expires_at": _iso(m.expires_at), "vector_status": m.vector_status,
               "source_message_id": m.source_message_id, "created_at": _iso(m.created_at),
               "updated_at": _iso(m.updated_at), "last_accessed_at": _iso(m.last_accessed_at)}


def iter_user_history(session: Session, user_pk: int) -> Iterator[dict[str, Any]]:
    """Every memory change of the user, oldest first."""
    stmt = (select(MemoryHistory).where(MemoryHistory.user_id == user_pk)
            .order_by(MemoryHistory.created_at, MemoryHistory.id).execution_options(yield_per=EXPORT_BATCH))
    for h in session.scalars(stmt):
        yield {"id": h.id, "memory_id": h.memory_id, "key": h.memory_key, "operation": h.operation,
               "source": h.source, "source_message_id": h.source_message_id, "command_id": h.command_id,
               "old_content": h.old_content, "new_content": h.new_content, "memory_type": h.memory_type,
               "reason": h.reason, "created_at": _iso(h.created_at)}


def iter_user_messages(session: Session, user_pk: int) -> Iterator[dict[str, Any]]:
    """Every stored message of the user, oldest first, with its conversation's upstream id."""
    stmt = (select(Message, Conversation.external_id)
            .join(Conversation, Conversation.id == Message.conversation_id)
            .where(Message.user_id == user_pk).order_by(Message.created_at, Message.id)
            .execution_options(yield_per=EXPORT_BATCH))
    for m, conv in session.execute(stmt):
        yield {"id": m.id, "message_id": m.upstream_message_id, "conversation_id": conv, "role": m.role,
               "content": m.content, "memory_status": m.memory_status, "created_at": _iso(m.created_at),
               "processed_at": _iso(m.processed_at)}


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None
