"""Embedder over any OpenAI-compatible ``/v1/embeddings`` endpoint (``openai`` client).

Contract (see ``core.embedding.base``): returns L2-normalised float32 ``(n, dim)`` where ``dim`` is
the configured dimension; a reply of any other dimension, count or shape is an ``EmbeddingError``
(never a silently different vector space). Transient failures (connection errors, timeouts, HTTP
5xx) are retried ``max_retries`` times with exponential backoff; other HTTP errors fail at once.
HTTP ``429`` is not counted as an attempt: it waits its ``Retry-After`` (capped at
``retry_after_max``, applied to every thread of the process) or a back-off and retries, as long as the
chunk's deadline (``timeout x (max_retries + 1)``) allows. Every request holds a slot of an
``AdaptiveLimiter`` (``core.concurrency``, client ``embedding``, hard cap ``max_concurrency``), so
the threads sharing this embedder (indexer batches in flight, extractor workers, API requests)
adapt to what the endpoint accepts. ``close()`` stops waiting and retrying calls (``EmbeddingError``).
Queries and passages are embedded the same way (OpenAI models take no prefixes).

Thread-safe. No network in the constructor: the client is created on first use.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import numpy as np
from pydantic import SecretStr

from core import metrics
from core.concurrency import AdaptiveLimiter, DeadlineExceeded, LimiterClosed, Signal, retry_after_seconds
from core.embedding.base import EmbeddingError, Vectors
from core.embedding.local import normalise_rows

_NO_KEY = "no-key"  # sent when the endpoint needs no key (the openai client insists on one)


class OpenAIEmbedder:
    """``Embedder`` over an OpenAI-compatible embeddings endpoint."""

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        dim: int,
        api_key: SecretStr | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        batch_size: int = 64,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        send_dimensions: bool | None = None,
        max_concurrency: int = 8,
        retry_after_max: float = 30.0,
        limiter: AdaptiveLimiter | None = None,
    ) -> None:
        if dim < 1 or batch_size < 1 or max_retries < 0 or timeout <= 0:
            raise ValueError("dim, batch_size must be >= 1, max_retries >= 0, timeout > 0")
        self.model = model
        self.dim = dim
        self.base_url = base_url
        self._api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.batch_size = batch_size
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        # text-embedding-3-* accept a ``dimensions`` request field; other servers may reject it.
        self.send_dimensions = (model.startswith("text-embedding-3") if send_dimensions is None
                                else send_dimensions)
        self._client: Any = None
        self._client_lock = threading.Lock()
        self.calls = 0  # HTTP attempts made, for metrics and tests
        self.total_tokens = 0  # usage reported by the endpoint
        self.limiter = limiter or AdaptiveLimiter(max_concurrency, client="embedding",
                                                  max_pause=retry_after_max)

    def close(self) -> None:
        """Stop waiting and retrying calls (they raise ``EmbeddingError``); idempotent."""
        self.limiter.close()

    def _get_client(self) -> Any:
        with self._client_lock:
            if self._client is None:
                import openai

                key = self._api_key.get_secret_value() if self._api_key is not None else _NO_KEY
                self._client = openai.OpenAI(base_url=self.base_url, api_key=key or _NO_KEY,
                                             timeout=self.timeout, max_retries=0)
            return self._client

    def embed_passages(self, texts: list[str]) -> Vectors:
        return self._embed(texts)

    def embed_queries(self, texts: list[str]) -> Vectors:
        return self._embed(texts)

    def _embed(self, texts: list[str]) -> Vectors:
        if isinstance(texts, str) or not all(isinstance(t, str) for t in texts):
            raise TypeError("texts must be a list of str")
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), self.batch_size):
            chunk = list(texts[start:start + self.batch_size])
            out[start:start + len(chunk)] = self._embed_chunk(chunk)
        return normalise_rows(out)

    def _embed_chunk(self, chunk: list[str]) -> Vectors:
        import openai

        client = self._get_client()
        kwargs: dict[str, Any] = {"model": self.model, "input": chunk, "encoding_format": "float"}
        if self.send_dimensions:
            kwargs["dimensions"] = self.dim
        deadline = time.monotonic() + self.timeout * (self.max_retries + 1)
        attempt = 0
        rate_limited = 0
        last = "no attempt made"
        while True:
            try:
                permit = self.limiter.acquire(deadline)
            except DeadlineExceeded as exc:
                raise EmbeddingError(f"embeddings endpoint: no request slot before the deadline "
                                     f"({self.limiter.client} rate limit or concurrency): {exc}") from exc
            except LimiterClosed as exc:
                raise EmbeddingError("embeddings client closed (shutdown)") from exc
            signal = Signal.NEUTRAL
            wait: float | None = None
            reason = "error"
            with self._client_lock:
                self.calls += 1
            try:
                kwargs["timeout"] = max(0.01, min(self.timeout, deadline - time.monotonic()))
                resp = client.embeddings.create(**kwargs)
                signal = Signal.OK
                break
            except openai.RateLimitError as exc:
                signal, reason = Signal.OVERLOAD, "rate_limited"
                wait = retry_after_seconds(dict(exc.response.headers.items()))
                rate_limited += 1
                last = f"{type(exc).__name__}: {exc}"
            except (openai.APIConnectionError, openai.InternalServerError) as exc:
                # APITimeoutError is a subclass of APIConnectionError.
                if isinstance(exc, openai.APITimeoutError) or getattr(exc, "status_code", None) == 503:
                    signal, reason = Signal.OVERLOAD, "timeout"
                if attempt >= self.max_retries:
                    raise EmbeddingError(f"embeddings endpoint failed after {attempt + 1} attempts: "
                                         f"{type(exc).__name__}: {exc}") from exc
                attempt += 1
                last = f"{type(exc).__name__}: {exc}"
            except openai.APIStatusError as exc:
                raise EmbeddingError(f"embeddings endpoint rejected the request: HTTP {exc.status_code}: "
                                     f"{exc.message}") from exc
            except openai.OpenAIError as exc:
                raise EmbeddingError(f"embeddings request failed: {type(exc).__name__}: {exc}") from exc
            except ValueError as exc:
                # HTTP 200 whose body is not JSON: the client raises json.JSONDecodeError, not an
                # OpenAIError; retried like a connection failure, then EmbeddingError, which the indexer
                # and the extractor handle (an unhandled ValueError would end their processes)
                if attempt >= self.max_retries:
                    raise EmbeddingError(f"embeddings endpoint returned an unreadable body after "
                                         f"{attempt + 1} attempts: {type(exc).__name__}") from exc
                attempt += 1
                last = f"unreadable body: {type(exc).__name__}"
            finally:
                self.limiter.release(permit, signal)
            if self.limiter.closed:
                raise EmbeddingError(f"embeddings client closed (shutdown); last: {last}")
            pause = min(self.backoff_max, self.backoff_base * (2 ** (max(attempt, rate_limited) - 1)))
            pause *= 0.8 + 0.4 * random.random()
            if wait is not None:  # Retry-After: for every thread of the process
                pause = min(max(wait, 0.05), self.limiter.max_pause)
            if time.monotonic() + pause >= deadline:
                raise EmbeddingError(f"embeddings endpoint: {last}; no time left to retry within "
                                     f"{self.timeout * (self.max_retries + 1):g}s")
            metrics.MODEL_RETRIES.labels("embedding", reason).inc()
            try:
                if wait is not None:
                    self.limiter.pause(pause)
                else:
                    self.limiter.sleep(pause)
            except LimiterClosed as exc:
                raise EmbeddingError(f"embeddings client closed (shutdown); last: {last}") from exc
        return self._parse(resp, len(chunk))

    def _parse(self, resp: Any, expected: int) -> Vectors:
        data = list(getattr(resp, "data", None) or [])
        if len(data) != expected:
            raise EmbeddingError(f"embeddings endpoint returned {len(data)} vectors for {expected} inputs")
        usage = getattr(resp, "usage", None)
        if usage is not None and isinstance(getattr(usage, "total_tokens", None), int):
            with self._client_lock:
                self.total_tokens += usage.total_tokens
        try:
            ordered = sorted(data, key=lambda d: int(d.index))
            arr = np.asarray([d.embedding for d in ordered], dtype=np.float32)
        except (TypeError, ValueError, AttributeError) as exc:
            raise EmbeddingError(f"embeddings endpoint returned a malformed vector: {exc}") from exc
        if arr.ndim != 2 or arr.shape[1] != self.dim:
            got = arr.shape[1] if arr.ndim == 2 else arr.shape
            raise EmbeddingError(f"embeddings endpoint returned dimension {got}, configured "
                                 f"MEMORY_EMBEDDING_DIM is {self.dim} (model {self.model})")
        return arr
