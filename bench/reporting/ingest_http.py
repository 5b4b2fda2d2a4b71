"""RESULTS.md, section 3: ingestion over HTTP beside the Kafka client (``bench_ingest_http``, issue 27)."""

from __future__ import annotations

from typing import Any

from bench.reporting.format import failed, fmt, table

COMMAND = ".venv/bin/python -m bench.bench_ingest_http --messages 2000"
ARMS = {"http_single": "HTTP, 1 message per request", "http_batch": "HTTP, batches",
        "kafka_single": "Kafka client, 1 message at a time", "kafka_pipelined": "Kafka client, pipelined"}


def section_ingest_http(d: dict[str, Any] | None) -> str:
    """msgs/s and latency to the broker's confirmation of each arm, one run."""
    msg = failed(d, "ingest over HTTP")
    if msg or d is None:
        return str(msg)
    a = d["args"]
    rows = [[ARMS.get(r["arm"], r["arm"]), r["latency_unit"], r["messages"], f"**{fmt(r['msgs_per_s'])}**",
             fmt(r["p50_ms"]), f"**{fmt(r['p99_ms'])}**", fmt(r["max_ms"])] for r in d["results"]]
    load = ", ".join(f"{x:.1f}" for x in d.get("load_average", []))
    return "\n".join([
        f"One run at {d['at']} on the shared local broker, a private 3-partition topic, {a['users']} users; "
        f"{a['concurrency']} client threads for the one-at-a-time arms, {a['batch']} messages per HTTP "
        "batch. "
        f"The machine was loaded by other sessions (load average {load} on {d.get('cpu_count')} CPUs at the "
        "end): compare rows, not absolute rates. Every HTTP 202 means Kafka confirmed the message(s); "
        "latency is to that confirmation (the whole request for HTTP, publish to delivery report for the "
        "Kafka client).",
        "",
        table(["arm", "latency of", "messages", "msgs/s", "p50 ms", "p99 ms", "max ms"], rows),
        "",
        f"- `{COMMAND}`",
    ])
