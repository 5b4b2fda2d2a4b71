"""Extractor concurrency with a slow model: messages/s finalised and CPU per message vs
``CONSUMER_EXTRACTOR_MAX_IN_FLIGHT`` and processes, with and without ``429``s; then freshness at a steady rate
through the whole pipeline.

Not a test. The model is the OpenAI-compatible TEST DOUBLE (``localstack.openai_double``) run as its own
process, latency lognormal (default p50 1.0 s, p99 3.0 s, mean ~1.12 s), answering one candidate per
user message (``--chat echo-candidates``); ``--rate-limit-shares 0,0.1`` runs every cell without and
with 10 % of the requests answered ``429`` + ``Retry-After: --retry-after``. The service processes are
the real ``pai-memory run extractor|relay|indexer`` on private topics, groups, database and collection
(``bench.stack.bench_pipeline``), ``MEMORY_EXTRACTOR_PROVIDER=openai``, debounce 0.

1. Throughput, per (429 share, processes, in flight): the extractor process(es) start with
   ``CONSUMER_EXTRACTOR_MAX_IN_FLIGHT`` = in flight (and ``LLM_MAX_CONCURRENCY`` = max(32, in flight), so the
   provider's cap does not hide the setting); once the group has assigned every partition (each
   process holds some), N user messages of N distinct users are published at once (one model call
   each: no user has memories yet, so no refine call). Throughput = messages finalised after the first
   one / (last - first final ``processed_at``). N = in flight x processes x ``--per-slot``, clamped to
   [``--min-messages``, ``--max-messages``]. The group joins before publishing because the local
   stack's ``group.initial.rebalance.delay.ms`` is 0: a second process joining while the first already
   works would put a rebalance (revoke waits for bursts in flight) inside the measured window.
   CPU: seconds used by each extractor process (and the double) in the window, per message, as a share
   of one core over the window, and the whole machine's busy share (``/proc/stat``): with the extractor
   near one core (one Python process) or the machine near all cores, the CPU is the limit.
   Also the peak of PostgreSQL connections to the run's database (``pg_stat_activity``, sampled twice a
   second; it includes up to two of the benchmark's own). Each process's pool holds at most
   2 x ``DATABASE_POOL_SIZE`` (``--db-pool-size``; pool plus overflow).
2. Freshness: extractor (``--fresh-in-flight``), relay and indexer running; user messages of distinct
   users published at ``--fresh-rate``/s for ``--fresh-duration`` s (``bench.bench_pipeline.freshness``):
   publish to searchable (``vector_synced_at``) p50/p99, against the goal model p99 + 2 s.

Goals (issue 12): one process at 32 in flight >= 0.8 x 32 / p50 messages/s "as long as the CPU
allows"; freshness p99 <= model p99 + 2 s.

    .venv/bin/python -m bench.bench_extractor_concurrency            # defaults: ~10-12 min on 2 cores

Stdout: one JSON object (``bench/run_all.py --only extractor_concurrency`` stores it in
``bench/results/extractor_concurrency.json``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from bench.bench_pipeline import freshness, user_turn
from bench.common import WORK, log
from bench.machine import busy_share, cpu_since, cpu_snapshot, machine_busy, machine_info
from bench.stack import bench_pipeline, install_sigterm
from harness.pipeline import Pipeline

LOGNORMAL_Z99 = 2.3263478740408408


# --- the model: the test double as its own process ---------------------------------------------------
class Double:
    """``python -m localstack.openai_double`` started and stopped by pid (see its docstring)."""

    def __init__(self, p50: float, p99: float, rate_limit_share: float, retry_after: float | None,
                 seed: int, chat: str = "echo-candidates") -> None:
        cmd = [sys.executable, "-m", "localstack.openai_double", "--latency-p50", str(p50),
               "--latency-p99", str(p99), "--rate-limit-rate", str(rate_limit_share),
               "--chat", chat, "--seed", str(seed)]
        if retry_after is not None and rate_limit_share > 0:
            cmd += ["--retry-after", str(retry_after)]
        logf = WORK / "logs" / "openai_double.log"
        logf.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(logf, "ab")  # noqa: SIM115 - closed in stop()
        repo = str(Path(__file__).resolve().parents[1])
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self._log, stdin=subprocess.DEVNULL,
                                     cwd=repo, text=True, env={**os.environ, "PYTHONPATH": repo},
                                     start_new_session=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.stop()
            raise RuntimeError(f"the OpenAI test double did not start; see {logf}")
        self.base_url: str = json.loads(line)["base_url"]
        self.pid = self.proc.pid

    def stats(self) -> dict[str, Any]:
        reply = httpx.get(self.base_url.removesuffix("/v1") + "/_double/stats", timeout=5)
        out: dict[str, Any] = reply.json()
        return out

    def reset(self) -> None:
        httpx.post(self.base_url.removesuffix("/v1") + "/_double/reset", timeout=5)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._log.close()


# --- measurements --------------------------------------------------------------------------------------
def metric_values(text: str, name: str) -> list[float]:
    """Values of the unlabelled-or-labelled samples of gauge/counter ``name`` in Prometheus text."""
    out = []
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            out.append(float(line.rsplit(" ", 1)[1]))
    return out


class ConnectionSampler:
    """Samples the number of PostgreSQL connections to one database until stopped (peak and samples)."""

    def __init__(self, pipe: Pipeline, interval: float = 0.5) -> None:
        self.pipe, self.interval, self.peak, self.samples = pipe, interval, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ConnectionSampler:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                n = self.pipe.scalar("SELECT count(*) FROM pg_stat_activity WHERE datname = :d",
                                     d=self.pipe.database_name)
                # minus this sampler's own connection
                self.peak, self.samples = max(self.peak, int(n) - 1), self.samples + 1
            except Exception as exc:  # a sample lost is not a result; say so in the log
                log(f"connection sample failed: {exc}")
            self._stop.wait(self.interval)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)


def wait_assigned(pipe: Pipeline, names: list[str], partitions: int, timeout: float) -> None:
    """Until every named extractor holds partitions and together they hold all ``partitions``."""
    deadline = time.monotonic() + timeout
    while True:
        held = [sum(metric_values(pipe.metrics_text(n), "pai_memory_assigned_partitions")) for n in names]
        if all(h > 0 for h in held) and sum(held) == partitions:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"group not settled after {timeout:.0f}s: partitions held {held}")
        pipe.check()
        time.sleep(0.5)


def final_window(pipe: Pipeline, prefix: str) -> tuple[int, float | None, float | None, dict[str, int]]:
    from sqlalchemy import text

    with pipe.engine.connect() as conn:
        n, first, last = conn.execute(text(
            "SELECT count(*), extract(epoch from min(processed_at)), extract(epoch from max(processed_at)) "
            "FROM messages WHERE upstream_message_id LIKE :p AND memory_status IN "
            "('PROCESSED', 'SKIPPED', 'FAILED')"), {"p": f"{prefix}%"}).one()
        statuses: dict[Any, Any] = dict(conn.execute(text(
            "SELECT memory_status, count(*) FROM messages WHERE upstream_message_id LIKE :p GROUP BY 1"),
            {"p": f"{prefix}%"}).all())
    return int(n), first, last, {str(k): int(v) for k, v in statuses.items()}


def publish_users(pipe: Pipeline, n: int, prefix: str, seed: int) -> float:
    """N user messages of N distinct users, one conversation each, flushed; returns the seconds it took."""
    from producers.client import MemoryEventProducer
    from schemas import ChatMessageData

    rng = random.Random(seed)
    now = datetime.now(UTC)
    t0 = time.monotonic()
    with MemoryEventProducer(pipe.settings, source="bench/extractor_concurrency") as producer:
        for i in range(n):
            user = f"{prefix}u{i:05d}"
            producer.publish_message(ChatMessageData(
                message_id=f"{prefix}{i:05d}", user_id=user, conversation_id=f"{user}-c", role="user",
                content=user_turn(rng, i, durable_only=True), created_at=now))
        producer.flush(120)
    return time.monotonic() - t0


def throughput(pipe: Pipeline, double: Double, processes: int, in_flight: int, n: int, timeout: float,
               seed: int) -> dict[str, Any]:
    names = [f"extractor-{i}" for i in range(processes)]
    extra = {"CONSUMER_EXTRACTOR_MAX_IN_FLIGHT": str(in_flight),
             "LLM_MAX_CONCURRENCY": str(max(32, in_flight))}
    for i in range(processes):
        pipe.start("extractor", i, extra)
    try:
        wait_assigned(pipe, names, pipe.partitions, timeout=120)
        prefix = f"xc{processes}-{in_flight}-{uuid.uuid4().hex[:4]}-"
        pids = {name: pipe.supervisor.children[name].pid for name in names}
        pids["openai_double"] = double.pid
        double.reset()
        cpu0, busy0, wall0 = cpu_snapshot(pids), machine_busy(), time.time()
        with ConnectionSampler(pipe) as conns:
            pub_sec = publish_users(pipe, n, prefix, seed)
            deadline = time.monotonic() + timeout
            while True:
                done, first, last, statuses = final_window(pipe, prefix)
                if done >= n:
                    break
                if time.monotonic() > deadline:
                    raise TimeoutError(f"x{processes} in flight {in_flight}: {done}/{n} final "
                                       f"after {timeout:.0f}s")
                pipe.check()
                time.sleep(0.25)
        cpu, busy, stats = cpu_since(cpu0, pids), busy_share(busy0, machine_busy()), double.stats()
        load = os.getloadavg()[0]
        limits = {name: metric_values(pipe.metrics_text(name), "pai_memory_model_concurrency_limit")
                  for name in names}
    finally:
        for name in names:
            pipe.stop(name)
    steady = float(last) - float(first) if first is not None and last is not None else 0.0
    extractor_cpu = sum(cpu.get(name, 0.0) for name in names)
    row = {
        "processes": processes,
        "in_flight": in_flight,
        "llm_max_concurrency": max(32, in_flight),
        "messages": n,
        "publish_sec": round(pub_sec, 2),
        "steady_sec": round(steady, 2),
        "msgs_per_sec": round((n - 1) / steady, 2) if steady > 0 else None,
        "wall_sec_from_publish": round(float(last) - wall0, 2) if last is not None else None,
        "statuses": statuses,
        "extractor_cpu_sec": round(extractor_cpu, 2),
        "cpu_ms_per_message": round(1000 * extractor_cpu / n, 1),
        "cpu_sec_by_process": cpu,
        "extractor_core_share": {name: round(cpu[name] / steady, 3) for name in names
                                 if name in cpu and steady > 0},
        "machine_busy_share": busy,
        "loadavg_1m_at_end": round(load, 1),
        "model_calls": stats.get("served", {}).get("chat", 0),
        "model_429s": stats.get("rate_limited", 0),
        "model_peak_in_flight": stats.get("max_in_flight_seen", 0),
        "concurrency_limit_at_end": {k: v[0] if v else None for k, v in limits.items()},
        "db_connections_peak": conns.peak,
    }
    log(f"  x{processes} in flight {in_flight}: {row['msgs_per_sec']} msgs/s, {row['cpu_ms_per_message']} ms "
        f"CPU/msg, peak model in flight {row['model_peak_in_flight']}, 429s {row['model_429s']}, "
        f"machine busy {busy}, statuses {statuses}")
    return row


def size_for(in_flight: int, processes: int, args: argparse.Namespace) -> int:
    return int(min(args.max_messages, max(args.min_messages, in_flight * processes * args.per_slot)))


def model_overrides(double: Double, args: argparse.Namespace) -> dict[str, str]:
    out = {"LONG_TERM_MEMORY_DEBOUNCE_SEC": "0", "MEMORY_EXTRACTOR_PROVIDER": "openai",
           "LLM_BASE_URL": double.base_url, "LLM_MODEL": "openai-test-double", "LLM_API_KEY": "test-double"}
    if args.db_pool_size:
        out["DATABASE_POOL_SIZE"] = str(args.db_pool_size)
    return out


def freshness_run(args: argparse.Namespace) -> dict[str, Any]:
    double = Double(args.latency_p50, args.latency_p99, 0.0, None, seed=99)
    try:
        extra = {"CONSUMER_EXTRACTOR_MAX_IN_FLIGHT": str(args.fresh_in_flight),
                 "LLM_MAX_CONCURRENCY": str(max(32, args.fresh_in_flight))}
        with bench_pipeline("xcfresh", overrides={**model_overrides(double, args), **extra}) as pipe:
            for proc in ("extractor", "relay", "indexer"):
                pipe.start(proc)
            wait_assigned(pipe, ["extractor-0"], pipe.partitions, timeout=120)
            freshness(pipe, 5, 4, seed=0, drain_timeout=300, users=20)  # warm up: models load, groups join
            names = ["extractor-0", "relay-0", "indexer-0"]
            pids = {name: pipe.supervisor.children[name].pid for name in names}
            pids["openai_double"] = double.pid
            cpu0, busy0 = cpu_snapshot(pids), machine_busy()
            n = int(args.fresh_rate * args.fresh_duration)
            run = freshness(pipe, args.fresh_rate, args.fresh_duration, seed=7,
                            drain_timeout=args.drain_timeout, users=n)
            seconds = run["drain_sec_from_start"]
            cpu = cpu_since(cpu0, pids)
            run["cpu_sec_by_process"] = cpu
            run["core_share_by_process"] = {k: round(v / seconds, 3) for k, v in cpu.items() if seconds}
            run["machine_busy_share"] = busy_share(busy0, machine_busy())
            run["in_flight"] = args.fresh_in_flight
            run["goal_p99_ms"] = round(1000 * (args.latency_p99 + 2.0))
            p99 = run["freshness_ms"].get("p99")
            run["goal_met"] = bool(p99 is not None and p99 <= run["goal_p99_ms"])
            log(f"freshness @{args.fresh_rate}/s: {json.dumps(run['freshness_ms'])}; CPU {cpu}")
            return run
    finally:
        double.stop()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--in-flight", default="1,8,32,64", help="CONSUMER_EXTRACTOR_MAX_IN_FLIGHT values")
    parser.add_argument("--processes", default="1,2")
    parser.add_argument("--rate-limit-shares", default="0,0.1", help="shares of model requests answered 429")
    parser.add_argument("--retry-after", type=float, default=1.0, help="Retry-After seconds on the 429s")
    parser.add_argument("--latency-p50", type=float, default=1.0)
    parser.add_argument("--latency-p99", type=float, default=3.0)
    parser.add_argument("--per-slot", type=float, default=4.0, help="messages per in-flight slot and process")
    parser.add_argument("--min-messages", type=int, default=16)
    parser.add_argument("--max-messages", type=int, default=320)
    parser.add_argument("--run-timeout", type=float, default=300.0, help="seconds for one cell to finish")
    parser.add_argument("--fresh-rate", type=float, default=20.0)
    parser.add_argument("--fresh-duration", type=float, default=30.0)
    parser.add_argument("--fresh-in-flight", type=int, default=32)
    parser.add_argument("--drain-timeout", type=float, default=240.0)
    parser.add_argument("--db-pool-size", type=int, default=None,
                        help="DATABASE_POOL_SIZE of the service processes (unset: the product default)")
    parser.add_argument("--skip-freshness", action="store_true")
    parser.add_argument("--skip-throughput", action="store_true")
    args = parser.parse_args(argv)
    install_sigterm()
    sigma = (math.log(args.latency_p99) - math.log(args.latency_p50)) / LOGNORMAL_Z99
    mean = args.latency_p50 * math.exp(sigma**2 / 2)
    result: dict[str, Any] = {
        "benchmark": "extractor_concurrency",
        "params": vars(args),
        "model": {"latency": "lognormal", "p50_sec": args.latency_p50, "p99_sec": args.latency_p99,
                  "mean_sec": round(mean, 3),
                  "double": "localstack.openai_double (TEST DOUBLE, own process)"},
        "machine": {k: v for k, v in machine_info().items()
                    if k in ("nproc", "cpu_model", "loadavg_at_start")},
    }
    started = time.monotonic()
    rows: list[dict[str, Any]] = []
    if not args.skip_throughput:
        for share in (float(s) for s in args.rate_limit_shares.split(",")):
            double = Double(args.latency_p50, args.latency_p99, share, args.retry_after,
                            seed=int(share * 1000) + 1)
            try:
                with bench_pipeline(f"xc{int(share * 100)}", overrides=model_overrides(double, args)) as pipe:
                    log(f"429 share {share}: model double at {double.base_url}")
                    for processes in (int(p) for p in args.processes.split(",")):
                        for in_flight in (int(k) for k in args.in_flight.split(",")):
                            n = size_for(in_flight, processes, args)
                            row = throughput(pipe, double, processes, in_flight, n, args.run_timeout,
                                             seed=len(rows))
                            row["rate_limit_share"] = share
                            row["ideal_msgs_per_sec"] = round(min(n, in_flight * processes) / mean, 2)
                            rows.append(row)
            finally:
                double.stop()
        result["throughput"] = rows
        goal = 0.8 * 32 / args.latency_p50
        cell = next((r for r in rows if r["processes"] == 1 and r["in_flight"] == 32
                     and r["rate_limit_share"] == 0), None)
        if cell is not None:
            share = max(cell["extractor_core_share"].values(), default=0.0)
            result["goal_one_process_32"] = {
                "goal_msgs_per_sec": round(goal, 1), "measured": cell["msgs_per_sec"],
                "met": bool(cell["msgs_per_sec"] and cell["msgs_per_sec"] >= goal),
                "extractor_core_share": share, "machine_busy_share": cell["machine_busy_share"],
                # one Python process near one core, or the machine near all its cores: the CPU is the limit
                "cpu_bound": bool(share >= 0.85 or (cell["machine_busy_share"] or 0) >= 0.9),
            }
    if not args.skip_freshness:
        result["freshness"] = freshness_run(args)
    result["seconds"] = round(time.monotonic() - started, 1)
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
