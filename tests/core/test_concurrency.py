"""core.concurrency: the AIMD limiter shared by threads, rate-limit pauses, cancellation, Retry-After."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from core import metrics
from core.concurrency import (
    AdaptiveLimiter,
    DeadlineExceeded,
    LimiterClosed,
    Signal,
    retry_after_seconds,
)


def test_starts_at_the_cap_and_never_exceeds_it() -> None:
    lim = AdaptiveLimiter(4, client="test-cap")
    assert lim.limit == 4 and lim.slots == 4
    permits = [lim.acquire() for _ in range(4)]
    for p in permits:
        lim.release(p, Signal.OK)
    assert lim.limit == 4  # growth is capped
    assert metrics.MODEL_CONCURRENCY_LIMIT.labels("test-cap")._value.get() == 4


def test_overload_cuts_once_per_window_and_success_grows_slowly() -> None:
    lim = AdaptiveLimiter(10, client="test-aimd", decrease=0.5)
    a, b = lim.acquire(), lim.acquire()
    lim.release(a, Signal.OVERLOAD)
    assert lim.limit == 5 and lim.cuts == 1
    lim.release(b, Signal.OVERLOAD)  # granted before the cut: it saw the old limit, no second cut
    assert lim.limit == 5 and lim.cuts == 1
    c = lim.acquire()
    lim.release(c, Signal.OVERLOAD)  # granted after the cut: cuts again
    assert lim.limit == 2.5 and lim.slots == 2
    for _ in range(3):
        lim.release(lim.acquire(), Signal.NEUTRAL)
    assert lim.limit == 2.5  # neutral outcomes say nothing about load
    grown = []
    for _ in range(20):
        lim.release(lim.acquire(), Signal.OK)
        grown.append(lim.limit)
    assert grown == sorted(grown) and 2.5 < grown[-1] < 2.5 + 20 / 2.5  # + 1/limit per success
    for _ in range(200):
        d = lim.acquire()
        lim.release(d, Signal.OVERLOAD)
    assert lim.limit == 1 and lim.slots == 1  # never below min_limit


def test_acquire_waits_for_a_slot_and_honours_the_deadline() -> None:
    lim = AdaptiveLimiter(1, client="test-wait")
    held = lim.acquire()
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded):
        lim.acquire(deadline=time.monotonic() + 0.2)
    assert 0.15 <= time.monotonic() - started < 2.0
    got: list[float] = []

    def waiter() -> None:
        t = time.monotonic()
        lim.release(lim.acquire(deadline=time.monotonic() + 5), Signal.OK)
        got.append(time.monotonic() - t)

    th = threading.Thread(target=waiter)
    th.start()
    time.sleep(0.2)
    assert lim.in_flight == 1 and not got
    lim.release(held, Signal.OK)
    th.join(5)
    assert got and got[0] >= 0.15


def test_threads_never_exceed_the_slots() -> None:
    lim = AdaptiveLimiter(3, client="test-threads")
    lock = threading.Lock()
    state = {"now": 0, "peak": 0}

    def work() -> None:
        for _ in range(30):
            p = lim.acquire(deadline=time.monotonic() + 30)
            with lock:
                state["now"] += 1
                state["peak"] = max(state["peak"], state["now"])
            time.sleep(0.001)
            with lock:
                state["now"] -= 1
            lim.release(p, Signal.OK)

    threads = [threading.Thread(target=work) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert state["peak"] <= 3 and lim.peak_in_flight <= 3 and lim.in_flight == 0
    assert state["peak"] == 3  # and the slots were used


def test_pause_holds_every_new_request_and_is_capped() -> None:
    lim = AdaptiveLimiter(4, client="test-pause", max_pause=0.3)
    before = metrics.MODEL_RATE_LIMIT_WAIT_SECONDS.labels("test-pause")._value.get()
    assert lim.pause(10) == 0.3  # capped at max_pause
    started = time.monotonic()
    lim.release(lim.acquire(deadline=time.monotonic() + 5), Signal.OK)
    waited = time.monotonic() - started
    assert 0.25 <= waited < 2.0
    assert metrics.MODEL_RATE_LIMIT_WAIT_SECONDS.labels("test-pause")._value.get() - before >= 0.25
    lim.pause(0.3)
    with pytest.raises(DeadlineExceeded):  # the pause outlasts the caller's deadline
        lim.acquire(deadline=time.monotonic() + 0.1)


def test_close_wakes_waiters_and_stops_sleeps() -> None:
    lim = AdaptiveLimiter(1, client="test-close")
    held = lim.acquire()
    errors: list[BaseException] = []

    def blocked_acquire() -> None:
        try:
            lim.acquire()
        except LimiterClosed as exc:
            errors.append(exc)

    def blocked_sleep() -> None:
        try:
            lim.sleep(30)
        except LimiterClosed as exc:
            errors.append(exc)

    threads = [threading.Thread(target=blocked_acquire), threading.Thread(target=blocked_sleep)]
    for t in threads:
        t.start()
    time.sleep(0.2)
    started = time.monotonic()
    lim.close()
    for t in threads:
        t.join(5)
    assert len(errors) == 2 and time.monotonic() - started < 1.0
    lim.release(held, Signal.OK)  # an in-flight request still ends normally
    with pytest.raises(LimiterClosed):
        lim.acquire()


def test_retry_after_forms() -> None:
    assert retry_after_seconds({"Retry-After": "2"}) == 2.0
    assert retry_after_seconds({"retry-after": "1.5"}) == 1.5
    assert retry_after_seconds({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert retry_after_seconds({"Retry-After": "-3"}) == 0.0
    assert retry_after_seconds({}) is None and retry_after_seconds(None) is None
    assert retry_after_seconds({"Retry-After": "soon"}) is None
    now = datetime(2026, 12, 3, 12, 0, 0, tzinfo=UTC)
    date = format_datetime(now + timedelta(seconds=30), usegmt=True)
    assert retry_after_seconds({"Retry-After": date}, now=lambda: now.timestamp()) == pytest.approx(30)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError):
        AdaptiveLimiter(0, client="x")
    with pytest.raises(ValueError):
        AdaptiveLimiter(4, client="x", decrease=1.0)
