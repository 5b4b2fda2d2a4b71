"""Milvus Lite search latency on growing (unflushed) vs flushed data, with the memory-index schema.

Not a test. Explains the dense-search numbers of the mem0 comparison: the indexer writes small
upsert batches and never calls ``flush``, so in Milvus Lite recent rows stay in growing segments,
which are searched far more slowly than sealed, indexed ones. For each size: create a collection
like ``MilvusMemoryIndex`` does (INT64 id, INT64 user_id, FLOAT_VECTOR 384, COSINE AUTOINDEX),
upsert random unit vectors in batches of 32 (as the indexer does), time user-scoped searches
(top 80, ``user_id == N``), ``flush``, time them again. The collection is dropped afterwards.

Stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from typing import Any

from bench.common import log
from bench.stack import install_sigterm, stack_up
from bench.stats import latency_summary


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,2000,8000")
    parser.add_argument("--searches", type=int, default=20)
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args(argv)
    install_sigterm()
    import numpy as np
    from pymilvus import MilvusClient

    from core.vectorstore import IndexRow, MilvusMemoryIndex

    uri = stack_up()["MEMORY_MILVUS_URI"]
    rng = np.random.default_rng(7)
    points = []
    for size in (int(s) for s in args.sizes.split(",")):
        name = f"bench_segments_{uuid.uuid4().hex[:6]}"
        index = MilvusMemoryIndex(uri, name, 384)
        index.ensure_collection()
        try:
            vecs = rng.standard_normal((size, 384)).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            t0 = time.perf_counter()
            for s in range(0, size, args.batch):
                index.upsert(
                    [
                        IndexRow(i + 1, i % 50 + 1, "fact", vecs[i])
                        for i in range(s, min(size, s + args.batch))
                    ]
                )
            write_sec = time.perf_counter() - t0

            def timed(index: MilvusMemoryIndex = index, vecs: Any = vecs) -> list[float]:
                out = []
                for k in range(args.searches):
                    t = time.perf_counter()
                    index.search(k % 50 + 1, vecs[k], 80)
                    out.append((time.perf_counter() - t) * 1000)
                return out

            growing = timed()
            client = MilvusClient(uri=uri)
            t0 = time.perf_counter()
            client.flush(name)
            flush_sec = time.perf_counter() - t0
            client.close()
            flushed = timed()
            point = {
                "rows": size,
                "upsert_batches": -(-size // args.batch),
                "write_sec": round(write_sec, 2),
                "growing_search_ms": latency_summary(growing),
                "flush_sec": round(flush_sec, 2),
                "flushed_search_ms": latency_summary(flushed),
            }
            log(
                f"{size} rows: growing p50 {point['growing_search_ms']['p50']} ms, flushed p50 "
                f"{point['flushed_search_ms']['p50']} ms"
            )
            points.append(point)
        finally:
            index.drop_collection()
            index.close()
    return {"benchmark": "milvus_segments", "milvus_uri": uri, "batch": args.batch, "points": points}


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False))
