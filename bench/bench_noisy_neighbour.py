"""Noisy neighbour on the dense read path (issue 26 point 2): one user flooding long questions.

Not a test. In a scratch database and a private Milvus collection on the configured stack
(``DATABASE_URL``, ``MEMORY_MILVUS_URI``; default the local stack) it writes ``--users`` users with
``--per-user`` synthetic memories each (and as many for the flooder), indexes them, then runs the
retrieval path in process (``core.retrieval.Retriever``, the default settings: 4 dense slots, one per
user, the local e5 model) twice:

- quiet: ``--threads`` threads, each asking for its own share of the users (as separate clients
  would), unique questions one after another, ``--queries`` questions in all;
- noisy: the same questions while ``--flood-threads`` threads ask for ONE user, without pause,
  unique questions of ``--flood-chars`` characters.

It prints JSON: for the other users the share served ``dense`` and the latency summary (ms) in both
runs, the p99 ratio noisy/quiet, and what the flooder got (served_by counts, reasons).
``--out`` writes the JSON to a file too.

    .venv/bin/python -m bench.bench_noisy_neighbour --out bench/results/noisy_neighbour.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bench.bench_indexer import scratch_database
from bench.common import log
from bench.stats import latency_summary, ratio
from bench.synthetic import synthetic_memories, synthetic_queries
from core.config import RetrieveMode, Settings, load_settings
from core.embedding.local import LocalE5Embedder
from core.memory.store import get_or_create_user, lock_user
from core.memory.text import embedding_text
from core.memory.writer import MemoryWrite, MemoryWriter, WriteContext
from core.retrieval import Retriever, ServedBy, build_retriever
from core.storage import db
from core.storage.models import LongTermMemory
from core.types import MemoryType, WriteSource
from core.vectorstore import IndexRow, MilvusMemoryIndex, ensure_active_collection

FLOODER = "u99999"
_WORDS = ("please", "remember", "that", "my", "weekend", "plans", "include", "hiking", "cooking", "reading",
          "travel", "budget", "family", "coffee", "music", "garden", "project", "deadline", "friends")


def seed(settings: Settings, embedder: LocalE5Embedder, users: list[str], per_user: int) -> int:
    """Memories for ``users`` through the real writer, indexed in the private collection."""
    sessions = db.session_factory(db.engine_for(settings.database_url))
    writer = MemoryWriter.from_settings(settings)
    items = synthetic_memories(per_user * len(users), len(users))
    by_user: dict[str, list[Any]] = {}
    for item in items:
        by_user.setdefault(item.user, []).append(item)
    names = sorted(by_user)
    for ext, synth in zip(users, (by_user[n] for n in names), strict=False):
        with db.transaction(sessions) as session:
            pk = get_or_create_user(session, ext)
            lock_user(session, pk)
            ctx = WriteContext(user_pk=pk, source=WriteSource.TOOL, reason="bench")
            for m in synth:
                write = MemoryWrite(m.key, MemoryType(m.memory_type), m.content, 3, 0.9, None)
                writer.save(session, ctx, write)
    index = MilvusMemoryIndex.from_settings(settings)
    with db.transaction(sessions) as session:
        ensure_active_collection(session, index, embedder.model, embedder.dim)
    with sessions() as session:
        rows = session.query(LongTermMemory).all()
    texts = [embedding_text(r.memory_type, r.memory_key, r.content) for r in rows]
    vectors = embedder.embed_passages(texts)
    index.upsert([IndexRow(r.id, r.user_id, r.memory_type or "fact", v)
                  for r, v in zip(rows, vectors, strict=True)])
    index.close()
    return len(rows)


def long_question(rng: random.Random, chars: int, n: int) -> str:
    words: list[str] = [f"question {n}:"]
    while sum(len(w) + 1 for w in words) < chars:
        words.append(rng.choice(_WORDS))
    return " ".join(words)[:chars]


def run(retriever: Retriever, questions: list[tuple[str, str]], threads: int, flood_threads: int,
        flood_chars: int) -> dict[str, Any]:
    """The others' questions over ``threads`` threads (optionally beside the flood); their results."""
    lat: list[float] = []
    served: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    flood_served: Counter[str] = Counter()
    flood_reasons: Counter[str] = Counter()
    lock = threading.Lock()
    stop = threading.Event()

    def others(part: list[tuple[str, str]]) -> None:
        for user, q in part:
            t0 = time.perf_counter()
            res = retriever.retrieve(user, q, mode=RetrieveMode.DENSE)
            took = (time.perf_counter() - t0) * 1000
            with lock:
                lat.append(took)
                served[res.served_by.value] += 1
                if res.served_by is not ServedBy.DENSE:
                    reasons[(res.fallback_reason or "")[:80]] += 1

    def flood(k: int) -> None:
        rng = random.Random(k)
        n = 0
        while not stop.is_set():
            n += 1
            res = retriever.retrieve(FLOODER, long_question(rng, flood_chars, k * 1_000_000 + n),
                                     mode=RetrieveMode.DENSE)
            with lock:
                flood_served[res.served_by.value] += 1
                if res.served_by is not ServedBy.DENSE:
                    flood_reasons[(res.fallback_reason or "")[:80]] += 1

    flooders = [threading.Thread(target=flood, args=(k,), daemon=True) for k in range(flood_threads)]
    for t in flooders:
        t.start()
    if flood_threads:
        time.sleep(1.0)  # the flood is going before the others ask
    # each thread asks for its own users (as separate clients would): a user's own concurrent
    # questions are RETRIEVAL_DENSE_PER_USER's business, not the noisy neighbour's
    users = sorted({u for u, _ in questions})
    parts = [[qu for qu in questions if users.index(qu[0]) % threads == i] for i in range(threads)]
    workers = [threading.Thread(target=others, args=(part,)) for part in parts]
    started = time.perf_counter()
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    seconds = time.perf_counter() - started
    stop.set()
    for t in flooders:
        t.join(120)
    total = sum(served.values())
    return {"others": {"queries": total, "served_by": dict(served),
                       "dense_share": round(served.get("dense", 0) / total, 4) if total else None,
                       "fallback_reasons": dict(reasons), "latency_ms": latency_summary(lat),
                       "seconds": round(seconds, 2)},
            "flooder": {"served_by": dict(flood_served),
                        "fallback_reasons": dict(flood_reasons.most_common(5))}}


def section(d: dict[str, Any] | None) -> str:
    """The RESULTS.md table of a result of this benchmark (``bench/report.py``)."""
    if not d:
        return ("_Not run yet: `.venv/bin/python -m bench.bench_noisy_neighbour "
                "--out bench/results/noisy_neighbour.json`._")
    rows = ["| run | other users' queries | served `dense` | p50 ms | p95 ms | p99 ms |",
            "|---|---|---|---|---|---|"]
    for name in ("quiet", "noisy"):
        r = d[name]
        lat = r["latency_ms"]
        rows.append(f"| {name} | {r['queries']} | {100 * r['dense_share']:.1f} % | {lat['p50']:.0f} | "
                    f"{lat['p95']:.0f} | {lat['p99']:.0f} |")
    flood = d.get("flooder", {}).get("served_by", {})
    load = d.get("load_average", {})
    return "\n".join([
        *rows, "",
        f"p99 noisy/quiet: **{d['p99_ratio_noisy_over_quiet']}x** (goal <= 2x); other users served `dense`: "
        f"**{100 * d['noisy']['dense_share']:.1f} %** (goal >= 99 %). The flooder "
        f"({d['args']['flood_threads']} threads, {d['args']['flood_chars']}-character questions) was served "
        f"{', '.join(f'{k} {v}' for k, v in sorted(flood.items()))}. Settings: "
        + ", ".join(f"`{k}={v}`" for k, v in d["settings"].items()) + ".",
        "",
        f"Command: `{d.get('command', '')}`; load average (1 min) {load.get('start')} at start, "
        f"{load.get('end')} at the end (2 CPUs shared with other work: absolute times are noisy).",
    ])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--users", type=int, default=20)
    ap.add_argument("--per-user", type=int, default=20)
    ap.add_argument("--queries", type=int, default=300, help="the other users' questions per run")
    ap.add_argument("--threads", type=int, default=3, help="threads asking for the other users")
    ap.add_argument("--flood-threads", type=int, default=4)
    ap.add_argument("--flood-chars", type=int, default=4000)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)

    load_start = round(os.getloadavg()[0], 2)
    base = load_settings()
    embedder = LocalE5Embedder()
    embedder.warm_up()
    users = [f"u{i:05d}" for i in range(args.users)]
    with scratch_database(base) as url:
        settings = base.model_copy(update={
            "DATABASE_URL": SecretStr(url), "MEMORY_MILVUS_ENABLED": True,
            "MEMORY_MILVUS_COLLECTION": f"bench_noisy_{uuid.uuid4().hex[:8]}",
            "LONG_TERM_MEMORY_RETRIEVE_MODE": RetrieveMode.DENSE})
        log(f"seeding {args.users + 1} users x {args.per_user} memories")
        n = seed(settings, embedder, [*users, FLOODER], args.per_user)
        questions = synthetic_queries(users, args.queries)
        shown = ("RETRIEVAL_DENSE_CONCURRENCY", "RETRIEVAL_DENSE_PER_USER", "RETRIEVAL_DENSE_USER_WAIT_SEC",
                 "RETRIEVAL_DENSE_TIMEOUT_SEC", "RETRIEVAL_DENSE_COOLDOWN_SEC",
                 "RETRIEVAL_DENSE_BREAKER_USERS")
        out: dict[str, Any] = {"memories": n, "settings": {k: getattr(settings, k) for k in shown},
            "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}}
        retriever = build_retriever(settings, embedder=embedder)
        try:
            retriever.retrieve(users[0], "warm-up question", mode=RetrieveMode.DENSE)
            log("quiet run")
            out["quiet"] = run(retriever, questions, args.threads, 0, args.flood_chars)["others"]
            log("noisy run")
            noisy = run(retriever, [(u, q + " again") for u, q in questions], args.threads,
                        args.flood_threads, args.flood_chars)
            out["noisy"] = noisy["others"]
            out["flooder"] = noisy["flooder"]
        finally:
            retriever.close()
            MilvusMemoryIndex.from_settings(settings).drop_collection()
    out["command"] = " ".join([".venv/bin/python -m bench.bench_noisy_neighbour", *(argv or sys.argv[1:])])
    out["load_average"] = {"start": load_start, "end": round(os.getloadavg()[0], 2)}
    out["p99_ratio_noisy_over_quiet"] = ratio(out["noisy"]["latency_ms"].get("p99"),
                                              out["quiet"]["latency_ms"].get("p99"))
    out["p50_ratio_noisy_over_quiet"] = ratio(out["noisy"]["latency_ms"].get("p50"),
                                              out["quiet"]["latency_ms"].get("p50"))
    text = json.dumps(out, indent=2, ensure_ascii=False, default=str)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
