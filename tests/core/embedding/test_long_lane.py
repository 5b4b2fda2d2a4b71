"""The long-question lane (``core.embedding.long_lane``) and the local embedder's use of it: a bounded
wait list, one low-priority worker, errors handed back; long queries embed the same vectors on it."""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import Future

import numpy as np
import pytest

from core.embedding.base import EmbeddingError
from core.embedding.local import LocalE5Embedder, long_lane
from core.embedding.long_lane import LANE_MAX_WAITING, LANE_NICE, LONG_QUERY_TOKENS, LaneFull, LongLane


def blocked(lane: LongLane, gate: threading.Event, n: int) -> list[Future[int]]:
    """``n`` jobs that each wait for ``gate``, then return their index."""
    def job(i: int) -> int:
        assert gate.wait(30), "the test never opened the gate"
        return i
    return [lane.submit(lambda i=i: job(i)) for i in range(n)]  # type: ignore[misc]


def test_one_job_runs_and_at_most_max_waiting_wait_then_it_refuses_at_once() -> None:
    lane = LongLane(max_waiting=3, nice=None)
    gate = threading.Event()
    try:
        futures = blocked(lane, gate, 4)  # one running (or about to) + three waiting
        with pytest.raises(LaneFull) as full:
            lane.submit(lambda: -1)
        assert isinstance(full.value, EmbeddingError) and "3 long questions waiting" in str(full.value)
        gate.set()
        assert [f.result(10) for f in futures] == [0, 1, 2, 3]  # in order, each exactly once
        assert lane.submit(lambda: 42).result(10) == 42  # room again
        assert lane.waiting == 0
    finally:
        gate.set()
        lane.close()


def test_an_error_of_a_job_goes_to_its_caller_and_the_lane_goes_on() -> None:
    lane = LongLane(max_waiting=1, nice=None)
    try:
        def broken() -> int:
            raise EmbeddingError("boom")
        with pytest.raises(EmbeddingError, match="boom"):
            lane.submit(broken).result(10)
        assert lane.submit(lambda: 7).result(10) == 7
    finally:
        lane.close()


def test_close_cancels_the_waiting_jobs_and_refuses_new_ones() -> None:
    lane = LongLane(max_waiting=2, nice=None)
    gate, entered = threading.Event(), threading.Event()

    def first() -> int:
        entered.set()
        assert gate.wait(30)
        return 0
    running = lane.submit(first)
    assert entered.wait(10)
    waiting = blocked(lane, gate, 2)
    lane.close()
    gate.set()
    assert running.result(10) == 0  # the running one ends
    assert all(f.cancelled() for f in waiting)
    with pytest.raises(EmbeddingError, match="closed"):
        lane.submit(lambda: 1)


@pytest.mark.skipif(sys.platform != "linux", reason="the nice value is per thread on Linux only")
def test_the_worker_runs_at_low_priority_and_the_start_hook_runs_on_it_once() -> None:
    seen: list[int] = []
    lane = LongLane(max_waiting=1, on_start=lambda: seen.append(threading.get_native_id()))
    try:
        def ids() -> tuple[int, int]:
            return threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        worker, nice = lane.submit(ids).result(10)
        assert lane.submit(lambda: 0).result(10) == 0
        assert seen == [worker] and worker != threading.get_native_id()
        assert nice == LANE_NICE
        mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        assert mine < LANE_NICE  # the caller's own priority is unchanged
    finally:
        lane.close()


def test_a_long_query_embeds_on_the_lane_to_the_vector_the_model_gives_it() -> None:
    """Only a query of more than LONG_QUERY_TOKENS tokens takes the lane; its vector is the one the
    same model gives the same text on the short path (a batch of two never takes the lane)."""
    embedder = LocalE5Embedder()
    short = "Which films does the user like?"
    long = "Which films does the user like? " + "I mostly watch romantic comedies on weekends. " * 20
    assert not embedder.is_long_query(short) and embedder.is_long_query(long)
    assert not embedder.is_long_query("x" * LONG_QUERY_TOKENS)
    on_lane = embedder.embed_queries([long])[0]
    batch = embedder.embed_queries([long, short])
    assert float(on_lane @ batch[0]) > 0.999
    np.testing.assert_allclose(np.linalg.norm(on_lane), 1.0, atol=1e-5)
    if sys.platform == "linux":
        assert long_lane().submit(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
                                  ).result(10) == LANE_NICE


def test_a_very_long_query_is_cut_to_one_window_on_the_lane() -> None:
    """A 4,000-character query is long without a tokenizer call; on the lane it embeds as its cut
    (``fit_query``: one 512-token window), the vector the short path gives that cut."""
    embedder = LocalE5Embedder()
    long = "Which films does the user like? " + "romantic comedies, weekends, popcorn, friends. " * 90
    assert len(long) > 4000 and embedder.is_long_query(long)
    cut = embedder.fit_query(long)
    assert long.startswith(cut) and len(cut) < len(long)
    on_lane = embedder.embed_queries([long])[0]
    assert float(on_lane @ embedder.embed_queries([cut, "x"])[0]) > 0.999


def test_a_full_lane_refuses_a_long_query_but_not_a_short_one() -> None:
    embedder = LocalE5Embedder()
    long = "Which films does the user like? " + "I mostly watch romantic comedies on weekends. " * 20
    embedder.embed_queries([long])  # the lane is started and idle
    gate = threading.Event()
    try:
        futures = blocked(long_lane(), gate, LANE_MAX_WAITING + 1)
        with pytest.raises(LaneFull):
            embedder.embed_queries([long + " again"])
        assert embedder.embed_queries(["Which films does the user like?"]).shape == (1, 384)
    finally:
        gate.set()
    assert [f.result(30) for f in futures] == list(range(LANE_MAX_WAITING + 1))
    assert embedder.embed_queries([long + " once more"]).shape == (1, 384)
