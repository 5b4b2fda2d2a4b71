"""Adding partitions to the chat topic mid-stream keeps "the later statement wins" per user.

Adding partitions moves keys: a user's older messages can still wait on the old partition (a lagging
consumer) while newer ones are processed from a new partition. The extractor orders one user's work
only within what it has received, so the guard is in the core (``core.memory.processing``): a memory
key already changed from a message *created* later (the event's own ``created_at``) is never
overwritten by an earlier message, whatever order the records arrive in; the per-user advisory lock
serialises the commits. This test forces the worst order: after the partitions are added, the old
partition's backlog is held back (its committed offset moved past it) until every newer message has
been processed, then released. Every user still ends with exactly one live city, the newest one, and
the held-back statements are recorded as superseded instead of applied.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition
from confluent_kafka.admin import NewPartitions
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from consumers.processes import extractor_loop
from core.config import Settings
from core.storage.models import LongTermMemory, MemoryHistory, Message, User
from localstack.process import wait_until
from localstack.topics import admin_client
from producers.client import MemoryEventProducer
from producers.kafka_config import client_config
from schemas import ChatMessageData
from tests.support.pipeline import isolated_settings, running

pytestmark = [pytest.mark.services, pytest.mark.timeout(300)]

USERS = 12
CITIES = ("Oslo", "Lima", "Kyoto")  # round 1, round 2 (held back on the old partition), round 3 (newest)


def publish_round(settings: Settings, users: list[str], n: int, city: str, at: datetime) -> None:
    with MemoryEventProducer(settings) as producer:
        for i, user in enumerate(users):
            producer.publish_message(ChatMessageData(
                message_id=f"{user}-m{n}", user_id=user, conversation_id=f"{user}-c{n}", role="user",
                content=f"I live in {city} now.", created_at=at + timedelta(milliseconds=i)))
        producer.flush(30)


def end_offsets(settings: Settings, topic: str) -> dict[int, int]:
    """High watermark per partition. Partitions just added may have no leader yet (the broker answers
    NOT_LEADER_FOR_PARTITION / LEADER_NOT_AVAILABLE for a moment): such a read is retried."""
    consumer = Consumer({**client_config(settings), "group.id": "offsets-probe", "enable.auto.commit": False})
    try:
        parts = consumer.list_topics(topic, timeout=20).topics[topic].partitions
        return {p: high_watermark(consumer, TopicPartition(topic, p)) for p in parts}
    finally:
        consumer.close()


def high_watermark(consumer: Consumer, tp: TopicPartition, deadline_s: float = 30.0) -> int:
    transient = {KafkaError.NOT_LEADER_FOR_PARTITION, KafkaError.LEADER_NOT_AVAILABLE,
                 KafkaError.UNKNOWN_TOPIC_OR_PART, KafkaError._TRANSPORT, KafkaError._TIMED_OUT}
    give_up = time.monotonic() + deadline_s
    while True:
        try:
            return int(consumer.get_watermark_offsets(tp, timeout=10)[1])
        except KafkaException as exc:
            if exc.args[0].code() not in transient or time.monotonic() > give_up:
                raise
            time.sleep(0.5)


def commit_offset(settings: Settings, topic: str, partition: int, offset: int) -> None:
    """Set the extractor group's committed offset of one partition (no member of the group runs)."""
    consumer = Consumer({**client_config(settings), "group.id": settings.GROUP_EXTRACTOR,
                         "enable.auto.commit": False})
    try:
        consumer.commit(offsets=[TopicPartition(topic, partition, offset)], asynchronous=False)
    finally:
        consumer.close()


def statuses(engine: Engine, ids: list[str]) -> dict[str, str]:
    with Session(engine) as s:
        rows = s.execute(select(Message.upstream_message_id, Message.memory_status)
                         .where(Message.upstream_message_id.in_(ids))).all()
    return {i: st for i, st in rows}


def final(engine: Engine, ids: list[str]) -> bool:
    got = statuses(engine, ids)
    return len(got) == len(ids) and all(st in ("PROCESSED", "SKIPPED", "FAILED") for st in got.values())


def test_partitions_added_mid_stream_never_let_an_older_message_win(
        settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> None:
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1,
                            MEMORY_EXTRACTOR_PROVIDER="rules")
    topic = cfg.TOPIC_CHAT_MESSAGES
    users = [unique_name("part-user") for _ in range(USERS)]
    t0 = datetime.now(UTC) - timedelta(minutes=10)
    ids = {n: [f"{u}-m{n}" for u in users] for n in (1, 2, 3)}

    # round 1 on the single partition, processed
    with running(extractor_loop(cfg)):
        publish_round(cfg, users, 1, CITIES[0], t0)
        wait_until(lambda: final(clean_db, ids[1]), 90, what="round 1 processed")

    # round 2 waits on partition 0 (its consumer lags); then partitions are added and round 3 (newer)
    # lands on the new partitions for most users
    publish_round(cfg, users, 2, CITIES[1], t0 + timedelta(minutes=1))
    backlog_end = end_offsets(cfg, topic)[0]
    admin = admin_client(cfg)
    admin.create_partitions([NewPartitions(topic, 4)])[topic].result(timeout=30)
    wait_until(lambda: len(end_offsets(cfg, topic)) == 4, 30, what="4 partitions visible")
    publish_round(cfg, users, 3, CITIES[2], t0 + timedelta(minutes=2))
    moved = sum(1 for p, end in end_offsets(cfg, topic).items() if p > 0 and end > 0)
    assert moved > 0, "no key moved to a new partition"

    # the newest round first: partition 0's backlog (round 2) skipped for now
    commit_offset(cfg, topic, 0, backlog_end)
    with running(extractor_loop(cfg)):
        wait_until(lambda: final(clean_db, ids[3]), 90, what="round 3 processed")
    assert all(st == "PENDING" for st in statuses(clean_db, ids[2]).values())

    # then the held-back older round (and, redelivered, round 3's records on partition 0)
    commit_offset(cfg, topic, 0, backlog_end - USERS)
    with running(extractor_loop(cfg)):
        wait_until(lambda: final(clean_db, ids[2]), 90, what="round 2 processed")

    with Session(clean_db) as s:
        for user in users:
            live = s.execute(
                select(LongTermMemory.memory_key, LongTermMemory.content)
                .join(User, User.id == LongTermMemory.user_id)
                .where(User.external_id == user, LongTermMemory.is_active.is_(True))).all()
            cities = [c for _, c in live if any(city in (c or "") for city in CITIES)]
            assert len(cities) == 1 and CITIES[2] in cities[0], (user, live)  # newest, not doubled
            changes = s.execute(
                select(Message.upstream_message_id)
                .join(MemoryHistory, MemoryHistory.source_message_id == Message.id)
                .join(User, User.id == MemoryHistory.user_id)
                .where(User.external_id == user).order_by(MemoryHistory.id)).scalars().all()
            assert f"{user}-m2" not in changes, (user, changes)  # the older statement was not applied
            assert changes[-1] == f"{user}-m3", (user, changes)
        notes = s.execute(select(Message.memory_status, Message.memory_error)
                          .where(Message.upstream_message_id.in_(ids[2]))).all()
        assert all(st == "PROCESSED" and "superseded" in (note or "") for st, note in notes), notes
