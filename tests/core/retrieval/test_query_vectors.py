"""The query-vector LRU with single flight (``core.retrieval.query_vectors``), with a stub embedder."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pytest

from core.embedding.base import EmbeddingError
from core.retrieval.query_vectors import QueryVectors


@dataclass
class StubEmbedder:
    model: str = "stub"
    dim: int = 2
    calls: list[str] = field(default_factory=list)
    gate: threading.Event | None = None
    fail: bool = False

    def embed_passages(self, texts: list[str]) -> npt.NDArray[np.float32]:
        raise AssertionError("queries only")

    def embed_queries(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.calls.extend(texts)
        if self.gate is not None:
            assert self.gate.wait(10)
        if self.fail:
            raise EmbeddingError("model down")
        return np.array([[float(len(t)), 1.0] for t in texts], dtype=np.float32)


def test_a_cached_query_makes_no_model_call_and_the_cache_is_bounded() -> None:
    vectors, embedder = QueryVectors(size=2), StubEmbedder()
    first = vectors.vector(embedder, "tea")
    assert vectors.vector(embedder, "tea") is first and embedder.calls == ["tea"]
    vectors.vector(embedder, "coffee")
    vectors.vector(embedder, "water")  # "tea" is the least recently used: dropped
    assert len(vectors.cached) == 2
    vectors.vector(embedder, "tea")
    assert embedder.calls == ["tea", "coffee", "water", "tea"]
    other = StubEmbedder(model="other")
    vectors.vector(other, "tea")  # another model is another key
    assert other.calls == ["tea"]


def test_identical_concurrent_queries_share_one_call() -> None:
    gate = threading.Event()
    vectors, embedder = QueryVectors(), StubEmbedder(gate=gate)
    got: list[npt.NDArray[np.float32]] = []
    threads = [threading.Thread(target=lambda: got.append(vectors.vector(embedder, "tea"))) for _ in range(3)]
    for t in threads:
        t.start()
    while not vectors.in_flight or not embedder.calls:
        threading.Event().wait(0.01)
    threading.Event().wait(0.1)  # the other two are waiting on the in-flight call
    gate.set()
    for t in threads:
        t.join(10)
    assert embedder.calls == ["tea"] and len(got) == 3
    assert all(np.array_equal(v, got[0]) for v in got)
    assert vectors.in_flight == {}


def test_a_failed_call_is_neither_cached_nor_left_in_flight() -> None:
    vectors, embedder = QueryVectors(), StubEmbedder(fail=True)
    with pytest.raises(EmbeddingError):
        vectors.vector(embedder, "tea")
    assert vectors.in_flight == {} and not vectors.cached
    embedder.fail = False
    vectors.vector(embedder, "tea")
    assert embedder.calls == ["tea", "tea"]
