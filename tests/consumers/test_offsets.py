"""OffsetTracker: commits never pass a record whose effects are not durable (gaps, out-of-order
completion, revocation)."""

from __future__ import annotations

import random
import threading

from consumers.offsets import OffsetTracker

TP = ("t", 0)


def start(tracker: OffsetTracker, *offsets: int, partition: int = 0) -> None:
    for o in offsets:
        tracker.started("t", partition, o)


def test_nothing_done_nothing_to_commit() -> None:
    tracker = OffsetTracker()
    start(tracker, 0, 1, 2)
    assert tracker.committable() == {}


def test_in_order_completion_commits_one_past_the_last_done() -> None:
    tracker = OffsetTracker()
    start(tracker, 0, 1, 2)
    tracker.done("t", 0, 0)
    tracker.done("t", 0, 1)
    assert tracker.committable() == {TP: 2}
    tracker.done("t", 0, 2)
    assert tracker.committable() == {TP: 3}


def test_out_of_order_completion_waits_for_the_lowest_in_flight() -> None:
    tracker = OffsetTracker()
    start(tracker, 10, 11, 12, 13)
    tracker.done("t", 0, 12)
    tracker.done("t", 0, 13)
    assert tracker.committable() == {TP: 10}  # 10 is still in flight: nothing past it
    tracker.done("t", 0, 11)
    assert tracker.committable() == {TP: 10}
    tracker.done("t", 0, 10)
    assert tracker.committable() == {TP: 14}


def test_gaps_in_offsets_are_skipped() -> None:
    """Compacted topics and transaction markers leave gaps: the next offset is one past the highest done."""
    tracker = OffsetTracker()
    start(tracker, 3, 7, 20)
    tracker.done("t", 0, 7)
    assert tracker.committable() == {TP: 3}
    tracker.done("t", 0, 3)
    assert tracker.committable() == {TP: 20}
    tracker.done("t", 0, 20)
    assert tracker.committable() == {TP: 21}


def test_committed_offsets_are_not_offered_again_until_they_advance() -> None:
    tracker = OffsetTracker()
    start(tracker, 0, 1)
    tracker.done("t", 0, 0)
    assert tracker.committable() == {TP: 1}
    tracker.mark_committed({TP: 1})
    assert tracker.committable() == {}
    tracker.done("t", 0, 1)
    assert tracker.committable() == {TP: 2}


def test_partitions_are_independent() -> None:
    tracker = OffsetTracker()
    start(tracker, 0, 1, partition=0)
    start(tracker, 0, 1, partition=1)
    tracker.done("t", 1, 0)
    tracker.done("t", 1, 1)
    assert tracker.committable() == {("t", 1): 2}
    assert tracker.in_flight("t", 0) == 2 and tracker.in_flight("t", 1) == 0


def test_revocation_forgets_and_late_completions_are_ignored() -> None:
    tracker = OffsetTracker()
    start(tracker, 5, 6, 7)
    tracker.done("t", 0, 5)
    tracker.forget([TP])
    assert tracker.committable() == {}
    # a burst abandoned on revoke finishes later: it must not create state for the partition
    tracker.done("t", 0, 7)
    assert tracker.committable() == {} and tracker.in_flight("t", 0) == 0
    # assigned again: the next owner's records start fresh from the committed offset (6)
    start(tracker, 6, 7)
    tracker.done("t", 0, 7)
    assert tracker.committable() == {TP: 6}
    tracker.done("t", 0, 6)
    assert tracker.committable() == {TP: 8}


def test_done_for_a_record_never_started_or_done_twice_changes_nothing() -> None:
    tracker = OffsetTracker()
    start(tracker, 0, 1)
    tracker.done("t", 0, 5)  # never started
    assert tracker.committable() == {}
    tracker.done("t", 0, 0)
    tracker.done("t", 0, 0)
    assert tracker.committable() == {TP: 1}


def test_concurrent_out_of_order_completion_never_passes_an_unfinished_record() -> None:
    tracker = OffsetTracker()
    n = 2000
    start(tracker, *range(n))
    order = list(range(n))
    random.Random(7).shuffle(order)
    finished: set[int] = set()
    lock = threading.Lock()
    violations: list[tuple[int, int]] = []

    def worker(chunk: list[int]) -> None:
        for o in chunk:
            with lock:
                finished.add(o)
            tracker.done("t", 0, o)

    def watcher() -> None:
        for _ in range(300):
            nxt = tracker.committable().get(TP)
            if nxt is not None:
                with lock:
                    missing = [o for o in range(nxt) if o not in finished]
                if missing:
                    violations.append((nxt, missing[0]))

    threads = [threading.Thread(target=worker, args=(order[i::4],)) for i in range(4)]
    threads.append(threading.Thread(target=watcher))
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert violations == []
    assert tracker.committable() == {TP: n}
