"""Reindex on real PostgreSQL, Milvus and Kafka: a model/dimension change into a new collection while the
old one serves, atomic switch-over, writes during the rebuild not lost, old collection dropped; and the
re-emit path. The new model is served by the OpenAI-compatible TEST DOUBLE (deterministic vectors)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from cli.main import main as cli_main
from consumers.processes import build_tools
from core.config import EmbeddingProvider, Settings
from core.embedding.factory import build_embedder
from core.memory.text import embedding_text
from core.memory.tools import ToolWrite
from core.reindex import Reindexer, ReindexError, emit_dirty
from core.retrieval import ActiveCollectionSearch
from core.storage.db import session_factory
from core.storage.models import LongTermMemory, OutboxEvent, VectorCollection
from core.vectorstore import MilvusMemoryIndex, active_collection
from core.verify import TruthIndexVerifier
from tests.support.fake_openai import FakeOpenAIServer, fake_openai
from tests.support.ops import drop_collections, export_settings, index_pipeline, wait_settled
from tests.support.pipeline import isolated_settings

pytestmark = pytest.mark.services
__all__ = ["fake_openai"]

NEW_MODEL, NEW_DIM = "text-embedding-3-small", 32


@pytest.fixture
def cfg(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Settings]:
    isolated = isolated_settings(settings, unique_name, MEMORY_MILVUS_COLLECTION=unique_name("t_rx") + "_v1",
                                 MEMORY_INDEX_WORKER_ENABLED=True, MEMORY_MILVUS_ENABLED=True)
    try:
        yield isolated
    finally:
        drop_collections(isolated, clean_db)


def seed(cfg: Settings, engine: Engine) -> dict[str, int]:
    tools = build_tools(cfg)
    ids = {}
    for user, key, content in [("rx-a", "city", "Lives in Qingdao"), ("rx-a", "sport", "Swims every morning"),
                               ("rx-b", "lang", "Learning Korean"), ("rx-b", "pet", "Has two cats")]:
        res = tools.memory_save(ToolWrite(user, key, content))
        assert res.memory_id is not None
        ids[key] = res.memory_id
    tools.memory_delete("rx-b", "pet")  # inactive: must not be in the new collection
    with index_pipeline(cfg):
        wait_settled(engine)
    return ids


def registry(engine: Engine) -> list[tuple[str, int, bool, str, int]]:
    with Session(engine) as s:
        return sorted((r.name, r.version, r.active, r.model, r.dim)
                      for r in s.scalars(select(VectorCollection)))


def test_model_change_rebuilds_switches_atomically_and_loses_no_write(
        cfg: Settings, clean_db: Engine, fake_openai: FakeOpenAIServer) -> None:
    ids = seed(cfg, clean_db)
    [(old_name, version, active, _, dim)] = registry(clean_db)
    assert (version, active, dim) == (1, True, 384)
    new_cfg = cfg.model_copy(update={"MEMORY_EMBEDDING_PROVIDER": EmbeddingProvider.OPENAI,
                                     "MEMORY_EMBEDDING_BASE_URL": fake_openai.base_url,
                                     "MEMORY_EMBEDDING_MODEL": NEW_MODEL, "MEMORY_EMBEDDING_DIM": NEW_DIM})
    sessions = session_factory(clean_db)
    index = MilvusMemoryIndex.from_settings(new_cfg, dim=NEW_DIM)
    tools = build_tools(cfg)
    during: dict[str, object] = {}

    def on_batch(n: int) -> None:  # runs between batches, while the old collection still serves
        if n == 1:
            with Session(clean_db) as s:
                during["active"] = active_collection(s).name  # type: ignore[union-attr]
            during["old_entries"] = index.for_collection(old_name, 384).count()
            during["updated"] = tools.memory_save(ToolWrite("rx-a", "city", "Moved to Dalian")).memory_id
            during["created"] = tools.memory_save(ToolWrite("rx-b", "book",
                                                            "Reads Dream of the Red Chamber")).memory_id

    reindexer = Reindexer(sessions, build_embedder(new_cfg), index, dirty_topic=cfg.TOPIC_MEMORY_DIRTY,
                          batch_size=2)
    report = reindexer.rebuild(drop_grace_sec=0, on_batch=on_batch)

    assert during["active"] == old_name and during["old_entries"] == 3
    new_name = old_name.removesuffix("_v1") + "_v2"
    assert (report.new_collection, report.new_version, report.old_collection) == (new_name, 2, old_name)
    assert report.indexed >= 3 and report.dropped_old
    # switched only once the server served the new collection from sealed, indexed segments
    assert report.served_ready is True and report.served_state["index_covers"]
    assert report.served_state["total_rows"] == report.indexed
    assert registry(clean_db) == [(new_name, 2, True, NEW_MODEL, NEW_DIM)]
    assert not index.for_collection(old_name, 384).has_collection()
    with Session(clean_db) as s:
        rows = {r.id: r for r in s.scalars(select(LongTermMemory))}
        for key in ("sport", "lang"):  # untouched during the rebuild: switched with the new model
            assert (rows[ids[key]].vector_status, rows[ids[key]].vector_model,
                    rows[ids[key]].vector_version) == ("SYNCED", NEW_MODEL, 2)
        # the rows written during the rebuild got a memory.dirty after the switch
        reemitted = set(s.scalars(select(OutboxEvent.aggregate_id).where(
            OutboxEvent.published_at.is_(None))).all())
        assert {during["updated"], during["created"]} <= reemitted
    assert report.reemitted >= 2

    # the indexer and readers now run with the new model: everything lands in the new collection
    with index_pipeline(new_cfg):
        wait_settled(clean_db)
    verifier = TruthIndexVerifier(sessions, index)
    after = verifier.verify()
    assert after.clean, after.render()
    assert (after.collection, after.model, after.entries) == (new_name, NEW_MODEL, 4)
    search = ActiveCollectionSearch(MilvusMemoryIndex.from_settings(new_cfg, dim=NEW_DIM), sessions,
                                    NEW_MODEL, NEW_DIM, refresh_sec=0)
    with Session(clean_db) as s:
        city = s.get(LongTermMemory, ids["city"])
        assert city is not None and city.content == "Moved to Dalian"
        query = np.asarray(fake_openai.vector_for(embedding_text("fact", "city", "Moved to Dalian"), NEW_DIM),
                           dtype=np.float32)
        hits = search.search(city.user_id, query, 5)
    assert hits[0][0] == ids["city"] and hits[0][1] > 0.99


def test_failed_rebuild_keeps_the_old_collection_active(cfg: Settings, clean_db: Engine,
                                                        fake_openai: FakeOpenAIServer) -> None:
    seed(cfg, clean_db)
    before = registry(clean_db)
    new_cfg = cfg.model_copy(update={"MEMORY_EMBEDDING_PROVIDER": EmbeddingProvider.OPENAI,
                                     "MEMORY_EMBEDDING_BASE_URL": fake_openai.base_url,
                                     "MEMORY_EMBEDDING_MODEL": NEW_MODEL, "MEMORY_EMBEDDING_DIM": NEW_DIM,
                                     "MEMORY_EMBEDDING_MAX_RETRIES": 0})
    fake_openai.embedding_fault(status=500, repeat=5)
    index = MilvusMemoryIndex.from_settings(new_cfg, dim=NEW_DIM)
    reindexer = Reindexer(session_factory(clean_db), build_embedder(new_cfg), index,
                          dirty_topic=cfg.TOPIC_MEMORY_DIRTY)
    with pytest.raises(ReindexError, match="still active"):
        reindexer.rebuild(drop_grace_sec=0)
    assert registry(clean_db) == before
    assert not index.for_collection(before[0][0].removesuffix("_v1") + "_v2").has_collection()
    assert TruthIndexVerifier(session_factory(clean_db), index).verify().clean


def test_emit_only_and_the_cli(cfg: Settings, clean_db: Engine, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    ids = seed(cfg, clean_db)
    sessions = session_factory(clean_db)
    with Session(clean_db) as s:
        last_outbox = s.scalar(select(OutboxEvent.id).order_by(OutboxEvent.id.desc()).limit(1)) or 0
    report = emit_dirty(sessions, dirty_topic=cfg.TOPIC_MEMORY_DIRTY, user="rx-b")
    assert report.enqueued == {"overwrite": 1, "delete": 1}
    with Session(clean_db) as s:
        emitted = s.scalars(select(OutboxEvent.aggregate_id).where(OutboxEvent.id > last_outbox)).all()
        assert sorted(emitted) == sorted([ids["lang"], ids["pet"]])
    with pytest.raises(LookupError):
        emit_dirty(sessions, dirty_topic=cfg.TOPIC_MEMORY_DIRTY, user="nobody")

    export_settings(cfg, monkeypatch)
    assert cli_main(["reindex", "--user", "rx-a", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["enqueued"] == {"overwrite": 2}
    with index_pipeline(cfg):
        wait_settled(clean_db)
        # a full rebuild with the same model through the CLI while the indexer keeps running
        assert cli_main(["reindex", "--json", "--drop-grace", "0"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["new_version"] == 2 and data["indexed"] == 3 and data["dropped_old"]
        wait_settled(clean_db)
    assert TruthIndexVerifier(sessions, MilvusMemoryIndex.from_settings(cfg)).verify().clean
    assert cli_main(["reindex", "--model", "x"]) == 2  # local provider: fixed model
