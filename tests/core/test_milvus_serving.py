"""The readiness condition after a bulk load or a reindex (``core.milvus_serving``): what counts as served
from sealed, indexed segments, the wait loop, and a reading of a real Milvus (the test stack's)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from core.config import Settings
from core.milvus_serving import ServingState, wait_until_ready
from core.vectorstore import IndexRow, MilvusMemoryIndex


def settled(**changes: object) -> ServingState:
    state = ServingState("c", total_rows=100, indexed_rows=100, pending_index_rows=0, segments_known=True,
                         sealed_segments=2, sealed_rows=100)
    for key, value in changes.items():
        setattr(state, key, value)
    return state


@pytest.mark.parametrize(("changes", "ready"), [
    ({}, True),
    ({"indexed_rows": 60}, False),  # the index node is still building
    ({"pending_index_rows": 40}, False),
    ({"total_rows": None}, False),  # no index described: nothing says the rows are indexed
    ({"growing_rows": 7, "growing_segments": 1}, False),  # unsealed rows searched by brute force
    ({"sealed_without_index": 1}, False),  # served before its index was built
    ({"flushed_not_served": 1}, False),  # hand-off to the query node under way
    ({"served_not_flushed": 1}, False),  # compacted away, its replacement not swapped in yet
    ({"total_rows": 0, "indexed_rows": 0, "sealed_segments": 0, "sealed_rows": 0}, True),  # empty
    ({"segments_known": False, "growing_rows": 7}, True),  # Milvus Lite: coverage alone decides
    ({"segments_known": False, "indexed_rows": 60}, False),
])
def test_ready_means_served_only_from_sealed_indexed_segments(changes: dict[str, object],
                                                              ready: bool) -> None:
    state = settled(**changes)
    assert state.ready is ready
    assert state.as_dict()["ready"] is ready
    assert state.render().endswith("; ready" if ready else "; NOT ready")


def test_wait_until_ready_polls_until_ready_or_timeout() -> None:
    now = [0.0]
    readings = iter([settled(growing_rows=5), settled(indexed_rows=10), settled()])
    slept: list[float] = []

    def sleep(sec: float) -> None:
        slept.append(sec)
        now[0] += sec

    state, waited = wait_until_ready(lambda: next(readings), timeout=60, poll=2, sleep=sleep,
                                     clock=lambda: now[0])
    assert state.ready and waited == 4.0 and slept == [2, 2]

    now[0] = 0.0
    state, waited = wait_until_ready(lambda: settled(growing_rows=5), timeout=5, poll=2, sleep=sleep,
                                     clock=lambda: now[0])
    assert not state.ready and waited == 5.0  # gives up at the timeout, with the last reading


@pytest.mark.services
def test_wait_served_on_the_test_stack(settings: Settings, unique_name: Callable[[str], str]) -> None:
    index = MilvusMemoryIndex.from_settings(settings, collection=unique_name("t_served"), dim=8)
    try:
        index.ensure_collection()
        rng = np.random.default_rng(3)
        index.upsert([IndexRow(i, i % 3 + 1, "fact", rng.normal(size=8)) for i in range(1, 301)])
        state, waited = index.wait_served(timeout=60, poll=0.5)
        assert state.ready, state.render()
        assert state.total_rows == state.indexed_rows == 300 and waited < 60
        if state.segments_known:  # a Milvus server (not Lite): all of it sealed and indexed
            assert state.sealed_rows == 300 and state.growing_rows == 0
    finally:
        if index.has_collection():
            index.drop_collection()
        index.close()
