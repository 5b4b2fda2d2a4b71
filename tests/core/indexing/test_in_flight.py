"""MemoryIndexer with several embedding batches in flight (the ``openai`` embedder, random latencies)
against real PostgreSQL and Milvus: every batch lands, a failed batch fails only its rows, and under
concurrent writes a row is never marked SYNCED with a vector of an older text (a later truth wins)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from consumers.processes import build_tools
from core.config import Settings
from core.embedding.openai_embedder import OpenAIEmbedder
from core.indexing import IndexSyncFailed, MemoryIndexer
from core.memory.text import embedding_text, text_hash
from core.memory.tools import MemoryTools, ToolWrite
from core.storage.db import session_factory
from core.storage.models import LongTermMemory
from core.vectorstore import MilvusMemoryIndex
from tests.support.fake_openai import FakeOpenAIServer, Latency  # `fake_openai`: tests/core/conftest.py

pytestmark = pytest.mark.services


@dataclass
class Env:
    tools: MemoryTools
    indexer: MemoryIndexer
    engine: Engine
    fake: FakeOpenAIServer

    def rows(self) -> list[LongTermMemory]:
        with Session(self.engine) as s:
            return list(s.scalars(select(LongTermMemory).order_by(LongTermMemory.id)).all())

    def vector_matches(self, row: LongTermMemory) -> bool:
        """Milvus holds, for this row, the vector of its current index text."""
        text = embedding_text(row.memory_type, row.memory_key, row.content)
        view = self.indexer.target.view  # type: ignore[union-attr]
        hits = dict(view.search(row.user_id, FakeOpenAIServer.vector_for(text, self.fake.embedding_dim), 50))
        return hits.get(row.id, 0.0) > 0.9999


@pytest.fixture
def env(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str],
        fake_openai: FakeOpenAIServer) -> Iterator[Env]:
    cfg = settings.model_copy(update={"MEMORY_MILVUS_COLLECTION": unique_name("t_idx_fl"),
                                      "MEMORY_MILVUS_SEARCH_CONSISTENCY": "Strong"})
    embedder = OpenAIEmbedder(base_url=fake_openai.base_url, model="fake-embed",
                              dim=fake_openai.embedding_dim, max_retries=0, timeout=10, max_concurrency=8)
    index = MilvusMemoryIndex.from_settings(cfg, dim=fake_openai.embedding_dim)
    indexer = MemoryIndexer(session_factory(clean_db), embedder, index, embed_batch_size=4,
                            max_in_flight_batches=4)
    indexer.start()
    try:
        yield Env(build_tools(cfg, dedup=False), indexer, clean_db, fake_openai)  # rows as written
    finally:
        index.drop_collection(cfg.MEMORY_MILVUS_COLLECTION)
        indexer.close()


def _content(user: int, item: int, version: int) -> str:
    return f"item {item} of user {user}, version {version}"


def _save(env: Env, n_users: int, per_user: int, version: int) -> list[int]:
    ids = []
    for u in range(n_users):
        for k in range(per_user):
            r = env.tools.memory_save(ToolWrite(f"fl-u{u}", f"fact-item_{k}", _content(u, k, version),
                                                "fact"))
            assert r.memory_id is not None
            ids.append(r.memory_id)
    return ids


def test_batches_go_out_concurrently_and_all_land(env: Env) -> None:
    ids = _save(env, 3, 8, 1)
    env.fake.configure(latency=Latency.lognormal(0.1, 0.4), endpoints=("embeddings",), seed=3)
    report = env.indexer.sync(ids)
    assert sorted(report.upserted) == sorted(ids) and report.embed_calls == 6  # 24 rows / batches of 4
    assert env.fake.max_in_flight_seen >= 2  # several batches were in flight at once
    for row in env.rows():
        assert row.vector_status == "SYNCED" and env.vector_matches(row)


def test_a_failed_batch_fails_only_its_rows(env: Env) -> None:
    ids = _save(env, 2, 6, 1)
    env.fake.embedding_fault(status=400)  # the first batch to arrive is rejected (not retried)
    with pytest.raises(IndexSyncFailed) as failed:
        env.indexer.sync(ids)
    assert failed.value.stage == "embed" and len(failed.value.failed_ids) == 4
    rows = {r.id: r for r in env.rows()}
    assert {i for i in ids if rows[i].vector_status == "FAILED"} == set(failed.value.failed_ids)
    assert all(rows[i].vector_status == "SYNCED" for i in ids if i not in failed.value.failed_ids)
    report = env.indexer.sync(ids)  # the consumer's retry: only the failed rows are embedded again
    assert sorted(report.upserted) == sorted(failed.value.failed_ids) and report.embed_calls == 1
    assert all(r.vector_status == "SYNCED" and env.vector_matches(r) for r in env.rows())


def test_concurrent_writes_never_leave_an_older_vector_marked_synced(env: Env) -> None:
    ids = _save(env, 3, 6, 0)
    env.fake.configure(latency=Latency.lognormal(0.03, 0.3), endpoints=("embeddings",), seed=11)
    stop = threading.Event()
    rng = random.Random(5)
    writes = 0

    def writer() -> None:
        nonlocal writes
        version = 1
        while not stop.is_set():
            u, k = rng.randrange(3), rng.randrange(6)
            env.tools.memory_save(ToolWrite(f"fl-u{u}", f"fact-item_{k}", _content(u, k, version), "fact"))
            version += 1
            writes += 1
            time.sleep(rng.uniform(0.0, 0.03))

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        deadline = time.monotonic() + 6.0
        while time.monotonic() < deadline:  # the indexer syncs everything again and again meanwhile
            env.indexer.sync(ids)
    finally:
        stop.set()
        thread.join(30)
    assert writes > 20
    synced = 0
    for row in env.rows():
        if row.vector_status == "SYNCED":  # then Milvus holds the vector of the row's current text
            synced += 1
            text = embedding_text(row.memory_type, row.memory_key, row.content)
            assert row.vector_text_hash == text_hash(text)
            assert env.vector_matches(row), (row.id, row.content)
        else:
            assert row.vector_status == "DIRTY"  # waits for the event its newest write enqueued
    assert synced > 0
    env.indexer.sync(ids)  # that newer event
    assert all(r.vector_status == "SYNCED" and env.vector_matches(r) for r in env.rows())
