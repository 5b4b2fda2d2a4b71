"""Episodes through the real relay and indexer group (Kafka, PostgreSQL, Milvus): the extractor's commit
announces them on ``memory.dirty`` as ``pai.episode.dirty.v1``, the indexer group syncs them into the
episodes' collection beside the memories."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from consumers.processes import build_processor
from core.config import Settings
from core.memory.store import IncomingMessage
from core.storage.models import Episode, LongTermMemory
from core.vectorstore import MilvusMemoryIndex
from localstack.process import wait_until
from tests.support.ops import drop_collections, index_pipeline, wait_settled
from tests.support.pipeline import isolated_settings

pytestmark = pytest.mark.services


@pytest.fixture
def cfg(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Settings]:
    isolated = isolated_settings(settings, unique_name, MEMORY_MILVUS_COLLECTION=unique_name("t_idx_ep"),
                                 MEMORY_INDEX_WORKER_ENABLED=True, MEMORY_MILVUS_ENABLED=True)
    try:
        yield isolated
    finally:
        drop_collections(isolated, clean_db)


def test_the_indexer_group_syncs_episodes_beside_memories(cfg: Settings, clean_db: Engine) -> None:
    processor = build_processor(cfg)
    at = datetime.now(UTC) - timedelta(hours=2)
    said = ["I adopted a rescue greyhound called Pepper last Saturday.", "hi!",
            "I love spicy food.", "My sister Ana visited from Porto and we hiked the Lousã mountains."]
    incoming = [IncomingMessage(f"ix-{i}", "ivy", "c1", "user", t, at + timedelta(seconds=i))
                for i, t in enumerate(said)]
    pks = [processor.ingest(m).message_pk for m in incoming]
    processor.process(pks)
    with index_pipeline(cfg):
        wait_settled(clean_db, timeout=120)
    with Session(clean_db) as s:
        episodes = s.scalars(select(Episode).order_by(Episode.id)).all()
        memories = s.scalars(select(LongTermMemory)).all()
    assert len(episodes) == 3  # no episode of the greeting
    assert all(e.vector_status == "SYNCED" and e.write_vector is None for e in episodes)
    assert memories and all(m.vector_status == "SYNCED" for m in memories)
    index = MilvusMemoryIndex.from_settings(cfg)
    try:
        view = index.for_collection(cfg.episode_collection)
        assert view.list_ids(episodes[0].user_id) == [e.id for e in episodes]
        # the memories' collection holds memories only, the episodes' collection episodes only
        assert set(index.list_ids(episodes[0].user_id)) == {m.id for m in memories if m.is_active}
        wait_until(lambda: view.count(episodes[0].user_id) == len(episodes), 10, what="episode count")
    finally:
        index.close()
