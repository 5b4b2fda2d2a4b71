"""The steps every processing strategy shares: mark done, dead-letter, decide on an error, back off.

``RecordSteps`` is used from the loop thread only (the ``done`` callback of ``ConsumerLoop`` is not
thread-safe by contract). Each strategy keeps only its own logic (parsing, batching, bursts) and
calls these for the rest, so the three consumer groups classify and count errors the same way:

- ``decide(exc, attempts)`` -> ``RETRY`` or ``DEAD_LETTER`` by ``consumers.errors.classify``;
  a fatal error raises ``FatalConsumerError`` (chained) instead;
- ``dead_letter(record, exc)`` publishes the dead letter (reason = exception class and message),
  then marks the record done; a failed publish returns False (the caller retries later with
  ``Backoff``) and after ``dlq_max_attempts`` failures in a row raises ``FatalConsumerError``:
  a group that cannot dead-letter must not skip records silently;
- ``mark(record, outcome)`` counts the outcome and marks the record done.
"""

from __future__ import annotations

import enum
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from consumers import metrics as consumer_metrics
from consumers.dlq import DeadLetterError, DeadLetterPublisher
from consumers.errors import ErrorClass, FatalConsumerError, classify, describe
from consumers.policies import RetryPolicy
from consumers.runtime import DoneCallback, Record

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


class RecordSteps:
    """Shared steps of one consumer group (see the module docstring)."""

    def __init__(
        self,
        group: str,
        dlq: DeadLetterPublisher,
        *,
        retry: RetryPolicy | None = None,
        max_record_attempts: int = 3,
        dlq_max_attempts: int = 5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_record_attempts < 1 or dlq_max_attempts < 1:
            raise ValueError("attempt limits must be >= 1")
        self.group = group
        self.dlq = dlq
        self.retry = retry or RetryPolicy()
        self.max_record_attempts = max_record_attempts
        self.dlq_max_attempts = dlq_max_attempts
        self.clock = clock
        self._done: DoneCallback | None = None
        self._dlq_failures = 0
        self.dead_lettered = 0

    def bind(self, done: DoneCallback) -> None:
        self._done = done

    def mark(self, record: Record, outcome: str) -> None:
        """Count ``outcome`` and mark ``record`` done (its effects are durable or it was dead-lettered)."""
        if self._done is None:
            raise RuntimeError("strategy not bound to a consumer loop")
        consumer_metrics.EVENTS_CONSUMED.labels(self.group, record.topic, outcome).inc()
        self._done(record)

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

    def dead_letter(self, record: Record, exc: BaseException | str, *, error_type: str | None = None,
                    attempts: int = 1) -> bool:
        """Publish ``record`` to the DLQ with the reason, then mark it done. False: retry later."""
        reason = exc if isinstance(exc, str) else describe(exc)
        etype = error_type or (type(exc).__name__ if not isinstance(exc, str) else "Error")
        try:
            self.dlq.send(record, reason=reason, error_type=etype, attempts=attempts)
        except DeadLetterError as dlq_exc:
            self._dlq_failures += 1
            consumer_metrics.CONSUMER_ERRORS.labels(self.group, "dlq").inc()
            if self._dlq_failures >= self.dlq_max_attempts:
                raise FatalConsumerError(
                    f"cannot dead-letter to {self.dlq.topic} ({self._dlq_failures} attempts): {dlq_exc}"
                ) from dlq_exc
            log.warning("dead-lettering %s:%s@%s failed (attempt %d, will retry): %s", record.topic,
                        record.partition, record.offset, self._dlq_failures, dlq_exc)
            return False
        self._dlq_failures = 0
        self.dead_lettered += 1
        consumer_metrics.DLQ_EVENTS.labels(self.group).inc()
        self.mark(record, "dead_lettered")
        return True
