"""Ingestion over HTTP (``POST /v1/messages``) beside the Kafka client (``MemoryEventProducer``): messages
per second and latency to the broker's confirmation, on the same broker and a private topic.

Not a test. Arms (each ``--messages`` chat messages, ``--users`` users round robin):

- ``http_single``: ``--concurrency`` threads, one message per request (``MemoryClient.publish_messages``),
  each request answered 202 only after Kafka confirmed; latency = the request.
- ``http_batch``: one thread, ``--batch`` messages per request; latency = the request (per batch).
- ``kafka_single``: ``--concurrency`` threads on one producer, publish then wait for the confirmation,
  one message at a time (what ``http_single`` does behind the API); latency = publish to confirmation.
- ``kafka_pipelined``: one producer, everything published, then every confirmation awaited; latency
  = publish to confirmation of each message.

The API runs in its own process (uvicorn, this file with ``--serve``) with the environment's settings
(``KAFKA_BOOTSTRAP_SERVERS`` etc.), rate limits off, Milvus off. The topic (3 partitions) is deleted at
the end. Stdout: one JSON object; also ``bench/results/ingest_http.json``.

    .venv/bin/python -m bench.bench_ingest_http --messages 2000
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from bench.common import REPO, log, write_result

TOKEN = "bench-ingest-http"


def _mark_done(done: list[float], i: int, _future: object) -> None:
    """Delivery callback: when message ``i``'s delivery report arrived."""
    done[i] = time.perf_counter()


def _settings(topic: str) -> Any:
    from pydantic import SecretStr

    from core.config import load_settings

    return load_settings().model_copy(update={
        "TOPIC_CHAT_MESSAGES": topic, "API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False,
        "API_RATE_LIMIT_PER_USER": 0, "API_RATE_LIMIT_PER_TOKEN": 0, "API_JOBS_POLL_SEC": 3600.0,
        "API_MAX_BODY_BYTES": 4 * 1024 * 1024, "API_INGEST_MAX_BATCH": 1000})


def serve(port: int, topic: str) -> None:
    import uvicorn

    from api.app import create_app

    uvicorn.run(create_app(_settings(topic)), host="127.0.0.1", port=port, log_level="warning",
                access_log=False)


def message(i: int, users: int, run: str) -> Any:
    from schemas import ChatMessageData
    from schemas.vocabulary import MessageRole

    user = f"bench-{run}-u{i % users}"
    return ChatMessageData(message_id=f"{user}:c:{i}", user_id=user, conversation_id="c",
                           role=MessageRole.USER, created_at=datetime.now(UTC),
                           content=f"message {i}: remember that my favourite number is {i % 97}")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if ordered else 0.0


def summary(name: str, n: int, elapsed: float, latencies: list[float], unit: str) -> dict[str, Any]:
    return {"arm": name, "messages": n, "seconds": round(elapsed, 3), "msgs_per_s": round(n / elapsed, 1),
            "latency_unit": unit, "p50_ms": round(pct(latencies, 0.5) * 1000, 2),
            "p99_ms": round(pct(latencies, 0.99) * 1000, 2), "max_ms": round(max(latencies) * 1000, 2)}


def threaded(concurrency: int, n: int, work: Callable[[int], float]) -> tuple[float, list[float]]:
    latencies: list[float] = []
    lock = threading.Lock()
    counter = iter(range(n))

    def run() -> None:
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                return
            took = work(i)
            with lock:
                latencies.append(took)

    threads = [threading.Thread(target=run) for _ in range(concurrency)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started, latencies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--topic", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.port, args.topic)
        return 0

    import httpx

    from localstack.process import free_port
    from localstack.topics import admin_client, ensure_topics
    from producers.client import MemoryEventProducer
    from producers.http_client import MemoryClient

    run = uuid.uuid4().hex[:8]
    topic = f"bench.ingest_http.{run}"
    settings = _settings(topic)
    ensure_topics(settings, {topic: 3})
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "bench.bench_ingest_http", "--serve", "--port",
                               str(port), "--topic", topic], env=os.environ.copy(), cwd=REPO)
    url = f"http://127.0.0.1:{port}"
    results: list[dict[str, Any]] = []
    n = args.messages
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the API did not start")
            time.sleep(0.2)
        with MemoryClient(url, TOKEN, timeout=60) as warm:  # the API's producer connects on first use
            warm.publish_messages([message(0, 1, run + "w")])

        log(f"http_single: {n} messages, {args.concurrency} threads")
        clients = [MemoryClient(url, TOKEN, timeout=60, retries=0) for _ in range(args.concurrency)]
        local = threading.local()
        pool = iter(clients)
        pool_lock = threading.Lock()

        def http_one(i: int) -> float:
            if not hasattr(local, "client"):
                with pool_lock:
                    local.client = next(pool)
            started = time.perf_counter()
            local.client.publish_messages([message(i, args.users, run + "a")])
            return time.perf_counter() - started

        elapsed, lat = threaded(args.concurrency, n, http_one)
        results.append(summary("http_single", n, elapsed, lat, "request (1 message)"))
        for c in clients:
            c.close()

        log(f"http_batch: {n} messages, {args.batch} per request")
        batches = [[message(i, args.users, run + "b") for i in range(s, min(n, s + args.batch))]
                   for s in range(0, n, args.batch)]
        lat = []
        with MemoryClient(url, TOKEN, timeout=60, retries=0) as client:
            started = time.perf_counter()
            for batch in batches:
                t0 = time.perf_counter()
                client.publish_messages(batch)
                lat.append(time.perf_counter() - t0)
            elapsed = time.perf_counter() - started
        results.append(summary("http_batch", n, elapsed, lat, f"request ({args.batch} messages)"))

        with MemoryEventProducer(settings, source="bench") as producer:
            producer.publish_message(message(0, 1, run + "w")).result(timeout=60)
            log(f"kafka_single: {n} messages, {args.concurrency} threads")

            def kafka_one(i: int) -> float:
                started = time.perf_counter()
                producer.publish_message(message(i, args.users, run + "c")).result(timeout=60)
                return time.perf_counter() - started

            elapsed, lat = threaded(args.concurrency, n, kafka_one)
            results.append(summary("kafka_single", n, elapsed, lat, "message"))

            log(f"kafka_pipelined: {n} messages")
            msgs = [message(i, args.users, run + "d") for i in range(n)]
            done: list[float] = [0.0] * n
            sent: list[float] = [0.0] * n
            started = time.perf_counter()
            futures = []
            for i, m in enumerate(msgs):
                sent[i] = time.perf_counter()
                future = producer.publish_message(m)
                future.add_done_callback(functools.partial(_mark_done, done, i))
                futures.append(future)
            for future in futures:
                future.result(timeout=120)
            elapsed = time.perf_counter() - started
            lat = [d - s for d, s in zip(done, sent, strict=True)]
            results.append(summary("kafka_pipelined", n, elapsed, lat, "message"))
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        try:
            admin = admin_client(settings, 10.0)
            admin.delete_topics([topic], operation_timeout=30)[topic].result(timeout=30)
        except Exception as exc:  # best effort: a leftover topic is not a failed benchmark
            log(f"could not delete {topic}: {exc}")

    out = {"benchmark": "ingest_http", "at": datetime.now(UTC).isoformat(timespec="seconds"),
           "load_average": os.getloadavg(), "cpu_count": os.cpu_count(),
           "args": {k: v for k, v in vars(args).items() if k not in ("serve", "port", "topic")},
           "results": results}
    write_result("ingest_http", out)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
