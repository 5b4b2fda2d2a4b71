"""Per-user dense slots and the circuit breaker (``core.retrieval.fairness``): pure, no services."""

from __future__ import annotations

import threading
import time

from core.retrieval.fairness import DenseBreaker, UserSlots


def test_a_user_holds_at_most_its_share_and_waits_for_its_own_slot() -> None:
    slots = UserSlots(per_user=1, wait_sec=0.05)
    assert slots.take("a")
    started = time.monotonic()
    assert not slots.take("a")  # over its share: waits, then gives up
    assert time.monotonic() - started >= 0.04
    assert slots.take("b")  # another user is not affected
    threading.Timer(0.05, slots.release, args=("a",)).start()
    patient = UserSlots(per_user=1, wait_sec=5.0)
    assert patient.take("a")
    threading.Timer(0.05, patient.release, args=("a",)).start()
    assert patient.take("a")  # released meanwhile: got it


def test_a_failure_pauses_the_failing_user_only() -> None:
    breaker = DenseBreaker(cooldown_sec=60.0, breaker_users=3)
    assert breaker.paused("a") is None
    breaker.failed("a", "EmbeddingError: boom")
    reason = breaker.paused("a")
    assert reason is not None and "paused for this user" in reason and "boom" in reason
    assert breaker.paused("b") is None


def test_failures_of_enough_distinct_users_pause_everyone() -> None:
    breaker = DenseBreaker(cooldown_sec=60.0, breaker_users=2)
    breaker.failed("a", "first")
    breaker.failed("a", "again")  # the same user twice is one user
    assert breaker.paused("z") is None
    breaker.failed("b", "second")
    reason = breaker.paused("z")
    assert reason is not None and "2 users failed, the last: second" in reason


def test_without_a_cooldown_nothing_pauses() -> None:
    breaker = DenseBreaker(cooldown_sec=0.0, breaker_users=1)
    breaker.failed("a", "boom")
    assert breaker.paused("a") is None and breaker.paused("b") is None


def test_failures_that_concern_one_user_only_never_pause_everyone() -> None:
    """Long questions failing on their own lane (``everyone=False``) pause their users, however many,
    and never count towards pausing everyone; a user's earlier counting failure keeps counting."""
    breaker = DenseBreaker(cooldown_sec=60.0, breaker_users=2)
    for user in ("a", "b", "c"):
        breaker.failed(user, "the long-question lane is full", everyone=False)
        assert breaker.paused(user) is not None
    assert breaker.paused("z") is None
    breaker.failed("d", "EmbeddingError: boom")
    breaker.failed("d", "then a long one", everyone=False)  # d still counts once
    assert breaker.paused("z") is None
    breaker.failed("e", "EmbeddingError: boom again")
    reason = breaker.paused("z")
    assert reason is not None and "2 users failed" in reason
