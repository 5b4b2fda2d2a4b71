"""Write-path throughput and freshness: extractor messages/s (1 and 2 processes), freshness at steady
publish rates, and where each stage's time goes.

Not a test. Runs the real processes (``pai-memory run extractor|relay|indexer``) on the benchmark
stack with private topics, groups, database and collection (``bench.stack.bench_pipeline``).

1. Extractor throughput: ``--messages`` chat messages (each user turn in its own conversation,
   after an assistant turn that is stored as context) are published to Kafka first; then 1 (and
   then, on a fresh pipeline, 2) extractor processes start. Throughput = user messages committed
   final (PROCESSED/SKIPPED) per second between the first and the last commit (process start-up
   and group join excluded; the wall time including them is reported too). Debounce is 0 so each
   turn is one extraction (the default 12 s debounce only delays, it does not add work).
2. Freshness: user messages published at a steady rate (10, 50, 200/s by default) for a fixed time,
   all five processes running; freshness = a memory's ``vector_synced_at`` (searchable in Milvus,
   Strong consistency) minus the publish time of the message it came from. Reported with the
   achieved publish and processing rates and the backlog at the end of publishing; each memory's
   time is split into Kafka+ingest (received_at), extraction (processed_at), outbox relay
   (published_at) and indexer (vector_synced_at). Also the stage histograms' sums
   (``pai_memory_stage_duration_seconds``) of the extractor and indexer over the run.

Stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.common import log
from bench.machine import busy_share, cpu_since, cpu_snapshot, machine_busy, stage_sums
from bench.stack import bench_pipeline, install_sigterm, stack_pids
from bench.stats import latency_summary, median
from harness.pipeline import Pipeline

_EN = [
    "I live in {city} with my partner and our two kids.",
    "I'm allergic to {food}, please never suggest it.",
    "I work as a {job} at a small company.",
    "I love {subject} and do it every weekend.",
    "My goal is to visit {city} next year.",
    "From now on always answer me in short bullet points.",
    "I'm building a side project about {subject} in Python.",
    "I have a {pet} named {name}.",
    "Remind me tomorrow morning to buy milk.",
    "What's the weather like today?",
]
_ZH = [
    "我住在{zcity}，和家人一起生活。",
    "我对{zfood}过敏，以后推荐菜谱请避开。",
    "我是一名{zjob}。",
    "我周末很喜欢{zsubject}。",
    "我的目标是明年去{zcity}旅行。",
    "以后回答我请尽量简洁，先说结论。",
    "我在做一个关于{zsubject}的小项目。",
    "我养了一只{zpet}，叫{zname}。",
    "明天早上提醒我买牛奶。",
    "今天天气怎么样？",
]
_FILL = {
    "city": ["Lisbon", "Osaka", "Toronto", "Berlin", "Austin", "Oslo", "Seoul", "Dublin"],
    "food": ["peanuts", "shellfish", "gluten", "sesame"],
    "job": ["nurse", "chef", "teacher", "data analyst"],
    "subject": ["rock climbing", "chess", "photography", "gardening", "salsa dancing"],
    "pet": ["cat", "dog", "parrot"],
    "name": ["Mochi", "Pepper", "Kiwi"],
    "zcity": ["成都", "杭州", "大理", "青岛"],
    "zfood": ["花生", "海鲜", "芒果"],
    "zjob": ["护士", "会计", "建筑师"],
    "zsubject": ["登山", "围棋", "摄影", "钓鱼"],
    "zpet": ["橘猫", "柯基"],
    "zname": ["团子", "豆豆"],
}


_THREAD_CPU = "pai_memory_stage_thread_cpu_seconds"
_SYLLABLES = ["ka", "lo", "mi", "ren", "tas", "vo", "del", "zu", "bri", "nor", "e", "qua", "sil", "ton", "ar"]
_HANZI = "安北晨东枫谷河华嘉金兰岭梅宁清泉山松桃溪杨云泽竹"


def _unique_fill(rng: random.Random) -> dict[str, str]:
    """Fills no other message repeats: a made-up word in every field, so no model call is answered by
    the embedding cache (``--unique-texts``)."""
    word = "".join(rng.choice(_SYLLABLES) for _ in range(4)).capitalize()
    han = "".join(rng.choice(_HANZI) for _ in range(3))
    fill = {k: f"{word} {rng.choice(v)}" for k, v in _FILL.items() if not k.startswith("z")}
    fill.update({k: f"{han}{rng.choice(v)}" for k, v in _FILL.items() if k.startswith("z")})
    fill.update(city=word, name=word, zcity=f"{han}镇", zname=han)
    return fill


def user_turn(rng: random.Random, i: int, durable_only: bool = False, unique: bool = False) -> str:
    """A user turn from the templates; ``unique``: only templates with a slot, filled with made-up words."""
    pool = _ZH if i % 2 else _EN
    pool = pool[:8] if durable_only else pool
    if unique:
        template = rng.choice([t for t in pool if "{" in t])
        return template.format(**_unique_fill(rng))
    template = rng.choice(pool)
    return template.format(**{k: rng.choice(v) for k, v in _FILL.items()})


def chat_pairs(
    n: int, users: int, seed: int, prefix: str, durable_only: bool = False, unique: bool = False
) -> list[tuple[Any, Any]]:
    """``n`` (assistant context, user turn) pairs, each pair its own conversation."""
    from schemas import ChatMessageData

    rng = random.Random(seed)
    base = datetime.now(UTC) - timedelta(minutes=30)
    out = []
    for i in range(n):
        user = f"{prefix}{i % users:05d}"
        conv = f"{user}-c{i}"
        greeting = "你好，有什么可以帮你？" if i % 2 else "Hi! How can I help you today?"
        a = ChatMessageData(
            message_id=f"{conv}:a",
            user_id=user,
            conversation_id=conv,
            role="assistant",
            content=greeting,
            created_at=base + timedelta(seconds=i),
        )
        u = ChatMessageData(
            message_id=f"{conv}:u",
            user_id=user,
            conversation_id=conv,
            role="user",
            content=user_turn(rng, i, durable_only, unique),
            created_at=base + timedelta(seconds=i, microseconds=1),
        )
        out.append((a, u))
    return out


def final_stats(pipe: Pipeline) -> tuple[int, float | None, float | None]:
    from sqlalchemy import text

    with pipe.engine.connect() as conn:
        n, first, last = conn.execute(
            text(
                "SELECT count(*), extract(epoch from min(processed_at)), extract(epoch from "
                "max(processed_at)) "
                "FROM messages WHERE role = 'user' AND memory_status IN ('PROCESSED', 'SKIPPED', 'FAILED')"
            )
        ).one()
    return int(n), first, last


def extractor_throughput(n: int, processes: int, timeout: float) -> dict[str, Any]:
    from producers.client import MemoryEventProducer

    with bench_pipeline(f"extr{processes}", overrides={"LONG_TERM_MEMORY_DEBOUNCE_SEC": "0"}) as pipe:
        pairs = chat_pairs(n, max(1, n // 10), seed=processes, prefix="x")
        with MemoryEventProducer(pipe.settings, source="bench/extractor") as producer:
            for a, u in pairs:
                producer.publish_message(a)
                producer.publish_message(u)
            producer.flush(120)
        log(f"extractor x{processes}: {n} user turns (+{n} context turns) published; starting the processes")
        t_wall = time.time()
        for i in range(processes):
            pipe.start("extractor", i)
        deadline = time.monotonic() + timeout
        while True:
            done, first, last = final_stats(pipe)
            if done >= n:
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"extractor x{processes}: {done}/{n} final after {timeout:.0f}s")
            pipe.check()
            time.sleep(0.5)
        extractor_stages: dict[str, float] = {}
        for i in range(processes):
            for k, v in stage_sums(pipe.metrics_text(f"extractor-{i}")).items():
                extractor_stages[k] = round(extractor_stages.get(k, 0.0) + v, 3)
        from sqlalchemy import text

        with pipe.engine.connect() as conn:
            after_first = conn.execute(
                text(
                    "SELECT count(*) FROM messages WHERE role = 'user' AND processed_at > "
                    "(SELECT min(processed_at) FROM messages WHERE role = 'user')"
                )
            ).scalar_one()
            memories = conn.execute(text("SELECT count(*) FROM long_term_memories")).scalar()
        statuses, bursts = pipe.extraction_outcomes()
        assert first is not None and last is not None  # every message is final (done >= n)
        steady = float(last) - float(first)
        rss = pipe.rss()
    return {
        "processes": processes,
        "user_messages": n,
        "messages_total": 2 * n,
        "user_messages_per_sec_steady": round(int(after_first) / steady, 2) if steady > 0 else None,
        "messages_per_sec_steady_incl_context": round(2 * int(after_first) / steady, 2)
        if steady > 0
        else None,
        "wall_sec_incl_startup": round(float(last) - t_wall, 2),
        "steady_sec": round(steady, 2),
        "statuses": statuses,
        "memories_written": memories,
        "mean_turns_per_extraction": round(sum(bursts) / len(bursts), 3) if bursts else None,
        "extractor_stage_sec": extractor_stages,
        "rss_mb": rss,
    }


def freshness(
    pipe: Pipeline, rate: float, duration: float, seed: int, drain_timeout: float, users: int | None = None,
    unique: bool = False,
) -> dict[str, Any]:
    """Publish at ``rate``/s for ``duration`` s and measure publish-to-searchable per memory; the turns
    go round-robin to ``users`` users (default: a third of the turns, so most users speak 3 times)."""
    from sqlalchemy import text

    from producers.client import MemoryEventProducer

    n = int(rate * duration)
    prefix = f"f{int(rate)}-{uuid.uuid4().hex[:4]}-"
    pairs = chat_pairs(n, users or max(1, n // 3), seed=seed, prefix=prefix, durable_only=True, unique=unique)
    before = {name: stage_sums(pipe.metrics_text(name)) for name in ("extractor-0", "indexer-0")}
    cpu_before = stage_sums(pipe.metrics_text("extractor-0"), _THREAD_CPU, "_total")
    texts0 = model_texts(pipe)
    published_at: dict[str, float] = {}
    with MemoryEventProducer(pipe.settings, source="bench/freshness") as producer:
        t0 = time.monotonic()
        wall0 = time.time()
        for i, (_a, u) in enumerate(pairs):
            target = t0 + i / rate
            delay = target - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            published_at[u.message_id] = time.time()
            producer.publish_message(u)
        producer.flush(60)
        pub_sec = time.monotonic() - t0
    done_at_end, _, _ = _final_count(pipe, prefix)
    log(
        f"freshness @{rate}/s: published {n} in {pub_sec:.1f}s ({n / pub_sec:.1f}/s); "
        f"{done_at_end} final at the end of publishing; draining"
    )
    deadline = time.monotonic() + drain_timeout
    drained = True
    while True:
        done, unsynced, _ = _final_count(pipe, prefix)
        if done >= n and unsynced == 0:
            break
        if time.monotonic() > deadline:
            drained = False
            break
        pipe.check()
        time.sleep(0.5)
    drain_sec = time.time() - wall0
    with pipe.engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT s.upstream_message_id, extract(epoch from s.received_at), extract(epoch "
                "from s.processed_at), "
                "extract(epoch from (SELECT min(o.published_at) FROM outbox o WHERE o.aggregate_id = m.id)), "
                "extract(epoch from m.vector_synced_at) FROM long_term_memories m JOIN messages s "
                "ON s.id = m.source_message_id WHERE s.upstream_message_id LIKE :p AND "
                "m.vector_status = 'SYNCED'"
            ),
            {"p": f"{prefix}%"},
        ).all()
        last_processed = conn.execute(
            text(
                "SELECT extract(epoch from max(processed_at)) FROM messages WHERE upstream_message_id LIKE :p"
            ),
            {"p": f"{prefix}%"},
        ).scalar()
    fresh, ingest, extract, relay, index = [], [], [], [], []
    for mid, received, processed, published, synced in rows:
        t_pub = published_at.get(mid)
        if t_pub is None or synced is None:
            continue
        fresh.append((float(synced) - t_pub) * 1000)
        ingest.append((float(received) - t_pub) * 1000)
        extract.append((float(processed) - float(received)) * 1000)
        if published is not None:
            relay.append((float(published) - float(processed)) * 1000)
            index.append((float(synced) - float(published)) * 1000)
    after = {name: stage_sums(pipe.metrics_text(name)) for name in ("extractor-0", "indexer-0")}
    cpu_after = stage_sums(pipe.metrics_text("extractor-0"), _THREAD_CPU, "_total")
    texts = {k: v - texts0.get(k, 0.0) for k, v in model_texts(pipe).items()}
    stages = {
        name: {k: round(v - before[name].get(k, 0.0), 3) for k, v in after[name].items()} for name in after
    }
    proc_rate = n / (float(last_processed) - wall0) if last_processed else None
    return {
        "target_rate": rate,
        "duration_sec": duration,
        "messages": n,
        "achieved_publish_rate": round(n / pub_sec, 2),
        "processing_rate": round(proc_rate, 2) if proc_rate else None,
        "final_at_end_of_publishing": done_at_end,
        "backlog_at_end_of_publishing": n - done_at_end,
        "backlog_growth_per_sec": round((n - done_at_end) / pub_sec, 2),
        "drained": drained,
        "drain_sec_from_start": round(drain_sec, 1),
        "memories_measured": len(fresh),
        "freshness_ms": latency_summary(fresh),
        "split_ms_p50": {
            "kafka_to_stored": round(median(ingest), 1),
            "extraction_wait_and_work": round(median(extract), 1),
            "outbox_relay": round(median(relay), 1),
            "indexer_wait_embed_upsert": round(median(index), 1),
        },
        "stage_sum_sec": stages,
        # the extractor's database stages split: CPU of the processing thread vs the rest (waiting)
        "extractor_db_stage_split_sec": {
            stage: {
                "wall": stages["extractor-0"].get(stage, 0.0),
                "thread_cpu": round(cpu_after.get(stage, 0.0) - cpu_before.get(stage, 0.0), 3),
                "waiting": round(stages["extractor-0"].get(stage, 0.0)
                                 - (cpu_after.get(stage, 0.0) - cpu_before.get(stage, 0.0)), 3),
            }
            for stage in ("load", "upsert")
        },
        "model_texts": {
            "by_caller": {k: int(v) for k, v in sorted(texts.items())},
            "per_user_message": round(sum(texts.values()) / n, 3) if n else None,
            "per_stored_memory": round(sum(texts.values()) / len(fresh), 3) if fresh else None,
        },
    }


def model_texts(pipe: Pipeline) -> dict[str, float]:
    """Texts the model embedded so far in the extractor and indexer processes, by caller
    (``pai_memory_embedding_caller_texts_total``: ``classifier``, ``dedup``, ``indexer``...)."""
    out: dict[str, float] = {}
    for name in ("extractor-0", "indexer-0"):
        for line in pipe.metrics_text(name).splitlines():
            if line.startswith("pai_memory_embedding_caller_texts_total{"):
                head, _, value = line.rpartition(" ")
                caller = head.split('caller="', 1)[1].split('"', 1)[0]
                out[caller] = out.get(caller, 0.0) + float(value)
    return out


def _final_count(pipe: Pipeline, prefix: str) -> tuple[int, int, int]:
    from sqlalchemy import text

    with pipe.engine.connect() as conn:
        done = conn.execute(
            text(
                "SELECT count(*) FROM messages WHERE upstream_message_id LIKE :p AND role = 'user' AND "
                "memory_status IN ('PROCESSED', 'SKIPPED', 'FAILED')"
            ),
            {"p": f"{prefix}%"},
        ).scalar_one()
        unsynced = conn.execute(
            text(
                "SELECT count(*) FROM long_term_memories m JOIN messages s ON s.id = "
                "m.source_message_id WHERE "
                "s.upstream_message_id LIKE :p AND m.vector_status <> 'SYNCED'"
            ),
            {"p": f"{prefix}%"},
        ).scalar_one()
    return int(done), int(unsynced), 0


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000, help="user turns for the extractor throughput")
    parser.add_argument("--rates", default="10,50,200")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of steady publishing per rate")
    parser.add_argument("--drain-timeout", type=float, default=600.0)
    parser.add_argument("--skip-extractor", action="store_true")
    parser.add_argument("--unique-texts", action="store_true",
                        help="freshness turns with made-up words: no two share a text (no cache hits)")
    args = parser.parse_args(argv)
    install_sigterm()
    result: dict[str, Any] = {"benchmark": "pipeline", "params": vars(args)}
    if not args.skip_extractor:
        result["extractor"] = [extractor_throughput(args.messages, p, 1800) for p in (1, 2)]
        one, two = result["extractor"]
        if one["user_messages_per_sec_steady"] and two["user_messages_per_sec_steady"]:
            result["extractor_scaling_2_over_1"] = round(
                two["user_messages_per_sec_steady"] / one["user_messages_per_sec_steady"], 3
            )
    with bench_pipeline("fresh", overrides={"LONG_TERM_MEMORY_DEBOUNCE_SEC": "0"}) as pipe:
        for proc in ("extractor", "relay", "indexer"):
            pipe.start(proc)
        # warm up: model loads, group joins
        freshness(pipe, 5, 4, seed=0, drain_timeout=300)
        pids = {name: pipe.supervisor.children[name].pid for name in ("extractor-0", "relay-0", "indexer-0")}
        pids.update(stack_pids())
        runs = []
        for i, rate in enumerate(float(r) for r in args.rates.split(",")):
            cpu0, busy0 = cpu_snapshot(pids), machine_busy()
            run = freshness(pipe, rate, args.duration, seed=10 + i, drain_timeout=args.drain_timeout,
                            unique=args.unique_texts)
            # CPU seconds of each process from the first publish to the end of the drain (the stack's
            # servers are shared: other work on them in that window counts too)
            run["cpu_sec_by_process"] = cpu_since(cpu0, pids)
            seconds = run["drain_sec_from_start"]
            run["core_share_by_process"] = {
                k: round(v / seconds, 3) for k, v in run["cpu_sec_by_process"].items() if seconds
            }
            run["machine_busy_share"] = busy_share(busy0, machine_busy())
            runs.append(run)
            log(f"  -> {json.dumps(run['freshness_ms'])}; CPU {run['cpu_sec_by_process']}")
        result["freshness"] = runs
        result["rss_mb"] = pipe.rss()
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
