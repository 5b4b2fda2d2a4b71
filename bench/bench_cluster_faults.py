"""Kafka cluster faults under steady load (a benchmark; the CI test runs only the first scenario).

A private three-node KRaft cluster (``stack up --brokers 3`` through ``localstack`` on free ports:
replication 3, ``min.insync.replicas=2``) carries the pipeline's topics; PostgreSQL and Milvus are the
ones given by ``DATABASE_URL`` / ``MEMORY_MILVUS_URI`` (a private database and collection is created and
dropped). The five service processes run on it (rules provider) while ``Traffic`` publishes at
``--rate`` messages/s. Scenarios, in order (``harness.cluster_faults``):

0. quiet: no fault, to measure the quiet freshness (event ``created_at`` -> message PROCESSED) p99;
1. kill -9 the node leading most chat partitions, start it again after 1-3 s;
2. a node stopped for ``--down-sec`` (60) s;
3. kill -9 the active controller (the KRaft quorum leader), start it again;
4. a rolling restart of the three nodes (each back in sync before the next).

Per scenario: messages published and lost / doubled / out of order (``Pipeline.scenario``'s checks:
every message PROCESSED, one live memory per slot with the last value, history one change per statement
in publish order, truth and index agree, nothing dead-lettered), the time from fault end until settled,
the time from fault start until freshness is back under the quiet p99 (the processing time of the last
message over it), and the consumers' / relay's error and retry counters (scraped from each process's
``/metrics`` before and after) and the producer's undelivered messages.

    .venv/bin/python -m bench.bench_cluster_faults --out bench/results/cluster_faults.json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg
from sqlalchemy import select
from sqlalchemy.engine import make_url

from core.config import load_settings
from core.storage import db
from core.storage.models import Message
from core.vectorstore import MilvusMemoryIndex
from harness import cluster_faults
from harness.pipeline import Pipeline
from harness.private_stack import PrivateStack
from harness.scenario import ScenarioContext, ScenarioResult
from localstack.postgres import libpq_url

REPO = Path(__file__).resolve().parents[1]

COUNTERS = ("pai_memory_consumer_errors_total", "pai_memory_consumer_retries_total",
            "pai_memory_offset_commit_failures_total", "pai_memory_outbox_publish_failures_total",
            "pai_memory_rebalances_total", "pai_memory_dlq_events_total")


def quiet(seconds: float) -> Callable[[ScenarioContext], None]:
    """The no-fault scenario: ``seconds`` of traffic between begin and end."""

    def fault(ctx: ScenarioContext) -> None:
        ctx.begin()
        time.sleep(seconds)
        ctx.end()

    return fault


def scrape(pipe: Pipeline) -> dict[str, float]:
    """Sum of each counter in ``COUNTERS`` over every service process's /metrics."""
    totals = dict.fromkeys(COUNTERS, 0.0)
    for child in pipe.supervisor.children.values():
        with contextlib.suppress(httpx.HTTPError):
            text = httpx.get(f"http://127.0.0.1:{child.metrics_port}/metrics", timeout=5).text
            for line in text.splitlines():
                for name in COUNTERS:
                    if line.startswith(name + "{") or line.startswith(name + " "):
                        totals[name] += float(line.rsplit(" ", 1)[1])
    return totals


def freshness(pipe: Pipeline, ids: list[str]) -> list[tuple[datetime, float]]:
    """(processed_at, seconds from the event's created_at to PROCESSED) of the messages ``ids``."""
    with pipe.sessions() as s:
        rows = s.execute(select(Message.created_at, Message.processed_at)
                         .where(Message.upstream_message_id.in_(ids))).all()
    return sorted((p, (p - c).total_seconds()) for c, p in rows if p is not None)


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))] if ordered else 0.0


def run(args: argparse.Namespace) -> dict[str, Any]:
    base = load_settings()
    tag = uuid.uuid4().hex[:8]
    server = make_url(base.database_url)
    name = f"pai_memory_cluster_{tag}"
    admin_url = libpq_url(server.set(database="postgres").render_as_string(hide_password=False))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = server.set(database=name).render_as_string(hide_password=False)
    db.upgrade(url)
    stack = PrivateStack.create(REPO / "var" / "cluster-faults" / f"stack-{tag}", brokers=3,
                                database_url=url, milvus_uri=base.milvus_uri)
    out: dict[str, Any] = {"started_at": datetime.now(UTC).isoformat(), "rate": args.rate,
                           "users": args.users, "scenarios": []}
    pipe: Pipeline | None = None
    try:
        out["cluster_up_sec"] = round(stack.up(["kafka"]), 1)
        pipe = Pipeline.on_private_stack(stack, f"clf-{tag}", users=args.users, rate=args.rate,
                                         seed=args.seed, max_per_scenario=None)
        pipe.start_all()
        pipe.warm_up()
        quiet_p99: float | None = None
        scenarios: list[tuple[str, Any]] = [
            ("quiet (no fault)", quiet(args.quiet_sec)),
            ("kill -9 chat partitions' leader", cluster_faults.kill_chat_leader()),
            (f"node down {args.down_sec:.0f} s", cluster_faults.node_down(args.down_sec)),
            ("kill -9 active controller", cluster_faults.kill_active_controller()),
            ("rolling restart of 3 nodes", cluster_faults.rolling_restart()),
        ]
        for i, (title, fault) in enumerate(scenarios):
            if args.only and i not in args.only:
                continue
            first = len(pipe.traffic.sent)
            before = scrape(pipe)
            marks: dict[str, float] = {}

            def timed(ctx: ScenarioContext, fault: Any = fault, marks: dict[str, float] = marks) -> None:
                fault(ctx)
                marks["start"] = time.time() - (time.monotonic() - (ctx.fault_start or time.monotonic()))

            result: ScenarioResult = pipe.scenario(title, timed, seed=args.seed + i, lead=(5.0, 5.0),
                                                   tail=args.tail_sec, settle_timeout=300)
            after = scrape(pipe)
            ids = [s.message_id for s in pipe.traffic.sent[first:] if s.delivered]
            fresh = freshness(pipe, ids)
            lat = [f for _, f in fresh]
            row: dict[str, Any] = {
                "scenario": title, "ok": result.ok, "problems": result.problems[:5],
                "messages": result.messages, "undelivered": result.undelivered,
                "fault_duration_sec": result.fault_duration_sec,
                "settled_after_fault_end_sec": result.recovery_sec,
                "freshness_p50_sec": round(sorted(lat)[len(lat) // 2], 3) if lat else None,
                "freshness_p99_sec": round(p99(lat), 3),
                "freshness_max_sec": round(max(lat), 3) if lat else None,
                "counters": {k.removeprefix("pai_memory_").removesuffix("_total"): after[k] - before[k]
                             for k in COUNTERS},
                "details": result.details,
            }
            if i == 0:
                quiet_p99 = p99(lat)
                out["quiet_freshness_p99_sec"] = round(quiet_p99, 3)
            elif quiet_p99 is not None and fresh:
                stale = [p for p, f in fresh if f > quiet_p99]
                start = datetime.fromtimestamp(marks["start"], UTC)
                row["stale_messages"] = len(stale)
                row["fresh_again_after_fault_start_sec"] = (
                    round((max(stale) - start).total_seconds(), 2) if stale else 0.0)
            out["scenarios"].append(row)
            print(json.dumps(row, default=str), flush=True)
    finally:
        if pipe is not None:
            pipe.close()
            with contextlib.suppress(Exception):
                index = MilvusMemoryIndex.from_settings(pipe.settings, dim=8)
                try:
                    if index.has_collection(pipe.settings.MEMORY_MILVUS_COLLECTION):
                        index.drop_collection(pipe.settings.MEMORY_MILVUS_COLLECTION)
                finally:
                    index.close()
        stack.down(["kafka"], timeout=20)
        stack.remove()
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    out["machine"] = {"cpus": os.cpu_count(), "platform": platform.platform(), "load_avg": os.getloadavg()}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=float, default=5.0, help="chat messages per second")
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--down-sec", type=float, default=60.0)
    parser.add_argument("--quiet-sec", type=float, default=20.0)
    parser.add_argument("--tail-sec", type=float, default=10.0, help="traffic after each fault ends")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--only", type=int, nargs="*", help="scenario numbers (0 = quiet is needed for the "
                                                             "freshness comparison)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "cluster_faults.json")
    args = parser.parse_args()
    out = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1, default=str))
    print(f"written {args.out}")
    return 0 if all(s["ok"] for s in out["scenarios"]) else 1


if __name__ == "__main__":
    sys.exit(main())
