"""Is a Milvus collection served only from sealed, indexed segments? The readiness check after a bulk
load or a reindex (``MilvusMemoryIndex.serving_state`` / ``wait_served``).

A Milvus server keeps freshly written rows in *growing* segments (searched by brute force, in memory of
the query node) until a ``flush`` seals them; the data node then writes each sealed segment, the index
node builds its vector index, and the query node swaps the growing copy for the sealed, indexed one (the
hand-off); compaction later merges small segments and the query node swaps those in too. Right after a
bulk load all of that is still running on the server, beside the searches: on Milvus 2.3 standalone,
right after loading 1M episodes, one round of searches had p99 226 ms against 15.5 ms once it had
settled (``bench/RESULTS.md``, issue 25). The state read here:

- the vector index's coverage (``describe_index``: ``total_rows``, ``indexed_rows``,
  ``pending_index_rows``);
- the segments the query node serves (``list_loaded_segments``): growing ones, and sealed ones still
  without their index (when the server names a served segment's index at all: Milvus 2.3 does not);
- the persisted segments (``list_persistent_segments``): a flushed segment the query node does not serve
  yet (hand-off under way), and served sealed segments no longer among the flushed ones (replaced by a
  compaction, still served until the hand-off of its result).

``ready`` holds when all of these are settled. Milvus Lite answers only ``describe_index`` (its segment
calls are not implemented): there ``segments_known`` is false and coverage alone decides.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class ServingState:
    """One reading of a collection's serving state (module docstring)."""

    collection: str
    total_rows: int | None = None
    indexed_rows: int | None = None
    pending_index_rows: int | None = None
    index_state: str | None = None
    segments_known: bool = False
    index_per_segment_known: bool = False
    growing_segments: int = 0
    growing_rows: int = 0
    sealed_segments: int = 0
    sealed_rows: int = 0
    sealed_without_index: int = 0
    flushed_not_served: int = 0
    served_not_flushed: int = 0

    @property
    def index_covers(self) -> bool:
        """Every row of the collection is in the vector index and none is waiting for it."""
        return (self.total_rows is not None and (self.indexed_rows or 0) >= self.total_rows
                and not self.pending_index_rows)

    @property
    def ready(self) -> bool:
        """Served only from sealed, indexed segments, with no hand-off or compaction swap pending."""
        if not self.index_covers:
            return False
        if not self.segments_known:
            return True
        return not (self.growing_rows or self.sealed_without_index or self.flushed_not_served
                    or self.served_not_flushed)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "index_covers": self.index_covers, "ready": self.ready}

    def render(self) -> str:
        text = (f"{self.collection}: index {self.indexed_rows}/{self.total_rows} rows"
                f" (pending {self.pending_index_rows or 0})")
        if self.segments_known:
            text += (f"; served: {self.sealed_segments} sealed segments ({self.sealed_rows} rows, "
                     f"{self.sealed_without_index} without index), {self.growing_segments} growing "
                     f"({self.growing_rows} rows); {self.flushed_not_served} flushed not yet served, "
                     f"{self.served_not_flushed} served but compacted away")
        return text + ("; ready" if self.ready else "; NOT ready")


def _state_name(state: Any) -> str:
    return str(getattr(state, "name", state))


def read_state(client: Any, collection: str, timeout: float) -> ServingState:
    """Read ``collection``'s serving state through a ``MilvusClient``. Errors of ``describe_index``
    propagate; the segment calls a server does not implement (Milvus Lite) leave ``segments_known``
    false."""
    out = ServingState(collection)
    info = dict(client.describe_index(collection, "vector", timeout=timeout) or {})
    for key in ("total_rows", "indexed_rows", "pending_index_rows"):
        value = info.get(key)
        setattr(out, key, int(value) if value is not None else None)
    out.index_state = str(info.get("state")) if info.get("state") is not None else None
    if not _segments_supported(client):
        return out
    try:
        loaded = client.list_loaded_segments(collection, timeout=timeout)
        persisted = client.list_persistent_segments(collection, timeout=timeout)
    except Exception as exc:
        if "not implemented" not in str(exc).lower() and "unimplemented" not in str(exc).lower():
            raise
        client._pai_no_segment_calls = True  # not asked again: pymilvus logs every failure with its traceback
        return out
    out.segments_known = True
    served_sealed: set[int] = set()
    unindexed = 0
    for seg in loaded:
        if _state_name(seg.state) == "Growing":
            out.growing_segments += 1
            out.growing_rows += int(seg.num_rows)
        else:
            out.sealed_segments += 1
            out.sealed_rows += int(seg.num_rows)
            served_sealed.add(int(seg.segment_id))
            unindexed += not (seg.index_id or seg.index_name)
    # Milvus 2.3 leaves a served segment's index id and name empty whatever its state: when no segment
    # names one, the index's coverage (above) is all there is to go by
    out.index_per_segment_known = unindexed < out.sealed_segments
    out.sealed_without_index = unindexed if out.index_per_segment_known else 0
    flushed = {int(seg.segment_id) for seg in persisted
               if _state_name(seg.state) == "Flushed" and int(seg.num_rows) > 0}
    out.flushed_not_served = len(flushed - served_sealed)
    out.served_not_flushed = len(served_sealed - flushed)
    return out


def _segments_supported(client: Any) -> bool:
    return not getattr(client, "_pai_no_segment_calls", False)


class _QuietUnimplementedSegmentCalls(logging.Filter):
    """pymilvus logs every failed call at ERROR with its traceback; a server without the segment calls
    (Milvus Lite) is an expected answer here, asked once per client, not an error."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        return not ("segment_info" in text and "not implemented" in text.lower())


logging.getLogger("pymilvus.decorators").addFilter(_QuietUnimplementedSegmentCalls())


def wait_until_ready(read: Callable[[], ServingState], timeout: float, poll: float = 2.0,
                     sleep: Callable[[float], None] = time.sleep,
                     clock: Callable[[], float] = time.monotonic) -> tuple[ServingState, float]:
    """Read the state every ``poll`` seconds until it is ``ready`` or ``timeout`` passed; returns the last
    reading and the seconds waited (the caller decides what a state still not ready means)."""
    t0 = clock()
    while True:
        state = read()
        waited = clock() - t0
        if state.ready or waited >= timeout:
            return state, waited
        sleep(min(poll, max(0.0, timeout - waited)))
