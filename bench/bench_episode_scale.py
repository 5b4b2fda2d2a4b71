"""Dense retrieval's vector search with episodes beside memories, at scale on Milvus Lite.

Not a test. Two collections on the Milvus server of ``MEMORY_MILVUS_URI`` (default: the local stack's
Milvus Lite), created by ``MilvusMemoryIndex`` with the product's schema and index (COSINE, FLAT by
default): ``--memories`` memory entities and ``--episodes`` episode entities spread over ``--users``
users. THE VECTORS ARE SYNTHETIC: random unit vectors (the cost of a user-scoped FLAT search depends
on the collection and the user's share of it, not on what the vectors mean). Queries: random unit
vectors too; the query embedding's own time is measured apart with the real local model on real
questions and reported beside.

What is timed, per query, for a random user, the two searches ``Retriever`` runs on the dense path:
``memories_only`` = the memories' search (top ``LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT``), as before
episodes; ``memories_and_episodes`` = that search and the episodes' search (top
``EPISODE_RETRIEVE_LIMIT x SCAN_FACTOR``) side by side, the episodes' in a second thread, as
``Retriever._dense_search`` does; ``sequential`` = the two one after the other, for reference.
The collections are dropped at the end.

Stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from typing import Any

from bench.common import log
from bench.stats import latency_summary

QUESTIONS = ["What did I do last weekend?", "Which city do I live in?", "What food do I like?",
             "When did I go kayaking?", "上周末我做了什么？", "我喜欢吃什么？"]


def _unit(rng: Any, n: int, dim: int) -> Any:
    import numpy as np

    v = rng.standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _load(view: Any, count: int, users: int, kind: str, rng: Any, batch: int = 2000) -> float:
    from core.vectorstore import IndexRow

    t0 = time.perf_counter()
    for start in range(0, count, batch):
        n = min(batch, count - start)
        vecs = _unit(rng, n, view.dim)
        view.upsert([IndexRow(start + i + 1, 1 + (start + i) % users, kind, vecs[i]) for i in range(n)])
    view.flush()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--memory-buckets", type=int, default=0,
                        help="create the memories' collection with this many user buckets too (0: as the "
                             "product does, none), to see whether it would gain")
    args = parser.parse_args(argv)
    import numpy as np

    from core.config import load_settings
    from core.embedding.local import LocalE5Embedder
    from core.episodes.reader import SCAN_FACTOR
    from core.vectorstore import MilvusMemoryIndex

    settings = load_settings()
    dim = settings.embedding_dim
    tag = uuid.uuid4().hex[:8]
    base = MilvusMemoryIndex.from_settings(settings, collection=f"bench_epscale_mem_{tag}", dim=dim)
    episodes = base.for_collection(f"bench_epscale_ep_{tag}", dim)
    episodes.user_partitions = settings.EPISODE_MILVUS_USER_PARTITIONS  # as build_episode_indexer does
    base.user_partitions = args.memory_buckets
    rng = np.random.default_rng(25)
    result: dict[str, Any] = {"benchmark": "episode_scale", "milvus_uri": settings.milvus_uri,
                              "index_type": settings.MEMORY_MILVUS_INDEX_TYPE, "memories": args.memories,
                              "episodes": args.episodes, "users": args.users, "vectors": "synthetic random",
                              "episode_user_partitions": settings.EPISODE_MILVUS_USER_PARTITIONS,
                              "memory_user_partitions": args.memory_buckets}
    try:
        base.ensure_collection()
        episodes.ensure_collection()
        loaded_memories = _load(base, args.memories, args.users, "fact", rng)
        loaded_episodes = _load(episodes, args.episodes, args.users, "episode", rng)
        result["load_sec"] = {"memories": round(loaded_memories, 1), "episodes": round(loaded_episodes, 1)}
        log(f"loaded: {result['load_sec']}")
        scan = settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT
        ep_scan = settings.EPISODE_RETRIEVE_LIMIT * SCAN_FACTOR
        queries = _unit(rng, args.queries, dim)
        users = rng.integers(1, args.users + 1, size=args.queries)
        for q, u in zip(queries[:20], users[:20], strict=True):  # warm both collections
            base.search(int(u), q, scan)
            episodes.search(int(u), q, ep_scan)
        from concurrent.futures import ThreadPoolExecutor

        pool = ThreadPoolExecutor(1)
        alone: list[float] = []
        both: list[float] = []
        sequential: list[float] = []
        hits = {"memories": 0, "episodes": 0}
        for i, (q, u) in enumerate(zip(queries, users, strict=True)):
            # alternate the order of the two arms so drift of a loaded machine hits both alike
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
        result["memories_only_ms"] = latency_summary(alone)
        result["memories_and_episodes_ms"] = latency_summary(both)
        result["sequential_ms"] = latency_summary(sequential)
        pool.shutdown()
        result["mean_hits_per_query"] = {k: round(v / args.queries, 1) for k, v in hits.items()}
        result["growth"] = {p: round(result["memories_and_episodes_ms"][p] / result["memories_only_ms"][p], 3)
                            for p in ("p50", "p99")}
        embedder = LocalE5Embedder()
        embedder.embed_queries(QUESTIONS[:1])
        embed: list[float] = []
        for i in range(60):
            t0 = time.perf_counter()
            embedder.embed_queries([f"{QUESTIONS[i % len(QUESTIONS)]} ({i})"])
            embed.append((time.perf_counter() - t0) * 1000)
        result["query_embedding_ms"] = latency_summary(embed)
    finally:
        for view in (base, episodes):
            try:
                if view.has_collection():
                    view.drop_collection()
            except Exception as exc:  # report, never leave the run without its result
                log(f"could not drop {view.collection}: {exc}")
        base.close()
    log(json.dumps({k: result.get(k) for k in ("memories_only_ms", "memories_and_episodes_ms", "growth")}))
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
