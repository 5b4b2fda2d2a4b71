"""The SQL side of the sweeper over real PostgreSQL: what gets re-driven, what is left alone."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from core.config import Settings
from core.memory.redrive import (
    LOCK_NAMESPACE,
    MESSAGE_SCAN_LOCK,
    Redriver,
    message_redrive_grace,
    redrive_memories,
    redrive_messages,
)
from core.memory.store import IncomingMessage, store_message
from core.memory.tools import MemoryTools, ToolWrite
from core.memory.writer import MemoryWriter
from core.storage.db import session_factory, transaction
from core.storage.models import LongTermMemory, Message, OutboxEvent
from core.types import MemoryOperation, MessageStatus
from producers.sweeper import Sweeper
from schemas import CHAT_MESSAGE_V1, MEMORY_DIRTY_V1, parse_chat_message, parse_memory_dirty

pytestmark = pytest.mark.services

CHAT = "test.chat.redrive"
DIRTY = "test.dirty.redrive"
GRACE = 60.0


@pytest.fixture
def sessions(clean_db: Engine) -> sessionmaker[Session]:
    return session_factory(clean_db)


def _store(
    sessions: sessionmaker[Session],
    mid: str,
    *,
    role: str = "user",
    user: str = "u1",
    content: str = "I live in Hangzhou",
    age_sec: float = 3600.0,
    status: str | None = None,
    attempts: int = 0,
) -> int:
    created = datetime(2025, 3, 1, 8, 0, tzinfo=UTC)
    with transaction(sessions) as s:
        row, _ = store_message(
            s,
            IncomingMessage(
                message_id=mid,
                user_id=user,
                conversation_id="c1",
                role=role,
                content=content,
                created_at=created,
            ),
        )
        values: dict[str, object] = {
            "updated_at": datetime.now(UTC) - timedelta(seconds=age_sec),
            "memory_attempts": attempts,
        }
        if status is not None:
            values["memory_status"] = status
        s.execute(update(Message).where(Message.id == row.id).values(**values))
        return row.id


def _scan(
    sessions: sessionmaker[Session],
    *,
    now: datetime | None = None,
    max_redrives: int = 3,
    max_attempts: int = 5,
) -> list[int]:
    with transaction(sessions) as s:
        scan = redrive_messages(
            s,
            chat_topic=CHAT,
            grace_sec=GRACE,
            max_attempts=max_attempts,
            max_redrives=max_redrives,
            limit=100,
            now=now,
        )
        return [r.message_pk for r in scan.redriven]


def _chat_rows(sessions: sessionmaker[Session]) -> list[OutboxEvent]:
    with sessions() as s:
        return list(
            s.scalars(
                select(OutboxEvent).where(OutboxEvent.event_type == CHAT_MESSAGE_V1).order_by(OutboxEvent.id)
            ).all()
        )


def _publish_all(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as s:
        s.execute(text("UPDATE outbox SET published_at = now() WHERE published_at IS NULL"))


def test_stuck_pending_message_is_republished_as_the_same_chat_message(
    sessions: sessionmaker[Session],
) -> None:
    pk = _store(sessions, "m-1", content="我住在杭州")
    assert _scan(sessions) == [pk]
    [row] = _chat_rows(sessions)
    assert (row.topic, row.message_key, row.aggregate_id, row.published_at) == (CHAT, "u1", pk, None)
    event = parse_chat_message(json.dumps(row.payload).encode())
    data = event.data
    assert (data.message_id, data.user_id, data.conversation_id, data.role, data.content) == (
        "m-1",
        "u1",
        "c1",
        "user",
        "我住在杭州",
    )
    assert data.created_at == datetime(2025, 3, 1, 8, 0, tzinfo=UTC)
    with sessions() as s:
        msg = s.get(Message, pk)
        assert msg is not None and msg.memory_status == "PENDING"
        assert msg.updated_at > datetime.now(UTC) - timedelta(seconds=10)  # bumped: not re-driven at once


def test_redrive_waits_for_the_previous_one_and_stops_at_the_limit(sessions: sessionmaker[Session]) -> None:
    pk = _store(sessions, "m-1")
    assert _scan(sessions) == [pk]
    later = datetime.now(UTC) + timedelta(seconds=GRACE * 2)
    assert _scan(sessions, now=later) == []  # its re-drive is still unpublished
    _publish_all(sessions)
    assert _scan(sessions) == []  # published, but the grace period since the re-drive has not passed
    assert _scan(sessions, now=later) == [pk]
    _publish_all(sessions)
    assert _scan(sessions, now=later + timedelta(seconds=GRACE * 2)) == [pk]
    _publish_all(sessions)
    assert _scan(sessions, now=later + timedelta(seconds=GRACE * 4)) == []  # 3 re-drives: limit reached
    assert len(_chat_rows(sessions)) == 3


def test_fresh_final_and_non_user_messages_are_left_alone(sessions: sessionmaker[Session]) -> None:
    _store(sessions, "fresh", age_sec=5)
    _store(sessions, "done", status=MessageStatus.PROCESSED.value)
    _store(sessions, "skipped", status=MessageStatus.SKIPPED.value)
    _store(sessions, "assistant", role="assistant", content="Noted!")
    with sessions() as s:
        assistant = s.scalars(select(Message).where(Message.upstream_message_id == "assistant")).one()
        assert assistant.memory_status == "SKIPPED"
        s.execute(update(Message).where(Message.id == assistant.id).values(memory_status="PENDING"))
        s.commit()  # even if an assistant message were PENDING, it is context only
    assert _scan(sessions) == []
    assert _chat_rows(sessions) == []


def test_failed_messages_are_redriven_until_the_attempt_cap(sessions: sessionmaker[Session]) -> None:
    below = _store(sessions, "f-below", status="FAILED", attempts=5)  # exhausted once: 5 < 5 + 3
    _store(sessions, "f-capped", status="FAILED", attempts=8)  # 3 consumed re-drives already failed
    assert _scan(sessions, max_attempts=5, max_redrives=3) == [below]


def test_message_that_cannot_be_an_event_is_parked_failed(sessions: sessionmaker[Session]) -> None:
    pk = _store(sessions, "m-bad", user="has space")  # user id outside the event id pattern
    with transaction(sessions) as s:
        scan = redrive_messages(s, chat_topic=CHAT, grace_sec=GRACE, max_attempts=5, max_redrives=3, limit=10)
    assert scan.invalid == [pk] and scan.redriven == []
    with sessions() as s:
        msg = s.get(Message, pk)
        assert msg is not None and msg.memory_status == "FAILED" and msg.memory_attempts == 8
        assert msg.memory_error is not None and "not re-drivable" in msg.memory_error
    assert _scan(sessions) == []


def test_message_scan_is_skipped_while_another_sweeper_leads(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _store(sessions, "m-1")
    redriver = Redriver(settings.model_copy(update={"TOPIC_CHAT_MESSAGES": CHAT}), sessions)
    with sessions() as other, other.begin():
        other.execute(
            text("SELECT pg_advisory_xact_lock(:ns, :k)"), {"ns": LOCK_NAMESPACE, "k": MESSAGE_SCAN_LOCK}
        )
        assert redriver.scan_messages() is None
    scan = redriver.scan_messages()
    assert scan is not None and len(scan.redriven) == 1
    assert _chat_rows(sessions)[0].topic == CHAT


def test_grace_defaults_to_twice_the_debounce_but_at_least_a_minute(settings: Settings) -> None:
    base = settings.model_copy(update={"MEMORY_MESSAGE_REDRIVE_GRACE_SEC": None})
    assert message_redrive_grace(base.model_copy(update={"LONG_TERM_MEMORY_DEBOUNCE_SEC": 12})) == 60
    assert message_redrive_grace(base.model_copy(update={"LONG_TERM_MEMORY_DEBOUNCE_SEC": 45})) == 90
    assert message_redrive_grace(base.model_copy(update={"MEMORY_MESSAGE_REDRIVE_GRACE_SEC": 7.5})) == 7.5


# --- memories -------------------------------------------------------------------------------------
def _memory(
    sessions: sessionmaker[Session],
    key: str,
    *,
    user: str = "u1",
    age_sec: float = 3600.0,
    status: str = "DIRTY",
    active: bool = True,
    keep_outbox: str = "none",
) -> int:
    """A memory written through the tools (row + outbox), then aged; ``keep_outbox``: ``none``
    (the event was lost), ``unpublished`` or ``published`` (published ``age_sec`` ago)."""
    writer = MemoryWriter(dirty_topic=DIRTY, default_ttl_days=180)
    res = MemoryTools(sessions, writer).memory_save(ToolWrite(user, key, f"content of {key}", "fact"))
    assert res.memory_id is not None
    old = datetime.now(UTC) - timedelta(seconds=age_sec)
    with transaction(sessions) as s:
        s.execute(
            update(LongTermMemory)
            .where(LongTermMemory.id == res.memory_id)
            .values(updated_at=old, vector_status=status, is_active=active)
        )
        rows = OutboxEvent.__table__
        if keep_outbox == "none":
            s.execute(rows.delete().where(rows.c.aggregate_id == res.memory_id))
        elif keep_outbox == "published":
            s.execute(
                rows.update()
                .where(rows.c.aggregate_id == res.memory_id)
                .values(published_at=old, created_at=old)
            )
    return res.memory_id


def _scan_memories(
    sessions: sessionmaker[Session], *, failed_backoff: float = 120.0
) -> dict[int, MemoryOperation]:
    with transaction(sessions) as s:
        out = redrive_memories(
            s, dirty_topic=DIRTY, grace_sec=GRACE, failed_backoff_sec=failed_backoff, limit=100
        )
    return {r.memory_id: r.operation for r in out}


def test_dirty_memory_without_an_event_gets_an_outbox_row(sessions: sessionmaker[Session]) -> None:
    lost = _memory(sessions, "city-home")
    gone = _memory(sessions, "pet-name", active=False)
    assert _scan_memories(sessions) == {lost: MemoryOperation.OVERWRITE, gone: MemoryOperation.DELETE}
    with sessions() as s:
        rows = s.scalars(select(OutboxEvent).where(OutboxEvent.aggregate_id == lost)).all()
    [row] = rows
    assert (row.topic, row.message_key, row.event_type, row.published_at) == (
        DIRTY,
        "u1",
        MEMORY_DIRTY_V1,
        None,
    )
    event = parse_memory_dirty(json.dumps(row.payload).encode())
    assert event.data.memory_id == lost and event.data.memory_key == "city-home"
    assert _scan_memories(sessions) == {}  # now it has a pending row


def test_memories_with_pending_or_recent_events_and_synced_ones_are_left_alone(
    sessions: sessionmaker[Session],
) -> None:
    _memory(sessions, "fresh", age_sec=5)  # updated within the grace period
    _memory(sessions, "pending-event", keep_outbox="unpublished")
    _memory(sessions, "recent-event", keep_outbox="published", age_sec=10)
    _memory(sessions, "synced", status="SYNCED")
    old_event = _memory(sessions, "old-event", keep_outbox="published", age_sec=3600)
    assert _scan_memories(sessions) == {old_event: MemoryOperation.OVERWRITE}


def test_failed_memory_is_retried_no_more_often_than_its_backoff(sessions: sessionmaker[Session]) -> None:
    failed = _memory(sessions, "job-title", status="FAILED", keep_outbox="published", age_sec=300)
    assert _scan_memories(sessions, failed_backoff=600) == {}  # last event 300 s ago < 600 s backoff
    assert _scan_memories(sessions, failed_backoff=120) == {failed: MemoryOperation.OVERWRITE}
    _publish_all(sessions)
    assert _scan_memories(sessions, failed_backoff=120) == {}  # just retried


# --- the sweeper's switches -------------------------------------------------------------------------
def _sweeper(settings: Settings, sessions: sessionmaker[Session], **switches: bool) -> Sweeper:
    conf = settings.model_copy(
        update={
            "TOPIC_CHAT_MESSAGES": CHAT,
            "TOPIC_MEMORY_DIRTY": DIRTY,
            "MEMORY_MESSAGE_REDRIVE_GRACE_SEC": GRACE,
            "MEMORY_INDEX_REDRIVE_GRACE_SEC": GRACE,
            **switches,
        }
    )
    return Sweeper(conf, sessions)


def test_sweeper_honours_the_switches(settings: Settings, sessions: sessionmaker[Session]) -> None:
    _store(sessions, "m-1")
    mem = _memory(sessions, "city-home")
    off = _sweeper(settings, sessions, LONG_TERM_MEMORY_SCAN_ENABLED=False, MEMORY_INDEX_WORKER_ENABLED=False)
    assert off.next_due() == float("inf")
    assert off.run_due() == 0
    assert _chat_rows(sessions) == [] and _scan_memories(sessions) == {mem: MemoryOperation.OVERWRITE}

    _memory(sessions, "city-work")
    messages_only = _sweeper(
        settings, sessions, LONG_TERM_MEMORY_SCAN_ENABLED=True, MEMORY_INDEX_WORKER_ENABLED=False
    )
    assert messages_only.run_due() == 1
    assert (messages_only.messages_redriven, messages_only.memories_redriven) == (1, 0)
    assert messages_only.run_due() == 0  # next scan only after LONG_TERM_MEMORY_SCAN_INTERVAL_SEC

    both = _sweeper(settings, sessions, LONG_TERM_MEMORY_SCAN_ENABLED=True, MEMORY_INDEX_WORKER_ENABLED=True)
    assert both.run_due() == 1  # the message already has a pending re-drive; city-work gets its row
    assert (both.messages_redriven, both.memories_redriven) == (0, 1)
    assert both.next_due() > 0


def test_a_scan_takes_batches_until_one_comes_back_short_or_the_scan_is_full(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    for i in range(5):
        _store(sessions, f"m-{i}", user=f"u{i}")
    for key in ("k-a", "k-b", "k-c"):
        _memory(sessions, key)
    conf = settings.model_copy(update={"TOPIC_CHAT_MESSAGES": CHAT, "TOPIC_MEMORY_DIRTY": DIRTY,
                                       "MEMORY_MESSAGE_REDRIVE_GRACE_SEC": GRACE,
                                       "MEMORY_INDEX_REDRIVE_GRACE_SEC": GRACE})
    sweeper = Sweeper(conf, sessions, batch_size=2, batches_per_scan=2)
    assert sweeper.scan_messages() == 4  # two full batches: the scan is full, the fifth waits
    assert sweeper.scan_messages() == 1  # a short batch ends the scan
    assert sweeper.scan_memories() == 3  # 2 + a short batch of 1
    assert (sweeper.messages_redriven, sweeper.memories_redriven, sweeper.scans_skipped) == (5, 3, 0)
    with sessions() as other, other.begin():
        other.execute(
            text("SELECT pg_advisory_xact_lock(:ns, :k)"), {"ns": LOCK_NAMESPACE, "k": MESSAGE_SCAN_LOCK}
        )
        assert sweeper.scan_messages() == 0
    assert (sweeper.message_scans, sweeper.scans_skipped) == (3, 1)


def test_a_message_the_extractor_keeps_alive_is_not_redriven_and_a_failed_one_still_is(
    sessions: sessionmaker[Session], settings: Settings,
) -> None:
    """``MessageProcessor.keep_alive`` (the extractor's ``KeepAlive`` step on the messages it holds)
    moves a PENDING message's ``updated_at`` to now, so the scan waits another grace; it leaves a FAILED
    message alone (the sweeper's to re-drive)."""
    from core.extraction.rules import RulesExtractor
    from core.memory.processing import MessageProcessor

    held = _store(sessions, "m-held")
    failed = _store(sessions, "m-failed", status=MessageStatus.FAILED.value, attempts=1)
    processor = MessageProcessor(settings, sessions, RulesExtractor(), None)
    assert processor.keep_alive([held, failed]) == 1
    assert _scan(sessions) == [failed]
    assert _scan(sessions, now=datetime.now(UTC) + timedelta(seconds=GRACE + 1)) == [held]


def test_the_keep_alive_skips_a_message_a_commit_holds_locked_instead_of_waiting(
    sessions: sessionmaker[Session], settings: Settings,
) -> None:
    """A burst's commit holds its messages locked while it finalises them: the refresh skips them (no
    wait, no deadlock with the commit) and refreshes the others."""
    from core.extraction.rules import RulesExtractor
    from core.memory.processing import MessageProcessor

    locked, free = _store(sessions, "m-locked"), _store(sessions, "m-free")
    processor = MessageProcessor(settings, sessions, RulesExtractor(), None)
    with sessions() as holder:
        holder.execute(text("SELECT id FROM messages WHERE id = :id FOR UPDATE"), {"id": locked})
        assert processor.keep_alive([locked, free]) == 1
        holder.rollback()
    assert _scan(sessions) == [locked]
