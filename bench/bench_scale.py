"""Retrieval latency at scale: full_inject, dense and the lexical fallback at 10k, 100k and 1M memories
across 10k users, on Milvus Lite and on a real Milvus standalone server, with the RSS of each process.

Not a test. Data is bulk-loaded, not written through the pipeline: PostgreSQL with ``COPY`` into a
scratch database, Milvus with batched inserts into a collection created by ``MilvusMemoryIndex``
(same schema, COSINE, the default FLAT index) and registered as active. Memory texts are the synthetic zh/en
memories of ``bench.common``; the VECTORS ARE SYNTHETIC at every size: ``BASE_TEXTS`` (300) distinct texts are
embedded with the real model and every memory gets one of them plus Gaussian noise (sigma 0.02 per
dimension, renormalised), so the cosine distribution resembles real e5 vectors without embedding
a million texts. Queries are real: the ``Retriever`` embeds each (distinct) query with the model.

Per size and backend: ``Retriever.retrieve`` latency (product path, in process) for dense, and per
size full_inject and the lexical fallback (the same code path that serves when Milvus is off or
slow); also the bare user-scoped Milvus search (top ``LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT``) and the
bare query embedding, so the dense time can be split. ``served_by`` counts are reported: at large
sizes a dense search that misses ``RETRIEVAL_DENSE_TIMEOUT_SEC`` is served by the fallback, as in
production.

The real Milvus (PyPI ``milvus`` 2.3.x, ``milvus.default_server``) runs from its own venv
(``bench/.work/milvus-venv``, created on first use; `bench/milvus_standalone.py`); when it cannot start,
the reason is reported.

Stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import time
import uuid
from typing import Any

from bench.common import log
from bench.machine import rss_mb
from bench.milvus_standalone import NOISE, RealMilvus, load_milvus, tree_rss
from bench.stack import install_sigterm, stack_pids, stack_up
from bench.stats import latency_summary
from bench.synthetic import synthetic_memories, synthetic_queries
from harness.pipeline import create_database, drop_database

BASE_TEXTS = 300


# --- loading ----------------------------------------------------------------------------------------
def base_vectors(n: int = BASE_TEXTS) -> tuple[Any, list[Any]]:
    """``n`` synthetic memories and their real e5 passage vectors (every bulk memory's vector derives from
    one of them, ``bench.milvus_standalone.vectors_for``)."""
    import numpy as np

    from core.embedding.local import LocalE5Embedder

    texts = synthetic_memories(n, 100, seed=5)
    log(f"embedding {n} base texts with the real model (vectors of all memories derive from them)")
    vecs = LocalE5Embedder(batch_size=64).embed_passages([m.embedded_text for m in texts])
    return np.asarray(vecs, dtype=np.float32), texts


def load_postgres(url: str, users: int, start: int, stop: int, texts: list[Any]) -> float:
    """COPY memories ``start..stop-1`` (memory i belongs to user ``i % users``); returns seconds."""
    import psycopg
    from sqlalchemy import make_url

    u = make_url(url)
    conninfo = f"host={u.host} port={u.port} user={u.username} dbname={u.database}"
    t0 = time.perf_counter()
    with psycopg.connect(conninfo, autocommit=False) as conn:
        if start == 0:
            with conn.cursor().copy("COPY users (id, external_id) FROM STDIN") as cp:
                for i in range(users):
                    cp.write_row((i + 1, f"s{i:05d}"))
        buf = io.StringIO()
        cols = (
            "id, user_id, memory_key, memory_type, content, importance, confidence, is_active, "
            "vector_status, vector_model, vector_version, created_at, updated_at"
        )
        with conn.cursor().copy(f"COPY long_term_memories ({cols}) FROM STDIN") as cp:
            for i in range(start, stop):
                m = texts[i % len(texts)]
                cp.write_row(
                    (
                        i + 1,
                        i % users + 1,
                        f"{m.key}-{i}",
                        m.memory_type,
                        m.content,
                        1 + i % 5,
                        0.9,
                        True,
                        "SYNCED",
                        "synthetic",
                        1,
                        "2026-01-01T00:00:00Z",
                        "2026-01-01T00:00:00Z",
                    )
                )
        del buf
        conn.execute("SELECT setval(pg_get_serial_sequence('long_term_memories', 'id'), %s)", (stop,))
        conn.execute("SELECT setval(pg_get_serial_sequence('users', 'id'), %s)", (users,))
        conn.commit()
        conn.execute("ANALYZE long_term_memories")
        conn.commit()
    return time.perf_counter() - t0


# --- measuring -------------------------------------------------------------------------------------
def measure(
    settings: Any, uri: str | None, queries: list[tuple[str, str]], modes: tuple[str, ...]
) -> dict[str, Any]:
    from core.config import RetrieveMode
    from core.embedding.local import LocalE5Embedder
    from core.retrieval import ActiveCollectionSearch, Retriever
    from core.storage import db
    from core.vectorstore import MilvusMemoryIndex

    sessions = db.session_factory(db.engine_for(settings.database_url, 5))
    embedder = LocalE5Embedder()
    out: dict[str, Any] = {}
    for mode in modes:
        index = None
        if mode == "dense":
            s = settings.model_copy(update={"MEMORY_MILVUS_URI": uri, "MEMORY_MILVUS_ENABLED": True})
            index = MilvusMemoryIndex.from_settings(s)
            retriever = Retriever(
                s, sessions, embedder, ActiveCollectionSearch(index, sessions, embedder.model, embedder.dim)
            )
            rmode = RetrieveMode.DENSE
        else:
            s = settings.model_copy(update={"MEMORY_MILVUS_ENABLED": False})
            retriever = Retriever(s, sessions, embedder, None)
            rmode = RetrieveMode.FULL_INJECT if mode == "full_inject" else RetrieveMode.DENSE
        tag = uuid.uuid4().hex[:4]
        for user, q in queries[:10]:  # warm-up
            retriever.retrieve(user, f"{q} {tag}", mode=rmode)
        lat: list[float] = []
        served: dict[str, int] = {}
        n_items: list[int] = []
        reasons: dict[str, int] = {}
        stages: dict[str, list[float]] = {}
        for user, q in queries[10:]:
            t0 = time.perf_counter()
            res = retriever.retrieve(user, f"{q} {tag}", mode=rmode)
            lat.append((time.perf_counter() - t0) * 1000)
            for stage, ms in res.timings.items():  # embed (the model), user_lookup, milvus, truth_read, ...
                stages.setdefault(stage, []).append(ms)
            served[res.served_by.value] = served.get(res.served_by.value, 0) + 1
            n_items.append(len(res.items))
            if res.fallback_reason:
                reason = res.fallback_reason[:120]
                reasons[reason] = reasons.get(reason, 0) + 1
        entry: dict[str, Any] = {
            "retrieve_ms": latency_summary(lat),
            "served_by": served,
            "fallback_reasons": reasons,
            "mean_items": round(sum(n_items) / max(1, len(n_items)), 2),
            "stage_ms": {stage: latency_summary(v) for stage, v in sorted(stages.items())},
        }
        if mode == "dense" and index is not None:
            from core.memory.store import find_user

            with sessions() as session:
                pks = [find_user(session, u) for u, _ in queries[10:]]
            qv = embedder.embed_queries(["warm"])[0]
            search_ms, embed_ms = [], []
            for (_, q), pk in zip(queries[10:], pks, strict=True):
                t0 = time.perf_counter()
                qv = embedder.embed_queries([f"{q} bare {tag}"])[0]
                embed_ms.append((time.perf_counter() - t0) * 1000)
                t0 = time.perf_counter()
                index.search(pk or 1, qv, settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT)
                search_ms.append((time.perf_counter() - t0) * 1000)
            entry["bare_milvus_search_ms"] = latency_summary(search_ms)
            entry["bare_query_embed_ms"] = latency_summary(embed_ms)
        retriever.close()
        out[mode] = entry
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--real-sizes", default=None, help="sizes measured on real Milvus (default: --sizes)")
    parser.add_argument("--users", type=int, default=10000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--no-real-milvus", action="store_true")
    args = parser.parse_args(argv)
    install_sigterm()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    real_sizes = set(int(s) for s in (args.real_sizes or args.sizes).split(","))
    from core.config import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL, load_settings
    from core.storage import db
    from core.vectorstore import MilvusMemoryIndex, register_collection

    conn = stack_up()
    name = f"pai_bench_scale_{uuid.uuid4().hex[:6]}"
    url = create_database(conn["DATABASE_URL"], name)
    collection = f"bench_scale_{uuid.uuid4().hex[:6]}"
    settings = load_settings(
        DATABASE_URL=url,
        MEMORY_MILVUS_URI=conn["MEMORY_MILVUS_URI"],
        MEMORY_MILVUS_COLLECTION=collection,
        MEMORY_MILVUS_ENABLED=True,
        KAFKA_BOOTSTRAP_SERVERS=conn["KAFKA_BOOTSTRAP_SERVERS"],
    )
    result: dict[str, Any] = {
        "benchmark": "scale",
        "params": vars(args),
        "synthetic_vectors": True,
        "vector_note": f"every vector = one of {BASE_TEXTS} real e5 passage vectors + N(0, "
        f"{NOISE}) noise per dimension, renormalised",
        "points": [],
    }
    real = RealMilvus()
    backends: dict[str, str] = {"milvus_lite": conn["MEMORY_MILVUS_URI"]}
    try:
        with db.transaction(db.session_factory(db.engine_for(url))) as session:
            register_collection(session, collection, LOCAL_EMBEDDING_MODEL, LOCAL_EMBEDDING_DIM)
        if not args.no_real_milvus:
            log("starting a real Milvus standalone (PyPI milvus 2.3.x)")
            if real.start():
                backends["milvus_standalone"] = real.uri
                result["real_milvus"] = {"uri": real.uri, "start_sec": real.start_sec}
            else:
                result["real_milvus"] = {"error": real.error}
                log(f"real Milvus: {real.error}")
        else:
            result["real_milvus"] = {"error": "skipped (--no-real-milvus)"}
        for backend, uri in list(backends.items()):
            try:
                MilvusMemoryIndex(uri, collection, LOCAL_EMBEDDING_DIM).ensure_collection()
            except Exception as exc:  # report, keep the other backend
                result.setdefault("backend_errors", {})[backend] = f"{type(exc).__name__}: {exc}"[:500]
                log(f"{backend}: cannot create the collection: {exc}")
                backends.pop(backend)
        base, texts = base_vectors()
        loaded = 0
        rng = random.Random(3)
        for size in sizes:
            point: dict[str, Any] = {
                "memories": size,
                "users": args.users,
                "memories_per_user": round(size / args.users, 2),
            }
            log(f"scale {size}: COPY {size - loaded} rows into PostgreSQL")
            point["postgres_load_sec"] = round(load_postgres(url, args.users, loaded, size, texts), 1)
            for backend, uri in backends.items():
                if backend != "milvus_lite" and size not in real_sizes:
                    continue
                log(f"scale {size}: insert {size - loaded} vectors into {backend}")
                try:
                    sec = load_milvus(uri, collection, args.users, loaded, size, base)
                    point[f"{backend}_load_sec"] = round(sec, 1)
                    point[f"{backend}_load_rows_per_sec"] = round((size - loaded) / sec, 1)
                except Exception as exc:
                    point[f"{backend}_error"] = f"{type(exc).__name__}: {exc}"[:500]
            loaded = size
            users = [f"s{rng.randrange(min(size, args.users)):05d}" for _ in range(args.queries + 10)]
            queries = synthetic_queries(users, args.queries + 10, seed=size)
            log(f"scale {size}: measuring full_inject and lexical fallback")
            point["postgres_only"] = measure(settings, None, queries, ("full_inject", "lexical_fallback"))
            for backend, uri in backends.items():
                if f"{backend}_error" in point or (backend != "milvus_lite" and size not in real_sizes):
                    continue
                log(f"scale {size}: measuring dense on {backend}")
                try:
                    point[backend] = measure(settings, uri, queries, ("dense",))["dense"]
                except Exception as exc:
                    point[f"{backend}_error"] = f"{type(exc).__name__}: {exc}"[:500]
            pids = stack_pids()
            point["rss_mb"] = {
                "bench_process_retriever": rss_mb(__import__("os").getpid()),
                "milvus_lite_server": tree_rss(pids["milvus"]) if "milvus" in pids else None,
                "postgres_all_processes": tree_rss(pids["postgres"]) if "postgres" in pids else None,
                "milvus_standalone_all_processes": real.rss(),
            }
            log(f"scale {size}: {json.dumps({k: v for k, v in point.items() if k != 'rss_mb'})[:600]}")
            result["points"].append(point)
    finally:
        real.stop()
        for attempt in range(3):
            try:
                index = MilvusMemoryIndex(conn["MEMORY_MILVUS_URI"], collection, LOCAL_EMBEDDING_DIM)
                index.drop_collection()
                break
            except Exception as exc:
                log(f"could not drop {collection} (attempt {attempt + 1}): {exc}")
                time.sleep(2)
        drop_database(url)
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
