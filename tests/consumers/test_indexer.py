"""The indexer group: memory.dirty records -> MemoryIndexer -> Milvus + SYNCED rows, offsets after both.

Strategy-level tests drive ``IndexerStrategy`` with ``Record``s built from real outbox payloads and a
manual clock (real PostgreSQL, Milvus and the Kafka DLQ topic); the end-to-end test runs the real
consumer loop on a private topic.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from confluent_kafka import Producer
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from consumers.dlq import DeadLetterPublisher
from consumers.indexer import IndexerStrategy
from consumers.policies import RetryPolicy
from consumers.processes import build_tools, indexer_loop
from consumers.runtime import Record
from core.config import Settings
from core.embedding.base import Embedder, Vectors
from core.embedding.local import LocalE5Embedder
from core.embedding.openai_embedder import OpenAIEmbedder
from core.indexing import MemoryIndexer
from core.memory.text import embedding_text, text_hash
from core.memory.tools import ToolWrite
from core.storage.db import session_factory
from core.storage.models import LongTermMemory, OutboxEvent, User, VectorCollection
from core.vectorstore import IndexModelMismatch, MilvusMemoryIndex, register_collection
from localstack.process import wait_until
from producers.kafka_config import client_config
from schemas import parse_dead_letter, parse_memory_dirty
from tests.support.fake_openai import FakeOpenAIServer
from tests.support.pipeline import group_caught_up, isolated_settings, read_topic, running

pytestmark = pytest.mark.services

_LOCAL = LocalE5Embedder()
REPO = Path(__file__).resolve().parents[2]


@dataclass
class CountingEmbedder:
    """The real local embedder, counting the texts it is asked to embed."""

    inner: Embedder = field(default_factory=lambda: _LOCAL)
    calls: int = 0
    texts: list[str] = field(default_factory=list)
    model: str = _LOCAL.model
    dim: int = _LOCAL.dim

    def embed_passages(self, texts: list[str]) -> Vectors:
        self.calls += 1
        self.texts.extend(texts)
        return self.inner.embed_passages(texts)

    def embed_queries(self, texts: list[str]) -> Vectors:
        return self.inner.embed_queries(texts)


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Harness:
    settings: Settings
    engine: Engine
    strategy: IndexerStrategy
    embedder: Embedder
    clock: ManualClock
    done: list[Record] = field(default_factory=list)
    offsets: dict[int, int] = field(default_factory=dict)  # partition -> next offset

    def record(self, value: bytes, partition: int = 0, key: bytes | None = b"u") -> Record:
        offset = self.offsets.get(partition, 0)
        self.offsets[partition] = offset + 1
        return Record(self.settings.TOPIC_MEMORY_DIRTY, partition, offset, key, value, (), None)

    def outbox_records(self, since_id: int = 0, partition: int = 0) -> list[Record]:
        return [self.record(value, partition, key) for key, value in outbox_payloads(self.engine, since_id)]

    @property
    def view(self) -> MilvusMemoryIndex:
        target = self.strategy.indexer.target
        assert target is not None
        return target.view


def outbox_payloads(engine: Engine, since_id: int = 0) -> list[tuple[bytes, bytes]]:
    """(key, value) of the outbox rows after ``since_id``, as the relay would publish them."""
    with Session(engine) as s:
        rows = s.execute(select(OutboxEvent.message_key, OutboxEvent.payload)
                         .where(OutboxEvent.id > since_id).order_by(OutboxEvent.id)).all()
    return [(k.encode(), json.dumps(p).encode()) for k, p in rows]


def last_outbox_id(engine: Engine) -> int:
    with Session(engine) as s:
        return int(s.scalar(select(OutboxEvent.id).order_by(OutboxEvent.id.desc()).limit(1)) or 0)


def memory(engine: Engine, memory_id: int | None) -> LongTermMemory:
    assert memory_id is not None
    with Session(engine) as s:
        row = s.get(LongTermMemory, memory_id)
        assert row is not None
        return row


def drop_collections(settings: Settings, engine: Engine) -> None:
    index = MilvusMemoryIndex.from_settings(settings)
    with Session(engine) as s:
        names = s.scalars(select(VectorCollection.name)).all()
    for name in names:
        index.drop_collection(name)
    index.close()


@pytest.fixture
def cfg(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Settings]:
    isolated = isolated_settings(settings, unique_name, MEMORY_MILVUS_COLLECTION=unique_name("t_ixc"),
                                 MEMORY_INDEX_WORKER_ENABLED=True)
    try:
        yield isolated
    finally:
        drop_collections(isolated, clean_db)


@pytest.fixture
def fake() -> Iterator[FakeOpenAIServer]:
    """The OpenAI-compatible TEST DOUBLE (embeddings of 16 dims)."""
    server = FakeOpenAIServer().start()
    try:
        yield server
    finally:
        server.stop()


def harness(cfg: Settings, engine: Engine, embedder: Embedder, *, batch_size: int = 3,
            max_attempts: int | None = 8) -> Harness:
    clock = ManualClock()
    index = MilvusMemoryIndex.from_settings(cfg, dim=embedder.dim)
    strategy = IndexerStrategy(MemoryIndexer(session_factory(engine), embedder, index),
                               DeadLetterPublisher(cfg, cfg.GROUP_INDEXER), batch_size=batch_size,
                               max_wait_sec=0.2, retry=RetryPolicy(initial_sec=1.0, max_sec=8.0),
                               max_attempts=max_attempts, clock=clock, sleep=clock.sleep,
                               group=cfg.GROUP_INDEXER)
    h = Harness(cfg, engine, strategy, embedder, clock)
    strategy.bind(h.done.append)
    return h


# --- batching ------------------------------------------------------------------------------------------
def test_freshness_is_measured_from_the_origin_of_the_change(cfg: Settings, clean_db: Engine) -> None:
    """The histogram observes now - origin_at (when the message/command was created), not the commit."""
    from prometheus_client import REGISTRY

    tools = build_tools(cfg, dedup=False)  # the rows as written: no dedup, the indexer embeds
    h = harness(cfg, clean_db, CountingEmbedder())
    origin = datetime.now(UTC) - timedelta(seconds=400)
    tools.memory_save(ToolWrite("ix-fresh", "fact-city", "lives in Dalian", "fact", origin_at=origin))
    (record,) = h.outbox_records()
    assert parse_memory_dirty(record.value or b"").data.origin_at == origin

    def observed() -> tuple[float, float]:
        return (REGISTRY.get_sample_value("pai_memory_freshness_seconds_count") or 0.0,
                REGISTRY.get_sample_value("pai_memory_freshness_seconds_sum") or 0.0)

    count0, sum0 = observed()
    h.strategy.submit(record)
    h.clock.now += 0.3
    h.strategy.poll()
    count1, sum1 = observed()
    assert len(h.done) == 1 and count1 == count0 + 1
    assert 400 <= sum1 - sum0 < 460  # from the origin 400 s ago, not from the commit a moment ago


def test_poll_seals_what_a_sync_wrote(cfg: Settings, clean_db: Engine) -> None:
    tools = build_tools(cfg, dedup=False)  # the rows as written: no dedup, the indexer embeds
    h = harness(cfg, clean_db, CountingEmbedder())
    h.strategy.indexer.seal_interval_sec = 0.001
    tools.memory_save(ToolWrite("ix-seal", "fact-city", "lives in Hefei", "fact"))
    for r in h.outbox_records():
        h.strategy.submit(r)
    h.clock.now += 0.3
    h.strategy.poll()  # syncs the buffered memory, then seals the write
    assert len(h.done) == 1 and h.strategy.indexer.unsealed == 0


def test_flushes_after_the_wait_or_at_batch_size_and_collapses_events(cfg: Settings,
                                                                      clean_db: Engine) -> None:
    tools = build_tools(cfg, dedup=False)  # the rows as written: no dedup, the indexer embeds
    embedder = CountingEmbedder()
    h = harness(cfg, clean_db, embedder, batch_size=3)
    a = tools.memory_save(ToolWrite("ix-b", "fact-city", "lives in Nanjing", "fact"))
    # same memory, second event
    tools.memory_save(ToolWrite("ix-b", "fact-city", "lives in Suzhou now", "fact"))
    b = tools.memory_save(ToolWrite("ix-b", "preference-food", "loves spicy hotpot", "preference"))
    records = h.outbox_records()
    assert len(records) == 3
    for r in records:
        h.strategy.submit(r)

    h.strategy.poll()  # 2 memories < batch of 3, nothing waited yet
    assert h.done == [] and embedder.calls == 0 and h.strategy.buffered_memories == 2
    h.clock.now += 0.1
    h.strategy.poll()
    assert h.done == []
    h.clock.now += 0.15  # the oldest record has now waited 0.25 s > 0.2 s
    h.strategy.poll()

    assert sorted(r.offset for r in h.done) == [0, 1, 2]
    assert embedder.calls == 1 and len(embedder.texts) == 2  # three events, two memories, one call
    assert "lives in Suzhou now" in embedder.texts  # truth, not the first event
    for res in (a, b):
        row = memory(clean_db, res.memory_id)
        assert row.vector_status == "SYNCED" and row.vector_text_hash == text_hash(
            embedding_text(row.memory_type, row.memory_key, row.content))
    assert sorted(h.view.list_ids()) == sorted(i for i in (a.memory_id, b.memory_id) if i is not None)

    # a full batch flushes at once, without waiting
    since = last_outbox_id(clean_db)
    for i in range(3):
        tools.memory_save(ToolWrite("ix-b", f"project-p{i}", f"side project number {i}: a garden planner",
                                    "project"))
    for r in h.outbox_records(since):
        h.strategy.submit(r)
    h.strategy.poll()
    assert len(h.done) == 6 and embedder.calls == 2 and h.strategy.buffered == 0
    assert len(h.view.list_ids()) == 5


def test_malformed_events_are_dead_lettered_and_done(cfg: Settings, clean_db: Engine) -> None:
    h = harness(cfg, clean_db, CountingEmbedder())
    bad = [h.record(b"not json at all"), h.record(json.dumps({"specversion": "1.0", "type": "x"}).encode()),
           h.record(b'{"specversion":"1.0","id":"e1","source":"s","type":"pai.memory.dirty.v1"}')]
    for r in bad:
        h.strategy.submit(r)
    assert sorted(r.offset for r in h.done) == [0, 1, 2] and h.strategy.dead_lettered == 3
    letters = read_topic(cfg, cfg.dlq_topic(cfg.GROUP_INDEXER), expected=3)
    assert len(letters) == 3
    parsed = [parse_dead_letter(m.value()) for m in letters]
    assert {p.data.source_offset for p in parsed} == {0, 1, 2}
    assert all(p.data.consumer_group == cfg.GROUP_INDEXER and p.data.reason for p in parsed)


# --- failures --------------------------------------------------------------------------------------------
def fake_embedder(fake: FakeOpenAIServer) -> OpenAIEmbedder:
    return OpenAIEmbedder(base_url=fake.base_url, model="fake-embed", dim=fake.embedding_dim, max_retries=0,
                          timeout=5)


def test_failed_sync_is_retried_with_backoff_and_only_then_done(cfg: Settings, clean_db: Engine,
                                                                fake: FakeOpenAIServer) -> None:
    tools = build_tools(cfg, dedup=False)  # the rows as written: no dedup, the indexer embeds
    h = harness(cfg, clean_db, fake_embedder(fake))
    res = tools.memory_save(ToolWrite("ix-f", "goal-swim", "learn to swim butterfly stroke", "goal"))
    fake.embedding_fault(status=400)
    for r in h.outbox_records():
        h.strategy.submit(r)
    h.clock.now += 0.3

    h.strategy.poll()  # attempt 1 fails

    assert h.done == [] and fake.embedding_calls == 1
    row = memory(clean_db, res.memory_id)
    assert row.vector_status == "FAILED" and (row.vector_error or "").startswith("embed: ")
    h.clock.now += 0.5
    h.strategy.poll()  # still backing off (1 s)
    assert fake.embedding_calls == 1 and h.done == []
    h.clock.now += 0.6
    h.strategy.poll()  # attempt 2 succeeds
    assert fake.embedding_calls == 2 and [r.offset for r in h.done] == [0]
    assert memory(clean_db, res.memory_id).vector_status == "SYNCED"
    assert h.view.list_ids() == [res.memory_id]


def test_gives_up_after_max_attempts_leaving_failed_rows_for_the_sweeper(cfg: Settings, clean_db: Engine,
                                                                        fake: FakeOpenAIServer) -> None:
    tools = build_tools(cfg, dedup=False)  # the rows as written: no dedup, the indexer embeds
    h = harness(cfg, clean_db, fake_embedder(fake), max_attempts=2)
    res = tools.memory_save(ToolWrite("ix-g", "fact-team", "plays in an amateur football team", "fact"))
    fake.embedding_fault(status=400, repeat=2)
    for r in h.outbox_records():
        h.strategy.submit(r)
    h.clock.now += 0.3
    h.strategy.poll()
    assert h.done == []
    h.clock.now += 1.1
    h.strategy.poll()  # second failure: give up
    assert len(h.done) == 1 and h.strategy.given_up == 1 and h.strategy.buffered == 0
    assert memory(clean_db, res.memory_id).vector_status == "FAILED"


def test_join_retries_until_the_deadline(cfg: Settings, clean_db: Engine, fake: FakeOpenAIServer) -> None:
    tools = build_tools(cfg, dedup=False)  # the rows as written: no dedup, the indexer embeds
    h = harness(cfg, clean_db, fake_embedder(fake))
    tools.memory_save(ToolWrite("ix-j", "fact-bike", "commutes by bicycle", "fact"))
    fake.embedding_fault(status=400)
    for r in h.outbox_records():
        h.strategy.submit(r)
    h.strategy.join(timeout=10.0)  # fails once, sleeps the backoff on the manual clock, succeeds
    assert len(h.done) == 1 and fake.embedding_calls == 2


# --- rebalancing -----------------------------------------------------------------------------------------
def test_revoke_finishes_the_revoked_partitions_or_abandons_them(cfg: Settings, clean_db: Engine,
                                                                 fake: FakeOpenAIServer) -> None:
    tools = build_tools(cfg, dedup=False)  # the rows as written: no dedup, the indexer embeds
    h = harness(cfg, clean_db, fake_embedder(fake), batch_size=10)
    topic = cfg.TOPIC_MEMORY_DIRTY
    tools.memory_save(ToolWrite("ix-r0", "fact-a", "collects vinyl records", "fact"))
    p0 = h.outbox_records(partition=0)
    since = last_outbox_id(clean_db)
    tools.memory_save(ToolWrite("ix-r1", "fact-b", "studies cello on weekends", "fact"))
    p1 = h.outbox_records(since, partition=1)
    for r in p0 + p1:
        h.strategy.submit(r)

    h.strategy.revoke([(topic, 0)])  # finished: partition 0's memory synced, its record done

    assert [(r.partition, r.offset) for r in h.done] == [(0, 0)] and h.strategy.buffered == 1
    fake.embedding_fault(status=400)
    h.strategy.revoke([(topic, 1)])  # cannot finish: abandoned, not done, no longer buffered
    assert [(r.partition, r.offset) for r in h.done] == [(0, 0)] and h.strategy.buffered == 0


# --- start-up ----------------------------------------------------------------------------------------------
def test_bind_refuses_a_collection_of_another_model(cfg: Settings, clean_db: Engine,
                                                     fake: FakeOpenAIServer) -> None:
    with Session(clean_db) as s, s.begin():
        register_collection(s, cfg.MEMORY_MILVUS_COLLECTION, _LOCAL.model, _LOCAL.dim)
    with pytest.raises(IndexModelMismatch, match=_LOCAL.model):
        harness(cfg, clean_db, fake_embedder(fake))
    assert fake.embedding_calls == 0


def _cli(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("MEMORY_", "LONG_TERM_", "DATABASE_"))}
    return subprocess.run([sys.executable, "-m", "cli.main", "run", "indexer"], env={**base, **env}, cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_cli_refuses_to_run_when_disabled_or_mismatched(cfg: Settings, clean_db: Engine) -> None:
    env = {"DATABASE_URL": cfg.database_url, "KAFKA_BOOTSTRAP_SERVERS": cfg.KAFKA_BOOTSTRAP_SERVERS,
           "MEMORY_MILVUS_URI": cfg.milvus_uri, "MEMORY_MILVUS_COLLECTION": cfg.MEMORY_MILVUS_COLLECTION,
           "TOPIC_MEMORY_DIRTY": cfg.TOPIC_MEMORY_DIRTY, "GROUP_INDEXER": cfg.GROUP_INDEXER}
    disabled = _cli({**env, "MEMORY_INDEX_WORKER_ENABLED": "false"})
    assert disabled.returncode == 2
    assert "MEMORY_INDEX_WORKER_ENABLED=true" in disabled.stderr

    with Session(clean_db) as s, s.begin():
        register_collection(s, cfg.MEMORY_MILVUS_COLLECTION, _LOCAL.model, _LOCAL.dim)
    mismatched = _cli({**env, "MEMORY_INDEX_WORKER_ENABLED": "true",
                       "MEMORY_EMBEDDING_BASE_URL": "http://127.0.0.1:9/v1",
                       "MEMORY_EMBEDDING_MODEL": "other-embed", "MEMORY_EMBEDDING_DIM": "16"})
    assert mismatched.returncode == 3, mismatched.stderr
    assert "indexer cannot start" in mismatched.stderr and "other-embed" in mismatched.stderr


# --- the real consumer loop --------------------------------------------------------------------------------
def publish(cfg: Settings, items: list[tuple[bytes, bytes]]) -> None:
    producer = Producer({**client_config(cfg), "enable.idempotence": True, "acks": "all"})
    for key, value in items:
        producer.produce(cfg.TOPIC_MEMORY_DIRTY, key=key, value=value)
    assert producer.flush(30) == 0


def live_ids(engine: Engine, user: str) -> list[int]:
    with Session(engine) as s:
        return sorted(s.scalars(select(LongTermMemory.id).join(User, User.id == LongTermMemory.user_id)
                                .where(User.external_id == user, LongTermMemory.is_active.is_(True))).all())


def all_synced(engine: Engine) -> bool:
    with Session(engine) as s:
        return set(s.scalars(select(LongTermMemory.vector_status)).all()) == {"SYNCED"}


def test_indexer_group_end_to_end_with_duplicates_and_reordering(cfg: Settings, clean_db: Engine) -> None:
    tools = build_tools(cfg, dedup=False)  # the rows as written: no dedup, the indexer embeds
    tools.memory_save(ToolWrite("ix-e1", "fact-city", "lives in Qingdao by the sea", "fact"))
    tools.memory_save(ToolWrite("ix-e1", "preference-tea", "drinks green tea every morning", "preference"))
    tools.memory_save(ToolWrite("ix-e1", "fact-city", "moved to Harbin last year", "fact"))  # update
    tools.memory_save(ToolWrite("ix-e1", "goal-lang", "learn Spanish to B2 level", "goal"))
    tools.memory_delete("ix-e1", "goal-lang")  # delete
    tools.memory_save(ToolWrite("ix-e2", "fact-city", "lives in Kunming", "fact"))
    events = outbox_payloads(clean_db)
    # duplicates and reordering: everything twice, the second copy newest first
    publish(cfg, events + events[::-1])
    embedder = CountingEmbedder()
    strategy = IndexerStrategy(
        MemoryIndexer(session_factory(clean_db), embedder, MilvusMemoryIndex.from_settings(cfg)),
        DeadLetterPublisher(cfg, cfg.GROUP_INDEXER), batch_size=cfg.MEMORY_INDEX_WORKER_BATCH_SIZE,
        group=cfg.GROUP_INDEXER)
    loop = indexer_loop(cfg, strategy=strategy)

    with running(loop):
        wait_until(lambda: all_synced(clean_db), 60, what="every memory SYNCED")
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_INDEXER, cfg.TOPIC_MEMORY_DIRTY), 30,
                   what="offsets committed")
        target = strategy.indexer.target
        assert target is not None
        view = target.view
        e1 = memory(clean_db, live_ids(clean_db, "ix-e1")[0]).user_id
        e2 = memory(clean_db, live_ids(clean_db, "ix-e2")[0]).user_id
        assert view.list_ids(e1) == live_ids(clean_db, "ix-e1")  # the deleted goal is not there
        assert view.list_ids(e2) == live_ids(clean_db, "ix-e2")
        assert view.count() == 3
        assert len(embedder.texts) == 3  # every live memory embedded once, duplicates skipped
        assert "lives in Qingdao by the sea" not in embedder.texts

        # a later update while running: the new text is what the index returns
        since = last_outbox_id(clean_db)
        res = tools.memory_save(ToolWrite("ix-e2", "fact-city", "relocated to Dali to open a cafe", "fact"))
        publish(cfg, outbox_payloads(clean_db, since))
        new_hash = text_hash(embedding_text("fact", "fact-city", "relocated to Dali to open a cafe"))
        wait_until(lambda: memory(clean_db, res.memory_id).vector_text_hash == new_hash, 30,
                   what="update indexed")
        query = _LOCAL.embed_passages(["relocated to Dali to open a cafe"])[0]
        hits = view.search(e2, query, 5)
        assert hits == [(res.memory_id, pytest.approx(1.0, abs=1e-3))]
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_INDEXER, cfg.TOPIC_MEMORY_DIRTY), 30,
                   what="offsets committed after the update")
