"""The dense stage (``core.retrieval.dense``) with a stub embedder and a stub vector search: no services."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pytest

from core.config import Settings
from core.retrieval.dense import DenseFailure, DensePath
from core.retrieval.plan import EpisodeAsk
from core.vectorstore import VectorStoreError


@dataclass
class StubEmbedder:
    model: str = "stub"
    dim: int = 2
    gate: threading.Event | None = None

    def embed_passages(self, texts: list[str]) -> npt.NDArray[np.float32]:
        raise AssertionError("queries only")

    def embed_queries(self, texts: list[str]) -> npt.NDArray[np.float32]:
        if self.gate is not None:
            assert self.gate.wait(10)
        return np.ones((len(texts), self.dim), dtype=np.float32)


@dataclass
class StubSearch:
    hits: list[tuple[int, float]] = field(default_factory=lambda: [(7, 0.9)])
    error: Exception | None = None
    scopes: list[int] = field(default_factory=list)

    def search(self, user_id: int, vector: npt.NDArray[np.float32], limit: int) -> list[tuple[int, float]]:
        self.scopes.append(user_id)
        if self.error is not None:
            raise self.error
        return self.hits


def settings(**overrides: object) -> Settings:
    values = {"MEMORY_MILVUS_ENABLED": True, "RETRIEVAL_DENSE_TIMEOUT_SEC": 5.0,
              "RETRIEVAL_DENSE_COOLDOWN_SEC": 60.0, **overrides}
    return Settings(_env_file=None, **values)  # type: ignore[arg-type]


def ask() -> EpisodeAsk:
    return EpisodeAsk(0, None, None, None)


def resolved(start_slot: Future[int | None], user_pk: int | None) -> None:
    start_slot.set_result(user_pk)


def test_the_search_waits_for_the_user_and_is_scoped_by_it() -> None:
    search = StubSearch()
    dense = DensePath(settings(), StubEmbedder(), search, None)
    timings: dict[str, float] = {}
    start = dense.start("alice", "tea?", timings, ask())
    assert start.search is not None and start.reason is None
    resolved(start.user_slot, 42)
    assert dense.await_hits("alice", start) == [(7, 0.9)]
    assert search.scopes == [42] and {"embed_ms", "milvus_ms"} <= set(timings)
    unknown = dense.start("nobody", "tea?", {}, ask())
    resolved(unknown.user_slot, None)
    assert dense.await_hits("nobody", unknown) == [] and search.scopes == [42]
    dense.close()


def test_a_failure_is_a_reason_and_pauses_that_user() -> None:
    broken = StubSearch(error=VectorStoreError("http://root:pw1234@m:1 down"))
    dense = DensePath(settings(), StubEmbedder(), broken, None)
    start = dense.start("alice", "tea?", {}, ask())
    resolved(start.user_slot, 1)
    with pytest.raises(DenseFailure) as failure:
        dense.await_hits("alice", start)
    reason = failure.value.reason
    assert reason.startswith("VectorStoreError: ") and "pw1234" not in reason
    paused = dense.start("alice", "tea?", {}, ask())
    assert paused.search is None and "paused for this user" in (paused.reason or "")
    resolved(paused.user_slot, 1)
    assert dense.unavailable("bob") is None
    dense.close()


def test_a_missed_budget_and_a_full_pool_fall_back() -> None:
    gate = threading.Event()
    dense = DensePath(settings(RETRIEVAL_DENSE_TIMEOUT_SEC=0.1, RETRIEVAL_DENSE_CONCURRENCY=1),
                      StubEmbedder(gate=gate), StubSearch(), None)
    slow = dense.start("alice", "tea?", {}, ask())
    resolved(slow.user_slot, 1)
    full = dense.start("bob", "coffee?", {}, ask())  # the one slot is alice's
    assert full.search is None and "saturated" in (full.reason or "")
    resolved(full.user_slot, 2)
    with pytest.raises(DenseFailure) as failure:
        dense.await_hits("alice", slow)
    assert "exceeded its time budget of 0.1s" in failure.value.reason
    gate.set()
    dense.close()


def test_disabled_vector_search_or_no_embedder_says_why() -> None:
    no_search = DensePath(settings(), StubEmbedder(), None, None)
    no_embedder = DensePath(settings(), None, StubSearch(), None)
    assert "MEMORY_MILVUS_ENABLED" in (no_search.unavailable("a") or "")
    assert "no embedder" in (no_embedder.unavailable("a") or "")
    no_search.close()
    no_embedder.close()
