"""``list_live`` with the filters, order and limit in SQL vs the former load-all-then-filter reader.

Not a test. In a scratch database on the configured PostgreSQL (``DATABASE_URL``, default the local
stack), one user gets ``--memories`` live memories (plus ``--others`` users' rows beside them); both
readers run ``--rounds`` times for a top-``--limit`` read (``full_inject``'s shape) and a full read
(an extraction's existing memories), interleaved; the medians are printed as JSON. Both readers
must return the same rows, or the script stops.

    .venv/bin/python -m bench.bench_list_live --memories 1000 --limit 6 --rounds 200
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert, or_, select
from sqlalchemy.orm import Session

from bench.bench_indexer import scratch_database, synthetic_memories
from core.config import load_settings
from core.filters import passes_read_filters
from core.memory.reader import list_live
from core.memory.store import get_or_create_user
from core.storage import db
from core.storage.models import LongTermMemory


def former_list_live(
    session: Session, user_pk: int, memory_type: str | None = None, limit: int | None = None
) -> list[LongTermMemory]:
    """The reader before: every live row of the user, filtered in Python, then limited."""
    now = datetime.now(UTC)
    stmt = (select(LongTermMemory)
            .where(LongTermMemory.user_id == user_pk, LongTermMemory.is_active.is_(True),
                   or_(LongTermMemory.expires_at.is_(None), LongTermMemory.expires_at > now))
            .order_by(LongTermMemory.importance.desc(), LongTermMemory.updated_at.desc(), LongTermMemory.id))
    if memory_type:
        stmt = stmt.where(LongTermMemory.memory_type == memory_type)
    rows = [r for r in session.scalars(stmt).all() if passes_read_filters(r.memory_key, r.content or "")]
    return rows[:limit] if limit is not None else rows


def seed(url: str, memories: int, others: int) -> int:
    engine = db.make_engine(url)
    now = datetime.now(UTC)
    items = synthetic_memories(memories)
    with Session(engine) as s, s.begin():
        user_pk = get_or_create_user(s, "bench-list-user")
        rows: list[dict[str, Any]] = []
        for i, (mtype, key, content) in enumerate(items):
            rows.append({"user_id": user_pk, "memory_key": key, "memory_type": mtype.value,
                         "content": content, "importance": 1 + i % 5, "is_active": True, "created_at": now,
                         "updated_at": now - timedelta(seconds=i), "expires_at": now + timedelta(days=30)})
        for u in range(others):
            other = get_or_create_user(s, f"bench-list-other-{u}")
            rows.extend({**r, "user_id": other} for r in rows[: memories // 4])
        s.execute(insert(LongTermMemory), rows)
    with engine.connect() as conn:
        conn.exec_driver_sql("ANALYZE long_term_memories")
    engine.dispose()
    return user_pk


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--memories", type=int, default=1000)
    ap.add_argument("--others", type=int, default=20)
    ap.add_argument("--limit", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=200)
    args = ap.parse_args()
    settings = load_settings()
    with scratch_database(settings) as url:
        user_pk = seed(url, args.memories, args.others)
        engine = db.make_engine(url)
        readers = {"sql": list_live, "former": former_list_live}
        timings: dict[str, list[float]] = {}
        with Session(engine) as s:
            for _ in range(args.rounds):
                for shape, limit in (("top", args.limit), ("all", None)):
                    ids = {}
                    for name, reader in readers.items():
                        t0 = time.perf_counter()
                        rows = reader(s, user_pk, None, limit)
                        timings.setdefault(f"{name}_{shape}", []).append((time.perf_counter() - t0) * 1000)
                        ids[name] = [r.id for r in rows]
                        s.expunge_all()
                    if ids["sql"] != ids["former"]:
                        sys.exit(f"{shape}: the readers disagree")
        engine.dispose()
    out = {"memories": args.memories, "other_users": args.others, "limit": args.limit, "rounds": args.rounds,
           **{f"{k}_p50_ms": round(statistics.median(v), 3) for k, v in timings.items()}}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
