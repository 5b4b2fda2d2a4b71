"""Offset bookkeeping for out-of-order completion within a partition.

Invariant: the committable offset of a partition is the lowest offset still in flight (or one
past the highest completed offset when nothing is in flight), so a commit never skips a message
whose effects are not yet durable. Completion may come in any order (the extractor finishes
bursts of different users concurrently). A revoked partition is forgotten: a late ``done`` for it
is ignored (the next owner starts from the committed offset), and a partition assigned again
starts with fresh state at ``started``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

TopicPartitionKey = tuple[str, int]


@dataclass
class _PartitionState:
    in_flight: set[int] = field(default_factory=set)
    high_done: int = -1  # highest offset completed
    committed: int = -1  # last committed "next offset"


class OffsetTracker:
    """Tracks in-flight and completed offsets per partition (thread-safe)."""

    def __init__(self) -> None:
        self._parts: dict[TopicPartitionKey, _PartitionState] = {}
        self._lock = threading.Lock()

    def started(self, topic: str, partition: int, offset: int) -> None:
        with self._lock:
            self._parts.setdefault((topic, partition), _PartitionState()).in_flight.add(offset)

    def done(self, topic: str, partition: int, offset: int) -> None:
        with self._lock:
            st = self._parts.get((topic, partition))
            if st is None or offset not in st.in_flight:
                return  # forgotten (revoked) partition, or a record of an earlier assignment
            st.in_flight.discard(offset)
            st.high_done = max(st.high_done, offset)

    def committable(self) -> dict[TopicPartitionKey, int]:
        """Next offsets to commit per partition, only where they advanced since the last commit."""
        out: dict[TopicPartitionKey, int] = {}
        with self._lock:
            for key, st in self._parts.items():
                nxt = min(st.in_flight) if st.in_flight else st.high_done + 1
                if nxt > st.committed and nxt > 0:
                    out[key] = nxt
        return out

    def mark_committed(self, offsets: dict[TopicPartitionKey, int]) -> None:
        with self._lock:
            for key, nxt in offsets.items():
                if key in self._parts:
                    self._parts[key].committed = max(self._parts[key].committed, nxt)

    def in_flight(self, topic: str, partition: int) -> int:
        with self._lock:
            st = self._parts.get((topic, partition))
            return len(st.in_flight) if st else 0

    def forget(self, keys: list[TopicPartitionKey]) -> None:
        """Drop state of revoked partitions (the next owner starts from the committed offset)."""
        with self._lock:
            for key in keys:
                self._parts.pop(key, None)
