"""TEST DOUBLE: an OpenAI-compatible chat endpoint that can be switched between healthy and broken.

Built on ``tests.support.fake_openai.FakeOpenAIServer`` (real HTTP, OpenAI wire format). Modes:

- ``ok``: a deterministic "model": stage 1 answers the candidates the offline rules extractor finds in
  the current user message (so expected outcomes are known); stage 2 (refine) keeps the candidates
  it was given. Structured output ``{"candidates": [...]}``.
- ``garbage``: HTTP 200 replies that are not usable, cycling through prose, JSON of the wrong shape,
  a body that is not JSON at all, and HTTP 500.
- ``timeout``: a valid reply, but only after ``delay`` seconds (longer than the client's deadline).

``embedding_mode`` does the same for ``POST /v1/embeddings``: ``ok`` (the base double's deterministic
vectors), ``garbage`` (cycling through a wrong dimension, a body that is not JSON, HTTP 500 and an
empty ``data`` list) and ``timeout``.

Not a product component: only the reliability tests use it.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from typing import Any

from core.extraction.candidates import ExtractionInput
from core.extraction.prompts import CANDIDATES_BLOCK, CURRENT_BLOCK
from core.extraction.rules import RulesExtractor
from core.prompt_data import read_block
from tests.support.fake_openai import FakeOpenAIServer

_EMBEDDING_GARBAGE: list[tuple[int, bytes | None, int | None]] = [  # status, raw body, dimension
    (200, None, 7),
    (200, b"<html><body>embedding service warming up</body></html>", None),
    (500, None, None),
    (200, b'{"object": "list", "data": [], "model": "fake"}', None),
]

_GARBAGE: list[tuple[int, bytes | None, str | None]] = [
    (200, None, "I'm sorry, as an AI model I cannot extract memories today."),
    (200, None, json.dumps({"memories": "Lisbon", "note": "wrong shape"})),
    (200, b"<html><body>502 upstream hiccup</body></html>", None),
    (500, None, None),
]


class SwitchableLLM(FakeOpenAIServer):
    """TEST DOUBLE (see module docstring). ``mode`` may be changed at any time from the test."""

    def __init__(self, delay: float = 6.0) -> None:
        super().__init__()
        self.mode = "ok"
        self.embedding_mode = "ok"
        self.delay = delay
        self.replies: dict[str, int] = {"ok": 0, "garbage": 0, "timeout": 0}
        self.embedding_replies: dict[str, int] = {"ok": 0, "garbage": 0, "timeout": 0}
        self._embedding_garbage = itertools.cycle(_EMBEDDING_GARBAGE)
        self._rules = RulesExtractor()
        self._garbage = itertools.cycle(_GARBAGE)
        self._mode_lock = threading.Lock()

    def _chat_reply(self, body: dict[str, Any]) -> tuple[int, bytes, float]:
        with self._mode_lock:
            mode = self.mode
            self.replies[mode] = self.replies.get(mode, 0) + 1
            garbage = next(self._garbage) if mode == "garbage" else None
        if garbage is not None:
            status, raw, content = garbage
            if raw is not None:
                return status, raw, 0.0
            if status != 200:
                return status, b'{"error": {"message": "test double: upstream failure"}}', 0.0
            return 200, self._envelope(body, content or ""), 0.0
        reply = self._envelope(body, json.dumps({"candidates": self._answer(body)}, ensure_ascii=False))
        return 200, reply, self.delay if mode == "timeout" else 0.0

    def _embedding_reply(self, body: dict[str, Any]) -> tuple[int, bytes, float]:
        with self._mode_lock:
            mode = self.embedding_mode
            self.embedding_replies[mode] = self.embedding_replies.get(mode, 0) + 1
            garbage = next(self._embedding_garbage) if mode == "garbage" else None
        if garbage is not None:
            status, raw, dim = garbage
            if raw is not None:
                return status, raw, 0.0
            if status != 200:
                return status, b'{"error": {"message": "test double: embeddings down"}}', 0.0
            return super()._embedding_reply({**body, "dimensions": dim})
        status, payload, _ = super()._embedding_reply(body)
        return status, payload, self.delay if mode == "timeout" else 0.0

    def _answer(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        messages = body.get("messages") or []
        prompt = str(messages[-1].get("content", "")) if messages else ""
        if f"<{CANDIDATES_BLOCK}>" in prompt:  # refine: keep what stage 1 proposed
            return list(read_block(prompt, CANDIDATES_BLOCK))
        user_message = read_block(prompt, CURRENT_BLOCK)[0]["content"]
        found = self._rules.extract(ExtractionInput(user_message=user_message))
        return [c.model_dump(mode="json") for c in found]

    @staticmethod
    def _envelope(body: dict[str, Any], content: str) -> bytes:
        payload = {
            "id": "chatcmpl-reliability",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake-model"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }
        return json.dumps(payload, ensure_ascii=False).encode("utf-8")
