"""Error classes in every consumer, with the real broker: transient errors retry, permanent ones are
dead-lettered and the partition moves on, fatal ones stop the process with one line and exit code 4.

Faults are injected through dependency seams: ``FaultyExtractor`` wraps the real rules extractor and
raises for messages that carry a marker; ``FaultyTools`` does the same for tool commands.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import psycopg
import pytest
from confluent_kafka import Consumer, Producer
from sqlalchemy import Engine, select
from sqlalchemy.exc import DataError, IntegrityError, OperationalError
from sqlalchemy.orm import Session

from consumers.commands import CommandStrategy
from consumers.dlq import DeadLetterPublisher
from consumers.errors import FatalConsumerError
from consumers.extractor import ExtractorStrategy
from consumers.indexer import IndexerStrategy
from consumers.policies import RetryPolicy
from consumers.processes import build_tools, commands_loop, extractor_loop
from consumers.runtime import Record
from core.config import Settings
from core.embedding.local import LocalE5Embedder
from core.extraction.candidates import ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.indexing import MemoryIndexer, SyncReport
from core.memory.processing import MessageProcessor
from core.memory.tools import MemoryTools, ToolCommand, ToolResult, ToolWrite
from core.storage.db import engine_for, session_factory
from core.storage.models import LongTermMemory, OutboxEvent
from core.vectorstore import MilvusMemoryIndex
from localstack.process import wait_until
from producers.client import MemoryEventProducer
from producers.kafka_config import client_config
from schemas import MemorySaveData, parse_dead_letter
from tests.consumers.test_extractor import live, publish
from tests.support.pipeline import (
    conversation,
    group_caught_up,
    isolated_settings,
    read_topic,
    running,
)

pytestmark = pytest.mark.services

REPO = Path(__file__).resolve().parents[2]
FAST_RETRY = RetryPolicy(initial_sec=0.05, max_sec=0.2)


def integrity_error() -> IntegrityError:
    orig = psycopg.errors.UniqueViolation("duplicate key")
    return IntegrityError("INSERT ...", {"content": "private"}, orig)


def operational_error() -> OperationalError:
    return OperationalError("SELECT 1", {}, psycopg.OperationalError("server closed the connection"))


class FaultyExtractor:
    """The real rules extractor, except for messages carrying a marker: ``faults[marker]`` says
    what to raise on each call (``None`` = behave)."""

    name = "rules"

    def __init__(self, faults: dict[str, Callable[[int], BaseException | None]]) -> None:
        self.inner = RulesExtractor()
        self.faults = faults
        self.calls: dict[str, int] = {m: 0 for m in faults}
        self._lock = threading.Lock()

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        for marker, fault in self.faults.items():
            if marker in data.user_message:
                with self._lock:
                    self.calls[marker] += 1
                    n = self.calls[marker]
                exc = fault(n)
                if exc is not None:
                    raise exc
        return self.inner.extract(data)

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        return self.inner.refine(data, candidates)


def processor_with(cfg: Settings, extractor: Any) -> MessageProcessor:
    return MessageProcessor(cfg, session_factory(engine_for(cfg.database_url)), extractor, None)


def test_extractor_retries_transient_dead_letters_permanent_and_unknown_and_moves_on(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1)
    extractor = FaultyExtractor({
        "Integrity": lambda n: integrity_error(),  # permanent: at once
        "Buggy": lambda n: RuntimeError("a bug in a provider"),  # unknown: 3 tries, then permanent
        "Flaky": lambda n: operational_error() if n <= 2 else None,  # transient: retried until it works
    })
    dlq = DeadLetterPublisher(cfg, cfg.GROUP_EXTRACTOR)
    strategy = ExtractorStrategy(processor_with(cfg, extractor), dlq, debounce_sec=0.1,
                                 group=cfg.GROUP_EXTRACTOR, retry=FAST_RETRY, max_record_attempts=3)
    msgs = (conversation("ec-ok1", "c-ok1", [("user", "I live in Wuhan.")])
            + conversation("ec-int", "c-int", [("user", "Integrity: I live in Lisbon.")])
            + conversation("ec-bug", "c-bug", [("user", "Buggy: I live in Oslo.")])
            + conversation("ec-flaky", "c-flaky", [("user", "Flaky: I live in Quito.")])
            + conversation("ec-ok2", "c-ok2", [("user", "I live in Perth.")]))
    publish(cfg, msgs)
    with running(extractor_loop(cfg, strategy=strategy)):
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 60,
                   what="the single partition fully committed despite two poison records")
    assert extractor.calls == {"Integrity": 1, "Buggy": 3, "Flaky": 3}
    for user, city in (("ec-ok1", "Wuhan"), ("ec-flaky", "Quito"), ("ec-ok2", "Perth")):
        assert any(city in c for _, c in live(clean_db, user).values()), user
    assert live(clean_db, "ec-int") == {} and live(clean_db, "ec-bug") == {}
    letters = [parse_dead_letter(m.value()) for m in read_topic(cfg, cfg.dlq_topic(cfg.GROUP_EXTRACTOR), 2)]
    assert sorted(d.data.error_type for d in letters) == ["IntegrityError", "RuntimeError"]
    by_type = {d.data.error_type: d.data for d in letters}
    assert by_type["IntegrityError"].reason.startswith("IntegrityError: UniqueViolation")
    assert "private" not in by_type["IntegrityError"].reason  # no SQL parameters in the reason
    assert by_type["RuntimeError"].reason == "RuntimeError: a bug in a provider"
    assert by_type["RuntimeError"].attempts == 3
    assert [d.source_offset for d in (by_type["IntegrityError"], by_type["RuntimeError"])] == [1, 2]


class FaultyTools(MemoryTools):
    """The real tool service, except for keys in ``faults``."""

    def __init__(self, inner: MemoryTools, faults: dict[str, Callable[[int], BaseException | None]]) -> None:
        super().__init__(inner.sessions, inner.writer)
        self.faults = faults
        self.calls: dict[str, int] = {k: 0 for k in faults}

    def apply(self, c: ToolCommand) -> ToolResult:
        """The command consumer's one-command path (a batch holding a faulty key fails as a whole and
        its commands come here one by one)."""
        self._fault(c.request.key)
        return super().apply(c)

    def apply_batch(self, commands: Sequence[ToolCommand]) -> list[ToolResult | None]:
        if any(c.request.key in self.faults for c in commands):
            raise RuntimeError("a faulty key in the batch")  # not counted: the one-by-one path is
        return super().apply_batch(commands)

    def _fault(self, key: str) -> None:
        if key in self.faults:
            self.calls[key] += 1
            exc = self.faults[key](self.calls[key])
            if exc is not None:
                raise exc


def test_commands_retry_transient_dead_letter_data_errors_and_move_on(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1)
    tools = FaultyTools(build_tools(cfg), {
        "fact-data": lambda n: DataError("UPDATE", {}, psycopg.errors.StringDataRightTruncation("too long")),
        "fact-flaky": lambda n: operational_error() if n <= 2 else None,
        "fact-bug": lambda n: ZeroDivisionError("division by zero"),
    })
    strategy = CommandStrategy(tools, DeadLetterPublisher(cfg, cfg.GROUP_COMMANDS), group=cfg.GROUP_COMMANDS,
                               retry=FAST_RETRY, max_record_attempts=2)
    with MemoryEventProducer(cfg) as producer:
        for i, key in enumerate(["fact-a", "fact-data", "fact-flaky", "fact-bug", "fact-b"]):
            producer.publish_command(MemorySaveData(command_id=f"ec{i}", user_id="ec-cmd", key=key,
                                                    content=f"content of {key}"))
        producer.flush(30)
    loop = commands_loop(cfg)
    loop.strategy = strategy
    with running(loop):
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_COMMANDS, cfg.TOPIC_MEMORY_COMMANDS), 60,
                   what="every command finished")
    assert tools.calls == {"fact-data": 1, "fact-flaky": 3, "fact-bug": 2}
    assert sorted(live(clean_db, "ec-cmd")) == ["fact-a", "fact-b", "fact-flaky"]
    letters = [parse_dead_letter(m.value()) for m in read_topic(cfg, cfg.dlq_topic(cfg.GROUP_COMMANDS), 2)]
    assert [(d.data.source_offset, d.data.error_type) for d in letters] == [
        (1, "DataError"), (3, "ZeroDivisionError")]


def test_a_dead_letter_topic_that_cannot_be_written_stops_the_loop_without_skipping_the_record(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    base = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1)
    # the DLQ topic of this suffix was never created (automatic topic creation is off on the broker)
    cfg = base.model_copy(update={"DLQ_TOPIC_SUFFIX": ".missing-dlq", "CONSUMER_DLQ_TIMEOUT_SEC": 1.5,
                                  "CONSUMER_DLQ_MAX_ATTEMPTS": 2})
    publish(cfg, conversation("ec-fatal", "c-fatal", [("user", "I live in Hanoi.")]))
    loop = extractor_loop(cfg)
    with pytest.raises(FatalConsumerError, match="cannot dead-letter"), running(loop):
        # the good record is stored first (in the same poll as the bad one, it would wait for the bad
        # one's dead letter and be redelivered after the stop: nothing lost, but nothing to observe)
        wait_until(lambda: any("Hanoi" in c for _, c in live(clean_db, "ec-fatal").values()), 60,
                   what="the good record stored")
        raw = Producer(client_config(cfg))
        raw.produce(cfg.TOPIC_CHAT_MESSAGES, key=b"ec-fatal", value=b"not json")
        raw.flush(10)
        started = time.monotonic()
        wait_until(lambda: loop.turns > 0 and loop._consumer is None, 60, interval=0.2,
                   what="the loop to stop by itself")
    assert time.monotonic() - started < 60
    from confluent_kafka import TopicPartition

    check = Consumer({**client_config(cfg), "group.id": cfg.GROUP_EXTRACTOR})
    try:
        (committed,) = check.committed([TopicPartition(cfg.TOPIC_CHAT_MESSAGES, 0)], timeout=10)
    finally:
        check.close()
    assert committed.offset == 1  # the good record is committed, the undead-lettered one is not


def test_cli_exits_with_code_4_and_one_line_on_a_broker_authentication_failure(
    settings: Settings, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name)
    base = {k: v for k, v in os.environ.items() if k not in Settings.model_fields}
    env = {**base, "DATABASE_URL": cfg.database_url, "KAFKA_BOOTSTRAP_SERVERS": cfg.KAFKA_BOOTSTRAP_SERVERS,
           "TOPIC_MEMORY_COMMANDS": cfg.TOPIC_MEMORY_COMMANDS, "GROUP_COMMANDS": cfg.GROUP_COMMANDS,
           # the broker speaks PLAINTEXT: a SASL handshake fails as an authentication error
           "KAFKA_SECURITY_PROTOCOL": "SASL_PLAINTEXT", "KAFKA_SASL_MECHANISM": "PLAIN",
           "KAFKA_SASL_USERNAME": "nobody", "KAFKA_SASL_PASSWORD": "wrong",
           "KAFKA_CLIENT_OPTIONS": '{"log_level": 0}'}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "cli.main", "run", "commands"], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 4, done.stderr[-2000:]
    assert time.monotonic() - started < 60
    ours = [line for line in done.stderr.splitlines() if "stops:" in line]
    assert len(ours) == 1 and "_AUTHENTICATION" in ours[0], done.stderr[-2000:]
    assert "wrong" not in done.stderr


class FaultyIndexer(MemoryIndexer):
    """The real indexer, except that a batch holding ``poison`` raises ``DataError``."""

    poison: int = -1
    calls: list[list[int]]

    def sync(self, memory_ids: Sequence[int]) -> SyncReport:
        self.calls.append(list(memory_ids))
        if self.poison in memory_ids:
            raise DataError("UPDATE", {}, psycopg.errors.NumericValueOutOfRange("out of range"))
        return super().sync(memory_ids)


def test_indexer_isolates_a_poison_memory_dead_letters_its_record_and_syncs_the_rest(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name, MEMORY_MILVUS_COLLECTION=unique_name("t_ec"),
                            MEMORY_INDEX_WORKER_ENABLED=True)
    tools = build_tools(cfg, dedup=False)  # three similar rows as written: no dedup, the indexer embeds
    ids = [tools.memory_save(ToolWrite("ec-ix", f"fact-k{i}", f"fact number {i}: likes kite surfing",
                                       "fact")).memory_id
           for i in range(3)]
    index = MilvusMemoryIndex.from_settings(cfg)
    indexer = FaultyIndexer(session_factory(clean_db), LocalE5Embedder(), index)
    indexer.calls = []
    indexer.poison = int(ids[1] or 0)
    now = [1000.0]
    strategy = IndexerStrategy(indexer, DeadLetterPublisher(cfg, cfg.GROUP_INDEXER), batch_size=3,
                               max_wait_sec=0.1, clock=lambda: now[0], group=cfg.GROUP_INDEXER)
    done: list[Record] = []
    strategy.bind(done.append)
    try:
        with Session(clean_db) as s:
            rows = s.execute(select(OutboxEvent.message_key, OutboxEvent.payload)
                             .order_by(OutboxEvent.id)).all()
        for offset, (key, payload) in enumerate(rows):
            strategy.submit(Record(cfg.TOPIC_MEMORY_DIRTY, 0, offset, key.encode(),
                                   json.dumps(payload).encode(), (), None))
        strategy.poll()  # a full batch: synced at once, fails for good, isolated memory by memory
        assert sorted(r.offset for r in done) == [0, 1, 2] and strategy.buffered == 0
        assert indexer.calls == [ids, [ids[0]], [ids[1]], [ids[2]]]
        with Session(clean_db) as s:
            status = dict(s.execute(select(LongTermMemory.id, LongTermMemory.vector_status)).all())
        assert status[ids[0]] == status[ids[2]] == "SYNCED" and status[ids[1]] != "SYNCED"
        (letter,) = [parse_dead_letter(m.value())
                     for m in read_topic(cfg, cfg.dlq_topic(cfg.GROUP_INDEXER), 1)]
        assert letter.data.error_type == "DataError" and letter.data.source_offset == 1
        assert letter.data.reason == "DataError: NumericValueOutOfRange: out of range"
    finally:
        strategy.close()
        index.drop_collection(cfg.MEMORY_MILVUS_COLLECTION)


def test_every_offset_commit_is_checked(settings: Settings, unique_name: Callable[[str], str]) -> None:
    """A commit the broker rejects is counted and logged, and the offsets are offered again."""
    from prometheus_client import REGISTRY

    cfg = isolated_settings(settings, unique_name)
    loop = commands_loop(cfg)
    group = cfg.GROUP_COMMANDS

    def failures() -> float:
        return REGISTRY.get_sample_value("pai_memory_offset_commit_failures_total", {"group": group}) or 0.0

    consumer = Consumer(loop._config())
    loop._consumer = consumer
    try:
        missing = (unique_name("no_such_topic"), 0)
        real = (cfg.TOPIC_MEMORY_COMMANDS, 0)
        for topic, partition in (missing, real):
            loop._assigned.add((topic, partition))
            loop.tracker.started(topic, partition, 4)
            loop.tracker.done(topic, partition, 4)
        loop._commit(asynchronous=True, only={missing})  # the result comes back through on_commit
        wait_until(lambda: consumer.poll(0.2) is None and loop.commit_failures == 1, 20,
                   what="the failed async commit reported")
        assert failures() == 1.0
        assert loop.tracker.committable() == {missing: 5, real: 5}  # not marked committed
        loop._commit(asynchronous=False, only={missing})
        assert loop.commit_failures == 2 and failures() == 2.0
        loop._commit(asynchronous=False, only={real})
        assert loop.commit_failures == 2 and loop.tracker.committable() == {missing: 5}
        loop._commit(asynchronous=True, only={real})  # nothing left to commit for it: no call at all
        assert loop.tracker.committable() == {missing: 5}
    finally:
        loop._consumer = None
        consumer.close()
        loop.strategy.close()
