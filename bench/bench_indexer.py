"""Indexer throughput (memories/s) next to the bare embedder's throughput on the same texts, same run.

Not a test. Needs PostgreSQL and Milvus (and Kafka for the consumer run): the services of the
settings (``DATABASE_URL``, ``MEMORY_MILVUS_URI``, ``KAFKA_BOOTSTRAP_SERVERS`` or the local stack).
Creates a scratch database ``pai_memory_bench_<random>`` on the same PostgreSQL server and a scratch
Milvus collection, and drops both at the end.

Per repetition (``--repeats``, medians reported):
1. every memory's content gets a new suffix (so its text hash changes and it must be re-embedded)
   and is marked ``DIRTY``, as a write would;
2. chunk by chunk (the indexer batch size), alternating so both see the same machine load:
   ``embedder``: the bare embedder embeds the chunk's index texts ``[{type}] {key}: {content}``
   (``embed_passages``, nothing else); ``indexer``: ``MemoryIndexer.sync`` over the chunk's ids: read
   truth from PostgreSQL, embed, upsert into Milvus, mark ``SYNCED`` (the whole domain job of the
   consumer), with its time split into embed / Milvus / PostgreSQL.
Then once through Kafka (``--no-kafka`` skips it): the same number of ``memory.dirty`` events on a
private topic consumed by the real ``indexer_loop``; reported as wall time from loop start (group
join included) and as steady throughput between the first and last ``vector_synced_at``.

Usage: ``python -m bench.bench_indexer [--memories 640] [--users 20] [--batch-size 32] [--repeats 3]``.
Human-readable progress goes to stderr; stdout is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import signal
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import SecretStr
from sqlalchemy import Engine, func, make_url, select, text, update
from sqlalchemy.orm import Session

from core.config import Settings, load_settings
from core.embedding.factory import build_embedder
from core.indexing import MemoryIndexer, SyncReport
from core.memory.store import get_or_create_user, lock_user
from core.memory.text import embedding_text
from core.memory.writer import MemoryWrite, MemoryWriter, WriteContext
from core.storage import db
from core.storage.models import LongTermMemory
from core.types import MemoryType, VectorStatus, WriteSource
from core.vectorstore import MilvusMemoryIndex
from producers.kafka_config import client_config

log = logging.getLogger("bench_indexer")

# --- synthetic but varied memories (English and Chinese, the five types) ---------------------------
_EN = {
    MemoryType.PREFERENCE: ["prefers {a} over {b} for breakfast", "likes listening to {c} while working",
                            "wants answers short and in bullet points when asking about {d}"],
    MemoryType.FACT: ["lives in {city} with a {pet} named {name}", "works as a {job} at a {company}",
                      "has been learning the {instrument} for {n} years"],
    MemoryType.GOAL: ["wants to run a marathon in {city} within {n} months", "plans to pass the {exam} exam",
                      "is saving for a trip to {city}"],
    MemoryType.PROJECT: ["is building a {d} app with {tech}",
                         "maintains an open-source {tech} library for {d}", "is writing a book about {d}"],
    MemoryType.CONSTRAINT: ["is allergic to {food}, never suggest recipes with it",
                            "cannot take calls after {n} pm", "always answer in {lang}"],
}
_ZH = {
    MemoryType.PREFERENCE: ["喜欢{zc}，不太喝{zd}", "工作时喜欢听{zm}", "希望回答简洁，先给结论"],
    MemoryType.FACT: ["住在{zcity}，养了一只{zpet}", "是一名{zjob}，在{zcity}工作", "学{zinst}已经{n}年了"],
    MemoryType.GOAL: ["计划{n}个月内通过{zexam}", "想在{zcity}跑一次全程马拉松", "在为去{zcity}旅行存钱"],
    MemoryType.PROJECT: ["在用{tech}做一个{zd2}小程序", "正在写一本关于{zd2}的书", "维护一个{zd2}的开源项目"],
    MemoryType.CONSTRAINT: ["对{zfood}过敏，推荐菜谱时避开", "晚上{n}点以后不接电话", "回答一律使用简体中文"],
}
_FILL = {
    "a": ["oatmeal", "eggs", "congee", "toast", "fruit"], "b": ["cereal", "pancakes", "noodles", "bagels"],
    "c": ["jazz", "lo-fi beats", "classical piano", "podcasts", "rain sounds"],
    "d": ["gardening", "personal finance", "travel planning", "language learning", "home automation"],
    "city": ["Wuhan", "Lisbon", "Osaka", "Chengdu", "Toronto", "Nairobi", "Hangzhou", "Berlin"],
    "pet": ["cat", "dog", "parrot", "rabbit"], "name": ["Mochi", "Bao", "Luna", "Pepper", "Tofu"],
    "job": ["backend engineer", "nurse", "teacher", "data analyst", "chef"],
    "company": ["logistics company", "hospital", "startup", "bank", "design studio"],
    "instrument": ["cello", "guitar", "piano", "violin"], "n": [str(i) for i in range(2, 12)],
    "exam": ["JLPT N1", "IELTS", "CPA", "AWS architect"], "tech": ["Rust", "Python", "Flutter", "Go"],
    "food": ["peanuts", "shellfish", "gluten", "soy"], "lang": ["English", "Spanish", "German"],
    "zc": ["乌龙茶", "美式咖啡", "豆浆", "绿茶"], "zd": ["奶茶", "可乐", "酒"],
    "zm": ["古典乐", "爵士乐", "白噪音"], "zcity": ["武汉", "成都", "杭州", "大理", "青岛"],
    "zpet": ["橘猫", "柯基", "鹦鹉"], "zjob": ["后端工程师", "护士", "小学老师", "会计"],
    "zinst": ["大提琴", "古筝", "钢琴"], "zexam": ["日语N1", "雅思", "注册会计师考试"],
    "zd2": ["记账", "养花", "旅行规划", "背单词"], "zfood": ["花生", "海鲜", "芒果"],
}


def synthetic_memories(n: int, seed: int = 7) -> list[tuple[MemoryType, str, str]]:
    """``n`` (type, key, content) triples, half English, half Chinese, all distinct keys."""
    rng = random.Random(seed)
    out = []
    types = list(MemoryType)
    for i in range(n):
        mtype = types[i % len(types)]
        template = rng.choice((_EN if i % 2 == 0 else _ZH)[mtype])
        content = template.format(**{k: rng.choice(v) for k, v in _FILL.items()})
        out.append((mtype, f"{mtype.value}-item_{i}", content))
    return out


# --- scratch services -------------------------------------------------------------------------------
@contextmanager
def scratch_database(settings: Settings) -> Iterator[str]:
    server = make_url(settings.database_url)
    name = f"pai_memory_bench_{uuid.uuid4().hex[:8]}"
    admin = db.make_engine(server.set(database="postgres").render_as_string(hide_password=False))
    admin = admin.execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = server.set(database=name).render_as_string(hide_password=False)
    try:
        db.upgrade(url)
        yield url
    finally:
        db.engine_for.cache_clear()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def seed(engine: Engine, settings: Settings, n: int, users: int) -> list[int]:
    """Write ``n`` memories spread over ``users`` users through the real writer; returns their ids."""
    writer = MemoryWriter.from_settings(settings)
    sessions = db.session_factory(engine)
    items = synthetic_memories(n)
    ids: list[int] = []
    for u in range(users):
        with db.transaction(sessions) as session:
            user_pk = get_or_create_user(session, f"bench-user-{u}")
            lock_user(session, user_pk)
            ctx = WriteContext(user_pk=user_pk, source=WriteSource.TOOL, reason="bench")
            for mtype, key, content in items[u::users]:
                res = writer.save(session, ctx, MemoryWrite(key, mtype, content, 3, 0.9, None))
                assert res.memory_id is not None
                ids.append(res.memory_id)
    return sorted(ids)


def make_dirty(engine: Engine, rep: int) -> list[tuple[int, str]]:
    """New content for every memory (suffix ``#rep``), DIRTY, as a write would; returns (id, its text)."""
    with Session(engine) as s, s.begin():
        rows = s.execute(select(LongTermMemory.id, LongTermMemory.memory_type, LongTermMemory.memory_key,
                                LongTermMemory.content).order_by(LongTermMemory.id)).all()
        now = datetime.now(UTC)
        s.execute(update(LongTermMemory).values(
            content=func.regexp_replace(LongTermMemory.content, r" #\d+$", "") + f" #{rep}",
            vector_status=VectorStatus.DIRTY.value, updated_at=now))
    return [(mid, embedding_text(mtype, key, _strip(content) + f" #{rep}"))
            for mid, mtype, key, content in rows]


def _strip(content: str | None) -> str:
    return re.sub(r" #\d+$", "", content or "")


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


@dataclass
class Rep:
    embedder_sec: float
    indexer_sec: float
    embed_sec: float
    milvus_sec: float
    db_sec: float


def run_rep(engine: Engine, indexer: MemoryIndexer, rep: int, batch: int) -> Rep:
    """Bare embedder and indexer alternate chunk by chunk, so both see the same machine load."""
    texts = make_dirty(engine, rep)
    total = SyncReport()
    embedder_sec = indexer_sec = 0.0
    for chunk in chunks(texts, batch):
        started = time.perf_counter()
        indexer.embedder.embed_passages([t for _, t in chunk])
        embedder_sec += time.perf_counter() - started
        started = time.perf_counter()
        report = indexer.sync([mid for mid, _ in chunk])
        indexer_sec += time.perf_counter() - started
        if len(report.upserted) != len(chunk):
            raise RuntimeError(f"expected {len(chunk)} upserts, got {report.as_dict()}")
        total.embed_sec += report.embed_sec
        total.milvus_sec += report.milvus_sec
        total.db_sec += report.db_sec
    return Rep(embedder_sec, indexer_sec, total.embed_sec, total.milvus_sec, total.db_sec)


def kafka_run(settings: Settings, engine: Engine, ids: list[int], batch: int) -> dict[str, Any]:
    """All ids re-dirtied, one ``memory.dirty`` event each on a private topic, the real consumer loop."""
    from confluent_kafka import Producer

    from consumers.processes import indexer_loop
    from core.types import MemoryOperation
    from localstack.topics import ensure_topics
    from schemas import MemoryDirtyData, make_event, to_bytes

    suffix = uuid.uuid4().hex[:8]
    cfg = settings.model_copy(update={"TOPIC_MEMORY_DIRTY": f"bench-dirty-{suffix}",
                                      "GROUP_INDEXER": f"bench-indexer-{suffix}",
                                      "MEMORY_INDEX_WORKER_BATCH_SIZE": batch})
    ensure_topics(cfg, {cfg.TOPIC_MEMORY_DIRTY: cfg.KAFKA_TOPIC_PARTITIONS,
                        cfg.dlq_topic(cfg.GROUP_INDEXER): 1})
    make_dirty(engine, 10_000)
    with Session(engine) as s:
        rows = s.execute(select(LongTermMemory.id, LongTermMemory.user_id, LongTermMemory.memory_key)
                         .order_by(LongTermMemory.id)).all()
    producer = Producer({**client_config(cfg), "enable.idempotence": True, "acks": "all",
                         "linger.ms": 5})
    now = datetime.now(UTC)
    for i, (mid, user_pk, key) in enumerate(rows, start=1):
        event = make_event(MemoryDirtyData(memory_id=mid, user_id=f"bench-user-{user_pk}", user_pk=user_pk,
                                           memory_key=key, operation=MemoryOperation.OVERWRITE, outbox_id=i,
                                           changed_at=now), source="bench")
        producer.produce(cfg.TOPIC_MEMORY_DIRTY, key=event.subject.encode(), value=to_bytes(event))
    if producer.flush(60):
        raise RuntimeError("could not publish the bench events")

    loop = indexer_loop(cfg)
    thread = threading.Thread(target=loop.run, daemon=True)
    started = time.perf_counter()
    thread.start()
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            with Session(engine) as s:
                left = s.scalar(select(func.count()).select_from(LongTermMemory)
                                .where(LongTermMemory.vector_status != VectorStatus.SYNCED.value))
            if left == 0:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("the consumer did not sync everything within 600 s")
        wall = time.perf_counter() - started
        with Session(engine) as s:
            first, last = s.execute(select(func.min(LongTermMemory.vector_synced_at),
                                           func.max(LongTermMemory.vector_synced_at))).one()
            after_first = int(s.scalar(select(func.count()).select_from(LongTermMemory)
                                       .where(LongTermMemory.vector_synced_at > first)) or 0)
    finally:
        loop.stop()
        thread.join(60)
    steady = (last - first).total_seconds() if first is not None and last is not None else 0.0
    return {"memories": len(ids), "wall_sec": round(wall, 3),
            "memories_per_sec_wall": round(len(ids) / wall, 1),  # includes start-up and group join
            "steady_sec": round(steady, 3),
            # memories marked after the first batch's mark, over the time from that mark to the last
            "memories_per_sec_steady": round(after_first / steady, 1) if steady > 0 else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=640)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=None, help="default MEMORY_INDEX_WORKER_BATCH_SIZE")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-kafka", action="store_true", help="skip the run through the consumer loop")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))  # run the clean-up on `timeout`

    base = load_settings()
    batch = args.batch_size or base.MEMORY_INDEX_WORKER_BATCH_SIZE
    collection = f"bench_index_{uuid.uuid4().hex[:8]}"
    with scratch_database(base) as url:
        settings = base.model_copy(update={"DATABASE_URL": SecretStr(url),
                                           "MEMORY_MILVUS_COLLECTION": collection})
        engine = db.make_engine(url)
        embedder = build_embedder(settings)
        index = MilvusMemoryIndex.from_settings(settings, dim=embedder.dim)
        indexer = MemoryIndexer(db.session_factory(engine), embedder, index)
        try:
            print(f"seeding {args.memories} memories for {args.users} users...", file=sys.stderr)
            ids = seed(engine, settings, args.memories, args.users)
            indexer.start()
            embedder.embed_passages(["warm-up"])  # load the model outside the measurements
            indexer.sync(ids[:batch])  # warm the Milvus and PostgreSQL paths too
            reps: list[Rep] = []
            for rep in range(1, args.repeats + 1):
                r = run_rep(engine, indexer, rep, batch)
                reps.append(r)
                print(f"rep {rep}: embedder {len(ids) / r.embedder_sec:.1f}/s, indexer "
                      f"{len(ids) / r.indexer_sec:.1f}/s (embed {r.embed_sec:.2f}s, "
                      f"milvus {r.milvus_sec:.2f}s, db {r.db_sec:.2f}s)", file=sys.stderr)
            consumer = None if args.no_kafka else kafka_run(settings, engine, ids, batch)
            if consumer is not None:
                print(f"consumer: {consumer}", file=sys.stderr)
        finally:
            if index.has_collection(collection):
                index.drop_collection(collection)
            indexer.close()
            engine.dispose()

    def med(values: list[float]) -> float:
        return statistics.median(values)

    n = len(ids)
    result = {
        "benchmark": "indexer_throughput",
        "embedding_provider": settings.embedding_provider.value,
        "embedding_model": embedder.model,
        "dim": embedder.dim,
        "memories": n,
        "users": args.users,
        "batch_size": batch,
        "repeats": args.repeats,
        "embedder_memories_per_sec": round(med([n / r.embedder_sec for r in reps]), 1),
        "indexer_memories_per_sec": round(med([n / r.indexer_sec for r in reps]), 1),
        "indexer_vs_embedder": round(med([r.embedder_sec / r.indexer_sec for r in reps]), 3),
        "indexer_time_split_sec": {"embed": round(med([r.embed_sec for r in reps]), 3),
                                   "milvus": round(med([r.milvus_sec for r in reps]), 3),
                                   "postgres": round(med([r.db_sec for r in reps]), 3)},
        "per_repeat": [{"embedder_sec": round(r.embedder_sec, 3), "indexer_sec": round(r.indexer_sec, 3)}
                       for r in reps],
        "consumer_loop": consumer,
    }
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
