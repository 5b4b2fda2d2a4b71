"""MemoryIndexer against real PostgreSQL and Milvus (Lite): truth -> vectors -> SYNCED/FAILED."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from sqlalchemy import Engine, delete, update
from sqlalchemy.orm import Session

from consumers.processes import build_tools
from core.config import Settings
from core.embedding.base import Embedder, Vectors
from core.embedding.local import LocalE5Embedder
from core.embedding.openai_embedder import OpenAIEmbedder
from core.indexing import ActiveTarget, IndexSyncFailed, MemoryIndexer
from core.memory.text import embedding_text, text_hash
from core.memory.tools import MemoryTools, ToolWrite
from core.storage.db import session_factory
from core.storage.models import LongTermMemory
from core.vectorstore import IndexModelMismatch, MilvusMemoryIndex, register_collection
from tests.support.fake_openai import FakeOpenAIServer
from tests.support.indexing import running_indexer  # the `fake_openai` fixture: tests/core/conftest.py

pytestmark = pytest.mark.services

_LOCAL = LocalE5Embedder()


@dataclass
class CountingEmbedder:
    """The real local embedder, counting calls; ``before_call`` runs inside each call (races)."""

    inner: Embedder = field(default_factory=lambda: _LOCAL)
    calls: int = 0
    texts: list[str] = field(default_factory=list)
    before_call: Callable[[], None] | None = None
    model: str = _LOCAL.model
    dim: int = _LOCAL.dim

    def embed_passages(self, texts: list[str]) -> Vectors:
        self.calls += 1
        self.texts.extend(texts)
        if self.before_call is not None:
            self.before_call()
        return self.inner.embed_passages(texts)

    def embed_queries(self, texts: list[str]) -> Vectors:
        return self.inner.embed_queries(texts)


def load_row(engine: Engine, memory_id: int) -> LongTermMemory:
    with Session(engine) as s:
        row = s.get(LongTermMemory, memory_id)
        assert row is not None
        return row


@dataclass
class Env:
    settings: Settings
    engine: Engine
    tools: MemoryTools
    embedder: CountingEmbedder
    indexer: MemoryIndexer

    def row(self, memory_id: int) -> LongTermMemory:
        return load_row(self.engine, memory_id)

    def user_pk(self, memory_id: int) -> int:
        return self.row(memory_id).user_id

    @property
    def view(self) -> MilvusMemoryIndex:
        assert self.indexer.target is not None
        return self.indexer.target.view

    def search_text(self, memory_id: int, text: str, limit: int = 10) -> list[tuple[int, float]]:
        """Search the memory's user with the *passage* vector of ``text`` (score 1.0 = same text)."""
        vec = _LOCAL.embed_passages([text])[0]
        return self.view.search(self.user_pk(memory_id), vec, limit)


@pytest.fixture
def env(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Env]:
    embedder = CountingEmbedder()
    with running_indexer(settings, clean_db, unique_name("t_idx"), embedder) as (cfg, indexer):
        yield Env(cfg, clean_db, build_tools(cfg, dedup=False), embedder, indexer)  # rows as written


def expected_hash(row: LongTermMemory) -> str:
    return text_hash(embedding_text(row.memory_type, row.memory_key, row.content))


# --- the happy path -------------------------------------------------------------------------------
def test_sync_embeds_upserts_and_marks_synced(env: Env) -> None:
    a1 = env.tools.memory_save(ToolWrite("idx-a", "fact-city", "I live in Wuhan", "fact"))
    a2 = env.tools.memory_save(ToolWrite("idx-a", "preference-drink", "likes oolong tea, never coffee",
                                         "preference"))
    b1 = env.tools.memory_save(ToolWrite("idx-b", "fact-city", "lives in Lisbon", "fact"))
    ids = [i for i in (a1.memory_id, a2.memory_id, b1.memory_id) if i is not None]
    assert len(ids) == 3
    assert env.row(ids[0]).vector_status == "DIRTY"

    report = env.indexer.sync(ids)

    assert sorted(report.upserted) == sorted(ids) and report.embed_calls == 1 == env.embedder.calls
    target = env.indexer.target
    assert target is not None and target.version == 1
    for mid in ids:
        assert mid is not None
        row = env.row(mid)
        assert row.vector_status == "SYNCED" and row.vector_error is None
        assert row.vector_text_hash == expected_hash(row)
        assert row.vector_model == env.embedder.model and row.vector_version == target.version
        assert row.vector_synced_at is not None
    assert a1.memory_id is not None and b1.memory_id is not None
    hits_a = env.search_text(a1.memory_id, "I live in Wuhan")
    assert hits_a[0][0] == a1.memory_id and hits_a[0][1] == pytest.approx(1.0, abs=1e-3)
    assert {mid for mid, _ in hits_a} == {a1.memory_id, a2.memory_id}  # user A's only
    hits_b = env.search_text(b1.memory_id, "I live in Wuhan")
    assert {mid for mid, _ in hits_b} == {b1.memory_id}
    assert env.view.count() == 3


def test_update_replaces_the_vector(env: Env) -> None:
    first = env.tools.memory_save(ToolWrite("idx-u", "fact-job", "works as a backend engineer", "fact"))
    assert first.memory_id is not None
    env.indexer.sync([first.memory_id])
    env.tools.memory_save(ToolWrite("idx-u", "fact-job", "became a primary school teacher in Chengdu",
                                    "fact"))
    assert env.row(first.memory_id).vector_status == "DIRTY"

    report = env.indexer.sync([first.memory_id])

    assert report.upserted == [first.memory_id]
    row = env.row(first.memory_id)
    assert row.vector_status == "SYNCED" and row.vector_text_hash == expected_hash(row)
    new_hits = env.search_text(first.memory_id, "became a primary school teacher in Chengdu")
    assert new_hits[0] == (first.memory_id, pytest.approx(1.0, abs=1e-3))
    old_hits = env.search_text(first.memory_id, "works as a backend engineer")
    assert old_hits[0][1] < 0.99  # the old text's vector is gone
    assert env.view.count() == 1


def test_delete_removes_the_entry_and_is_idempotent(env: Env) -> None:
    keep = env.tools.memory_save(ToolWrite("idx-d", "fact-pet", "has a cat named Mochi", "fact"))
    gone = env.tools.memory_save(ToolWrite("idx-d", "goal-exam", "pass the JLPT N1 exam", "goal"))
    assert keep.memory_id is not None and gone.memory_id is not None
    env.indexer.sync([keep.memory_id, gone.memory_id])
    env.tools.memory_delete("idx-d", "goal-exam")

    report = env.indexer.sync([gone.memory_id])

    assert report.deleted == [gone.memory_id] and report.embed_calls == 0
    row = env.row(gone.memory_id)
    assert row.vector_status == "SYNCED" and row.vector_text_hash is None and row.is_active is False
    assert env.view.list_ids(row.user_id) == [keep.memory_id]
    again = env.indexer.sync([gone.memory_id])  # duplicate event: nothing to do
    assert again.skipped == [gone.memory_id] and env.view.list_ids(row.user_id) == [keep.memory_id]
    # re-creating the same key with the same text must index it again (the hash was cleared)
    env.tools.memory_save(ToolWrite("idx-d", "goal-exam", "pass the JLPT N1 exam", "goal"))
    assert env.indexer.sync([gone.memory_id]).upserted == [gone.memory_id]
    assert sorted(env.view.list_ids(row.user_id)) == sorted([keep.memory_id, gone.memory_id])


def test_unchanged_text_is_not_embedded_again(env: Env) -> None:
    res = env.tools.memory_save(ToolWrite("idx-s", "preference-music", "enjoys jazz piano", "preference",
                                          importance=3))
    assert res.memory_id is not None
    env.indexer.sync([res.memory_id])
    calls, synced_at = env.embedder.calls, env.row(res.memory_id).vector_synced_at

    dup = env.indexer.sync([res.memory_id, res.memory_id])
    assert dup.skipped == [res.memory_id] and env.embedder.calls == calls
    assert env.row(res.memory_id).vector_synced_at == synced_at  # no write at all

    # importance changes the row (DIRTY) but not the index text: re-marked without embedding
    env.tools.memory_save(ToolWrite("idx-s", "preference-music", "enjoys jazz piano", "preference",
                                    importance=5))
    assert env.row(res.memory_id).vector_status == "DIRTY"
    refresh = env.indexer.sync([res.memory_id])
    assert refresh.refreshed == [res.memory_id] and env.embedder.calls == calls
    row = env.row(res.memory_id)
    assert row.vector_status == "SYNCED"
    assert synced_at is not None and row.vector_synced_at is not None and row.vector_synced_at > synced_at


# --- truth that is not indexable ----------------------------------------------------------------
def test_erased_expired_and_filtered_rows_leave_the_index(env: Env) -> None:
    erased = env.tools.memory_save(ToolWrite("idx-x", "fact-car", "drives a red Tesla", "fact"))
    expired = env.tools.memory_save(ToolWrite("idx-x", "project-app", "building a budgeting app", "project"))
    noisy = env.tools.memory_save(ToolWrite("idx-x", "fact-plant", "keeps a fern on the desk", "fact"))
    ids = [erased.memory_id, expired.memory_id, noisy.memory_id]
    assert None not in ids
    env.indexer.sync([i for i in ids if i is not None])
    user = env.user_pk(ids[0])  # type: ignore[arg-type]
    assert len(env.view.list_ids(user)) == 3
    now = datetime.now(UTC)
    with Session(env.engine) as s, s.begin():
        s.execute(delete(LongTermMemory).where(LongTermMemory.id == erased.memory_id))
        s.execute(update(LongTermMemory).where(LongTermMemory.id == expired.memory_id)
                  .values(expires_at=now - timedelta(days=1), updated_at=now))
        # a row written before a hard filter existed: a noise key is excluded at read time too
        s.execute(update(LongTermMemory).where(LongTermMemory.id == noisy.memory_id)
                  .values(memory_key="weather-date_0512", updated_at=now))

    report = env.indexer.sync([i for i in ids if i is not None])

    assert report.erased == [erased.memory_id]
    assert sorted(report.deleted) == sorted(i for i in (expired.memory_id, noisy.memory_id) if i is not None)
    assert env.view.list_ids(user) == []
    for mid in (expired.memory_id, noisy.memory_id):
        assert mid is not None
        row = env.row(mid)
        assert row.vector_status == "SYNCED" and row.vector_text_hash is None
    assert env.embedder.calls == 1  # only the first sync embedded


# --- races: a write between the read and the mark ---------------------------------------------------
def test_concurrent_update_is_never_marked_with_the_older_vector(env: Env) -> None:
    res = env.tools.memory_save(ToolWrite("idx-r", "fact-home", "lives in Hangzhou", "fact"))
    assert res.memory_id is not None
    writes = iter(["moved to Shenzhen for a new job"])

    def concurrent_writer() -> None:  # the user's next write lands while the first batch embeds
        text = next(writes, None)
        if text is not None:
            env.tools.memory_save(ToolWrite("idx-r", "fact-home", text, "fact"))

    env.embedder.before_call = concurrent_writer

    report = env.indexer.sync([res.memory_id])

    assert report.upserted == [res.memory_id] and report.passes == 2 and env.embedder.calls == 2
    row = env.row(res.memory_id)
    assert row.content == "moved to Shenzhen for a new job"
    assert row.vector_status == "SYNCED" and row.vector_text_hash == expected_hash(row)
    hits = env.search_text(res.memory_id, "moved to Shenzhen for a new job")
    assert hits == [(res.memory_id, pytest.approx(1.0, abs=1e-3))]


def test_row_that_keeps_changing_is_left_dirty_not_synced(env: Env) -> None:
    res = env.tools.memory_save(ToolWrite("idx-r2", "fact-score", "score 0", "fact"))
    assert res.memory_id is not None
    counter = iter(range(1, 100))

    def another_write() -> None:  # every pass's embedding races with a newer write
        env.tools.memory_save(ToolWrite("idx-r2", "fact-score", f"score {next(counter)}", "fact"))

    env.embedder.before_call = another_write

    report = env.indexer.sync([res.memory_id])

    assert report.superseded == [res.memory_id] and report.upserted == []
    row = env.row(res.memory_id)
    assert row.vector_status == "DIRTY"  # the newest write's own event will index it
    env.embedder.before_call = None
    assert env.indexer.sync([res.memory_id]).upserted == [res.memory_id]
    row = env.row(res.memory_id)
    assert row.vector_status == "SYNCED" and row.vector_text_hash == expected_hash(row)


# --- failures ----------------------------------------------------------------------------------------
def _fake_indexer(settings: Settings, engine: Engine, fake: FakeOpenAIServer,
                  collection: str) -> MemoryIndexer:
    """An indexer embedding through the OpenAI-compatible TEST DOUBLE (16-dim vectors)."""
    embedder = OpenAIEmbedder(base_url=fake.base_url, model="fake-embed", dim=fake.embedding_dim,
                              max_retries=0, timeout=5)
    index = MilvusMemoryIndex.from_settings(settings, collection=collection, dim=fake.embedding_dim)
    return MemoryIndexer(session_factory(engine), embedder, index)


def test_embedder_failure_marks_failed_and_a_retry_recovers(settings: Settings, clean_db: Engine,
                                                           unique_name: Callable[[str], str],
                                                           fake_openai: FakeOpenAIServer) -> None:
    cfg = settings.model_copy(update={"MEMORY_MILVUS_COLLECTION": unique_name("t_idx_f")})
    tools = build_tools(cfg, dedup=False)  # rows as written: the indexer embeds
    indexer = _fake_indexer(cfg, clean_db, fake_openai, cfg.MEMORY_MILVUS_COLLECTION)
    try:
        indexer.start()
        r1 = tools.memory_save(ToolWrite("idx-f", "fact-city", "lives in Xi'an", "fact"))
        r2 = tools.memory_save(ToolWrite("idx-f", "goal-run", "run a marathon under 4 hours", "goal"))
        ids = [i for i in (r1.memory_id, r2.memory_id) if i is not None]
        fake_openai.embedding_fault(status=400)  # rejected: the OpenAI embedder does not retry a 400

        with pytest.raises(IndexSyncFailed) as failed:
            indexer.sync(ids)

        assert failed.value.stage == "embed" and sorted(failed.value.failed_ids) == sorted(ids)
        for mid in ids:
            assert mid is not None
            row = load_row(clean_db, mid)
            assert row.vector_status == "FAILED" and row.vector_text_hash is None
            assert row.vector_error is not None and row.vector_error.startswith("embed: EmbeddingError")
            assert len(row.vector_error) <= 1000
        assert indexer.target is not None and indexer.target.view.count() == 0

        report = indexer.sync(ids)  # the consumer's retry

        assert sorted(report.upserted) == sorted(ids)
        for mid in ids:
            assert mid is not None
            row = load_row(clean_db, mid)
            assert row.vector_status == "SYNCED" and row.vector_error is None
            assert row.vector_model == "fake-embed"
        assert indexer.target.view.count() == 2
    finally:
        indexer.index.drop_collection(cfg.MEMORY_MILVUS_COLLECTION)
        indexer.close()


def test_milvus_failure_marks_failed_and_the_collection_is_recreated(env: Env) -> None:
    res = env.tools.memory_save(ToolWrite("idx-m", "fact-lang", "speaks Cantonese and Mandarin", "fact"))
    assert res.memory_id is not None
    env.view.drop_collection()  # Milvus lost the collection under us

    with pytest.raises(IndexSyncFailed) as failed:
        env.indexer.sync([res.memory_id])

    assert failed.value.stage == "milvus"
    row = env.row(res.memory_id)
    assert row.vector_status == "FAILED" and (row.vector_error or "").startswith("milvus: ")
    report = env.indexer.sync([res.memory_id])  # retry re-checks and re-creates the collection
    assert report.upserted == [res.memory_id] and env.view.count() == 1
    assert env.row(res.memory_id).vector_status == "SYNCED"


# --- sealing (Milvus flush) ----------------------------------------------------------------------------
def test_seal_flushes_written_rows_at_most_once_per_interval(env: Env) -> None:
    clock = [100.0]
    env.indexer.seal_interval_sec = 5.0
    env.indexer._monotonic = lambda: clock[0]
    saved = [env.tools.memory_save(ToolWrite("idx-s", f"fact-s{i}", f"sealed fact number {i}", "fact"))
             for i in range(3)]
    ids = [r.memory_id for r in saved if r.memory_id is not None]
    assert env.indexer.unsealed == 0 and not env.indexer.seal_if_due()  # nothing written yet

    env.indexer.sync(ids)

    assert env.indexer.unsealed == 3
    assert env.indexer.seal_if_due() and env.indexer.unsealed == 0
    env.tools.memory_delete("idx-s", "fact-s0")
    env.indexer.sync([ids[0]])
    assert env.indexer.unsealed == 1 and not env.indexer.seal_if_due()  # within the interval
    clock[0] += 5.0
    assert env.indexer.seal_if_due() and env.indexer.unsealed == 0
    assert sorted(env.view.list_ids(env.user_pk(ids[1]))) == sorted(ids[1:])


def test_seal_is_off_at_interval_zero_and_a_failed_flush_keeps_the_count(env: Env) -> None:
    res = env.tools.memory_save(ToolWrite("idx-s0", "fact-s", "never sealed", "fact"))
    assert res.memory_id is not None
    env.indexer.sync([res.memory_id])
    assert env.indexer.seal_interval_sec == 0 and not env.indexer.seal_if_due()
    assert env.indexer.unsealed == 1
    env.indexer.seal_interval_sec = 0.01
    target = env.indexer.target
    assert target is not None
    dead = MilvusMemoryIndex("http://127.0.0.1:9", target.name, target.view.dim, timeout=1)
    env.indexer._target = ActiveTarget(target.name, target.version, dead)  # Milvus unreachable
    assert not env.indexer.seal_if_due() and env.indexer.unsealed == 1  # logged, not raised
    env.indexer._target = target
    assert not env.indexer.seal_if_due()  # backs off for ten intervals after a failure


# --- the collection registry ---------------------------------------------------------------------------
def test_model_mismatch_is_a_start_up_error(env: Env, fake_openai: FakeOpenAIServer) -> None:
    # env registered the active collection for the local e5 model (384 dims); a 16-dim model must refuse
    other = _fake_indexer(env.settings, env.engine, fake_openai, env.settings.MEMORY_MILVUS_COLLECTION)
    with pytest.raises(IndexModelMismatch, match="reindex"):
        other.start()
    with pytest.raises(IndexModelMismatch):
        other.sync([1])
    assert fake_openai.embedding_calls == 0


def test_switching_the_active_collection_reindexes_into_it(env: Env,
                                                           unique_name: Callable[[str], str]) -> None:
    res = env.tools.memory_save(ToolWrite("idx-v", "constraint-food", "allergic to peanuts", "constraint"))
    assert res.memory_id is not None
    env.indexer.sync([res.memory_id])
    old_view = env.view
    new_name = unique_name("t_idx_v2")
    with Session(env.engine) as s, s.begin():
        register_collection(s, new_name, env.embedder.model, env.embedder.dim, activate=True)

    report = env.indexer.sync([res.memory_id])  # same text, new collection version: re-embedded

    target = env.indexer.target
    assert target is not None and target.name == new_name and target.version == 2
    assert report.upserted == [res.memory_id]
    assert env.row(res.memory_id).vector_version == 2
    assert target.view.list_ids() == [res.memory_id] and old_view.list_ids() == [res.memory_id]
    assert np.isclose(env.search_text(res.memory_id, embedding_text("constraint", "constraint-food",
                                                                "allergic to peanuts"))[0][1], 1.0, atol=1e-3)
