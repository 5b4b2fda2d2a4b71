"""Retrying one-shot Kafka admin/group calls through transient coordinator errors.

A group coordinator that just moved, or is still loading ``__consumer_offsets`` (right after a
broker start, or when a group is first used), answers ``NOT_COORDINATOR`` /
``COORDINATOR_LOAD_IN_PROGRESS`` / ``COORDINATOR_NOT_AVAILABLE``. librdkafka retries these inside
a consumer's poll loop, but not for a single ``committed()`` or admin future. ``call_with_retry``
re-issues such a call until it succeeds, raises a non-transient error, or ``deadline_s`` passes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from confluent_kafka import KafkaError, KafkaException

T = TypeVar("T")

TRANSIENT_CODES: frozenset[int] = frozenset({
    KafkaError.NOT_COORDINATOR,
    KafkaError.COORDINATOR_LOAD_IN_PROGRESS,
    KafkaError.COORDINATOR_NOT_AVAILABLE,
    KafkaError._TIMED_OUT,
    KafkaError._TRANSPORT,
    KafkaError.REQUEST_TIMED_OUT,
    KafkaError.LEADER_NOT_AVAILABLE,
    KafkaError.NOT_LEADER_FOR_PARTITION,
})


def is_transient(exc: BaseException) -> bool:
    """True for a ``KafkaException`` whose error is retriable or a coordinator/transport blip."""
    if not isinstance(exc, KafkaException) or not exc.args:
        return False
    err = exc.args[0]
    if not isinstance(err, KafkaError):
        return False
    return err.code() in TRANSIENT_CODES or bool(err.retriable())


def call_with_retry(call: Callable[[], T], deadline_s: float = 30.0, backoff_s: float = 0.2,
                    max_backoff_s: float = 2.0) -> T:
    """Return ``call()``; re-issue it after a transient Kafka error until ``deadline_s`` passes.

    The last transient error is re-raised at the deadline; any other exception at once. ``call``
    must be safe to repeat (a read, or a write whose repetition has the same effect).
    """
    end = time.monotonic() + deadline_s
    delay = backoff_s
    while True:
        try:
            return call()
        except KafkaException as exc:
            if not is_transient(exc) or time.monotonic() + delay > end:
                raise
        time.sleep(delay)
        delay = min(delay * 2, max_backoff_s)
