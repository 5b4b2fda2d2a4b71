"""The ``openai`` extraction provider alone: calls/s through one provider shared by T threads against the
OpenAI-compatible TEST DOUBLE with a lognormal latency (default p50 1.0 s, p99 3 s), with and without
a share of ``429`` replies carrying ``Retry-After``. Not a test; no services.

Shows what the model side allows before the pipeline is involved: with T threads in flight, the ideal
is T / mean latency calls/s; the adaptive limiter (``LLM_MAX_CONCURRENCY``) cuts on 429s.

    .venv/bin/python -m bench.bench_llm_provider --threads 1,8,32,64 --seconds 20

Stdout: one JSON object (one row per threads x 429 share).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from typing import Any

from core.extraction.candidates import ExtractionError, ExtractionInput
from core.extraction.openai_provider import OpenAIExtractor
from localstack.openai_double import FakeOpenAIServer, Latency, Reply


def run_one(threads: int, seconds: float, p50: float, p99: float, share_429: float, retry_after: float,
            cap: int, seed: int) -> dict[str, Any]:
    server = FakeOpenAIServer().start()
    try:
        server.chat_handler = lambda body: Reply(content='{"candidates": []}')
        server.configure(latency=Latency.lognormal(p50, p99), rate_limit_rate=share_429,
                         retry_after=retry_after if share_429 else None, endpoints=("chat",), seed=seed)
        provider = OpenAIExtractor(base_url=server.base_url, model="bench", timeout=120.0, call_timeout=30.0,
                                   max_retries=3, max_concurrency=cap)
        stop = time.monotonic() + seconds
        done = errors = 0
        lock = threading.Lock()
        limits: list[float] = []

        def worker() -> None:
            nonlocal done, errors
            while time.monotonic() < stop:
                try:
                    provider.extract(ExtractionInput(user_message="I live in Lisbon."))
                    with lock:
                        done += 1
                except ExtractionError:
                    with lock:
                        errors += 1

        def sampler() -> None:
            while time.monotonic() < stop:
                limits.append(provider.limiter.limit)
                time.sleep(0.5)

        cpu0, wall0 = time.process_time(), time.monotonic()
        pool = [threading.Thread(target=worker) for _ in range(threads)] + [threading.Thread(target=sampler)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        wall, cpu = time.monotonic() - wall0, time.process_time() - cpu0
        return {"threads": threads, "share_429": share_429, "calls_ok": done, "calls_failed": errors,
                "calls_per_s": round(done / wall, 2), "wall_s": round(wall, 1),
                "cpu_ms_per_call": round(1000 * cpu / max(1, done), 2),
                "requests": server.chat_calls, "rate_limited": server.rate_limited,
                "max_in_flight": server.max_in_flight_seen,
                "limit_mean": round(sum(limits) / max(1, len(limits)), 1),
                "limit_end": round(provider.limiter.limit, 1)}
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--threads", default="1,8,32,64")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--p50", type=float, default=1.0)
    parser.add_argument("--p99", type=float, default=3.0)
    parser.add_argument("--share-429", default="0,0.1")
    parser.add_argument("--retry-after", type=float, default=1.0)
    parser.add_argument("--cap", type=int, default=64, help="LLM_MAX_CONCURRENCY")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = []
    for share in (float(s) for s in args.share_429.split(",")):
        for threads in (int(t) for t in args.threads.split(",")):
            row = run_one(threads, args.seconds, args.p50, args.p99, share, args.retry_after, args.cap,
                          args.seed)
            print(json.dumps(row), file=sys.stderr, flush=True)
            rows.append(row)
    out = {"benchmark": "llm_provider", "p50": args.p50, "p99": args.p99, "retry_after": args.retry_after,
           "cap": args.cap, "seconds": args.seconds, "command": " ".join(["bench/bench_llm_provider.py",
                                                                         *(argv or sys.argv[1:])]),
           "rows": rows}
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
