"""Operator console pages at 100k memories: server-side paging and filtering in SQL.

Not a test. In a scratch database on the configured PostgreSQL (``DATABASE_URL``, default the local
stack) it writes, in SQL: ``--users`` users with ``--per-user`` memories each, and one heavy user with
``--heavy`` memories (a quarter inactive, mixed types and vector statuses), ``--heavy`` messages and
one history row per memory pointing at a message. Then it requests console pages in process
(FastAPI ``TestClient``, the whole request: auth, SQL, template) ``--rounds`` times each, interleaved,
and prints the median and p95 per page as JSON, with the PostgreSQL plan's top node of the heavy
user's first memories page. ``--out`` writes the JSON to a file too.

    .venv/bin/python -m bench.bench_console --out bench/results/console.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from sqlalchemy import text

from bench.bench_indexer import scratch_database
from core.config import load_settings
from core.storage import db

TOKEN = "bench-console-token"

SEED = """
INSERT INTO users (external_id)
SELECT 'bench-user-' || lpad(u::text, 5, '0') FROM generate_series(1, :users) u;
INSERT INTO users (external_id) VALUES ('bench-heavy');
INSERT INTO conversations (user_id, external_id) SELECT id, 'c-' || id FROM users;
INSERT INTO long_term_memories (user_id, memory_key, memory_type, content, importance, confidence, is_active,
                                vector_status, expires_at, created_at, updated_at)
SELECT u.id, 'fact-' || i, (ARRAY['fact','preference','goal','project','constraint'])[1 + i % 5],
       'synthetic memory number ' || i, 1 + i % 5, 0.9, true,
       (ARRAY['SYNCED','SYNCED','SYNCED','DIRTY','FAILED'])[1 + i % 5], now() + interval '180 days', now(),
       now() - (i || ' seconds')::interval
FROM users u CROSS JOIN generate_series(1, :per_user) i WHERE u.external_id <> 'bench-heavy';
INSERT INTO messages (upstream_message_id, user_id, conversation_id, role, content, memory_status, created_at)
SELECT 'heavy-m' || i, u.id, c.id, 'user', 'message number ' || i,
       (ARRAY['PROCESSED','PROCESSED','SKIPPED','FAILED'])[1 + i % 4], now() - (i || ' seconds')::interval
FROM users u JOIN conversations c ON c.user_id = u.id CROSS JOIN generate_series(1, :heavy) i
WHERE u.external_id = 'bench-heavy';
INSERT INTO long_term_memories (user_id, memory_key, memory_type, content, importance, confidence, is_active,
                                vector_status, expires_at, source_message_id, created_at, updated_at)
SELECT u.id, 'heavy-' || i, (ARRAY['fact','preference','goal','project','constraint'])[1 + i % 5],
       'heavy memory number ' || i, 1 + i % 5, 0.9, i % 4 <> 0,
       (ARRAY['SYNCED','SYNCED','SYNCED','DIRTY','FAILED'])[1 + i % 5], now() + interval '180 days',
       (SELECT m.id FROM messages m WHERE m.upstream_message_id = 'heavy-m' || i), now(),
       now() - (i || ' seconds')::interval
FROM users u CROSS JOIN generate_series(1, :heavy) i WHERE u.external_id = 'bench-heavy';
INSERT INTO memory_history (memory_id, user_id, memory_key, operation, source, source_message_id, new_content,
                            memory_type, reason)
SELECT l.id, l.user_id, l.memory_key, 'create', 'extractor', l.source_message_id, l.content, l.memory_type,
       'bench'
FROM long_term_memories l JOIN users u ON u.id = l.user_id WHERE u.external_id = 'bench-heavy';
"""


def seed(url: str, users: int, per_user: int, heavy: int) -> dict[str, int]:
    engine = db.make_engine(url)
    with engine.begin() as conn:
        for statement in SEED.split(";\n"):
            if statement.strip():
                conn.execute(text(statement), {"users": users, "per_user": per_user, "heavy": heavy})
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("VACUUM ANALYZE")
        counts = {t: int(conn.exec_driver_sql(f"SELECT count(*) FROM {t}").scalar_one())
                  for t in ("users", "long_term_memories", "messages", "memory_history")}
        counts["heavy_memory_id"] = int(conn.exec_driver_sql(
            "SELECT min(l.id) FROM long_term_memories l JOIN users u ON u.id = l.user_id "
            "WHERE u.external_id = 'bench-heavy'").scalar_one())
    engine.dispose()
    return counts


def plans(url: str) -> dict[str, str]:
    """The plan nodes of the heavy user's first memories page, live (default view) and all rows."""
    engine = db.make_engine(url)
    out = {}
    with engine.connect() as conn:
        pk = conn.exec_driver_sql("SELECT id FROM users WHERE external_id = 'bench-heavy'").scalar_one()
        for name, where in (("active", "AND is_active IS true"), ("all", "")):
            rows = conn.exec_driver_sql(
                "EXPLAIN (ANALYZE, BUFFERS OFF, TIMING OFF, SUMMARY ON) SELECT * FROM long_term_memories "
                f"WHERE user_id = {int(pk)} {where} "
                "ORDER BY importance DESC, updated_at DESC, id LIMIT 50 OFFSET 0").scalars().all()
            out[name] = " | ".join(str(r).strip() for r in rows if "->" in str(r) or "Time" in str(r))
    engine.dispose()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--users", type=int, default=100)
    ap.add_argument("--per-user", type=int, default=1000)
    ap.add_argument("--heavy", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    from fastapi.testclient import TestClient

    from api.app import create_app

    base = load_settings()
    with scratch_database(base) as url:
        t0 = time.perf_counter()
        counts = seed(url, args.users, args.per_user, args.heavy)
        seed_s = time.perf_counter() - t0
        cfg = load_settings(DATABASE_URL=url, API_TOKEN=SecretStr(TOKEN), MEMORY_MILVUS_ENABLED=False,
                            API_RATE_LIMIT_PER_TOKEN=0, API_RATE_LIMIT_PER_USER=0)
        last_page = -(-(args.heavy - args.heavy // 4) // 50)  # of the live memories (the default view)
        pages = {
            "users_page_1": "/console/users",
            "users_filtered": "/console/users?q=bench-user-0009",
            "heavy_memories_page_1": "/console/users/bench-heavy/memories",
            "heavy_memories_all_page_1": "/console/users/bench-heavy/memories?active=all",
            "heavy_memories_page_100": "/console/users/bench-heavy/memories?page=100",
            "heavy_memories_last_page": f"/console/users/bench-heavy/memories?page={last_page}",
            "heavy_memories_filtered": "/console/users/bench-heavy/memories?memory_type=goal&active=active"
                                       "&vector_status=SYNCED",
            "heavy_memories_key_prefix": "/console/users/bench-heavy/memories?key=heavy-4242",
            "heavy_messages_page_1": "/console/users/bench-heavy/messages",
            "heavy_messages_failed": "/console/users/bench-heavy/messages?status=FAILED",
            "memory_history": f"/console/memories/{counts['heavy_memory_id']}",
            "user_memories_page_1": f"/console/users/bench-user-{min(42, args.users):05d}/memories",
        }
        timings: dict[str, list[float]] = {k: [] for k in pages}
        headers = {"authorization": f"Bearer {TOKEN}"}
        with TestClient(create_app(cfg), base_url="http://127.0.0.1") as client:
            for path in pages.values():  # warm-up, and every page must answer 200
                resp = client.get(path, headers=headers)
                if resp.status_code != 200:
                    sys.exit(f"{path}: HTTP {resp.status_code}")
            for _ in range(args.rounds):
                for name, path in pages.items():
                    t = time.perf_counter()
                    resp = client.get(path, headers=headers)
                    timings[name].append((time.perf_counter() - t) * 1000)
                    assert resp.status_code == 200
        plan = plans(url)
    out: dict[str, Any] = {
        "memories": counts["long_term_memories"], "users": counts["users"], "messages": counts["messages"],
        "history_rows": counts["memory_history"], "heavy_user_memories": args.heavy, "page_size": 50,
        "rounds": args.rounds, "seed_s": round(seed_s, 1), "plans_heavy_memories_page_1": plan,
        "pages": {k: {"p50_ms": round(statistics.median(v), 1),
                      "p95_ms": round(sorted(v)[max(0, int(len(v) * 0.95) - 1)], 1)}
                  for k, v in timings.items()},
        "command": "python -m bench.bench_console " + " ".join(sys.argv[1:]),
    }
    text_out = json.dumps(out, indent=2)
    print(text_out)
    if args.out:
        args.out.write_text(text_out + "\n")


if __name__ == "__main__":
    main()
