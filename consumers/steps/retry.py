"""The retry step: what to do after an error (retry or dead-letter), and when to try again.

- ``ErrorPolicy.decide(exc, attempts, what)`` -> ``RETRY`` or ``DEAD_LETTER`` by
  ``consumers.errors.classify``, counting the error (``pai_memory_consumer_errors_total``) and the
  retry; a fatal error raises ``FatalConsumerError`` (chained) instead. An unexpected error is
  retried until ``max_record_attempts`` tries, then dead-lettered; a permanent one at once.
- ``Backoff``: the attempts and earliest next attempt of one unit of work (a record, a burst, a
  batch, a backlog), and the draining of a backlog from its head (partition order kept).

Pure loop-thread logic: no broker, no thread, no clock of its own (the caller passes ``now``).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from consumers import metrics as consumer_metrics
from consumers.errors import ErrorClass, FatalConsumerError, classify, describe
from consumers.policies import RetryPolicy

T = TypeVar("T")

log = logging.getLogger(__name__)


class Action(enum.Enum):
    RETRY = "retry"
    DEAD_LETTER = "dead_letter"


@dataclass
class Backoff:
    """Attempts and the earliest next attempt of one unit of work (a record, a burst, a batch)."""

    attempts: int = 0
    not_before: float = 0.0

    def ready(self, now: float) -> bool:
        return now >= self.not_before

    def failed(self, policy: RetryPolicy, now: float) -> float:
        """Count a failed attempt; returns the delay before the next one."""
        self.attempts += 1
        delay = policy.delay(self.attempts)
        self.not_before = now + delay
        return delay

    def reset(self) -> None:
        self.attempts = 0
        self.not_before = 0.0

    def drain(self, backlog: list[T], apply: Callable[[T], bool], policy: RetryPolicy,
              clock: Callable[[], float]) -> None:
        """Apply ``backlog`` from its head, popping each item ``apply`` succeeded on and resetting the
        attempts; at the first failure count it (``failed``) and stop, so that item, still at the head,
        is tried first once ``ready`` (the partition's order is kept behind it)."""
        while backlog:
            if not apply(backlog[0]):
                self.failed(policy, clock())
                return
            backlog.pop(0)
            self.reset()


class ErrorPolicy:
    """How one consumer group answers an error of its work (see the module docstring)."""

    def __init__(self, group: str, *, max_record_attempts: int = 3) -> None:
        if max_record_attempts < 1:
            raise ValueError("attempt limits must be >= 1")
        self.group = group
        self.max_record_attempts = max_record_attempts

    def decide(self, exc: BaseException, attempts: int, what: str) -> Action:
        """What to do after ``exc`` on the ``attempts``-th try of ``what`` (for the log line).

        Raises ``FatalConsumerError`` for a fatal error."""
        kind = classify(exc)
        consumer_metrics.CONSUMER_ERRORS.labels(self.group, kind.value).inc()
        if kind is ErrorClass.FATAL:
            raise FatalConsumerError(f"{what}: {describe(exc)}") from exc
        if kind is ErrorClass.PERMANENT:
            log.warning("%s failed for good (%s): %s", what, kind.value, describe(exc))
            return Action.DEAD_LETTER
        if kind is ErrorClass.UNKNOWN and attempts >= self.max_record_attempts:
            log.error("%s failed %d times with an unexpected error, giving up: %s", what, attempts,
                      describe(exc), exc_info=exc)
            return Action.DEAD_LETTER
        consumer_metrics.CONSUMER_RETRIES.labels(self.group).inc()
        log.warning("%s: attempt %d failed (%s), will retry: %s", what, attempts, kind.value, describe(exc))
        return Action.RETRY
