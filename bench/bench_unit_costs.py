"""Unit costs: CPU of every process per user message (rules path and LLM path), per tool write and per
query, from one run on a private stack. The capacity model (``docs/capacity.md``) is built from them.

Not a test. A private stack (``harness.private_stack.PrivateStack``: one Kafka broker, PostgreSQL and Milvus
Lite, on free ports, used by nothing else, so their CPU is this run's alone) and the five service
processes (rules provider, local embedding model). CPU = user + system seconds of each process and its
children (PostgreSQL: the postmaster and every backend; Milvus Lite and its server), read with psutil
before and after each phase; the idle rate of each process (measured first, ``--idle-sec``) times the
phase's duration is subtracted. A phase ends when its work is final: messages PROCESSED, every memory
SYNCED in Milvus and the outbox empty (``localstack.settle``).

Phases:
1. rules: ``--messages`` user messages (one per conversation, ``Traffic`` statements) at ``--rate``/s;
2. tool writes: ``--writes`` ``POST /v1/memories/save`` (API -> PostgreSQL + outbox -> relay -> indexer);
3. queries: ``--queries`` ``POST /v1/retrieve`` (dense: embed the question, Milvus, PostgreSQL);
4. llm: the extractor restarted with ``MEMORY_EXTRACTOR_PROVIDER=openai`` on the OpenAI-compatible TEST
   DOUBLE (``localstack.openai_double``, 1.0 s fixed latency, ``--chat echo-candidates``: one candidate
   per message), ``CONSUMER_EXTRACTOR_MAX_IN_FLIGHT=32``; ``--llm-messages`` messages of distinct users at
   once.
   The double's own CPU is shown apart (it stands in for a remote model).

    .venv/bin/python -m bench.bench_unit_costs --out bench/results/unit_costs.json

Stdout: one JSON line per phase, then the whole result (also written to ``--out``).
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
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psutil

from bench.bench_extractor_concurrency import Double
from harness.pipeline import Pipeline
from harness.private_stack import PrivateStack
from localstack.settle import wait_settled
from producers.client import MemoryEventProducer
from schemas import CHAT_MESSAGE_V1, ChatMessageData

REPO = Path(__file__).resolve().parents[1]

SERVICES = ("kafka", "postgres", "milvus")


def cpu_of(pid: int | None) -> float:
    """User + system CPU seconds of ``pid`` and its live descendants (0 when gone)."""
    if pid is None:
        return 0.0
    try:
        proc = psutil.Process(pid)
        procs = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0.0
    for p in procs:
        with contextlib.suppress(psutil.Error):
            t = p.cpu_times()
            total += t.user + t.system
    return total


class Meter:
    """CPU seconds per named process, sampled on demand."""

    def __init__(self, pipe: Pipeline, extra: dict[str, int] | None = None) -> None:
        self.pipe = pipe
        self.extra = extra or {}

    def pids(self) -> dict[str, int | None]:
        out: dict[str, int | None] = {n: self.pipe.stack.pid(n) for n in SERVICES}
        for name, child in self.pipe.supervisor.children.items():
            out[name.rsplit("-", 1)[0]] = child.pid
        out.update(self.extra)
        return out

    def sample(self) -> tuple[float, dict[str, float]]:
        cpu = {n: cpu_of(pid) for n, pid in self.pids().items()}
        cpu["wal_bytes"] = wal_lsn(self.pipe.settings.database_url)  # not CPU: WAL position, see delta
        return time.monotonic(), cpu


def wal_lsn(url: str) -> float:
    """PostgreSQL's current WAL position in bytes (the server's, this run's database only writes)."""
    import psycopg

    from localstack.postgres import libpq_url

    with psycopg.connect(libpq_url(url), autocommit=True) as conn:
        row = conn.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn").fetchone()
    return float(row[0]) if row else 0.0


def footprint(pipe: Pipeline) -> dict[str, Any]:
    """Rows and bytes on disk: PostgreSQL tables (with indexes and TOAST), Kafka topics (records, bytes of
    the log folders), Milvus Lite (entries, bytes of its data folder)."""
    import psycopg

    from localstack.postgres import libpq_url

    out: dict[str, Any] = {"postgres": {}, "kafka": {}, "milvus": {}}
    with psycopg.connect(libpq_url(pipe.settings.database_url), autocommit=True) as conn:
        for table in ("messages", "long_term_memories", "memory_history", "outbox", "conversations",
                      "users", "episodes"):
            with contextlib.suppress(psycopg.Error):
                rows, size = conn.execute(
                    f"SELECT count(*), pg_total_relation_size('{table}') FROM {table}").fetchone() or (0, 0)
                out["postgres"][table] = {"rows": rows, "bytes": size}
    kafka_dir = pipe.stack.home / "kafka" / "data"
    for topic_dir in sorted(kafka_dir.glob("*-[0-9]*")):
        topic = topic_dir.name.rsplit("-", 1)[0]
        if topic.startswith("__"):
            continue
        entry = out["kafka"].setdefault(topic, {"bytes": 0})
        entry["bytes"] += sum(f.stat().st_size for f in topic_dir.glob("*.log"))
    milvus_dir = pipe.stack.home / "milvus"
    out["milvus"]["bytes"] = sum(f.stat().st_size for f in milvus_dir.rglob("*") if f.is_file())
    return out


def delta(before: tuple[float, dict[str, float]], after: tuple[float, dict[str, float]],
          idle: dict[str, float], units: int) -> dict[str, Any]:
    """CPU ms per unit of each process (idle rate x duration subtracted), and the window."""
    seconds = after[0] - before[0]
    per: dict[str, float] = {}
    wal = after[1].get("wal_bytes", 0.0) - before[1].get("wal_bytes", 0.0)
    for name, end in after[1].items():
        if name == "wal_bytes":
            continue
        used = end - before[1].get(name, end) - idle.get(name, 0.0) * seconds
        per[name] = round(max(0.0, used) * 1000 / units, 2)
    service = sum(v for k, v in per.items() if k != "double")
    return {"units": units, "window_sec": round(seconds, 2), "cpu_ms_per_unit": per,
            "cpu_ms_per_unit_total": round(service, 2), "wal_bytes_per_unit": round(wal / units)}


def wait_final(pipe: Pipeline, ids: list[str], timeout: float = 600.0) -> None:
    ok, state, _ = pipe.wait_settled([s for s in pipe.traffic.sent if s.message_id in set(ids)], timeout)
    if not ok:
        raise RuntimeError(f"not settled: {state}")


def llm_phase(args: argparse.Namespace, pipe: Pipeline, tag: str, idle: dict[str, float],
              out: dict[str, Any]) -> dict[str, Any]:
    """Phase 4 (see the module docstring); ``--py-spy FILE`` records the extractor's on-CPU stacks."""
    # 4. LLM path: the extractor on the double, 32 in flight
    double = Double(1.0, 1.0, 0.0, None, 28)
    try:
        _llm(args, pipe, tag, idle, out, double)
    finally:
        double.stop()
    return out


def _llm(args: argparse.Namespace, pipe: Pipeline, tag: str, idle: dict[str, float], out: dict[str, Any],
         double: Double) -> None:
    pipe.supervisor.stop("extractor-0", timeout=20)
    pipe.supervisor.children.pop("extractor-0", None)
    pipe.supervisor.start("extractor", 0, extra_env={
        "MEMORY_EXTRACTOR_PROVIDER": "openai", "LLM_BASE_URL": double.base_url,
        "LLM_MODEL": "openai-test-double", "LLM_API_KEY": "test-double",
        "LONG_TERM_MEMORY_DEBOUNCE_SEC": "0", "CONSUMER_EXTRACTOR_MAX_IN_FLIGHT": "32",
        "LLM_MAX_CONCURRENCY": "32"})
    time.sleep(args.idle_sec)  # the new extractor joins the group
    meter = Meter(pipe, {"double": double.pid})
    t0 = meter.sample()
    time.sleep(5)
    t1 = meter.sample()
    idle["extractor"] = (t1[1]["extractor"] - t0[1]["extractor"]) / (t1[0] - t0[0])
    idle["double"] = (t1[1]["double"] - t0[1]["double"]) / (t1[0] - t0[0])
    ids = [f"uc-{tag}-llm-{i}" for i in range(args.llm_messages)]
    spy = None
    if args.py_spy is not None:  # on-CPU stacks of the extractor (all threads) while the phase runs
        import subprocess

        spy = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "--format", "raw",
                                "--rate", "200", "--output", str(args.py_spy), "--pid",
                                str(pipe.supervisor.children["extractor-0"].pid)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    before = meter.sample()
    with MemoryEventProducer(pipe.settings, source="bench-unit-costs") as producer:
        for i, mid in enumerate(ids):
            producer.publish_message(ChatMessageData(
                message_id=mid, user_id=f"uc-{tag}-llm-u{i}", conversation_id=f"{mid}-c", role="user",
                content=f"I have been learning the cello for {i % 40 + 2} years.",
                created_at=datetime.now(UTC)))
        producer.flush(60)
    res = wait_settled(pipe.sessions, ids, [f"uc-{tag}-llm-u{i}" for i in range(args.llm_messages)],
                       900, done=lambda p: p.all_processed, interval=0.25)
    if not res.ok:
        raise RuntimeError(f"LLM path not settled: {res.progress}")
    out["llm_message"] = delta(before, meter.sample(), idle, args.llm_messages)
    if spy is not None:
        import signal as _signal

        spy.send_signal(_signal.SIGINT)
        spy.wait(60)
    window = out["llm_message"]["window_sec"]
    out["llm_message"]["messages_per_sec"] = round(args.llm_messages / window, 2)
    print(json.dumps({"llm_message": out["llm_message"]}), flush=True)


def run(args: argparse.Namespace) -> dict[str, Any]:
    tag = uuid.uuid4().hex[:6]
    stack = PrivateStack.create(REPO / "var" / "unit-costs" / f"stack-{tag}")
    out: dict[str, Any] = {"started_at": datetime.now(UTC).isoformat(),
                           "args": vars(args) | {"out": str(args.out)}}
    pipe: Pipeline | None = None
    try:
        stack.up()
        # the fault env re-drives a message PENDING for 4 s; ``--redrive-grace`` sets another grace
        grace = ({"MEMORY_MESSAGE_REDRIVE_GRACE_SEC": str(args.redrive_grace)}
                 if args.redrive_grace is not None else {})
        pipe = Pipeline.on_private_stack(stack, f"uc-{tag}", users=args.users, rate=args.rate,
                                         max_per_scenario=None,
                                         env={"LONG_TERM_MEMORY_RETRIEVE_MODE": "dense", **grace})
        pipe.start_all()
        pipe.probe.stop()  # no background queries: they would be counted in every phase
        pipe.warm_up()
        meter = Meter(pipe)
        # idle rate of every process
        t0 = meter.sample()
        time.sleep(args.idle_sec)
        t1 = meter.sample()
        idle = {n: (t1[1][n] - t0[1].get(n, t1[1][n])) / (t1[0] - t0[0]) for n in t1[1] if n != "wal_bytes"}
        out["idle_cpu_share"] = {n: round(v, 4) for n, v in idle.items()}

        if args.llm_only:
            out["machine"] = {"cpus": os.cpu_count(), "load_avg": os.getloadavg()}
            return llm_phase(args, pipe, tag, idle, out)

        # 1. rules path
        first = len(pipe.traffic.sent)
        before = meter.sample()
        pipe.traffic.start()
        while len(pipe.traffic.sent) - first < args.messages:
            time.sleep(0.05)
        pipe.traffic.pause()
        wait_final(pipe, [s.message_id for s in pipe.traffic.sent[first:]])
        out["rules_message"] = delta(before, meter.sample(), idle, len(pipe.traffic.sent) - first)
        # the sweeper's re-drives of messages left PENDING past the grace (chat events in the outbox)
        out["rules_message"]["chat_redrives"] = int(pipe.scalar(
            "SELECT count(*) FROM outbox WHERE event_type = :t", t=CHAT_MESSAGE_V1))
        out["rules_message"]["outbox_rows"] = int(pipe.scalar("SELECT count(*) FROM outbox"))
        print(json.dumps({"rules_message": out["rules_message"]}), flush=True)

        if args.rules_only:  # the capacity model's check: one phase at another rate
            out["machine"] = {"cpus": os.cpu_count(), "load_avg": os.getloadavg()}
            return out

        # 2. tool writes
        client = httpx.Client(base_url=pipe.api_url, timeout=30,
                              headers={"authorization": f"Bearer {pipe.env['API_TOKEN']}"})
        before = meter.sample()
        for i in range(args.writes):
            resp = client.post("/v1/memories/save", json={
                "user_id": pipe.users[i % len(pipe.users)], "key": f"preference-music_{i}",
                "content": f"Enjoys listening to jazz record number {i} on Sundays",
                "memory_type": "preference"})
            if resp.status_code != 200:
                raise RuntimeError(f"memory_save answered {resp.status_code}: {resp.text[:300]}")
        settled = wait_settled(pipe.sessions, [], pipe.users, 600, interval=0.25)
        if not settled.ok:
            raise RuntimeError(f"tool writes not indexed: {settled.progress}")
        out["tool_write"] = delta(before, meter.sample(), idle, args.writes)
        print(json.dumps({"tool_write": out["tool_write"]}), flush=True)

        # 3. queries
        before = meter.sample()
        for i in range(args.queries):
            resp = client.post("/v1/retrieve", json={
                "user_id": pipe.users[i % len(pipe.users)], "question": f"Where do I live now? ({i})",
                "mode": "dense", "limit": 5})
            resp.raise_for_status()
        out["query"] = delta(before, meter.sample(), idle, args.queries)
        print(json.dumps({"query": out["query"]}), flush=True)
        client.close()

        llm_phase(args, pipe, tag, idle, out)
        out["footprint"] = footprint(pipe)
        out["footprint"]["messages"] = len(pipe.traffic.sent) + args.llm_messages
        print(json.dumps({"footprint": out["footprint"]}), flush=True)
    finally:
        if pipe is not None:
            pipe.close()
        stack.down(timeout=20)
        stack.remove()
    out["machine"] = {"cpus": os.cpu_count(), "platform": platform.platform(), "load_avg": os.getloadavg()}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=400)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--llm-messages", type=int, default=320)
    parser.add_argument("--idle-sec", type=float, default=10.0)
    parser.add_argument("--redrive-grace", type=float, default=None,
                        help="MEMORY_MESSAGE_REDRIVE_GRACE_SEC (unset: the fault env's 4 s)")
    parser.add_argument("--rules-only", action="store_true", help="only phase 1 (checking a prediction)")
    parser.add_argument("--llm-only", action="store_true", help="only phase 4 (extractor CPU before/after)")
    parser.add_argument("--py-spy", type=Path, default=None,
                        help="record the extractor's stacks in phase 4 (py-spy raw format) to this file")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "unit_costs.json")
    args = parser.parse_args()
    out = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1, default=str))
    print(json.dumps(out, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
