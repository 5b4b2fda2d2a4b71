"""Cheap aggregate counts of the truth, sampled into gauges by the relay process."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from core.storage.models import LongTermMemory, Message, OutboxEvent, User
from core.types import MessageStatus, VectorStatus


@dataclass
class TruthStats:
    messages_by_status: dict[str, int] = field(default_factory=dict)
    memories_by_vector_status: dict[tuple[str, bool], int] = field(default_factory=dict)
    outbox_backlog: int = 0
    outbox_oldest_age_seconds: float = 0.0


def sample(session: Session) -> TruthStats:
    """One round trip per table; the status columns are indexed (partial indexes on the hot values)."""
    stats = TruthStats()
    for status, n in session.execute(text("SELECT memory_status, count(*) FROM messages GROUP BY 1")):
        stats.messages_by_status[str(status)] = int(n)
    for vstatus, active, n in session.execute(text(
            "SELECT coalesce(vector_status, 'DIRTY'), coalesce(is_active, true), count(*) "
            "FROM long_term_memories GROUP BY 1, 2")):
        stats.memories_by_vector_status[(str(vstatus), bool(active))] = int(n)
    backlog, oldest = session.execute(text(
        "SELECT count(*), coalesce(extract(epoch FROM now() - min(created_at)), 0) "
        "FROM outbox WHERE published_at IS NULL")).one()
    stats.outbox_backlog, stats.outbox_oldest_age_seconds = int(backlog), float(oldest)
    return stats


@dataclass
class PipelineState:
    """How far the pipeline got: stored/final messages, unsynced memories, unpublished outbox rows."""

    messages: int = 0
    messages_final: int = 0
    memories: int = 0
    memories_unsynced: int = 0
    outbox_backlog: int = 0

    @property
    def settled(self) -> bool:
        return (
            self.messages_final == self.messages and self.memories_unsynced == 0 and self.outbox_backlog == 0
        )


_FINAL = (MessageStatus.PROCESSED.value, MessageStatus.SKIPPED.value, MessageStatus.FAILED.value)


def pipeline_progress(
    session: Session, message_ids: Iterable[str] | None = None, user_ids: Iterable[str] | None = None
) -> PipelineState:
    """``PipelineState`` of the messages with these upstream ids and of these users' memories
    (every message / memory when ``None``); the outbox backlog is always the whole table's."""
    state = PipelineState()
    mq = select(Message.memory_status)
    if message_ids is not None:
        mq = mq.where(Message.upstream_message_id.in_(list(message_ids)))
    statuses = session.scalars(mq).all()
    state.messages = len(statuses)
    state.messages_final = sum(st in _FINAL for st in statuses)
    lq = select(LongTermMemory.vector_status)
    if user_ids is not None:
        lq = lq.join(User, User.id == LongTermMemory.user_id).where(User.external_id.in_(list(user_ids)))
    vstatuses = session.scalars(lq).all()
    state.memories = len(vstatuses)
    state.memories_unsynced = sum(v != VectorStatus.SYNCED.value for v in vstatuses)
    backlog = session.scalar(
        select(func.count()).select_from(OutboxEvent).where(OutboxEvent.published_at.is_(None)))
    state.outbox_backlog = int(backlog or 0)
    return state
