"""Noisy neighbour on the dense read path (issue 26 point 2): one user flooding long questions.

Not a test. In a scratch database and a private Milvus collection on the configured stack
(``DATABASE_URL``, ``MEMORY_MILVUS_URI``; default the local stack) it writes ``--users`` users with
``--per-user`` synthetic memories each (and as many for the flooder), indexes them, then runs the
retrieval path in process (``core.retrieval.Retriever``, the default settings: 4 dense slots, one per
user, the long-question lane, the local e5 model) in ``--repeats`` pairs of runs, side by side in one
process, alternating which of the two goes first (after an unmeasured warm-up):

- quiet: ``--threads`` threads, each asking for its own share of the users (as separate clients
  would), unique questions one after another, ``--queries`` questions in all;
- noisy: the same questions while ``--flood-threads`` threads ask for ONE user, without pause,
  unique questions of ``--flood-chars`` characters.

``--door api`` (the default) puts the HTTP API's per-user rate limit (``API_RATE_LIMIT_PER_USER``,
default 10/s, burst 30) in front of every asker, as ``POST /v1/retrieve`` does: the flooder's questions
over it are answered 429 (it waits the ``Retry-After``) instead of reaching the retriever. ``--door
none`` calls the retriever bare: the flooder's four threads then ask as fast as they are answered (a
paused user's lexical fallback answers at once), a rate no door of the service lets one user reach.

It prints JSON: per repetition, for the other users the share served ``dense`` and the latency summary
(ms) of both runs and the p99 ratio noisy/quiet; the medians over the repetitions; what the flooder
got (served_by counts, reasons); the load average.
``--out`` writes the JSON to a file too.

    .venv/bin/python -m bench.bench_noisy_neighbour --repeats 3 --out bench/results/noisy_neighbour.json
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

from api.ratelimit import KeyedRateLimiter
from bench.bench_indexer import scratch_database
from bench.common import log
from bench.stats import latency_summary, median, ratio
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
        flood_chars: int, door: KeyedRateLimiter | None = None) -> dict[str, Any]:
    """The others' questions over ``threads`` threads (optionally beside the flood); their results.

    ``door``: the HTTP API's per-user rate limit (``API_RATE_LIMIT_PER_USER``) in front of every
    question, as ``POST /v1/retrieve`` applies it: a question over it is answered 429 without a
    retrieval (counted ``rate_limited``) and its asker waits the ``Retry-After`` it was given."""
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
            if door is not None and door.acquire(user) > 0:
                with lock:
                    served["rate_limited"] += 1
                continue
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
            wait = door.acquire(FLOODER) if door is not None else 0.0
            if wait > 0:
                with lock:
                    flood_served["rate_limited"] += 1
                time.sleep(wait)
                continue
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


def _median_summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The other users' figures of several runs of one kind: latency percentiles as the median over
    the runs, the dense share over all their queries (and the lowest of one run)."""
    lat = {k: round(median([r["latency_ms"][k] for r in runs]), 3)
           for k in ("p50", "p95", "p99", "mean", "max")}
    queries = sum(r["queries"] for r in runs)
    dense = sum(r["served_by"].get("dense", 0) for r in runs)
    reasons: Counter[str] = Counter()
    for r in runs:
        reasons.update(r["fallback_reasons"])
    return {"runs": len(runs), "queries": queries,
            "dense_share": round(dense / queries, 4) if queries else None,
            "min_dense_share": min(r["dense_share"] for r in runs), "latency_ms": lat,
            "fallback_reasons": dict(reasons)}


def section(d: dict[str, Any] | None) -> str:
    """The RESULTS.md table of a result of this benchmark (``bench/report.py``)."""
    if not d:
        return ("_Not run yet: `.venv/bin/python -m bench.bench_noisy_neighbour --repeats 3 "
                "--out bench/results/noisy_neighbour.json`._")
    reps = d.get("repeats", [])
    rows = ["| run | other users' queries | served `dense` | p50 ms | p95 ms | p99 ms |",
            "|---|---|---|---|---|---|"]
    for name in ("quiet", "noisy"):
        r = d[name]
        lat = r["latency_ms"]
        rows.append(f"| {name} (median of {r.get('runs', 1)}) | {r['queries']} | "
                    f"{100 * r['dense_share']:.1f} % | "
                    f"{lat['p50']:.0f} | {lat['p95']:.0f} | {lat['p99']:.0f} |")
    per_rep = "; ".join(
        f"{i + 1}: p99 {x['quiet']['latency_ms']['p99']:.0f} -> {x['noisy']['latency_ms']['p99']:.0f} ms "
        f"(**{x['p99_ratio']}x**, p50 {x['p50_ratio']}x, dense {100 * x['noisy']['dense_share']:.1f} %, "
        f"load {x['load_average']})" for i, x in enumerate(reps))
    flood = d.get("flooder", {}).get("served_by", {})
    load = d.get("load_average", {})
    return "\n".join([
        *rows, "",
        f"p99 noisy/quiet, median of the repetitions' ratios: **{d['p99_ratio_noisy_over_quiet']}x** "
        "(goal <= 2x; "
        f"p50 {d['p50_ratio_noisy_over_quiet']}x); other users served `dense`: "
        f"**{100 * d['noisy']['dense_share']:.1f} %** over all noisy runs, lowest run "
        f"{100 * d['noisy']['min_dense_share']:.1f} % (goal >= 99 %). Per repetition (quiet and noisy "
        f"side by side, alternating which goes first): {per_rep}.",
        "",
        f"The flooder ({d['args']['flood_threads']} threads, {d['args']['flood_chars']}-character "
        "questions) was "
        f"served {', '.join(f'{k} {v}' for k, v in sorted(flood.items()))} (all noisy runs; door: "
        f"{d['args'].get('door', 'none')}). Settings: "
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
    ap.add_argument("--repeats", type=int, default=1,
                    help="quiet + noisy pairs, side by side, alternating which runs first; medians reported")
    ap.add_argument("--settle", type=float, default=1.0, help="seconds of pause before each run")
    ap.add_argument("--door", choices=("api", "none"), default="api",
                    help="api: the HTTP API's per-user rate limit (API_RATE_LIMIT_PER_USER/_BURST, default "
                         "settings) in front of every asker, as POST /v1/retrieve applies it (the flooder "
                         "waits its Retry-After); none: the retriever bare, the flooder unthrottled")
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
                 "RETRIEVAL_DENSE_BREAKER_USERS", "API_RATE_LIMIT_PER_USER", "API_RATE_LIMIT_PER_USER_BURST")
        out: dict[str, Any] = {"memories": n, "settings": {k: getattr(settings, k) for k in shown},
            "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}}
        retriever = build_retriever(settings, embedder=embedder)
        reps: list[dict[str, Any]] = []
        flood_served: Counter[str] = Counter()
        flood_reasons: Counter[str] = Counter()
        try:
            # warm-up, not measured: the process's first questions (the quiet run is not the cold one)
            for u, q in questions[:30]:
                retriever.retrieve(u, q + " (warm-up)", mode=RetrieveMode.DENSE)
            for r in range(args.repeats):
                rep: dict[str, Any] = {}
                loads = []
                for name in (("quiet", "noisy") if r % 2 == 0 else ("noisy", "quiet")):
                    time.sleep(args.settle)  # the previous run's work (a long embedding) ends
                    log(f"repetition {r + 1}: {name} run")
                    asked = [(u, f"{q} #{r + 1}{name[0]}") for u, q in questions]  # new texts: no cache hit
                    door = None if args.door == "none" else KeyedRateLimiter(
                        "user", settings.API_RATE_LIMIT_PER_USER, settings.API_RATE_LIMIT_PER_USER_BURST)
                    got = run(retriever, asked, args.threads, args.flood_threads if name == "noisy" else 0,
                              args.flood_chars, door)
                    rep[name] = got["others"]
                    loads.append(round(os.getloadavg()[0], 2))
                    if name == "noisy":
                        flood_served.update(got["flooder"]["served_by"])
                        flood_reasons.update(got["flooder"]["fallback_reasons"])
                rep["load_average"] = loads
                rep["p99_ratio"] = ratio(rep["noisy"]["latency_ms"]["p99"], rep["quiet"]["latency_ms"]["p99"])
                rep["p50_ratio"] = ratio(rep["noisy"]["latency_ms"]["p50"], rep["quiet"]["latency_ms"]["p50"])
                log(f"repetition {r + 1}: p99 ratio {rep['p99_ratio']}, p50 ratio {rep['p50_ratio']}, "
                    f"others dense {rep['noisy']['dense_share']}")
                reps.append(rep)
        finally:
            retriever.close()
            MilvusMemoryIndex.from_settings(settings).drop_collection()
    out["repeats"] = reps
    out["quiet"] = _median_summary([x["quiet"] for x in reps])
    out["noisy"] = _median_summary([x["noisy"] for x in reps])
    out["flooder"] = {"served_by": dict(flood_served), "fallback_reasons": dict(flood_reasons.most_common(6))}
    out["command"] = " ".join([".venv/bin/python -m bench.bench_noisy_neighbour", *(argv or sys.argv[1:])])
    out["load_average"] = {"start": load_start, "end": round(os.getloadavg()[0], 2)}
    out["p99_ratio_noisy_over_quiet"] = round(median([x["p99_ratio"] for x in reps]), 3)
    out["p50_ratio_noisy_over_quiet"] = round(median([x["p50_ratio"] for x in reps]), 3)
    text = json.dumps(out, indent=2, ensure_ascii=False, default=str)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
