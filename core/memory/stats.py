"""Cheap aggregate counts of the truth, sampled into gauges by the relay process."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session, sessionmaker

from core.storage.models import Episode, LongTermMemory, Message, OutboxEvent, User


@dataclass
class TruthStats:
    messages_by_status: dict[str, int] = field(default_factory=dict)
    memories_by_vector_status: dict[tuple[str, bool], int] = field(default_factory=dict)
    outbox_backlog: int = 0
    outbox_oldest_age_seconds: float = 0.0
    episodes_by_vector_status: dict[str, int] = field(default_factory=dict)


def sample(session: Session) -> TruthStats:
    """One round trip per table; the status columns are indexed (partial indexes on the hot values)."""
    stats = TruthStats()
    for status, n in session.execute(text("SELECT memory_status, count(*) FROM messages GROUP BY 1")):
        stats.messages_by_status[str(status)] = int(n)
    for vstatus, active, n in session.execute(text(
            "SELECT coalesce(vector_status, 'DIRTY'), coalesce(is_active, true), count(*) "
            "FROM long_term_memories GROUP BY 1, 2")):
        stats.memories_by_vector_status[(str(vstatus), bool(active))] = int(n)
    for vstatus, n in session.execute(text("SELECT vector_status, count(*) FROM episodes GROUP BY 1")):
        stats.episodes_by_vector_status[str(vstatus)] = int(n)
    backlog, oldest = session.execute(text(
        "SELECT count(*), coalesce(extract(epoch FROM now() - min(created_at)), 0) "
        "FROM outbox WHERE published_at IS NULL")).one()
    stats.outbox_backlog, stats.outbox_oldest_age_seconds = int(backlog), float(oldest)
    return stats


FINAL_STATUSES = ("PROCESSED", "SKIPPED", "FAILED")


@dataclass
class PipelineProgress:
    """Where the pipeline stands for a set of messages and users (counts from PostgreSQL)."""

    messages: int = 0  # messages asked about (all stored messages when none were named)
    stored: int = 0
    processed: int = 0
    skipped: int = 0
    failed: int = 0
    pending: int = 0
    memories: int = 0  # memory rows of the users asked about (all users when none were named)
    unsynced: int = 0  # of those, not SYNCED
    outbox_backlog: int = 0  # outbox rows not yet published (all users)
    episodes_unsynced: int = 0  # episode rows of those users not SYNCED (core.episodes)

    @property
    def final(self) -> int:
        return self.processed + self.skipped + self.failed

    @property
    def indexed(self) -> bool:
        """Every memory and episode SYNCED and the outbox drained (the index side has caught up)."""
        return self.unsynced == 0 and self.outbox_backlog == 0 and self.episodes_unsynced == 0

    @property
    def settled(self) -> bool:
        """Every message stored and final, and ``indexed``."""
        return self.stored == self.messages and self.final == self.messages and self.indexed

    @property
    def all_processed(self) -> bool:
        """``settled`` with every message ``PROCESSED`` (none skipped or failed)."""
        return self.settled and self.processed == self.messages


def pipeline_progress(sessions: sessionmaker[Session], message_ids: Iterable[str] | None = None,
                      user_ids: Iterable[str] | None = None) -> PipelineProgress:
    """Counts for the upstream ``message_ids`` and the external ``user_ids`` (None: all of them)."""
    ids = None if message_ids is None else sorted(set(message_ids))
    user_ids = None if user_ids is None else list(user_ids)  # read twice below
    out = PipelineProgress()
    with sessions() as s:
        mq = select(Message.memory_status, func.count()).group_by(Message.memory_status)
        if ids is not None:
            mq = mq.where(Message.upstream_message_id.in_(ids))
            if user_ids is not None:  # message ids are scoped by user: another user's same id is not ours
                mq = mq.join(User, User.id == Message.user_id).where(User.external_id.in_(list(user_ids)))
        counts = {str(k): int(v) for k, v in s.execute(mq).all()}
        out.stored = sum(counts.values())
        out.messages = len(ids) if ids is not None else out.stored
        out.processed = counts.get("PROCESSED", 0)
        out.skipped = counts.get("SKIPPED", 0)
        out.failed = counts.get("FAILED", 0)
        out.pending = counts.get("PENDING", 0)
        vq = select(LongTermMemory.vector_status, func.count()).group_by(LongTermMemory.vector_status)
        if user_ids is not None:
            vq = vq.join(User, User.id == LongTermMemory.user_id).where(User.external_id.in_(list(user_ids)))
        vcounts = {str(k): int(v) for k, v in s.execute(vq).all()}
        out.memories = sum(vcounts.values())
        out.unsynced = out.memories - vcounts.get("SYNCED", 0)
        eq = select(func.count()).select_from(Episode).where(Episode.vector_status != "SYNCED")
        if user_ids is not None:
            eq = eq.join(User, User.id == Episode.user_id).where(User.external_id.in_(list(user_ids)))
        out.episodes_unsynced = int(s.scalar(eq) or 0)
        out.outbox_backlog = int(s.scalar(select(func.count()).select_from(OutboxEvent)
                                          .where(OutboxEvent.published_at.is_(None))) or 0)
    return out
