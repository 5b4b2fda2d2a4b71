"""TEST DOUBLE: a programmable OpenAI-compatible HTTP server for tests (not a product component).

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

Use the ``fake_openai`` fixture, which starts a server per test and stops it afterwards.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest


@dataclass
class Reply:
    """One scripted reply. ``content`` is the assistant message (chat) or ignored (embeddings)."""

    content: str | None = None
    status: int = 200
    delay: float = 0.0
    raw: bytes | None = None  # sent verbatim as the body, bypassing the OpenAI envelope
    dim: int | None = None  # embeddings: reply with this dimension instead of the configured one
    prompt_tokens: int = 11
    completion_tokens: int = 7


@dataclass
class RecordedRequest:
    path: str
    body: dict[str, Any]
    headers: dict[str, str]  # lower-cased names


class FakeOpenAIServer:
    """TEST DOUBLE of an OpenAI-compatible endpoint; see the module docstring."""

    def __init__(self, embedding_dim: int = 16) -> None:
        self.embedding_dim = embedding_dim
        self.default_chat: Reply | None = None
        self._chat: deque[Reply] = deque()
        self._embedding_faults: deque[Reply] = deque()
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- scripting ------------------------------------------------------------------------------
    def chat(self, content: str | None = None, *, status: int = 200, delay: float = 0.0,
             raw: bytes | None = None, repeat: int = 1) -> None:
        with self._lock:
            for _ in range(repeat):
                self._chat.append(Reply(content=content, status=status, delay=delay, raw=raw))

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
                with server._lock:
                    server.requests.append(RecordedRequest(
                        self.path, body, {k.lower(): v for k, v in self.headers.items()}))
                if self.path.rstrip("/").endswith("/chat/completions"):
                    status, payload, delay = server._chat_reply(body)
                elif self.path.rstrip("/").endswith("/embeddings"):
                    status, payload, delay = server._embedding_reply(body)
                else:
                    status, payload, delay = 404, b'{"error": {"message": "not found"}}', 0.0
                if delay:
                    time.sleep(delay)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
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
    def _chat_reply(self, body: dict[str, Any]) -> tuple[int, bytes, float]:
        with self._lock:
            reply = self._chat.popleft() if self._chat else self.default_chat
        if reply is None:
            return 500, b'{"error": {"message": "test double: no chat reply scripted"}}', 0.0
        if reply.raw is not None:
            return reply.status, reply.raw, reply.delay
        if reply.status != 200:
            err = {"error": {"message": f"test double error {reply.status}", "type": "server_error"}}
            return reply.status, json.dumps(err).encode(), reply.delay
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


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAIServer]:
    """A started ``FakeOpenAIServer`` TEST DOUBLE, stopped after the test."""
    server = FakeOpenAIServer().start()
    try:
        yield server
    finally:
        server.stop()
