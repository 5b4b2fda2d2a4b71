"""An ``Embedder`` decorator that exports calls, failures, latency and texts to Prometheus."""

from __future__ import annotations

import time
from collections.abc import Callable

from core import metrics
from core.embedding.base import Embedder, EmbeddingError, Vectors


class InstrumentedEmbedder:
    """Delegates to ``inner``; same contract, plus metrics labelled by ``provider`` and by ``caller``
    (the component that owns this instance: ``dedup``, ``indexer``, ``retrieval``...), so the model
    calls per stored memory can be counted per side of the pipeline."""

    def __init__(self, inner: Embedder, provider: str, caller: str = "other") -> None:
        self.inner = inner
        self.provider = provider
        self.caller = caller
        self.model = inner.model
        self.dim = inner.dim

    def embed_passages(self, texts: list[str]) -> Vectors:
        return self._timed(self.inner.embed_passages, texts)

    def embed_queries(self, texts: list[str]) -> Vectors:
        return self._timed(self.inner.embed_queries, texts)

    def fit_query(self, text: str) -> str:
        """The inner embedder's ``fit_query`` when it has one (the text unchanged otherwise)."""
        fit = getattr(self.inner, "fit_query", None)
        return fit(text) if callable(fit) else text

    def is_long_query(self, text: str) -> bool:
        """The inner embedder's ``is_long_query`` when it has one (False otherwise: no long-question lane)."""
        is_long = getattr(self.inner, "is_long_query", None)
        return bool(is_long(text)) if callable(is_long) else False

    def warm_up(self) -> None:
        """Load the model now when the inner embedder supports it (no-op otherwise)."""
        warm = getattr(self.inner, "warm_up", None)
        if callable(warm):
            warm()

    def close(self) -> None:
        """Stop the inner embedder's waiting and retrying calls when it supports it (no-op otherwise)."""
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()

    def _timed(self, fn: Callable[[list[str]], Vectors], texts: list[str]) -> Vectors:
        if not texts:
            return fn(texts)
        started = time.perf_counter()
        try:
            out = fn(texts)
        except EmbeddingError:
            metrics.EMBEDDING_CALLS.labels(self.provider, "error").inc()
            raise
        metrics.EMBEDDING_CALLS.labels(self.provider, "ok").inc()
        metrics.EMBEDDING_LATENCY.labels(self.provider).observe(time.perf_counter() - started)
        metrics.EMBEDDED_TEXTS.labels(self.provider).inc(len(texts))
        metrics.EMBEDDING_CALLS_BY_CALLER.labels(self.caller).inc()
        metrics.EMBEDDED_TEXTS_BY_CALLER.labels(self.caller).inc(len(texts))
        return out
