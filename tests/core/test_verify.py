"""Truth vs index verification and repair on real PostgreSQL, Milvus and Kafka (relay + indexer running)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest
from sqlalchemy import Engine, update
from sqlalchemy.orm import Session

from consumers.processes import build_tools
from core.config import Settings
from core.memory.tools import ToolWrite
from core.storage.db import session_factory
from core.storage.models import LongTermMemory
from core.vectorstore import IndexRow, MilvusMemoryIndex
from core.verify import MISSING, ORPHANED, STALE, UNSYNCED, TruthIndexVerifier, VerifyError
from tests.support.ops import drop_collections, index_pipeline, wait_settled
from tests.support.pipeline import isolated_settings

pytestmark = pytest.mark.services


@pytest.fixture
def cfg(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Settings]:
    isolated = isolated_settings(settings, unique_name, MEMORY_MILVUS_COLLECTION=unique_name("t_ver"),
                                 MEMORY_INDEX_WORKER_ENABLED=True, MEMORY_MILVUS_ENABLED=True)
    try:
        yield isolated
    finally:
        drop_collections(isolated, clean_db)


def seed(cfg: Settings, engine: Engine) -> dict[str, int]:
    """Two users' memories, indexed by the real relay + indexer. Returns key -> memory id."""
    tools = build_tools(cfg)
    ids: dict[str, int] = {}
    for user, key, content in [
        ("ver-a", "home_city", "Lives in Wuhan"),
        ("ver-a", "drink", "Prefers oolong tea over coffee"),
        ("ver-a", "job", "Backend engineer at a logistics company"),
        ("ver-a", "pet", "Has a dog called Lucky"),
        ("ver-a", "allergy", "Allergic to peanuts"),
        ("ver-b", "goal", "Passing the JLPT N1 exam"),
        ("ver-b", "sport", "Plays badminton on weekends"),
    ]:
        res = tools.memory_save(ToolWrite(user, key, content))
        assert res.memory_id is not None
        ids[key] = res.memory_id
    with index_pipeline(cfg):
        wait_settled(engine)
    return ids


def active_view(cfg: Settings, engine: Engine) -> MilvusMemoryIndex:
    from core.vectorstore import active_collection

    with Session(engine) as s:
        row = active_collection(s)
        assert row is not None
        return MilvusMemoryIndex.from_settings(cfg).for_collection(row.name, row.dim)


def test_clean_index_verifies_and_every_kind_of_drift_is_found_then_repaired(cfg: Settings,
                                                                             clean_db: Engine) -> None:
    ids = seed(cfg, clean_db)
    verifier = TruthIndexVerifier(session_factory(clean_db), MilvusMemoryIndex.from_settings(cfg))
    report = verifier.verify()
    assert report.clean, report.render()
    assert (report.rows, report.indexable, report.entries) == (7, 7, 7)

    view = active_view(cfg, clean_db)
    pk_a, pk_b = [verifier_user_pk(clean_db, u) for u in ("ver-a", "ver-b")]
    vector = np.ones(view.dim, dtype=np.float32) / np.sqrt(view.dim)
    # missing: the entry vanished from Milvus
    view.delete([ids["home_city"]])
    # orphaned (no row): an entry for a memory id PostgreSQL never had
    view.upsert([IndexRow(id=987654, user_id=pk_a, memory_type="fact", vector=vector)])
    # orphaned (wrong user): ver-b's memory filed under ver-a
    view.upsert([IndexRow(id=ids["sport"], user_id=pk_a, memory_type="fact", vector=vector)])
    with Session(clean_db) as s, s.begin():
        # orphaned (inactive): deactivated behind the writer's back, entry still there
        s.execute(update(LongTermMemory).where(LongTermMemory.id == ids["pet"]).values(is_active=False))
        # stale: content changed without a vector refresh
        s.execute(update(LongTermMemory).where(LongTermMemory.id == ids["job"])
                  .values(content="Frontend engineer at a bank"))
        # unsynced: a failed sync
        s.execute(update(LongTermMemory).where(LongTermMemory.id == ids["allergy"])
                  .values(vector_status="FAILED", vector_error="boom"))

    report = verifier.verify()
    assert report.ids[MISSING] == [ids["home_city"]]
    assert sorted(report.ids[ORPHANED]) == sorted([987654, ids["sport"], ids["pet"]])
    assert report.orphan_reasons == {"no_row": 1, "wrong_user": 1, "inactive": 1}
    assert report.ids[STALE] == [ids["job"]]
    assert report.ids[UNSYNCED] == [ids["allergy"]]
    assert report.drift == 6 and not report.clean

    # scoped to one user: ver-b's misfiled memory is an orphan of ver-a, ver-b's own view is clean
    # apart from it (its entry is under the wrong user)
    only_a = verifier.verify("ver-a")
    assert ids["sport"] in only_a.ids[ORPHANED] and 987654 in only_a.ids[ORPHANED]
    only_b = verifier.verify("ver-b")
    assert only_b.ids[ORPHANED] == [ids["sport"]] and only_b.drift == 1
    with pytest.raises(VerifyError):
        verifier.verify("nobody")

    repaired = verifier.repair(report, dirty_topic=cfg.TOPIC_MEMORY_DIRTY)
    assert repaired.deleted_entries == [987654]
    assert sorted(repaired.enqueued_ids) == sorted(ids[k] for k in ("home_city", "sport", "pet", "job",
                                                                    "allergy"))
    assert repaired.enqueued == {"overwrite": 4, "delete": 1}
    with index_pipeline(cfg):
        wait_settled(clean_db)
    after = verifier.verify()
    assert after.clean, after.render()
    assert (after.rows, after.indexable, after.entries) == (7, 6, 6)
    assert view.get_user_ids([ids["sport"]]) == {ids["sport"]: pk_b}


def test_in_flight_write_is_not_reported_once_the_indexer_caught_up(cfg: Settings, clean_db: Engine) -> None:
    seed(cfg, clean_db)
    tools = build_tools(cfg)
    tools.memory_save(ToolWrite("ver-a", "home_city", "Moved to Chengdu"))  # DIRTY until the pipeline runs
    verifier = TruthIndexVerifier(session_factory(clean_db), MilvusMemoryIndex.from_settings(cfg))
    assert len(verifier.verify(confirm=False).ids[UNSYNCED]) == 1
    with index_pipeline(cfg):
        wait_settled(clean_db)
    assert verifier.verify().clean


def verifier_user_pk(engine: Engine, external_id: str) -> int:
    from core.memory.store import find_user

    with Session(engine) as s:
        pk = find_user(s, external_id)
        assert pk is not None
        return pk
