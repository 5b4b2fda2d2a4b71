"""Episodes over real PostgreSQL and Milvus: written in the extractor's commit with their outbox rows,
indexed into their own collection (reusing the extractor's vector where the text is the same)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from sqlalchemy import Engine, delete, select, update
from sqlalchemy.orm import Session

from core.config import Settings
from core.embedding.base import Embedder, Vectors
from core.embedding.local import LocalE5Embedder
from core.episodes.indexing import EpisodeIndexer, EpisodeSyncFailed, build_episode_indexer
from core.episodes.store import redrive_episodes
from core.episodes.verify import reindex_episodes, repair_episodes, verify_episodes
from core.extraction.factory import build_extractor
from core.extraction.rules import RulesExtractor
from core.lifecycle import LifecycleJobs
from core.memory.dedup import SemanticDeduper
from core.memory.processing import MessageProcessor
from core.memory.redrive import Redriver
from core.memory.store import IncomingMessage
from core.memory.writer import MemoryWriter
from core.storage.db import session_factory
from core.storage.models import Episode, Message, OutboxEvent
from core.vector_buckets import partition_of
from core.vectorstore import IndexRow, MilvusMemoryIndex
from schemas import EpisodeDirtyEvent, parse_index_event, to_bytes

pytestmark = pytest.mark.services

_LOCAL = LocalE5Embedder()
T0 = datetime.now(UTC) - timedelta(days=2)


@dataclass
class CountingEmbedder:
    inner: Embedder = field(default_factory=lambda: _LOCAL)
    texts: list[str] = field(default_factory=list)
    fail: bool = False
    model: str = _LOCAL.model
    dim: int = _LOCAL.dim

    def embed_passages(self, texts: list[str]) -> Vectors:
        from core.embedding.base import EmbeddingError

        if self.fail:
            raise EmbeddingError("embedder down")
        self.texts.extend(texts)
        return self.inner.embed_passages(texts)

    def embed_queries(self, texts: list[str]) -> Vectors:
        return self.inner.embed_queries(texts)


@pytest.fixture
def env(settings: Settings, clean_db: Engine,
        unique_name) -> Iterator[tuple[Settings, MessageProcessor, EpisodeIndexer, CountingEmbedder]]:
    cfg = settings.model_copy(update={"MEMORY_MILVUS_COLLECTION": unique_name("ep")})
    sessions = session_factory(clean_db)
    # the extractor as deployed: rules gated by the classifier, whose vectors dedup and episodes share
    processor = MessageProcessor(cfg, sessions, build_extractor(cfg), SemanticDeduper(_LOCAL, 0.96, 0.97))
    embedder = CountingEmbedder()
    indexer = build_episode_indexer(cfg, sessions, embedder)
    indexer.start()
    try:
        yield cfg, processor, indexer, embedder
    finally:
        indexer.index.drop_collection()
        indexer.close()


def _say(processor: MessageProcessor, user: str, conv: str, texts: list[str],
         role: str = "user") -> list[int]:
    pks = []
    for i, text in enumerate(texts):
        res = processor.ingest(IncomingMessage(f"{user}-{conv}-{i}-{role}", user, conv, role, text,
                                               T0 + timedelta(minutes=i)))
        pks.append(res.message_pk)
    return pks


def _episodes(engine: Engine) -> list[Episode]:
    with Session(engine) as s:
        return list(s.scalars(select(Episode).order_by(Episode.id)))


def test_user_messages_become_episodes_in_the_commit_of_their_final_status(env, clean_db: Engine) -> None:
    cfg, processor, _, _ = env
    long_text = "Last weekend I drove to the coast with my sister and we walked along the cliffs. " * 8
    pks = _say(processor, "ann", "c1", ["hi!", "I adopted a cat named Luna yesterday.", long_text])
    _say(processor, "ann", "c1", ["That's lovely, tell me more about Luna."], role="assistant")
    outcome = processor.process(pks)
    rows = _episodes(clean_db)
    assert sorted(outcome.episodes) == [r.id for r in rows]
    # the greeting is no episode; the long message is cut into passages the model can read
    assert {r.message_id for r in rows} == {pks[1], pks[2]}
    long_rows = [r for r in rows if r.message_id == pks[2]]
    assert len(long_rows) > 1 and all(len(r.content) <= cfg.EPISODE_PASSAGE_MAX_CHARS for r in long_rows)
    assert [r.passage_index for r in long_rows] == list(range(len(long_rows)))
    assert all(r.vector_status == "DIRTY" for r in rows)
    assert all(r.expires_at == r.sent_at + timedelta(days=cfg.EPISODE_TTL_DAYS) for r in rows)
    with Session(clean_db) as s:
        statuses = dict(s.execute(select(Message.id, Message.memory_status).where(Message.id.in_(pks))).all())
        outbox = s.scalars(select(OutboxEvent).where(OutboxEvent.event_type == EpisodeDirtyEvent.EVENT_TYPE)
                           .order_by(OutboxEvent.id)).all()
    assert all(statuses[p] in ("PROCESSED", "SKIPPED") for p in pks)
    # one pai.episode.dirty.v1 row per episode, each a valid event naming its episode and outbox row
    assert [o.aggregate_id for o in outbox] == [r.id for r in rows]
    for row in outbox:
        event = parse_index_event(json.dumps(row.payload).encode())
        assert isinstance(event, EpisodeDirtyEvent)
        assert event.data.episode_id == row.aggregate_id and event.data.outbox_id == row.id
        assert event.id == f"outbox-{row.id}" and event.subject == "ann" == event.data.user_id
        assert event.data.origin_at == T0
        assert parse_index_event(to_bytes(event)) == event


def test_replay_and_redelivery_write_no_episode_twice(env, clean_db: Engine) -> None:
    _cfg, processor, _, _ = env
    pks = _say(processor, "bob", "c1", ["I started learning the cello this month."])
    processor.process(pks)
    first = _episodes(clean_db)
    # a replay under a new extractor version extracts again on purpose: the episodes stay as they are
    with Session(clean_db) as s, s.begin():
        s.execute(update(Message).values(memory_status="PENDING"))
    again = processor.process(pks)
    assert again.episodes == []
    assert [(r.id, r.content) for r in _episodes(clean_db)] == [(r.id, r.content) for r in first]
    with Session(clean_db) as s:
        n = s.scalar(select(OutboxEvent.id).where(OutboxEvent.event_type == EpisodeDirtyEvent.EVENT_TYPE)
                     .order_by(OutboxEvent.id.desc()).limit(1))
        count = len(s.scalars(select(OutboxEvent.id).where(
            OutboxEvent.event_type == EpisodeDirtyEvent.EVENT_TYPE)).all())
    assert n is not None and count == len(first)


def test_episodes_off_writes_none(env, clean_db: Engine) -> None:
    cfg, _, _, _ = env
    off = MessageProcessor(cfg.model_copy(update={"EPISODES_ENABLED": False}), session_factory(clean_db),
                           RulesExtractor(), None)
    off.process(_say(off, "cat", "c1", ["I moved to Lisbon last spring."]))
    assert _episodes(clean_db) == []


def test_the_indexer_embeds_each_passage_once_and_reuses_the_extractors_vector(env, clean_db: Engine) -> None:
    _cfg, processor, indexer, embedder = env
    # the first is one clause the classifier keeps as it is: its vector comes along from the extractor
    texts = ["I love spicy food.", "I adopted a cat named Luna yesterday.",
             "We went camping at Yosemite with my kids last weekend.", "上周末我和朋友去爬了香山，风景很好。"]
    outcome = processor.process(_say(processor, "dee", "c1", texts))
    rows = _episodes(clean_db)
    carried = [r for r in rows if r.write_vector is not None]
    assert outcome.episode_vectors_reused == len(carried) >= 1
    assert "I love spicy food." in {r.content for r in carried}
    report = indexer.sync([r.id for r in rows])
    assert sorted(report.upserted) == [r.id for r in rows]
    # at most one text sent to the model per passage, none for a passage whose vector came along
    assert report.embedded_texts == len(rows) - len(carried) == len(embedder.texts)
    assert report.reused_vectors == len(carried)
    after = _episodes(clean_db)
    assert all(r.vector_status == "SYNCED" and r.write_vector is None and r.vector_text_hash for r in after)
    user_pk = after[0].user_id
    assert indexer.index.count(user_pk) == len(rows)
    # a duplicate event does nothing
    again = indexer.sync([r.id for r in rows])
    assert sorted(again.skipped) == [r.id for r in rows] and again.embedded_texts == 0
    # the vectors in Milvus find what the user said
    query = np.asarray(_LOCAL.embed_queries(["what pet did I get?"])[0])
    hits = indexer.index.search(user_pk, query, 3)
    assert hits[0][0] == next(r.id for r in rows if "Luna" in r.content)


def test_expired_and_erased_episodes_leave_the_index(env, clean_db: Engine) -> None:
    _cfg, processor, indexer, _ = env
    processor.process(_say(processor, "eve", "c1", ["I ran my first marathon in Berlin.",
                                                  "My brother visited me in Osaka last month."]))
    rows = _episodes(clean_db)
    indexer.sync([r.id for r in rows])
    user_pk = rows[0].user_id
    assert indexer.index.count(user_pk) == 2
    with Session(clean_db) as s, s.begin():
        s.execute(update(Episode).where(Episode.id == rows[0].id)
                  .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
        s.execute(delete(Episode).where(Episode.id == rows[1].id))
    report = indexer.sync([r.id for r in rows])
    assert report.deleted == [rows[0].id] and report.erased == [rows[1].id]
    assert indexer.index.count(user_pk) == 0
    with Session(clean_db) as s:
        expired = s.get(Episode, rows[0].id)
        assert expired is not None and expired.vector_status == "SYNCED" and expired.vector_text_hash is None


def test_an_embedder_failure_marks_the_episodes_failed_and_a_retry_heals_them(env, clean_db: Engine) -> None:
    _cfg, processor, indexer, embedder = env
    processor.process(_say(processor, "fay", "c1", ["Our team shipped the new billing system on Friday, "
                                                  "after three months of work on the migration scripts."]))
    ids = [r.id for r in _episodes(clean_db)]
    with Session(clean_db) as s, s.begin():  # no carried vector: the model must be called
        s.execute(update(Episode).values(write_vector=None, write_vector_model=None))
    embedder.fail = True
    with pytest.raises(EpisodeSyncFailed) as failed:
        indexer.sync(ids)
    assert failed.value.stage == "embed" and failed.value.failed_ids == ids
    assert {r.vector_status for r in _episodes(clean_db)} == {"FAILED"}
    embedder.fail = False
    assert indexer.sync(ids).upserted == ids
    assert {r.vector_status for r in _episodes(clean_db)} == {"SYNCED"}


def test_the_expiry_job_deletes_episodes_past_their_ttl_and_the_indexer_removes_them(
        env, clean_db: Engine) -> None:
    cfg, processor, indexer, _ = env
    old = datetime.now(UTC) - timedelta(days=cfg.EPISODE_TTL_DAYS + 3)
    said = [("old-1", "I sold my old bike to a neighbour.", old),
            ("new-1", "I bought a new road bike today.", datetime.now(UTC))]
    pks = [processor.ingest(IncomingMessage(mid, "gus", "c1", "user", text, at)).message_pk
           for mid, text, at in said]
    processor.process(pks)
    rows = _episodes(clean_db)
    indexer.sync([r.id for r in rows])
    expired = [r.id for r in rows if r.message_id == pks[0]]
    kept = [r.id for r in rows if r.message_id == pks[1]]
    assert expired and kept
    jobs = LifecycleJobs(session_factory(clean_db), MemoryWriter.from_settings(cfg))
    assert jobs.expire(dry_run=True).episodes_expired == len(expired)
    assert {r.id for r in _episodes(clean_db)} == set(expired + kept)  # a dry run changes nothing
    report = jobs.expire()
    assert report.episodes_expired == len(expired) and report.as_dict()["episodes_expired"] == len(expired)
    assert [r.id for r in _episodes(clean_db)] == kept
    with Session(clean_db) as s:  # each deletion announced to the indexer, in the same transaction
        announced = s.scalars(select(OutboxEvent.aggregate_id).where(
            OutboxEvent.event_type == EpisodeDirtyEvent.EVENT_TYPE,
            OutboxEvent.aggregate_id.in_(expired))).all()
    assert sorted(announced) == sorted(expired * 2)  # written, then expired
    assert indexer.sync(expired).erased == expired
    assert indexer.index.count(rows[0].user_id) == len(kept)


def test_the_sweeper_announces_episodes_the_indexer_never_synced(env, clean_db: Engine) -> None:
    cfg, processor, indexer, _ = env
    processor.process(_say(processor, "hal", "c1", ["I repainted the kitchen in sage green this week."]))
    ids = [r.id for r in _episodes(clean_db)]
    sessions = session_factory(clean_db)
    later = datetime.now(UTC) + timedelta(seconds=cfg.MEMORY_INDEX_REDRIVE_GRACE_SEC + 5)
    with sessions() as s, s.begin():  # announced and not yet published: nothing to re-drive
        assert redrive_episodes(s, topic=cfg.TOPIC_MEMORY_DIRTY, grace_sec=cfg.MEMORY_INDEX_REDRIVE_GRACE_SEC,
                                failed_backoff_sec=60, limit=100, now=later) == []
    with sessions() as s, s.begin():  # published long ago, the indexer lost it
        s.execute(update(OutboxEvent).values(published_at=datetime.now(UTC) - timedelta(hours=1),
                                             created_at=datetime.now(UTC) - timedelta(hours=1)))
        s.execute(update(Episode).values(updated_at=datetime.now(UTC) - timedelta(hours=1)))
    redriver = Redriver(cfg, sessions, clock=lambda: later)
    assert redriver.scan_memories() is not None and redriver.episodes_redriven == len(ids)
    with sessions() as s:
        rows = s.scalars(select(OutboxEvent).where(
            OutboxEvent.published_at.is_(None), OutboxEvent.event_type == EpisodeDirtyEvent.EVENT_TYPE)).all()
    assert sorted(r.aggregate_id for r in rows) == ids
    assert all(parse_index_event(json.dumps(r.payload).encode()).data.episode_id == r.aggregate_id  # type: ignore[union-attr]
               for r in rows)
    redriver.scan_memories()
    assert redriver.episodes_redriven == len(ids)  # not twice
    assert indexer.sync(ids).upserted == ids


def test_verify_finds_drift_of_the_episodes_and_repair_brings_them_back(env, clean_db: Engine) -> None:
    cfg, processor, indexer, _ = env
    processor.process(_say(processor, "ida", "c1", ["I finished reading War and Peace on the train.",
                                                  "My daughter lost her first tooth on Tuesday."]))
    rows = _episodes(clean_db)
    ids = [r.id for r in rows]
    sessions = session_factory(clean_db)
    view = indexer.index
    assert verify_episodes(sessions, view).unsynced == ids  # nothing indexed yet
    indexer.sync(ids)
    assert verify_episodes(sessions, view).clean
    # drift: one vector lost from Milvus, one entity the truth does not know (another user's scope too)
    view.delete([ids[0]])
    view.upsert([IndexRow(987654, rows[0].user_id, "episode", np.ones(view.dim, dtype=np.float32))])
    report = verify_episodes(sessions, view, rows[0].user_id)
    assert report.missing == [ids[0]] and report.orphaned == [987654] and report.unsynced == []
    announced = repair_episodes(sessions, view, report, topic=cfg.TOPIC_MEMORY_DIRTY)
    assert announced == [ids[0]] and 987654 not in view.list_ids(rows[0].user_id)
    assert indexer.sync(announced).upserted == [ids[0]]  # what the indexer does with the announcement
    assert verify_episodes(sessions, view).clean


def test_reindex_announces_every_episode_and_a_rebuild_recreates_the_collection(env,
                                                                                clean_db: Engine) -> None:
    cfg, processor, indexer, embedder = env
    processor.process(_say(processor, "jon", "c1", ["I passed my driving test on the second try.",
                                                  "We planted tomatoes and basil in the backyard."]))
    ids = [r.id for r in _episodes(clean_db)]
    indexer.sync(ids)
    sessions = session_factory(clean_db)
    user_pk = _episodes(clean_db)[0].user_id
    assert reindex_episodes(sessions, indexer.index, topic=cfg.TOPIC_MEMORY_DIRTY, dim=embedder.dim,
                            rebuild=False, user_pk=user_pk, batch=1) == len(ids)
    assert {r.vector_status for r in _episodes(clean_db)} == {"DIRTY"}
    assert indexer.index.count(user_pk) == len(ids)  # still searchable meanwhile
    before = len(embedder.texts)
    assert sorted(indexer.sync(ids).upserted) == ids and len(embedder.texts) == before + len(ids)
    assert reindex_episodes(sessions, indexer.index, topic=cfg.TOPIC_MEMORY_DIRTY, dim=embedder.dim,
                            rebuild=True) == len(ids)
    assert indexer.index.count(user_pk) == 0  # a new model's collection starts empty
    indexer.sync(ids)
    assert indexer.index.count(user_pk) == len(ids) and verify_episodes(sessions, indexer.index).clean


def _old_layout(view: MilvusMemoryIndex) -> None:
    """The episodes' collection as it was made before user buckets: ``user_id`` the partition key."""
    from pymilvus import DataType, MilvusClient

    view.drop_collection()
    client = view._holder.get()
    schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("id", DataType.INT64, is_primary=True)
    schema.add_field("user_id", DataType.INT64, is_partition_key=True)
    schema.add_field("memory_type", DataType.VARCHAR, max_length=40)
    schema.add_field("vector", DataType.FLOAT_VECTOR, dim=view.dim)
    index_params = client.prepare_index_params()
    index_params.add_index(field_name="vector", index_type="FLAT", metric_type="COSINE")
    client.create_collection(view.collection, schema=schema, index_params=index_params,
                             consistency_level="Strong", num_partitions=16)


def test_episodes_live_in_their_users_bucket_and_a_reindex_rebuilds_a_collection_of_the_old_layout(
        env, clean_db: Engine) -> None:
    cfg, processor, indexer, embedder = env
    view = indexer.index
    assert view.layout() == cfg.EPISODE_MILVUS_USER_PARTITIONS == 64  # the default, made by start()
    _old_layout(view)
    assert view.layout(refresh=True) == 0
    processor.process(_say(processor, "kim", "c1", ["I repainted the garage door dark green on Saturday.",
                                                  "My brother moved to Lisbon in March."]))
    processor.process(_say(processor, "lou", "c1", ["We hiked up Ben Nevis in the fog last month."]))
    rows = _episodes(clean_db)
    ids = [r.id for r in rows]
    indexer.sync(ids)  # an indexer on the old layout still serves, searching the collection whole
    sessions = session_factory(clean_db)
    assert verify_episodes(sessions, view).clean and verify_episodes(sessions, view).buckets == 0
    # a reindex of everyone sees the old layout and rebuilds the collection with the buckets
    assert reindex_episodes(sessions, view, topic=cfg.TOPIC_MEMORY_DIRTY, dim=embedder.dim, rebuild=False,
                            user_partitions=cfg.EPISODE_MILVUS_USER_PARTITIONS) == len(ids)
    assert view.layout(refresh=True) == 64 and view.count() == 0
    assert sorted(indexer.sync(ids).upserted) == ids  # what the indexer does with the announcements
    report = verify_episodes(sessions, view)
    assert report.clean and report.buckets == 64 and report.entries == len(ids)
    client = view._holder.get()
    for r in rows:  # each entry in its user's partition and no other
        home = partition_of(r.user_id, 64)
        assert client.query(view.collection, filter=f"id == {r.id}", output_fields=["id"],
                            partition_names=[home])
        assert len(client.query(view.collection, filter=f"id == {r.id}", output_fields=["id"])) == 1
    kim = rows[0].user_id
    query = embedder.embed_queries(["what colour did I paint the garage door?"])[0]
    assert view.search(kim, query, 10)[0][0] == rows[0].id
    assert {i for i, _ in view.search(kim, query, 10)} == {r.id for r in rows if r.user_id == kim}
    # the same layout again: announced, not rebuilt
    assert reindex_episodes(sessions, view, topic=cfg.TOPIC_MEMORY_DIRTY, dim=embedder.dim, rebuild=False,
                            user_partitions=64) == len(ids)
    assert view.count() == len(ids)
