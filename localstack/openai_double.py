"""TEST DOUBLE: a programmable OpenAI-compatible HTTP server for tests and benchmarks (not a product
component: nothing in the service imports it; it lives here, beside the local stack, so that ``tests``
and ``bench`` both import it and ``bench`` never imports ``tests``).

``FakeOpenAIServer`` listens on 127.0.0.1 (random port) and serves ``POST /v1/chat/completions``
and ``POST /v1/embeddings`` in the OpenAI wire format, so the real ``openai`` client and our
providers are exercised over real HTTP. Each test scripts it:

- ``chat(content)`` / ``chat_json(obj)``: queue a chat reply (the assistant message content);
  ``chat(..., status=500)`` an HTTP error, ``chat(..., delay=2.0)`` a slow reply, ``raw=b"..."`` a
  body that is not even JSON. Queued replies are used in order; when the queue is empty the
  ``default_chat`` reply (if set) repeats, else the server answers 500.
- embeddings: deterministic unit vectors of ``embedding_dim`` derived from a hash of each input
  (so equal texts give equal vectors); ``embedding_fault(status=..., delay=..., dim=...)`` queues
  a one-off fault or a reply of another dimension.
- ``requests``: every request body received, in order (``chat_calls``/``embedding_calls`` count them).
- load behaviour (``configure``), applied to every request of the chosen endpoints before its reply:
  ``latency`` (``Latency.fixed(s)`` or ``Latency.lognormal(p50, p99)``), ``error_rate`` (HTTP 500),
  ``rate_limit_rate`` (HTTP 429 with ``Retry-After: retry_after`` when set), ``max_in_flight``
  (a request arriving while that many are being served gets a 429: a load-dependent limit) and
  ``rate_limit_until`` (a 429 storm until that ``time.monotonic()``). Seeded (``seed``).
  ``chat(..., status=429, retry_after=2)`` scripts a single 429. ``chat_handler(body) -> Reply``
  computes each chat reply from the request (used when no scripted reply is queued).
- concurrency: a threaded server with a deep accept backlog; ``in_flight`` and ``max_in_flight_seen``
  (the peak of concurrent requests being served), ``reset_counters()``.

Tests use the ``fake_openai`` fixture (``tests.support.fake_openai``), which starts a server per test
and stops it afterwards. As its own process (benchmarks)::

    python -m localstack.openai_double --latency-p50 1.0 --latency-p99 3.0 --rate-limit-rate 0.1 \
        --retry-after 1 --chat echo-candidates

prints one JSON line ``{"base_url": ..., "pid": ...}`` and serves until SIGTERM/SIGINT; its counters are
at ``GET /_double/stats`` (``POST /_double/reset`` zeroes them). ``--chat echo-candidates`` is a
stand-in "model": stage 1 answers one ``fact`` candidate whose content is the current user message,
stage 2 (refine) keeps the candidates it was given. ``--chat rules-candidates`` is a stand-in whose
stage 1 answers what the offline rules extractor finds in the current user message (so a driven
pipeline's expected outcomes, ``harness/traffic.py``'s slots, hold on the LLM path too), stage 2 the same.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

from localstack.double_answers import CHAT_HANDLERS, Reply, echo_candidates, rules_candidates, rules_extractor


@dataclass(frozen=True)
class Latency:
    """How long the double takes per request: fixed, or lognormal given its median and 99th percentile."""

    p50: float = 0.0
    p99: float | None = None  # None: fixed at p50

    @classmethod
    def fixed(cls, seconds: float) -> Latency:
        return cls(seconds, None)

    @classmethod
    def lognormal(cls, p50: float, p99: float) -> Latency:
        if p50 <= 0 or p99 < p50:
            raise ValueError("need 0 < p50 <= p99")
        return cls(p50, p99)

    def sample(self, rng: random.Random) -> float:
        if self.p99 is None or self.p99 == self.p50 or self.p50 <= 0:
            return max(0.0, self.p50)
        sigma = (math.log(self.p99) - math.log(self.p50)) / 2.3263478740408408  # z of the 99th percentile
        return rng.lognormvariate(math.log(self.p50), sigma)


@dataclass
class LoadProfile:
    """Faults and latency applied to every request of ``endpoints`` (see ``configure``)."""

    latency: Latency = field(default_factory=Latency)
    error_rate: float = 0.0
    rate_limit_rate: float = 0.0
    retry_after: float | None = None
    max_in_flight: int | None = None
    rate_limit_until: float = 0.0
    endpoints: frozenset[str] = frozenset({"chat", "embeddings"})


@dataclass
class RecordedRequest:
    path: str
    body: dict[str, Any]
    headers: dict[str, str]  # lower-cased names
    at: float = field(default_factory=time.monotonic)  # when it arrived


class FakeOpenAIServer:
    """TEST DOUBLE of an OpenAI-compatible endpoint; see the module docstring."""

    def __init__(self, embedding_dim: int = 16, record_limit: int | None = None) -> None:
        self.embedding_dim = embedding_dim
        self.record_limit = record_limit  # keep at most about this many recorded requests (long runs)
        self.served: dict[str, int] = {}  # requests received by endpoint, never trimmed
        self.default_chat: Reply | None = None
        self._chat: deque[Reply] = deque()
        self._embedding_faults: deque[Reply] = deque()
        self.requests: list[RecordedRequest] = []
        self.chat_handler: Callable[[dict[str, Any]], Reply] | None = None
        self.load = LoadProfile()
        self.in_flight = 0
        self.max_in_flight_seen = 0
        self.rate_limited = 0  # 429s sent by the load profile or scripted
        self.errors_injected = 0  # 500s sent by the load profile
        self._rng = random.Random(0)
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- scripting ------------------------------------------------------------------------------
    def chat(self, content: str | None = None, *, status: int = 200, delay: float = 0.0,
             raw: bytes | None = None, repeat: int = 1, retry_after: float | None = None) -> None:
        with self._lock:
            for _ in range(repeat):
                self._chat.append(Reply(content=content, status=status, delay=delay, raw=raw,
                                        retry_after=retry_after))

    def configure(self, *, latency: Latency | float | None = None, error_rate: float = 0.0,
                  rate_limit_rate: float = 0.0, retry_after: float | None = None,
                  max_in_flight: int | None = None, rate_limit_until: float = 0.0,
                  endpoints: tuple[str, ...] = ("chat", "embeddings"), seed: int | None = None) -> None:
        """Set the load profile (replaces the previous one); see the module docstring."""
        if not (0.0 <= error_rate <= 1.0 and 0.0 <= rate_limit_rate <= 1.0):
            raise ValueError("rates must be in [0, 1]")
        if isinstance(latency, int | float):
            latency = Latency.fixed(float(latency))
        with self._lock:
            self.load = LoadProfile(latency or Latency(), error_rate, rate_limit_rate, retry_after,
                                    max_in_flight, rate_limit_until, frozenset(endpoints))
            if seed is not None:
                self._rng = random.Random(seed)

    def stats(self) -> dict[str, Any]:
        """Counters since the last ``reset_counters`` (``served``: requests by endpoint)."""
        with self._lock:
            return {"served": dict(self.served), "rate_limited": self.rate_limited,
                    "errors_injected": self.errors_injected, "in_flight": self.in_flight,
                    "max_in_flight_seen": self.max_in_flight_seen}

    def reset_counters(self) -> None:
        with self._lock:
            self.requests.clear()
            self.served = {}
            self.max_in_flight_seen = self.in_flight
            self.rate_limited = 0
            self.errors_injected = 0

    def chat_json(self, obj: Any, **kwargs: Any) -> None:
        self.chat(json.dumps(obj, ensure_ascii=False), **kwargs)

    def embedding_fault(self, *, status: int = 200, delay: float = 0.0, dim: int | None = None,
                        raw: bytes | None = None, repeat: int = 1) -> None:
        with self._lock:
            for _ in range(repeat):
                self._embedding_faults.append(Reply(status=status, delay=delay, dim=dim, raw=raw))

    @property
    def chat_calls(self) -> int:
        return sum(1 for r in self.requests if r.path.endswith("/chat/completions"))

    @property
    def embedding_calls(self) -> int:
        return sum(1 for r in self.requests if r.path.endswith("/embeddings"))

    def chat_requests(self) -> list[dict[str, Any]]:
        return [r.body for r in self.requests if r.path.endswith("/chat/completions")]

    @staticmethod
    def vector_for(text: str, dim: int) -> list[float]:
        """The deterministic unit vector this double returns for ``text``."""
        seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
        v = np.random.default_rng(seed).normal(size=dim)
        return (v / np.linalg.norm(v)).tolist()

    # --- lifecycle ------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("server not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> FakeOpenAIServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw_body = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw_body or b"{}")
                except ValueError:
                    body = {"_unparsed": raw_body.decode("utf-8", "replace")}
                path = self.path.rstrip("/")
                if path == "/_double/reset":
                    server.reset_counters()
                    self._send_json(200, {"reset": True})
                    return
                endpoint = ("chat" if path.endswith("/chat/completions")
                            else "embeddings" if path.endswith("/embeddings") else "other")
                with server._lock:
                    server.served[endpoint] = server.served.get(endpoint, 0) + 1
                    server.requests.append(RecordedRequest(
                        self.path, body, {k.lower(): v for k, v in self.headers.items()}))
                    if server.record_limit is not None and len(server.requests) > 2 * server.record_limit:
                        del server.requests[: -server.record_limit]
                    server.in_flight += 1
                    server.max_in_flight_seen = max(server.max_in_flight_seen, server.in_flight)
                    fault, latency = server._load_fault(endpoint)
                try:
                    if latency:
                        time.sleep(latency)
                    headers: dict[str, str] = {}
                    if fault is not None:
                        status, payload, delay, headers = fault
                    elif endpoint == "chat":
                        status, payload, delay, headers = _with_headers(server._chat_reply(body))
                    elif endpoint == "embeddings":
                        status, payload, delay, headers = _with_headers(server._embedding_reply(body))
                    else:
                        status, payload, delay = 404, b'{"error": {"message": "not found"}}', 0.0
                    if status == 429:
                        with server._lock:
                            server.rate_limited += fault is None
                    if delay:
                        time.sleep(delay)
                    try:
                        self.send_response(status)
                        self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", str(len(payload)))
                        for name, value in headers.items():
                            self.send_header(name, value)
                        self.end_headers()
                        self.wfile.write(payload)
                    except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                        pass
                finally:
                    with server._lock:
                        server.in_flight -= 1

            def do_GET(self) -> None:
                if self.path.rstrip("/") == "/_double/stats":
                    self._send_json(200, server.stats())
                else:
                    self._send_json(404, {"error": {"message": "not found"}})

            def _send_json(self, status: int, obj: Any) -> None:
                payload = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        class Server(ThreadingHTTPServer):
            request_queue_size = 1024  # many clients connect at once (socketserver's default is 5)

        httpd = Server(("127.0.0.1", 0), Handler)
        httpd.daemon_threads = True
        httpd.block_on_close = False
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    # --- replies --------------------------------------------------------------------------------
    def _load_fault(self, endpoint: str) -> tuple[tuple[int, bytes, float, dict[str, str]] | None, float]:
        """Under ``_lock``: the load profile's fault for this request (or None) and its latency."""
        load = self.load
        if endpoint not in load.endpoints:
            return None, 0.0
        latency = load.latency.sample(self._rng)
        headers = {"Retry-After": f"{load.retry_after:g}"} if load.retry_after is not None else {}
        limited = (time.monotonic() < load.rate_limit_until
                   or (load.max_in_flight is not None and self.in_flight > load.max_in_flight)
                   or (load.rate_limit_rate > 0 and self._rng.random() < load.rate_limit_rate))
        if limited:
            self.rate_limited += 1
            err = {"error": {"message": "test double: rate limit reached", "type": "rate_limit_exceeded"}}
            return (429, json.dumps(err).encode(), 0.0, headers), min(latency, 0.05)
        if load.error_rate > 0 and self._rng.random() < load.error_rate:
            self.errors_injected += 1
            err = {"error": {"message": "test double: injected server error", "type": "server_error"}}
            return (500, json.dumps(err).encode(), 0.0, {}), latency
        return None, latency

    def _chat_reply(self, body: dict[str, Any]) -> tuple[int, bytes, float] | tuple[
            int, bytes, float, dict[str, str]]:
        with self._lock:
            reply = self._chat.popleft() if self._chat else None
        if reply is None and self.chat_handler is not None:
            reply = self.chat_handler(body)
        if reply is None:
            reply = self.default_chat
        if reply is None:
            return 500, b'{"error": {"message": "test double: no chat reply scripted"}}', 0.0
        if reply.raw is not None:
            return reply.status, reply.raw, reply.delay
        if reply.status != 200:
            err = {"error": {"message": f"test double error {reply.status}", "type": "server_error"}}
            headers = {"Retry-After": f"{reply.retry_after:g}"} if reply.retry_after is not None else {}
            return reply.status, json.dumps(err).encode(), reply.delay, headers
        payload = {
            "id": f"chatcmpl-fake-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake-model"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": reply.content}}],
            "usage": {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
                      "total_tokens": reply.prompt_tokens + reply.completion_tokens},
        }
        return 200, json.dumps(payload, ensure_ascii=False).encode("utf-8"), reply.delay

    def _embedding_reply(self, body: dict[str, Any]) -> tuple[int, bytes, float]:
        with self._lock:
            fault = self._embedding_faults.popleft() if self._embedding_faults else None
        if fault is not None and fault.raw is not None:
            return fault.status, fault.raw, fault.delay
        if fault is not None and fault.status != 200:
            err = {"error": {"message": f"test double error {fault.status}", "type": "server_error"}}
            return fault.status, json.dumps(err).encode(), fault.delay
        inputs = body.get("input", [])
        if isinstance(inputs, str):
            inputs = [inputs]
        dim = (fault.dim if fault is not None and fault.dim else None) or int(
            body.get("dimensions") or self.embedding_dim)
        data = [{"object": "embedding", "index": i, "embedding": self.vector_for(str(t), dim)}
                for i, t in enumerate(inputs)]
        data.reverse()  # real servers may return any order; clients must sort by index
        tokens = sum(len(str(t).split()) for t in inputs)
        payload = {"object": "list", "data": data, "model": body.get("model", "fake-embed"),
                   "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}
        return 200, json.dumps(payload).encode(), fault.delay if fault is not None else 0.0


def _with_headers(reply: tuple[int, bytes, float] | tuple[int, bytes, float, dict[str, str]]
                  ) -> tuple[int, bytes, float, dict[str, str]]:
    headers: dict[str, str] = reply[3] if len(reply) == 4 else {}
    return reply[0], reply[1], reply[2], headers


def main(argv: list[str] | None = None) -> int:
    """Run the double as its own process (see the module docstring)."""
    import argparse
    import signal
    import sys

    parser = argparse.ArgumentParser(description="OpenAI-compatible TEST DOUBLE (not a product component)")
    parser.add_argument("--latency-p50", type=float, default=0.0, help="seconds (0: answer at once)")
    parser.add_argument("--latency-p99", type=float, default=None, help="seconds; unset: fixed latency")
    parser.add_argument("--rate-limit-rate", type=float, default=0.0, help="share of requests answered 429")
    parser.add_argument("--error-rate", type=float, default=0.0, help="share of requests answered 500")
    parser.add_argument("--retry-after", type=float, default=None, help="Retry-After seconds on a 429")
    parser.add_argument("--endpoints", default="chat", help="comma list of chat, embeddings")
    parser.add_argument("--chat", choices=sorted(CHAT_HANDLERS), default="echo-candidates")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    latency = (Latency.lognormal(args.latency_p50, args.latency_p99)
               if args.latency_p99 is not None and args.latency_p99 > args.latency_p50
               else Latency.fixed(args.latency_p50))
    server = FakeOpenAIServer(record_limit=1000)
    server.chat_handler = CHAT_HANDLERS[args.chat]
    if args.chat == "rules-candidates":
        rules_extractor()  # load the classifier before the first request
    server.configure(latency=latency, error_rate=args.error_rate, rate_limit_rate=args.rate_limit_rate,
                     retry_after=args.retry_after, endpoints=tuple(args.endpoints.split(",")), seed=args.seed)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: stop.set())
    server.start()
    import os

    print(json.dumps({"base_url": server.base_url, "pid": os.getpid()}), flush=True)
    sys.stdout.flush()
    stop.wait()
    server.stop()
    return 0


__all__ = ["CHAT_HANDLERS", "FakeOpenAIServer", "Latency", "LoadProfile", "RecordedRequest", "Reply",
           "echo_candidates", "rules_candidates"]


if __name__ == "__main__":
    raise SystemExit(main())
