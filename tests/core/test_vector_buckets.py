"""User buckets (``core.vector_buckets``): the user -> partition mapping, and a collection made with them
on the real Milvus server of the local stack (writes land in the user's partition, a search reads
only that partition, deletes and the erasure's door reach every partition, verify finds an entry
filed in the wrong partition)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from core import vector_buckets as vb
from core.config import Settings
from core.vectorstore import IndexRow, MilvusMemoryIndex

DIM = 8
BUCKETS = 8


# --- the mapping (no server) ---------------------------------------------------------------------
def test_the_mapping_is_pinned_and_does_not_depend_on_the_process() -> None:
    # pinned: a change would send existing users' searches to partitions that do not hold their rows
    assert [vb.bucket_of(u, 64) for u in (1, 2, 3, 42, 10**12, -5)] == [56, 53, 50, 57, 57, 39]
    assert vb.partition_of(42, 64) == "ub64_0057"
    code = "from core.vector_buckets import bucket_of; print([bucket_of(u, 64) for u in range(1, 200)])"
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert runs == {str([vb.bucket_of(u, 64) for u in range(1, 200)]) + "\n"}


def test_users_spread_evenly_over_the_buckets() -> None:
    counts = Counter(vb.bucket_of(u, 64) for u in range(1, 64_001))
    assert len(counts) == 64 and min(counts.values()) > 900 and max(counts.values()) < 1100


def test_bucket_counts_are_validated_and_the_layout_read_back_from_the_names() -> None:
    for bad in (0, -1, 1024, 2.0, True):
        with pytest.raises(ValueError):
            vb.bucket_of(1, bad)  # type: ignore[arg-type]
    assert vb.all_partitions(3) == ["ub3_0000", "ub3_0001", "ub3_0002"]
    assert vb.layout_of(["_default", *vb.all_partitions(3)]) == 3
    assert vb.layout_of(["_default", "ub3_0000", "ub3_0002"]) == 0  # incomplete: searched whole
    assert vb.layout_of(["_default"]) == 0
    assert vb.layout_of([f"_default_{i}" for i in range(16)]) == 0  # a partition-key collection
    assert vb.layout_of([*vb.all_partitions(2), *vb.all_partitions(3)]) == 0  # two layouts: none trusted


# --- a bucketed collection on the real server ----------------------------------------------------
@pytest.fixture
def bucketed(settings: Settings, unique_name: Callable[[str], str]) -> Iterator[MilvusMemoryIndex]:
    view = MilvusMemoryIndex.from_settings(settings, collection=unique_name("t_vb"), dim=DIM)
    view.user_partitions = BUCKETS
    view.ensure_collection()
    yield view
    view.drop_collection()
    view.close()


def _vec(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def _in_partition(view: MilvusMemoryIndex, partition: str) -> set[int]:
    client = view._holder.get()
    rows = client.query(view.collection, filter="id >= 0", output_fields=["id"], partition_names=[partition])
    return {int(r["id"]) for r in rows}


@pytest.mark.services
def test_a_users_entries_live_and_are_found_only_in_their_partition(bucketed: MilvusMemoryIndex) -> None:
    assert bucketed.layout() == BUCKETS
    users = [u for u in range(1, 40) if vb.bucket_of(u, BUCKETS) in (vb.bucket_of(1, BUCKETS),
                                                                       vb.bucket_of(2, BUCKETS))][:4]
    rows = [IndexRow(100 * u + i, u, "episode", _vec(100 * u + i)) for u in users for i in range(5)]
    assert bucketed.upsert(rows) == len(rows)
    for partition in vb.all_partitions(BUCKETS):
        held = _in_partition(bucketed, partition)
        assert held == {r.id for r in rows if vb.partition_of(r.user_id, BUCKETS) == partition}
    for user in users:
        mine = {r.id for r in rows if r.user_id == user}
        hits = bucketed.search(user, _vec(100 * user), 50)
        assert {i for i, _ in hits} == mine  # neighbours in the same partition stay out (the filter)
        assert hits[0][0] == 100 * user
        assert set(bucketed.list_ids(user)) == mine == set(bucketed.list_ids(user, anywhere=True))
        assert bucketed.count(user) == 5
    assert bucketed.misplaced_ids() == []
    bucketed.delete([r.id for r in rows if r.user_id == users[0]])
    assert bucketed.count(users[0]) == 0 and bucketed.count(users[1]) == 5


@pytest.mark.services
def test_an_entry_outside_its_bucket_is_invisible_to_search_but_not_to_erasure_or_verify(
        bucketed: MilvusMemoryIndex) -> None:
    user = 7
    right = vb.partition_of(user, BUCKETS)
    wrong = next(p for p in vb.all_partitions(BUCKETS) if p != right)
    bucketed.upsert([IndexRow(1, user, "episode", _vec(1))])
    client = bucketed._holder.get()
    client.insert(bucketed.collection, [{"id": 2, "user_id": user, "memory_type": "episode",
                                         "vector": _vec(2).tolist()}], partition_name=wrong)
    assert [i for i, _ in bucketed.search(user, _vec(2), 10)] == [1]
    assert bucketed.list_ids(user) == [1] and bucketed.list_ids(user, anywhere=True) == [1, 2]
    assert bucketed.count(user) == 1 and bucketed.count(user, anywhere=True) == 2
    assert bucketed.misplaced_ids() == [2] == bucketed.misplaced_ids(user)
    bucketed.delete([1, 2])  # a delete by id reaches every partition
    assert bucketed.count(user, anywhere=True) == 0


@pytest.mark.services
def test_a_collection_without_buckets_is_searched_whole(settings: Settings,
                                                        unique_name: Callable[[str], str]) -> None:
    view = MilvusMemoryIndex.from_settings(settings, collection=unique_name("t_vb0"), dim=DIM)
    view.ensure_collection()
    try:
        assert view.layout() == 0
        view.upsert([IndexRow(1, 5, "fact", _vec(1)), IndexRow(2, 6, "fact", _vec(2))])
        assert [i for i, _ in view.search(5, _vec(2), 10)] == [1]
        assert view.misplaced_ids() == []
    finally:
        view.drop_collection()
        view.close()
