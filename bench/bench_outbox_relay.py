"""The outbox relay's cost per row with an empty outbox and with a backlog (a benchmark, not a test).

``producers.outbox_relay.OutboxRelay`` in this process, on a private database (created on the server of
``DATABASE_URL``, migrated, dropped at the end) and a private topic on ``KAFKA_BOOTSTRAP_SERVERS``
(deleted at the end). ``memory.dirty`` rows like the writer's are inserted straight into ``outbox``. CPU =
this process (the relay and its librdkafka threads) and the PostgreSQL backends of the private database
(``/proc/PID/stat`` of each, so it must run on the database's machine), per row published. Phases:

1. steady, backlog 0: ``--rounds`` times, ``--round-rows`` new rows of 50 users, then ``drain()``
   (rows published as they come, as in the relay process);
2. a backlog of ``--backlog`` rows (``--backlog-users`` users) inserted at once, then one ``drain()``;
   the time of each claim/publish/mark batch is kept (first vs last tenth of the drain) and the claim's
   plan is explained before the drain;
3. steady again, with the ``--backlog`` published rows still in the table (retention keeps them
   ``OUTBOX_RETENTION_HOURS``; no VACUUM in between), as phase 1.

    .venv/bin/python -m bench.bench_outbox_relay --out bench/results/outbox_relay.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy import text
from sqlalchemy.engine import make_url

from core.config import load_settings
from core.memory.outbox import memory_dirty_params
from core.storage import db
from core.types import MemoryOperation
from localstack.postgres import libpq_url
from localstack.topics import admin_client, ensure_topics
from producers import outbox_relay
from producers.outbox_relay import OutboxRelay

REPO = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")

_INSERT = text("""
INSERT INTO outbox (topic, message_key, event_type, aggregate_id, payload, created_at)
SELECT :topic, :prefix || (g % :users), :event_type, g, CAST(:payload AS jsonb), clock_timestamp()
FROM generate_series(1, :n) AS g
""")


def backend_pids(conn: psycopg.Connection[Any], database: str) -> list[int]:
    rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (database,)).fetchall()
    return [int(r[0]) for r in rows]


def proc_cpu(pid: int) -> float:
    """utime + stime of ``pid`` in seconds (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


class Meter:
    """CPU of this process and of the private database's backends (by pid, so ended backends keep the
    CPU they were last seen with)."""

    def __init__(self, admin: psycopg.Connection[Any], database: str) -> None:
        self.admin = admin
        self.database = database
        self.seen: dict[int, float] = {}

    def sample(self) -> tuple[float, float, float]:
        """(wall, this process's CPU, the backends' CPU)."""
        for pid in backend_pids(self.admin, self.database):
            self.seen[pid] = proc_cpu(pid)
        return time.monotonic(), time.process_time(), sum(self.seen.values())


def per_row(before: tuple[float, float, float], after: tuple[float, float, float], rows: int
            ) -> dict[str, float]:
    return {"rows": rows, "wall_sec": round(after[0] - before[0], 2),
            "relay_cpu_ms_per_row": round((after[1] - before[1]) * 1000 / max(1, rows), 4),
            "postgres_cpu_ms_per_row": round((after[2] - before[2]) * 1000 / max(1, rows), 4)}


def steady(relay: OutboxRelay, meter: Meter, insert: Any, rounds: int, rows: int) -> dict[str, float]:
    """``rounds`` x (``rows`` new rows, drain); CPU per row over all rounds."""
    before = meter.sample()
    published = 0
    for _ in range(rounds):
        insert(rows, 50)
        published += relay.drain()
    out = per_row(before, meter.sample(), published)
    out["rounds"] = rounds
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    base = load_settings()
    tag = uuid.uuid4().hex[:8]
    name = f"pai_memory_relay_{tag}"
    topic = f"relay-bench-{tag}"
    server = make_url(base.database_url)
    admin_url = libpq_url(server.set(database="postgres").render_as_string(hide_password=False))
    admin = psycopg.connect(admin_url, autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    url = server.set(database=name).render_as_string(hide_password=False)
    out: dict[str, Any] = {"started_at": datetime.now(UTC).isoformat(), "args": vars(args) | {
        "out": str(args.out)}, "load_avg_start": os.getloadavg()}
    try:
        db.upgrade(url)
        settings = load_settings(DATABASE_URL=url, TOPIC_MEMORY_DIRTY=topic)
        ensure_topics(settings, {topic: 3})
        template = memory_dirty_params(topic=topic, user_external_id="u", user_pk=1, memory_id=1,
                                       memory_key="fact-home_city", operation=MemoryOperation.OVERWRITE)
        engine = db.make_engine(url, pool_size=2)

        def insert(n: int, users: int) -> None:
            with engine.begin() as conn:
                conn.execute(_INSERT, {"topic": topic, "prefix": f"{tag}-u", "users": users, "n": n,
                                       "event_type": template["event_type"], "payload": template["payload"]})

        relay = OutboxRelay(settings)
        relay.open()
        meter = Meter(admin, name)
        insert(100, 50)  # warm: the producer connected, the statements prepared
        relay.drain()
        out["batch_size"] = relay.batch_size
        out["steady_empty"] = steady(relay, meter, insert, args.rounds, args.round_rows)
        print(json.dumps({"steady_empty": out["steady_empty"]}), flush=True)

        insert(args.backlog, args.backlog_users)
        with engine.connect() as conn:
            params = {"skip": [], "window": relay.claim_window, "ns": outbox_relay.USER_LOCK_NAMESPACE,
                      "batch": relay.batch_size}
            plan = conn.execute(text("EXPLAIN (ANALYZE, BUFFERS) " + str(outbox_relay.CLAIM_SQL.text)),
                                params).scalars().all()
            conn.rollback()
        out["claim_plan_with_backlog"] = list(plan)
        batches: list[float] = []
        before = meter.sample()
        published = 0
        while True:
            t0 = time.perf_counter()
            result = relay.publish_batch()
            batches.append(time.perf_counter() - t0)
            published += len(result.published)
            if result.claimed < relay.batch_size:
                break
        drain = per_row(before, meter.sample(), published)
        tenth = max(1, len(batches) // 10)
        drain["batches"] = len(batches)
        drain["first_tenth_batch_ms"] = round(1000 * sum(batches[:tenth]) / tenth, 1)
        drain["last_tenth_batch_ms"] = round(1000 * sum(batches[-tenth - 1:-1] or batches[-1:]) / tenth, 1)
        out["drain_backlog"] = drain
        print(json.dumps({"drain_backlog": drain}), flush=True)

        out["steady_after_backlog"] = steady(relay, meter, insert, args.rounds, args.round_rows)
        print(json.dumps({"steady_after_backlog": out["steady_after_backlog"]}), flush=True)
        relay.close()
        engine.dispose()
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
        admin_client(base).delete_topics([topic], operation_timeout=30)
    out["machine"] = {"cpus": os.cpu_count(), "load_avg": os.getloadavg()}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--round-rows", type=int, default=100)
    parser.add_argument("--backlog", type=int, default=50_000)
    parser.add_argument("--backlog-users", type=int, default=1_000)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "outbox_relay.json")
    args = parser.parse_args()
    out = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1, default=str))
    print(f"written {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
