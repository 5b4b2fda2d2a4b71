"""The SQL side of the sweeper: find stuck messages and memories and enqueue outbox rows for them.

This is the sweep of ``docs/design.md#sweep``, in place of polling workers (``memory_worker``,
``memory_index_worker``: ``docs/design.md#where-this-differs-from-the-original-design``). Nothing is
published from here: every re-drive is an outbox row committed in the same transaction as its
bookkeeping, and the outbox relay delivers it like any other row (so a re-drive is as reliable as a
write). Core never imports Kafka.

Messages (``memory_worker``): a *user* message left ``PENDING`` or ``FAILED`` for longer than the
grace period is re-published as a ``pai.chat.message.v1`` event (same ``message_id``, user,
conversation, content and ``created_at``; key = user id) to the chat topic. The extractor's ingest
is idempotent and re-processes messages that are not final. Assistant/system/tool messages are
stored ``SKIPPED`` and are never re-driven. Bounded without a schema change:

- a message is re-driven at most ``max_redrives`` times, counted as the chat outbox rows whose
  ``aggregate_id`` is the message (kept for ``OUTBOX_RETENTION_HOURS``: after the retention window
  a message that is *still* stuck gets another round of ``max_redrives``);
- a ``FAILED`` message is re-driven only while ``memory_attempts < max_attempts + max_redrives``.
  Each consumed re-drive of a FAILED message costs one attempt (the extractor marks it FAILED again
  at once when it fails), so this cap is permanent;
- a message with a re-drive row still unpublished is left alone, and the re-drive sets the message's
  ``updated_at``, so the next re-drive waits at least another grace period.

Memories (``memory_index_worker``): a memory with ``vector_status`` ``DIRTY`` or ``FAILED``, last
updated more than ``grace_sec`` ago, with no unpublished ``memory.dirty`` row and no ``memory.dirty``
row created within its backoff (``grace_sec`` for DIRTY, ``failed_backoff_sec`` for FAILED), gets a
new ``memory.dirty`` row (``overwrite`` for a live memory, ``delete`` for an inactive one,
``expire`` for an expired one). FAILED memories are retried without a count limit (nothing committed
may stay unindexed) but never more often than ``failed_backoff_sec``.

Episodes (``core.episodes``): an episode left ``DIRTY`` or ``FAILED`` past the same grace/backoff with no
unpublished or recent ``pai.episode.dirty.v1`` row is announced again (``store.redrive_episodes``) in the
memory scan's transaction.

Several sweepers may run: each scan takes a transaction-scoped advisory "leader" lock and is skipped
(returns ``None``) when another process holds it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from pydantic import ValidationError
from sqlalchemy import insert, text, update
from sqlalchemy.orm import Session, sessionmaker

from core.config import Settings
from core.episodes.store import redrive_episodes
from core.memory.outbox import enqueue_memory_dirty
from core.memory.text import dirty_operation
from core.storage.db import transaction
from core.storage.locks import AdvisoryLock
from core.storage.models import Message, OutboxEvent
from core.types import MemoryOperation, MessageRole, MessageStatus, VectorStatus
from schemas import (
    CHAT_MESSAGE_V1,
    MEMORY_DIRTY_V1,
    ChatMessageData,
    describe_validation_error,
    make_event,
    to_dict,
)
from schemas.errors import SchemaError

log = logging.getLogger(__name__)

REDRIVE_SOURCE = "pai-memory/sweeper"
LOCK_NAMESPACE = int(AdvisoryLock.SWEEPER_LEADER)
"""Advisory-lock namespace of the sweeper's leader locks (``core.storage.locks``)."""
MESSAGE_SCAN_LOCK = 1
MEMORY_SCAN_LOCK = 2


def message_redrive_grace(settings: Settings) -> float:
    """Seconds a message may stay PENDING/FAILED before a re-drive: the configured value, else
    ``max(2 * LONG_TERM_MEMORY_DEBOUNCE_SEC, 60)`` (the extractor may legitimately hold a burst for
    the debounce window)."""
    if settings.MEMORY_MESSAGE_REDRIVE_GRACE_SEC is not None:
        return settings.MEMORY_MESSAGE_REDRIVE_GRACE_SEC
    return max(2 * settings.LONG_TERM_MEMORY_DEBOUNCE_SEC, 60.0)


@dataclass(frozen=True)
class MessageRedrive:
    """One re-published message."""

    message_pk: int
    upstream_message_id: str
    status: str
    outbox_id: int


@dataclass(frozen=True)
class MemoryRedrive:
    """One re-enqueued memory."""

    memory_id: int
    operation: MemoryOperation
    outbox_id: int


@dataclass
class MessageScan:
    redriven: list[MessageRedrive] = field(default_factory=list)
    invalid: list[int] = field(default_factory=list)  # rows that make no valid event: parked FAILED


_MESSAGE_CANDIDATES = text("""
SELECT m.id, m.upstream_message_id, m.role, m.content, m.created_at, m.memory_status,
       u.external_id AS user_external_id, c.external_id AS conversation_external_id
FROM messages m
JOIN users u ON u.id = m.user_id
JOIN conversations c ON c.id = m.conversation_id
WHERE m.role = :user_role
  AND m.memory_status IN (:pending, :failed)
  AND m.updated_at < :before
  AND (m.memory_status = :pending OR m.memory_attempts < :attempt_cap)
  AND NOT EXISTS (SELECT 1 FROM outbox o
                  WHERE o.aggregate_id = m.id AND o.event_type = :chat_type AND o.published_at IS NULL)
  AND (SELECT count(*) FROM outbox o WHERE o.aggregate_id = m.id AND o.event_type = :chat_type)
      < :max_redrives
ORDER BY m.updated_at, m.id
LIMIT :limit
FOR UPDATE OF m SKIP LOCKED
""")

_MEMORY_CANDIDATES = text("""
SELECT l.id, l.user_id, u.external_id AS user_external_id, l.memory_key, l.is_active, l.expires_at,
       l.vector_status
FROM long_term_memories l
JOIN users u ON u.id = l.user_id
WHERE l.vector_status IN (:dirty, :failed)
  AND l.updated_at < :grace_before
  AND NOT EXISTS (
      SELECT 1 FROM outbox o
      WHERE o.aggregate_id = l.id AND o.event_type = :dirty_type
        AND (o.published_at IS NULL
             OR o.created_at >= CASE WHEN l.vector_status = :failed THEN :failed_before
                                     ELSE :grace_before END))
ORDER BY l.updated_at, l.id
LIMIT :limit
""")


def _try_leader(session: Session, key: int) -> bool:
    return bool(
        session.execute(
            text("SELECT pg_try_advisory_xact_lock(:ns, :key)"), {"ns": LOCK_NAMESPACE, "key": key}
        ).scalar_one()
    )


def redrive_messages(
    session: Session,
    *,
    chat_topic: str,
    grace_sec: float,
    max_attempts: int,
    max_redrives: int,
    limit: int,
    now: datetime | None = None,
) -> MessageScan:
    """Re-drive up to ``limit`` stuck user messages in the caller's transaction (see module doc).

    Each re-drive inserts one outbox row (topic ``chat_topic``, ``aggregate_id`` = message id,
    payload = the ``ChatMessageEvent``) and sets the message's ``updated_at`` to ``now``. A row that
    cannot form a valid event (e.g. an id outside the event id pattern) is marked ``FAILED`` with the
    attempt cap reached and the reason, and reported in ``invalid``.
    """
    scan = MessageScan()
    if max_redrives <= 0:
        return scan
    now = now or datetime.now(UTC)
    rows = (
        session.execute(
            _MESSAGE_CANDIDATES,
            {
                "user_role": MessageRole.USER.value,
                "pending": MessageStatus.PENDING.value,
                "failed": MessageStatus.FAILED.value,
                "before": now - timedelta(seconds=grace_sec),
                "attempt_cap": max_attempts + max_redrives,
                "chat_type": CHAT_MESSAGE_V1,
                "max_redrives": max_redrives,
                "limit": limit,
            },
        )
        .mappings()
        .all()
    )
    for row in rows:
        try:
            data = ChatMessageData(
                message_id=row["upstream_message_id"],
                user_id=row["user_external_id"],
                conversation_id=row["conversation_external_id"],
                role=MessageRole(row["role"]),
                content=row["content"],
                created_at=row["created_at"],
            )
            event = make_event(data, source=REDRIVE_SOURCE, time=now)
        except (ValidationError, SchemaError, ValueError) as exc:
            # It can never be re-driven: park it FAILED with the attempt cap reached, so it neither
            # blocks later scans nor is retried, and say why.
            reason = describe_validation_error(exc) if isinstance(exc, ValidationError) else str(exc)
            log.warning("message %s cannot be re-driven as an event: %s", row["id"], reason)
            session.execute(
                update(Message)
                .where(Message.id == row["id"])
                .values(
                    memory_status=MessageStatus.FAILED.value,
                    memory_attempts=max_attempts + max_redrives,
                    memory_error=f"not re-drivable as an event: {reason}"[:2000],
                    updated_at=now,
                )
            )
            scan.invalid.append(int(row["id"]))
            continue
        outbox_id = session.execute(
            insert(OutboxEvent)
            .values(
                topic=chat_topic,
                message_key=row["user_external_id"],
                event_type=event.type,
                aggregate_id=row["id"],
                payload=to_dict(event),
                created_at=now,
            )
            .returning(OutboxEvent.id)
        ).scalar_one()
        session.execute(update(Message).where(Message.id == row["id"]).values(updated_at=now))
        scan.redriven.append(
            MessageRedrive(int(row["id"]), row["upstream_message_id"], row["memory_status"], int(outbox_id))
        )
    return scan


def redrive_memories(
    session: Session,
    *,
    dirty_topic: str,
    grace_sec: float,
    failed_backoff_sec: float,
    limit: int,
    now: datetime | None = None,
) -> list[MemoryRedrive]:
    """Enqueue a ``memory.dirty`` row for up to ``limit`` memories left DIRTY/FAILED (see module doc),
    in the caller's transaction."""
    now = now or datetime.now(UTC)
    rows = (
        session.execute(
            _MEMORY_CANDIDATES,
            {
                "dirty": VectorStatus.DIRTY.value,
                "failed": VectorStatus.FAILED.value,
                "grace_before": now - timedelta(seconds=grace_sec),
                "failed_before": now - timedelta(seconds=max(failed_backoff_sec, grace_sec)),
                "dirty_type": MEMORY_DIRTY_V1,
                "limit": limit,
            },
        )
        .mappings()
        .all()
    )
    out: list[MemoryRedrive] = []
    for row in rows:
        op = dirty_operation(row["is_active"], row["expires_at"], now)
        try:
            outbox_id = enqueue_memory_dirty(
                session,
                topic=dirty_topic,
                user_external_id=row["user_external_id"],
                user_pk=row["user_id"],
                memory_id=row["id"],
                memory_key=row["memory_key"],
                operation=op,
            )
        except ValidationError as exc:  # the writer could not have stored it; never block the scan
            log.error("memory %s cannot be announced: %s", row["id"], describe_validation_error(exc))
            continue
        out.append(MemoryRedrive(int(row["id"]), op, outbox_id))
    return out


class Redriver:
    """Runs the two scans against the database of ``settings``, each in its own transaction under a
    leader lock. Methods return ``None`` when another sweeper holds the lock."""

    def __init__(
        self,
        settings: Settings,
        sessions: sessionmaker[Session],
        *,
        batch_size: int = 500,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.settings = settings
        self.sessions = sessions
        self.batch_size = batch_size
        self._now = clock or (lambda: datetime.now(UTC))
        self.episodes_redriven = 0

    def scan_messages(self) -> MessageScan | None:
        s = self.settings
        with transaction(self.sessions) as session:
            if not _try_leader(session, MESSAGE_SCAN_LOCK):
                return None
            return redrive_messages(
                session,
                chat_topic=s.TOPIC_CHAT_MESSAGES,
                grace_sec=message_redrive_grace(s),
                max_attempts=s.MEMORY_MESSAGE_MAX_ATTEMPTS,
                max_redrives=s.MEMORY_MESSAGE_MAX_REDRIVES,
                limit=self.batch_size,
                now=self._now(),
            )

    def scan_memories(self) -> list[MemoryRedrive] | None:
        """Memories, then episodes (``core.episodes``: counted in ``episodes_redriven``), left unindexed."""
        s = self.settings
        with transaction(self.sessions) as session:
            if not _try_leader(session, MEMORY_SCAN_LOCK):
                return None
            if s.EPISODES_ENABLED:
                episodes = redrive_episodes(
                    session, topic=s.TOPIC_MEMORY_DIRTY, grace_sec=s.MEMORY_INDEX_REDRIVE_GRACE_SEC,
                    failed_backoff_sec=max(s.MEMORY_INDEX_WORKER_INTERVAL_SEC,
                                           s.LONG_TERM_MEMORY_SCAN_INTERVAL_SEC),
                    limit=self.batch_size, now=self._now())
                self.episodes_redriven += len(episodes)
                if episodes:
                    log.info("re-enqueued %d unindexed episodes", len(episodes))
            return redrive_memories(
                session,
                dirty_topic=s.TOPIC_MEMORY_DIRTY,
                grace_sec=s.MEMORY_INDEX_REDRIVE_GRACE_SEC,
                failed_backoff_sec=max(
                    s.MEMORY_INDEX_WORKER_INTERVAL_SEC, s.LONG_TERM_MEMORY_SCAN_INTERVAL_SEC
                ),
                limit=self.batch_size,
                now=self._now(),
            )
