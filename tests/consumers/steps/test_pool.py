"""The bounded pool step without a broker: at most ``size`` tasks in flight, push back when full,
every outcome handed back as a completion on the caller's thread."""

from __future__ import annotations

import threading

import pytest

from consumers.steps.pool import BoundedPool, PoolFull


def test_a_full_pool_rejects_work_and_takes_it_once_a_completion_is_taken() -> None:
    gate = threading.Event()
    pool: BoundedPool[int, int] = BoundedPool(lambda n: (gate.wait(5), n * 10)[1], 2, name="t")
    pool.submit(1)
    pool.submit(2)
    assert pool.full and pool.in_flight == 2
    with pytest.raises(PoolFull):
        pool.submit(3)
    assert pool.in_flight == 2  # the rejected task was not taken
    gate.set()
    first = pool.wait(5)
    assert first is not None and first.error is None and not pool.full
    pool.submit(3)
    results = {first.task: first.result}
    while len(results) < 3:
        c = pool.wait(5)
        assert c is not None
        results[c.task] = c.result
    assert results == {1: 10, 2: 20, 3: 30} and pool.in_flight == 0
    assert pool.max_in_flight_seen == 2
    pool.close()


def test_at_most_size_tasks_run_at_once_on_at_most_size_threads() -> None:
    lock = threading.Lock()
    running = [0, 0]  # now, max
    release = threading.Event()

    def work(n: int) -> int:
        with lock:
            running[0] += 1
            running[1] = max(running[1], running[0])
        release.wait(5)
        with lock:
            running[0] -= 1
        return n

    pool: BoundedPool[int, int] = BoundedPool(work, 3, name="cap")
    submitted = 0
    for n in range(10):
        try:
            pool.submit(n)
            submitted += 1
        except PoolFull:
            break
    assert submitted == 3
    release.set()
    done = 0
    for n in range(3, 10):  # keep the pool full as completions come back
        c = pool.wait(5)
        assert c is not None
        done += 1
        pool.submit(n)
    while pool.in_flight:
        assert pool.wait(5) is not None
        done += 1
    assert done == 10 and running[1] <= 3
    assert len([t for t in threading.enumerate() if t.name.startswith("cap-")]) <= 3
    pool.close()


def test_errors_come_back_as_completions_never_raised_in_the_worker() -> None:
    def work(n: int) -> int:
        if n == 1:
            raise ValueError("bad task")
        if n == 2:
            raise KeyboardInterrupt  # a BaseException too
        return n

    pool: BoundedPool[int, int] = BoundedPool(work, 4)
    for n in (1, 2, 3):
        pool.submit(n)
    got = {}
    while len(got) < 3:
        c = pool.wait(5)
        assert c is not None and c.seconds >= 0
        got[c.task] = (c.result, type(c.error).__name__ if c.error else None)
    assert got == {1: (None, "ValueError"), 2: (None, "KeyboardInterrupt"), 3: (3, None)}
    assert pool.completed() == [] and pool.wait(0.01) is None
    pool.close()


def test_completed_never_blocks_and_returns_what_is_ready() -> None:
    pool: BoundedPool[int, int] = BoundedPool(lambda n: n, 2)
    assert pool.completed() == []
    pool.submit(7)
    c = pool.wait(5)
    assert c is not None and c.result == 7
    pool.submit(8)
    for _ in range(200):
        ready = pool.completed()
        if ready:
            assert [x.result for x in ready] == [8]
            break
        threading.Event().wait(0.01)
    else:
        pytest.fail("completion never ready")
    assert pool.in_flight == 0
    pool.close()


def test_size_must_be_positive() -> None:
    with pytest.raises(ValueError):
        BoundedPool(lambda n: n, 0)
