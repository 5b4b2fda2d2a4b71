"""Dense retrieval's vector search with episodes beside memories, at scale, on Milvus Lite or a real
Milvus standalone.

Not a test. Two collections created by ``MilvusMemoryIndex`` with the product's schema, index
(``MEMORY_MILVUS_INDEX_TYPE``, COSINE) and layout: the memories' collection as the product creates it
(no user buckets unless ``--memory-buckets``), the episodes' in ``EPISODE_MILVUS_USER_PARTITIONS`` user
buckets (``core/vector_buckets.py``), as ``build_episode_indexer`` makes it. ``--memories`` and
``--episodes`` rows spread over ``--users`` users are bulk-inserted into the user's bucket partition
(``bench.milvus_standalone.load_milvus``), not written through the pipeline. THE BULK VECTORS ARE
SYNTHETIC: every memory's vector is a copy of one of ``--memory-base`` real e5 passage vectors of
synthetic memories (``bench.bench_scale.base_vectors``), every episode's a copy of one of
``--episode-base`` real e5 passage vectors of real user utterances (``training/data/memory_utterances``),
plus N(0, 0.02) noise per dimension, renormalised. The QUERIES ARE REAL: ``--queries`` distinct
questions (``bench.synthetic.synthetic_queries``, zh and en), each embedded by the local model one at a
time, timed: the query embedding's own time is reported beside the searches.

``--standalone``: the server is a private real Milvus standalone (PyPI ``milvus`` 2.3.x, started as
``bench_scale`` starts it: ``bench.milvus_standalone.RealMilvus``) with its own data directory under
``bench/.work``, on ``--port``, its process tree's RSS capped by ``--max-rss-mib`` and stopped (its data
removed) at the end; ``--measure-nice`` gives both the timed rounds at another niceness. Otherwise the
server of ``MEMORY_MILVUS_URI`` (e.g. a private Milvus Lite file).

What is timed, per query, for a random user, the two searches ``Retriever`` runs on the dense path
(``core/retrieval/dense.py``, ``EpisodeSearch``), with the product's search parameters and consistency
(``MilvusMemoryIndex.search``): ``memories_only`` = the memories' search (top
``LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT``), as before episodes; ``memories_and_episodes`` = that search and
the episodes' (top ``EPISODE_RETRIEVE_LIMIT x SCAN_FACTOR``) side by side, the episodes' in a second
thread, as ``_search`` does; ``sequential`` = the two one after the other, for reference;
``embed_plus_both`` = each query's own embedding time plus its ``memories_and_episodes`` time.
``--repeats`` rounds over the same data; the collections are dropped at the end.

After the bulk load, as an operator does after one (``docs/operations.md``, "After a bulk load or a
reindex"), both collections are flushed and the run waits until the server serves them only from sealed,
indexed segments (``MilvusMemoryIndex.wait_served``, ``core/milvus_serving.py``; up to
``--served-timeout``): the seconds waited, the states read meanwhile (every 2 s, with the server's CPU) and
the state before every round are in the result. ``--no-wait-served`` measures right after the load instead
(the procedure before session 11).

Stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.common import log
from bench.milvus_standalone import RealMilvus, load_milvus, renice_tree
from bench.stats import latency_summary
from bench.synthetic import synthetic_queries

UTTERANCES = Path(__file__).resolve().parents[1] / "training/data/memory_utterances/utterances.jsonl"
STANDALONE_PORT = 39761  # not bench_scale's, so the two can run side by side


def episode_base_vectors(n: int) -> Any:
    """Real e5 passage vectors of the first ``n`` user utterances of the labelled corpus, cut and
    prefixed as the episode indexer embeds them."""
    import numpy as np

    from core.embedding.local import LocalE5Embedder
    from core.episodes.passages import index_text

    texts: list[str] = []
    with UTTERANCES.open(encoding="utf-8") as fh:
        for line in fh:
            text = json.loads(line)["text"].strip()
            if text:
                texts.append(index_text(text[:400]))
            if len(texts) >= n:
                break
    log(f"embedding {len(texts)} real user utterances (every episode's vector derives from one of them)")
    return np.asarray(LocalE5Embedder(batch_size=64).embed_passages(texts), dtype=np.float32)


def _meminfo_gib() -> dict[str, float]:
    fields = dict(line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines())
    return {k: round(int(fields[k].split()[0]) / 2**20, 1) for k in ("MemTotal", "MemAvailable")}


def _du_gib(path: Path | None) -> float | None:
    if path is None or not path.exists():
        return None
    total = sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())
    return round(total / 2**30, 2)


def _round(base: Any, episodes: Any, vectors: Any, users: Any, scan: int, ep_scan: int,
           embed_ms: list[float]) -> dict[str, Any]:
    pool = ThreadPoolExecutor(1)
    alone: list[float] = []
    both: list[float] = []
    sequential: list[float] = []
    hits = {"memories": 0, "episodes": 0}
    try:
        for q, u in zip(vectors[:20], users[:20], strict=True):  # warm both collections
            base.search(int(u), q, scan)
            episodes.search(int(u), q, ep_scan)
        for i, (q, u) in enumerate(zip(vectors, users, strict=True)):
            # alternate the order of the arms so drift of a loaded machine hits them alike
            for arm in (("alone", "both", "sequential") if i % 2 else ("sequential", "both", "alone")):
                t0 = time.perf_counter()
                if arm == "both":
                    beside = pool.submit(episodes.search, int(u), q, ep_scan)
                    base.search(int(u), q, scan)
                    hits["episodes"] += len(beside.result())
                    both.append((time.perf_counter() - t0) * 1000)
                elif arm == "sequential":
                    base.search(int(u), q, scan)
                    episodes.search(int(u), q, ep_scan)
                    sequential.append((time.perf_counter() - t0) * 1000)
                else:
                    hits["memories"] += len(base.search(int(u), q, scan))
                    alone.append((time.perf_counter() - t0) * 1000)
    finally:
        pool.shutdown()
    out: dict[str, Any] = {
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "memories_only_ms": latency_summary(alone),
        "memories_and_episodes_ms": latency_summary(both),
        "sequential_ms": latency_summary(sequential),
        "embed_plus_both_ms": latency_summary([e + b for e, b in zip(embed_ms, both, strict=True)]),
        "mean_hits_per_query": {k: round(v / len(vectors), 1) for k, v in hits.items()},
    }
    a, b = out["memories_only_ms"], out["memories_and_episodes_ms"]
    out["growth_ms"] = {p: round(b[p] - a[p], 2) for p in ("p50", "p99")}
    out["growth"] = {p: round(b[p] / a[p], 3) for p in ("p50", "p99")}
    return out


def _brief(state: dict[str, Any]) -> dict[str, Any]:
    keys = ("ready", "segments_known", "index_per_segment_known", "total_rows", "indexed_rows",
            "pending_index_rows", "sealed_segments", "sealed_rows", "sealed_without_index",
            "growing_segments", "growing_rows", "flushed_not_served", "served_not_flushed")
    return {k: state.get(k) for k in keys}


def _served(real: RealMilvus | None, views: tuple[Any, ...], timeout: float, wait: bool) -> dict[str, Any]:
    """Flush both collections and wait until the server serves them only from sealed, indexed segments
    (``MilvusMemoryIndex.wait_served``), reading the state of both every 2 s with the server's CPU use
    meanwhile; ``wait`` false: one reading, no wait."""
    from core.milvus_serving import wait_until_ready

    trace: list[dict[str, Any]] = []
    t0 = time.monotonic()
    last: dict[str, float | None] = {"t": t0, "cpu": real.cpu_sec() if real is not None else None}

    def read_all() -> Any:
        states = [v.serving_state() for v in views]
        now, cpu = time.monotonic(), real.cpu_sec() if real is not None else None
        cpu0, when0 = last["cpu"], last["t"] or t0
        cores = None
        if cpu is not None and cpu0 is not None and now > when0:
            cores = round((cpu - cpu0) / (now - when0), 2)
        last.update(t=now, cpu=cpu)
        trace.append({"t": round(now - t0, 1), "server_cpu_cores": cores,
                      "load_1min": round(os.getloadavg()[0], 1),
                      **{s.collection: _brief(s.as_dict()) for s in states}})
        worst = next((s for s in states if not s.ready), states[-1])
        return worst

    if wait:
        for v in views:
            v.flush()
        state, waited = wait_until_ready(read_all, timeout, poll=2.0)
    else:
        state, waited = read_all(), 0.0
    log(f"server state after {waited:.0f}s: {state.render()}")
    return {"waited": wait, "waited_sec": round(waited, 1), "ready": state.ready, "readings": len(trace),
            "final": trace[-1], "first": trace[0],
            "trace": trace if len(trace) <= 40 else trace[:20] + trace[-20:]}


def _cpu(real: RealMilvus, base: Any, episodes: Any, vectors: Any, users: Any, scan: int,
         ep_scan: int) -> dict[str, Any]:
    """CPU time per query of each arm, the server's (its whole process tree, less its idle rate) and this
    process's: unlike wall time, it does not grow with the machine's load. Arms run in blocks."""
    idle0, w0 = real.cpu_sec() or 0.0, time.perf_counter()
    time.sleep(5)
    idle_rate = ((real.cpu_sec() or 0.0) - idle0) / (time.perf_counter() - w0)
    pool = ThreadPoolExecutor(1)
    out: dict[str, Any] = {"server_idle_cpu_ms_per_sec": round(idle_rate * 1000, 2)}
    try:
        for arm in ("memories_only", "memories_and_episodes", "memories_only", "memories_and_episodes"):
            s0, c0, w0 = real.cpu_sec() or 0.0, time.process_time(), time.perf_counter()
            for q, u in zip(vectors, users, strict=True):
                beside = pool.submit(episodes.search, int(u), q, ep_scan) if arm != "memories_only" else None
                base.search(int(u), q, scan)
                if beside is not None:
                    beside.result()
            wall = time.perf_counter() - w0
            server = ((real.cpu_sec() or 0.0) - s0 - idle_rate * wall) * 1000 / len(vectors)
            client = (time.process_time() - c0) * 1000 / len(vectors)
            out.setdefault(arm, []).append({"server_cpu_ms": round(server, 2),
                                            "client_cpu_ms": round(client, 2),
                                            "wall_ms_mean": round(wall * 1000 / len(vectors), 2)})
    finally:
        pool.shutdown()
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=1, help="measuring rounds over the same data")
    parser.add_argument("--memory-base", type=int, default=1000, help="real vectors the memories derive from")
    parser.add_argument("--episode-base", type=int, default=2000,
                        help="real vectors the episodes derive from")
    parser.add_argument("--memory-buckets", type=int, default=0,
                        help="create the memories' collection with this many user buckets too (0: as the "
                             "product does, none), to see whether it would gain")
    parser.add_argument("--standalone", action="store_true",
                        help="start a private real Milvus standalone instead of using MEMORY_MILVUS_URI")
    parser.add_argument("--port", type=int, default=STANDALONE_PORT)
    parser.add_argument("--max-rss-mib", type=float, default=8192,
                        help="the standalone is stopped (the run fails) if its processes' RSS exceeds this")
    parser.add_argument("--served-timeout", type=float, default=1800.0,
                        help="after the load, wait up to this long for both collections to be served from "
                             "sealed, indexed segments (the documented readiness condition)")
    parser.add_argument("--no-wait-served", action="store_true",
                        help="measure right after the load, without waiting for the server to settle")
    parser.add_argument("--measure-nice", type=int, default=None,
                        help="with --standalone: every thread of this process and of the server gets this "
                             "niceness for the timed rounds only (e.g. -10: a host whose CPU they do not "
                             "share with the machine's other work), back to 0 after")
    args = parser.parse_args(argv)
    import numpy as np

    from bench.bench_scale import base_vectors
    from bench.stack import install_sigterm
    from core.config import load_settings
    from core.embedding.local import LocalE5Embedder
    from core.episodes.reader import SCAN_FACTOR
    from core.vectorstore import MilvusMemoryIndex

    install_sigterm()
    t_start = time.monotonic()
    settings = load_settings()
    result: dict[str, Any] = {"benchmark": "episode_scale", "params": vars(args),
                              "load_average_start": [round(x, 1) for x in os.getloadavg()],
                              "ram_gib_start": _meminfo_gib()}
    real: RealMilvus | None = None
    if args.standalone:
        real = RealMilvus(port=args.port, max_rss_mib=args.max_rss_mib)
        log("starting a private real Milvus standalone (PyPI milvus 2.3.x)")
        if not real.start():
            result["error"] = real.error
            return result
        settings = settings.model_copy(update={"MEMORY_MILVUS_URI": real.uri})
        result["real_milvus"] = {"uri": real.uri, "start_sec": real.start_sec, "data_dir": str(real.base)}
    dim = settings.embedding_dim
    tag = uuid.uuid4().hex[:8]
    base = MilvusMemoryIndex.from_settings(settings, collection=f"bench_epscale_mem_{tag}", dim=dim)
    episodes = base.for_collection(f"bench_epscale_ep_{tag}", dim)
    episodes.user_partitions = settings.EPISODE_MILVUS_USER_PARTITIONS  # as build_episode_indexer does
    base.user_partitions = args.memory_buckets
    uri = settings.milvus_uri
    result.update({"milvus_uri": uri, "index_type": settings.MEMORY_MILVUS_INDEX_TYPE,
                   "search_params": {"metric_type": "COSINE"},
                   "search_consistency": settings.MEMORY_MILVUS_SEARCH_CONSISTENCY,
                   "memories": args.memories, "episodes": args.episodes, "users": args.users,
                   "vectors": f"synthetic: copies of {args.memory_base} (memories) / {args.episode_base} "
                              f"(episodes) real e5 passage vectors + N(0, 0.02) noise, renormalised; "
                              f"queries real, embedded by the local model",
                   "episode_user_partitions": settings.EPISODE_MILVUS_USER_PARTITIONS,
                   "memory_user_partitions": args.memory_buckets})
    try:
        memory_base, _ = base_vectors(args.memory_base)
        episode_base = episode_base_vectors(args.episode_base)
        rng = np.random.default_rng(25)
        users = rng.integers(1, args.users + 1, size=args.queries)
        texts = [q for _, q in synthetic_queries([f"u{i:05d}" for i in range(2 * 50)], args.queries, seed=25)]
        embedder = LocalE5Embedder()
        embedder.embed_queries(["warm up"])
        embed_ms: list[float] = []
        vectors = []
        for text in texts:  # one at a time, as a question arrives
            t0 = time.perf_counter()
            vectors.append(np.asarray(embedder.embed_queries([text])[0], dtype=np.float32))
            embed_ms.append((time.perf_counter() - t0) * 1000)
        result["query_embedding_ms"] = latency_summary(embed_ms)
        base.ensure_collection()
        episodes.ensure_collection()
        log(f"loading {args.memories} memories and {args.episodes} episodes into {uri}")
        result["load_sec"] = {
            "memories": round(load_milvus(uri, base.collection, args.users, 0, args.memories, memory_base,
                                          buckets=args.memory_buckets), 1),
            "episodes": round(load_milvus(uri, episodes.collection, args.users, 0, args.episodes,
                                          episode_base, memory_type="episode",
                                          buckets=settings.EPISODE_MILVUS_USER_PARTITIONS), 1)}
        log(f"loaded: {result['load_sec']}")
        result["served_after_load"] = _served(real, (base, episodes), args.served_timeout,
                                              wait=not args.no_wait_served)
        log(f"served after the load: {json.dumps(result['served_after_load']['final'])}")
        result["entities"] = {"memories": base.count(), "episodes": episodes.count()}
        scan = settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT
        ep_scan = max(1, min(settings.EPISODE_RETRIEVE_LIMIT * SCAN_FACTOR, 400))  # as EpisodeSearch asks
        result["top_k"] = {"memories": scan, "episodes": ep_scan}
        if real is not None and real.proc is not None and args.measure_nice is not None:
            result["measure_nice"] = {"niceness": args.measure_nice,
                                      "threads": renice_tree(os.getpid(), args.measure_nice)
                                      + renice_tree(real.proc.pid, args.measure_nice)}
        rounds = []
        for r in range(args.repeats):
            before = {v.collection: v.serving_state().as_dict() for v in (base, episodes)}
            rounds.append(_round(base, episodes, vectors, users, scan, ep_scan, embed_ms))
            rounds[-1]["served_before"] = {k: _brief(v) for k, v in before.items()}
            log(f"round {r + 1}: {json.dumps({k: rounds[-1][k] for k in ('load_average', 'growth_ms')})}")
            if real is not None and real.error:
                raise RuntimeError(real.error)
        result["rounds"] = rounds
        for key in ("memories_only_ms", "memories_and_episodes_ms", "embed_plus_both_ms"):
            result[key] = {p: round(statistics.median(x[key][p] for x in rounds), 3) for p in ("p50", "p99")}
        result["growth_ms"] = {p: round(statistics.median(x["growth_ms"][p] for x in rounds), 2)
                               for p in ("p50", "p99")}
        result["goal_standalone"] = {
            "p50_growth_le_5ms": result["growth_ms"]["p50"] <= 5.0,
            "p99_both_lt_80ms": result["memories_and_episodes_ms"]["p99"] < 80.0}
        if real is not None and real.proc is not None and args.measure_nice is not None:
            renice_tree(os.getpid(), 0)
            renice_tree(real.proc.pid, 0)
        if real is not None:
            result["cpu_per_query"] = _cpu(real, base, episodes, vectors, users, scan, ep_scan)
            log(f"cpu: {json.dumps(result['cpu_per_query'])}")
            result["milvus_rss_mib"] = {"after": real.rss(), "peak": real.peak_rss_mib}
            result["milvus_data_gib"] = _du_gib(real.base)
    finally:
        for view in (base, episodes):
            try:
                if view.has_collection():
                    view.drop_collection()
            except Exception as exc:  # report, never leave the run without its result
                log(f"could not drop {view.collection}: {exc}")
        base.close()
        if real is not None:
            real.stop()
            result["milvus_stopped_data_removed"] = real.base is not None and not real.base.exists()
        result["ram_gib_end"] = _meminfo_gib()
        result["load_average_end"] = [round(x, 1) for x in os.getloadavg()]
        result["wall_sec"] = round(time.monotonic() - t_start, 1)
    log(json.dumps({k: result.get(k) for k in ("memories_only_ms", "memories_and_episodes_ms", "growth_ms",
                                               "query_embedding_ms")}))
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
