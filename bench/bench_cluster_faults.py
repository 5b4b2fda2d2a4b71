"""Kafka cluster faults under steady load (a benchmark; the CI test runs only the first scenario).

A private three-node KRaft cluster (``stack up --brokers 3`` through ``localstack`` on free ports:
replication 3, ``min.insync.replicas=2``) carries the pipeline's topics; PostgreSQL and Milvus are the
ones given by ``DATABASE_URL`` / ``MEMORY_MILVUS_URI`` (a private database and collection is created and
dropped). The five service processes run on it while ``Traffic`` publishes at ``--rate`` messages/s,
with the extractor on one of two providers (``--provider``):

- ``rules`` (default): the offline rules provider, no model calls;
- ``llm``: the OpenAI-compatible provider on the TEST DOUBLE (``localstack.openai_double`` as its own
  process, ``--chat rules-candidates``: it answers what the rules extractor finds, so the expected
  outcomes are the same) answering after ``--llm-latency`` (1.0) s, with ``--in-flight`` (32) bursts and
  model calls in flight, so each fault hits while model calls wait (the double's requests in flight are
  sampled every 0.2 s: at the fault's start, median and peak per scenario).

Scenarios, in order (``harness.cluster_faults``):

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
``/metrics`` before and after; on the LLM arm also the model requests by outcome and the model retries)
and the producer's undelivered messages.

    .venv/bin/python -m bench.bench_cluster_faults --out bench/results/cluster_faults.json
    .venv/bin/python -m bench.bench_cluster_faults --provider llm --rate 12 --users 150 \
        --out bench/results/cluster_faults_llm.json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import sys
import threading
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

from bench.bench_extractor_concurrency import Double
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
            "pai_memory_rebalances_total", "pai_memory_dlq_events_total", "pai_memory_redrives_total",
            "pai_memory_model_retries_total")
# counted per value of their ``outcome`` label (the LLM arm: ok, rate_limited, timeout, error, ...)
BY_OUTCOME = ("pai_memory_llm_requests_total",)


class InFlightSampler:
    """Polls the double's ``/_double/stats`` every ``interval`` s: (monotonic time, requests in flight)."""

    def __init__(self, double: Double, interval: float = 0.2) -> None:
        self.double = double
        self.interval = interval
        self.samples: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="in-flight-sampler", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            with contextlib.suppress(httpx.HTTPError, ValueError, KeyError):
                self.samples.append((time.monotonic(), int(self.double.stats()["in_flight"])))

    def summary(self, since: float, fault_start: float | None) -> dict[str, Any]:
        """In flight at the fault's start (the nearest sample), median and peak since ``since``."""
        window = [(t, n) for t, n in self.samples if t >= since]
        if not window:
            return {}
        out: dict[str, Any] = {"median": statistics.median(n for _, n in window),
                               "peak": max(n for _, n in window)}
        if fault_start is not None:
            out["at_fault_start"] = min(window, key=lambda tn: abs(tn[0] - fault_start))[1]
        return out

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)


def quiet(seconds: float) -> Callable[[ScenarioContext], None]:
    """The no-fault scenario: ``seconds`` of traffic between begin and end."""

    def fault(ctx: ScenarioContext) -> None:
        ctx.begin()
        time.sleep(seconds)
        ctx.end()

    return fault


def scrape(pipe: Pipeline) -> dict[str, float]:
    """Sum of each counter in ``COUNTERS`` over every service process's /metrics; the counters of
    ``BY_OUTCOME`` summed per outcome (``NAME:OUTCOME``)."""
    totals = dict.fromkeys(COUNTERS, 0.0)
    for child in pipe.supervisor.children.values():
        with contextlib.suppress(httpx.HTTPError):
            text = httpx.get(f"http://127.0.0.1:{child.metrics_port}/metrics", timeout=5).text
            for line in text.splitlines():
                for name in COUNTERS:
                    if line.startswith(name + "{") or line.startswith(name + " "):
                        totals[name] += float(line.rsplit(" ", 1)[1])
                for name in BY_OUTCOME:
                    if line.startswith(name + "{") and 'outcome="' in line:
                        outcome = line.split('outcome="', 1)[1].split('"', 1)[0]
                        key = f"{name}:{outcome}"
                        totals[key] = totals.get(key, 0.0) + float(line.rsplit(" ", 1)[1])
    return totals


def counter_deltas(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """after - before per counter, names without the ``pai_memory_`` prefix and ``_total`` suffix."""
    return {k.removeprefix("pai_memory_").replace("_total", ""): after[k] - before.get(k, 0.0)
            for k in after}


def llm_env(double: Double, in_flight: int) -> dict[str, str]:
    """The extractor on the OpenAI-compatible provider at the double, ``in_flight`` bursts and calls."""
    return {"MEMORY_EXTRACTOR_PROVIDER": "openai", "LLM_BASE_URL": double.base_url,
            "LLM_MODEL": "openai-test-double", "LLM_API_KEY": "test-double",
            "CONSUMER_EXTRACTOR_MAX_IN_FLIGHT": str(in_flight), "LLM_MAX_CONCURRENCY": str(in_flight)}


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
                           "users": args.users, "provider": args.provider, "scenarios": []}
    pipe: Pipeline | None = None
    double: Double | None = None
    sampler: InFlightSampler | None = None
    try:
        out["cluster_up_sec"] = round(stack.up(["kafka"]), 1)
        env: dict[str, str] = {}
        if args.provider == "llm":
            double = Double(args.llm_latency, args.llm_latency, 0.0, None, args.seed, chat="rules-candidates")
            env = llm_env(double, args.in_flight)
            out["llm"] = {"latency_sec": args.llm_latency, "in_flight": args.in_flight,
                          "double": "localstack.openai_double --chat rules-candidates (TEST DOUBLE)"}
        pipe = Pipeline.on_private_stack(stack, f"clf-{tag}", users=args.users, rate=args.rate,
                                         seed=args.seed, max_per_scenario=None, env=env)
        pipe.start_all()
        pipe.warm_up()
        if double is not None:
            sampler = InFlightSampler(double)
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
            double_before = double.stats() if double is not None else {}
            t_scenario = time.monotonic()
            marks: dict[str, float] = {}

            def timed(ctx: ScenarioContext, fault: Any = fault, marks: dict[str, float] = marks) -> None:
                fault(ctx)
                marks["start"] = time.time() - (time.monotonic() - (ctx.fault_start or time.monotonic()))
                marks["start_monotonic"] = ctx.fault_start or time.monotonic()

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
                "counters": counter_deltas(before, after),
                "details": result.details,
            }
            if double is not None and sampler is not None:
                served = double.stats()["served"]
                row["model"] = {
                    "chat_requests": served.get("chat", 0) - double_before.get("served", {}).get("chat", 0),
                    "in_flight": sampler.summary(t_scenario, marks.get("start_monotonic"))}
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
        if sampler is not None:
            sampler.stop()
        if pipe is not None:
            pipe.close()
            with contextlib.suppress(Exception):
                index = MilvusMemoryIndex.from_settings(pipe.settings, dim=8)
                try:
                    if index.has_collection(pipe.settings.MEMORY_MILVUS_COLLECTION):
                        index.drop_collection(pipe.settings.MEMORY_MILVUS_COLLECTION)
                finally:
                    index.close()
        if double is not None:
            double.stop()
        stack.down(["kafka"], timeout=20)
        stack.remove()
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    out["machine"] = {"cpus": os.cpu_count(), "platform": platform.platform(), "load_avg": os.getloadavg()}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--provider", choices=["rules", "llm"], default="rules",
                        help="the extractor provider: rules, or the OpenAI-compatible one on the double")
    parser.add_argument("--llm-latency", type=float, default=1.0, help="the double's fixed latency (s)")
    parser.add_argument("--in-flight", type=int, default=32,
                        help="LLM arm: bursts in flight and model calls in flight (both caps)")
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
