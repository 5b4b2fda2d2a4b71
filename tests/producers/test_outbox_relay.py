"""The outbox relay and the sweeper against real PostgreSQL and Kafka.

Covers: per-user order and marking, no marking without delivery, a crash between commit and publish
(the relay as a subprocess), two relays on one backlog, LISTEN/NOTIFY latency and the sweep fallback,
retention, and the sweeper end to end (a stuck message reappears on the chat topic).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
from sqlalchemy import Engine, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from core.config import Settings
from core.memory.outbox import enqueue_memory_dirty
from core.memory.store import IncomingMessage, store_message
from core.storage.db import make_engine, session_factory, transaction
from core.storage.models import Message, OutboxEvent
from core.types import MemoryOperation
from producers.kafka_config import client_config
from producers.outbox_relay import (
    CLAIM_SQL,
    OUTBOX_ID_HEADER,
    USER_LOCK_NAMESPACE,
    OutboxRelay,
    encode_payload,
)
from producers.relay_service import RelayService
from producers.sweeper import Sweeper
from schemas import parse_chat_message, parse_memory_dirty
from tests.support.crashing_relay import CRASH_EXIT_CODE

pytestmark = pytest.mark.services

REPO = Path(__file__).resolve().parents[2]


# --- Kafka helpers --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Got:
    key: str
    value: bytes
    outbox_id: int
    partition: int
    offset: int


def _admin(settings: Settings) -> AdminClient:
    return AdminClient(client_config(settings))


def _create_topics(settings: Settings, names: list[str], partitions: int = 3) -> None:
    admin = _admin(settings)
    futures = admin.create_topics(
        [NewTopic(n, num_partitions=partitions, replication_factor=1) for n in names], operation_timeout=30
    )
    for future in futures.values():
        future.result(timeout=30)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # wait until the metadata shows every partition
        meta = admin.list_topics(timeout=10).topics
        if all(n in meta and len(meta[n].partitions) == partitions for n in names):
            return
        time.sleep(0.2)
    raise AssertionError(f"topics {names} not visible")


def _delete_topics(settings: Settings, names: list[str]) -> None:
    admin = _admin(settings)
    for future in admin.delete_topics(names, operation_timeout=30).values():
        future.result(timeout=30)


class Reader:
    """Reads a topic from the beginning of every partition (no group, no rebalance delay)."""

    def __init__(self, settings: Settings, topic: str) -> None:
        self.consumer = Consumer(
            {
                **client_config(settings),
                "group.id": f"t-{topic}",
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
            }
        )
        parts = self.consumer.list_topics(topic, timeout=10).topics[topic].partitions
        self.consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in parts])
        self.got: list[Got] = []

    def read(self, n: int, timeout: float) -> list[Got]:
        """Until ``n`` records have been read in total or ``timeout``; returns all read so far."""
        deadline = time.monotonic() + timeout
        while len(self.got) < n and time.monotonic() < deadline:
            msg = self.consumer.poll(0.1)
            if msg is None or msg.error() is not None:
                continue
            headers = dict(msg.headers() or [])
            self.got.append(
                Got(
                    key=(msg.key() or b"").decode(),
                    value=msg.value() or b"",
                    outbox_id=int(headers[OUTBOX_ID_HEADER]),
                    partition=msg.partition() or 0,
                    offset=msg.offset() or 0,
                )
            )
        return list(self.got)

    def close(self) -> None:
        self.consumer.close()


@pytest.fixture
def conf(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Settings]:
    """Settings with fresh dirty and chat topics (3 partitions each)."""
    dirty, chat = unique_name("relay-dirty"), unique_name("relay-chat")
    _create_topics(settings, [dirty, chat])
    yield settings.model_copy(update={"TOPIC_MEMORY_DIRTY": dirty, "TOPIC_CHAT_MESSAGES": chat})
    _delete_topics(settings, [dirty, chat])


@pytest.fixture
def sessions(clean_db: Engine) -> sessionmaker[Session]:
    return session_factory(clean_db)


def _enqueue(sessions: sessionmaker[Session], topic: str, items: list[tuple[str, int]]) -> list[int]:
    """One transaction adding a ``memory.dirty`` row per (user, memory id); returns the outbox ids."""
    with transaction(sessions) as s:
        return [
            enqueue_memory_dirty(
                s,
                topic=topic,
                user_external_id=user,
                user_pk=1,
                memory_id=mid,
                memory_key=f"key-{mid}",
                operation=MemoryOperation.CREATE,
            )
            for user, mid in items
        ]


def _rows(engine: Engine) -> dict[int, OutboxEvent]:
    with Session(engine) as s:
        return {r.id: r for r in s.scalars(select(OutboxEvent)).all()}


def _assert_per_user_order(got: list[Got]) -> dict[str, list[int]]:
    by_user: dict[str, list[int]] = defaultdict(list)
    for g in got:
        by_user[g.key].append(g.outbox_id)
    for user, ids in by_user.items():
        assert ids == sorted(ids), f"user {user} out of order: {ids}"
    return by_user


# --- relay: publish and mark ----------------------------------------------------------------------
def test_rows_are_published_in_per_user_order_and_marked(
    conf: Settings, sessions: sessionmaker[Session], clean_db: Engine
) -> None:
    items = [(f"user-{i % 3}", i + 1) for i in range(30)]  # interleaved users
    ids = _enqueue(sessions, conf.TOPIC_MEMORY_DIRTY, items)
    relay = OutboxRelay(conf, clean_db, batch_size=7)
    reader = Reader(conf, conf.TOPIC_MEMORY_DIRTY)
    try:
        assert relay.backlog() == 30 and relay.oldest_unpublished_age_seconds() >= 0
        assert relay.drain() == 30
        got = reader.read(30, timeout=20)
    finally:
        relay.close()
        reader.close()
    assert sorted(g.outbox_id for g in got) == ids  # each exactly once
    by_user = _assert_per_user_order(got)
    assert set(by_user) == {"user-0", "user-1", "user-2"}
    assert all(len({g.partition for g in got if g.key == user}) == 1 for user in by_user)  # key -> partition
    rows = _rows(clean_db)
    for g in got:
        row = rows[g.outbox_id]
        assert g.key == row.message_key
        assert g.value == encode_payload(row.payload) and b": " not in g.value  # compact JSON of the payload
        event = parse_memory_dirty(g.value)
        assert event.data.outbox_id == g.outbox_id and event.subject == g.key
        assert row.published_at is not None and row.attempts == 1 and row.last_error is None
    assert (relay.published_total, relay.failed_total, relay.backlog()) == (30, 0, 0)
    assert relay.oldest_unpublished_age_seconds() == 0.0


def test_a_row_is_not_marked_when_delivery_fails(
    conf: Settings, sessions: sessionmaker[Session], clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    missing = unique_name("relay-missing")  # never created; producers never auto-create topics
    [bad] = _enqueue(sessions, missing, [("u-bad", 1)])
    [good] = _enqueue(sessions, conf.TOPIC_MEMORY_DIRTY, [("u-good", 2)])
    relay = OutboxRelay(
        conf,
        clean_db,
        producer_overrides={"topic.metadata.propagation.max.ms": 1000, "message.timeout.ms": 5000},
        failure_backoff_sec=3600,
    )
    try:
        result = relay.publish_batch()
        assert result.claimed == 2 and result.published == [good] and list(result.failed) == [bad]
        rows = _rows(clean_db)
        assert rows[bad].published_at is None and rows[bad].attempts == 1
        assert rows[bad].last_error and "UNKNOWN_TOPIC" in rows[bad].last_error
        assert rows[good].published_at is not None
        assert relay.publish_batch().claimed == 0  # the failing user waits for the next sweep
        assert (relay.failed_total, relay.backlog()) == (1, 1)

        _create_topics(conf, [missing], partitions=1)
        retry = OutboxRelay(conf, clean_db)  # a relay without the backoff (e.g. the next sweep)
        try:
            assert retry.drain() == 1
        finally:
            retry.close()
        row = _rows(clean_db)[bad]
        assert row.published_at is not None and row.attempts == 2 and row.last_error is None
        reader = Reader(conf, missing)
        try:
            assert [g.outbox_id for g in reader.read(1, timeout=15)] == [bad]
        finally:
            reader.close()
    finally:
        relay.close()
        _delete_topics(conf, [missing])


# --- a crash between commit and publish -------------------------------------------------------------
def _relay_process(conf: Settings, log_path: Path, crash: str | None = None) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": conf.database_url,
        "KAFKA_BOOTSTRAP_SERVERS": conf.KAFKA_BOOTSTRAP_SERVERS,
        "TOPIC_MEMORY_DIRTY": conf.TOPIC_MEMORY_DIRTY,
        "TOPIC_CHAT_MESSAGES": conf.TOPIC_CHAT_MESSAGES,
        "OUTBOX_SWEEP_INTERVAL_SEC": "1",
        "LONG_TERM_MEMORY_SCAN_ENABLED": "false",
        "MEMORY_INDEX_WORKER_ENABLED": "false",
    }
    env.pop("METRICS_PORT", None)
    # the crashing relay is the real relay with an injected checkpoint that exits at ``crash``
    command = ["tests.support.crashing_relay", crash] if crash else ["cli.main", "run", "relay"]
    with log_path.open("ab") as log_file:
        return subprocess.Popen(
            [sys.executable, "-m", *command],
            cwd=REPO,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )


def _wait_published(engine: Engine, outbox_id: int, timeout: float) -> OutboxEvent | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = _rows(engine).get(outbox_id)
        if row is not None and row.published_at is not None:
            return row
        time.sleep(0.1)
    return None


@pytest.mark.parametrize("crash", ["after_claim", "after_flush"])
def test_event_survives_a_relay_crash_between_commit_and_publish(
    crash: str, conf: Settings, sessions: sessionmaker[Session], clean_db: Engine, tmp_path: Path
) -> None:
    [oid] = _enqueue(sessions, conf.TOPIC_MEMORY_DIRTY, [("u-crash", 42)])  # committed
    log_path = tmp_path / "relay.log"
    doomed = _relay_process(conf, log_path, crash)
    try:
        assert doomed.wait(timeout=60) == CRASH_EXIT_CODE, log_path.read_text()
    finally:
        if doomed.poll() is None:
            doomed.kill()
    row = _rows(clean_db)[oid]
    assert row.published_at is None and row.attempts == 0  # claimed, never marked
    reader = Reader(conf, conf.TOPIC_MEMORY_DIRTY)
    try:
        before = reader.read(1, timeout=3)
        # crashed before producing: nothing reached Kafka; crashed after the flush: it did
        assert [g.outbox_id for g in before] == ([] if crash == "after_claim" else [oid])
        fresh = _relay_process(conf, log_path)
        try:
            marked = _wait_published(clean_db, oid, timeout=60)
            assert marked is not None and marked.attempts == 1, log_path.read_text()
            got = reader.read(len(before) + 1, timeout=20)
            assert {g.outbox_id for g in got} == {oid} and len(got) == len(before) + 1  # at least once
            assert parse_memory_dirty(got[-1].value).data.memory_id == 42
            fresh.send_signal(signal.SIGTERM)  # graceful stop
            assert fresh.wait(timeout=30) == 0, log_path.read_text()
        finally:
            if fresh.poll() is None:
                fresh.kill()
    finally:
        reader.close()


def _plan_nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", []):
        yield from _plan_nodes(child)


def test_a_claim_reads_no_more_rows_than_its_batch_whatever_the_backlog(
    conf: Settings, clean_db: Engine
) -> None:
    """With a backlog of 3,000 rows of 10 users (statistics not refreshed since, as after a sudden
    backlog), a claim of 50 reads 50 outbox rows (with their payloads), not every unpublished row of the
    users it claimed (the claim before: all 3,000, sorted to keep 50)."""
    with clean_db.begin() as conn:
        conn.execute(text("ANALYZE outbox"))  # statistics of the empty table
        conn.execute(text(
            "INSERT INTO outbox (topic, message_key, event_type, aggregate_id, payload) "
            "SELECT :topic, 'user-' || (g % 10), 'pai.memory.dirty.v1', g, "
            "jsonb_build_object('pad', repeat('x', 300), 'n', g) FROM generate_series(1, 3000) AS g"),
            {"topic": conf.TOPIC_MEMORY_DIRTY})
    relay = OutboxRelay(conf, clean_db, batch_size=50, claim_window=200)
    params = {"skip": [], "window": relay.claim_window, "ns": USER_LOCK_NAMESPACE, "batch": relay.batch_size}
    try:
        with clean_db.connect() as conn:
            explain = text("EXPLAIN (ANALYZE, FORMAT JSON) " + str(CLAIM_SQL.text))
            plan = conn.execute(explain, params).scalar_one()
            conn.rollback()
            rows = conn.execute(CLAIM_SQL, params).all()
            conn.rollback()
    finally:
        relay.close()
    read = [n.get("Actual Rows", 0) * n.get("Actual Loops", 1) for n in _plan_nodes(plan[0]["Plan"])
            if n.get("Relation Name") == "outbox" and n.get("Alias") == "o"]
    assert read and sum(read) <= 50, json.dumps(plan, indent=1)
    # the batch: the 50 oldest rows, a prefix of each user's rows
    ids = [r.id for r in rows]
    assert len(ids) == 50 and ids == sorted(ids)
    with clean_db.connect() as conn:
        oldest = conn.execute(text("SELECT id FROM outbox ORDER BY id LIMIT 50")).scalars().all()
    assert ids == list(oldest)


# --- two relays on one backlog ---------------------------------------------------------------------
def test_two_relays_share_a_backlog_keeping_per_user_order(
    conf: Settings, sessions: sessionmaker[Session], clean_db: Engine
) -> None:
    users, per_user = 12, 100
    n = users * per_user
    ids: list[int] = []
    for chunk in range(10):  # ten writer transactions, users interleaved
        ids += _enqueue(
            sessions,
            conf.TOPIC_MEMORY_DIRTY,
            [(f"user-{i % users}", chunk * 1000 + i + 1) for i in range(n // 10)],
        )
    relays = [
        OutboxRelay(conf, make_engine(conf.database_url, pool_size=2), batch_size=50, claim_window=5)
        for _ in range(2)
    ]
    errors: list[BaseException] = []

    def work(relay: OutboxRelay) -> None:
        try:
            while relay.backlog() > 0:
                if relay.drain() == 0:
                    time.sleep(0.01)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    reader = Reader(conf, conf.TOPIC_MEMORY_DIRTY)
    t0 = time.perf_counter()
    threads = [threading.Thread(target=work, args=(r,)) for r in relays]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        elapsed = time.perf_counter() - t0
        got = reader.read(n, timeout=30)
    finally:
        reader.close()
        for r in relays:
            r.close()
            r.engine.dispose()
    assert not errors, errors
    counts = [r.published_total for r in relays]
    print(f"\ntwo relays: {n} rows in {elapsed:.2f}s ({n / elapsed:.0f} rows/s), split {counts}")
    assert sum(counts) == n and min(counts) > 0  # both took part
    assert sorted(g.outbox_id for g in got) == ids  # every row exactly once
    _assert_per_user_order(got)
    assert all(r.published_at is not None for r in _rows(clean_db).values())


# --- wake-ups ----------------------------------------------------------------------------------------
@pytest.fixture
def service_factory(clean_db: Engine) -> Iterator[Callable[[Settings], RelayService]]:
    started: list[tuple[RelayService, threading.Thread]] = []

    def start(conf: Settings) -> RelayService:
        service = RelayService(conf, OutboxRelay(conf, clean_db))
        thread = threading.Thread(target=service.run, daemon=True)
        thread.start()
        started.append((service, thread))
        return service

    yield start
    for service, thread in started:
        service.stop()
        thread.join(timeout=30)
        assert not thread.is_alive()


def _wait_idle(service: RelayService, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while service.listener._conn is None and time.monotonic() < deadline:  # LISTEN is registered
        time.sleep(0.05)
    time.sleep(0.3)


def test_notify_wakes_the_relay_long_before_the_sweep(
    conf: Settings, sessions: sessionmaker[Session], service_factory: Callable[[Settings], RelayService]
) -> None:
    slow = conf.model_copy(
        update={
            "OUTBOX_SWEEP_INTERVAL_SEC": 120.0,
            "LONG_TERM_MEMORY_SCAN_ENABLED": False,
            "MEMORY_INDEX_WORKER_ENABLED": False,
        }
    )
    service = service_factory(slow)
    reader = Reader(conf, conf.TOPIC_MEMORY_DIRTY)
    try:
        _wait_idle(service)
        latencies = []
        for i in range(5):
            t0 = time.perf_counter()
            _enqueue(sessions, conf.TOPIC_MEMORY_DIRTY, [("u-fast", i + 1)])
            assert len(reader.read(i + 1, timeout=10)) == i + 1
            latencies.append(time.perf_counter() - t0)
    finally:
        reader.close()
    print(
        f"\ncommit -> consumed latency via NOTIFY: max {max(latencies) * 1000:.0f} ms, "
        f"median {sorted(latencies)[2] * 1000:.0f} ms"
    )
    assert max(latencies) < 5.0  # the sweep would take 120 s
    assert service.listener.notifications >= 5


def test_rows_committed_while_the_relay_lingers_go_out_in_one_batch(
    conf: Settings, sessions: sessionmaker[Session], service_factory: Callable[[Settings], RelayService]
) -> None:
    lingering = conf.model_copy(update={"OUTBOX_SWEEP_INTERVAL_SEC": 120.0, "OUTBOX_RELAY_LINGER_SEC": 2.0,
                                        "LONG_TERM_MEMORY_SCAN_ENABLED": False,
                                        "MEMORY_INDEX_WORKER_ENABLED": False})
    service = service_factory(lingering)
    reader = Reader(conf, conf.TOPIC_MEMORY_DIRTY)
    try:
        _wait_idle(service)
        time.sleep(lingering.OUTBOX_RELAY_LINGER_SEC + 0.5)  # the start-up drain (and its linger) is over
        batches = service.relay.batches_total
        ids: list[int] = []
        for i in range(8):  # eight writer transactions in quick succession, each NOTIFYing
            ids += _enqueue(sessions, conf.TOPIC_MEMORY_DIRTY, [(f"u-linger-{i % 3}", i + 1)])
        got = reader.read(8, timeout=20)
    finally:
        reader.close()
    assert sorted(g.outbox_id for g in got) == sorted(ids)
    _assert_per_user_order(got)
    # one claim takes what was committed during the linger: far fewer batches than commits (a loaded
    # machine may spread the eight commits over more than one linger)
    assert service.relay.batches_total - batches <= 3


def test_a_lost_notification_only_delays_the_event_until_the_sweep(
    conf: Settings,
    sessions: sessionmaker[Session],
    clean_db: Engine,
    service_factory: Callable[[Settings], RelayService],
) -> None:
    sweep = conf.model_copy(
        update={
            "OUTBOX_SWEEP_INTERVAL_SEC": 1.0,
            "LONG_TERM_MEMORY_SCAN_ENABLED": False,
            "MEMORY_INDEX_WORKER_ENABLED": False,
        }
    )
    service = service_factory(sweep)
    reader = Reader(conf, conf.TOPIC_MEMORY_DIRTY)
    try:
        _wait_idle(service)
        with clean_db.begin() as conn:  # the insert sends no NOTIFY
            conn.execute(text("ALTER TABLE outbox DISABLE TRIGGER outbox_notify"))
        try:
            [oid] = _enqueue(sessions, conf.TOPIC_MEMORY_DIRTY, [("u-quiet", 1)])
        finally:
            with clean_db.begin() as conn:
                conn.execute(text("ALTER TABLE outbox ENABLE TRIGGER outbox_notify"))
        assert [g.outbox_id for g in reader.read(1, timeout=10)] == [oid]
    finally:
        reader.close()
    assert service.listener.notifications == 0


# --- retention -------------------------------------------------------------------------------------
def test_retention_deletes_only_old_published_rows(
    conf: Settings, sessions: sessionmaker[Session], clean_db: Engine
) -> None:
    old_pub, new_pub, old_unpub = _enqueue(sessions, conf.TOPIC_MEMORY_DIRTY, [("u", 1), ("u", 2), ("u", 3)])
    now = datetime.now(UTC)
    with transaction(sessions) as s:
        table = OutboxEvent.__table__
        s.execute(
            table.update()
            .where(table.c.id == old_pub)
            .values(created_at=now - timedelta(hours=50), published_at=now - timedelta(hours=48))
        )
        s.execute(table.update().where(table.c.id == new_pub).values(published_at=now - timedelta(hours=1)))
        s.execute(table.update().where(table.c.id == old_unpub).values(created_at=now - timedelta(hours=72)))
    relay = OutboxRelay(conf.model_copy(update={"OUTBOX_RETENTION_HOURS": 24}), clean_db)
    try:
        assert relay.delete_published() == 1
        assert set(_rows(clean_db)) == {new_pub, old_unpub}
        assert relay.oldest_unpublished_age_seconds() > 71 * 3600
        assert relay.delete_published(older_than_hours=0) == 1  # zero retention: every published row
        assert set(_rows(clean_db)) == {old_unpub}
    finally:
        relay.close()


# --- the sweeper end to end --------------------------------------------------------------------------
def test_sweeper_redrives_a_stuck_message_onto_the_chat_topic(
    conf: Settings, sessions: sessionmaker[Session], clean_db: Engine
) -> None:
    created = datetime(2025, 5, 1, 9, 30, tzinfo=UTC)
    with transaction(sessions) as s:
        stuck, _ = store_message(
            s, IncomingMessage("msg-stuck", "u-7", "conv-1", "user", "我对花生过敏", created)
        )
        fresh, _ = store_message(s, IncomingMessage("msg-fresh", "u-7", "conv-1", "user", "hello", created))
        s.execute(
            update(Message)
            .where(Message.id == stuck.id)
            .values(updated_at=datetime.now(UTC) - timedelta(hours=1))
        )
    swept = conf.model_copy(
        update={
            "LONG_TERM_MEMORY_SCAN_ENABLED": True,
            "MEMORY_INDEX_WORKER_ENABLED": False,
            "MEMORY_MESSAGE_REDRIVE_GRACE_SEC": 60.0,
        }
    )
    service = RelayService(swept, OutboxRelay(swept, clean_db), Sweeper(swept, sessions))
    thread = threading.Thread(target=service.run, daemon=True)
    reader = Reader(conf, conf.TOPIC_CHAT_MESSAGES)
    thread.start()
    try:
        got = reader.read(1, timeout=20)
        assert len(reader.read(2, timeout=2)) == 1  # the fresh message is left alone
    finally:
        service.stop()
        thread.join(timeout=30)
        reader.close()
    assert got[0].key == "u-7"
    event = parse_chat_message(got[0].value)
    assert (event.data.message_id, event.data.content, event.data.created_at) == (
        "msg-stuck",
        "我对花生过敏",
        created,
    )
    assert service.sweeper is not None and service.sweeper.messages_redriven == 1
    row = _rows(clean_db)[got[0].outbox_id]
    assert row.published_at is not None and row.aggregate_id == stuck.id
    with Session(clean_db) as s:
        assert s.get(Message, fresh.id) is not None
    assert json.loads(got[0].value)["source"] == "pai-memory/sweeper"
