"""The last step of every consumer group: a record ends here, marked done or dead-lettered.

``DeadLetterStep`` is shared by the extractor, indexer and command groups (one instance each) and is
used from the loop thread only (the ``done`` callback of ``ConsumerLoop`` is not thread-safe):

- ``mark(record, outcome)`` counts the outcome (``pai_memory_events_consumed_total``) and marks the
  record done (its effects are durable, or it was dead-lettered);
- ``try_send(record, reason)`` publishes the dead letter (reason = exception class and message, or the
  given text), counts it and marks the record done; a failed publish returns False (the caller tries
  again later) and after ``dlq_max_attempts`` failures in a row raises ``FatalConsumerError``: a
  group that cannot dead-letter must not skip records silently;
- ``dead_letter(record, reason)`` is ``try_send`` that keeps a failed record in the step's backlog,
  published again by ``poll`` after a backoff (``RetryPolicy``); ``revoke`` drops the backlog's
  records of revoked partitions (not done: the next owner gets them again);
- every outcome is watched by the dead-letter limit (``consumers.steps.dlq_limit``): when too many
  of the group's recent records were dead-lettered, ``mark`` raises ``DlqLimitExceeded`` after
  marking the record, and the loop stops the group.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from consumers import metrics as consumer_metrics
from consumers.dlq import DeadLetterError, DeadLetterPublisher
from consumers.errors import FatalConsumerError, describe
from consumers.offsets import TopicPartitionKey
from consumers.policies import RetryPolicy
from consumers.runtime import DoneCallback, Record
from consumers.steps.dlq_limit import DlqLimit, DlqLimitExceeded, DlqLimitWindow
from consumers.steps.retry import Backoff

log = logging.getLogger(__name__)

DEAD_LETTERED = "dead_lettered"


@dataclass(frozen=True)
class _Held:
    """A dead letter whose publish failed, waiting in the backlog."""

    record: Record
    reason: str
    error_type: str


class DeadLetterStep:
    """Marks records done and dead-letters them for one consumer group (see the module docstring)."""

    def __init__(
        self,
        group: str,
        dlq: DeadLetterPublisher,
        *,
        retry: RetryPolicy | None = None,
        dlq_max_attempts: int = 5,
        limit: DlqLimit | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if dlq_max_attempts < 1:
            raise ValueError("attempt limits must be >= 1")
        self.group = group
        self.dlq = dlq
        self.retry = retry or RetryPolicy()
        self.dlq_max_attempts = dlq_max_attempts
        self.clock = clock
        self.limit = DlqLimitWindow(limit or DlqLimit())
        self.backoff = Backoff()  # of the backlog's head
        self._backlog: list[_Held] = []
        self._done: DoneCallback | None = None
        self._failures = 0  # failed publishes in a row
        self.dead_lettered = 0

    def bind(self, done: DoneCallback) -> None:
        self._done = done

    @property
    def held(self) -> int:
        """Records waiting in the backlog for their dead letter to be published."""
        return len(self._backlog)

    def mark(self, record: Record, outcome: str) -> None:
        """Count ``outcome`` and mark ``record`` done; raises ``DlqLimitExceeded`` past the limit."""
        if self._done is None:
            raise RuntimeError("strategy not bound to a consumer loop")
        consumer_metrics.EVENTS_CONSUMED.labels(self.group, record.topic, outcome).inc()
        self._done(record)
        why = self.limit.observe(outcome == DEAD_LETTERED)
        if why is not None:
            raise DlqLimitExceeded(f"dead-letter limit of group {self.group} passed: {why} to "
                                   f"{self.dlq.topic}; stopping instead of dead-lettering every record")

    def try_send(self, record: Record, exc: BaseException | str, *, error_type: str | None = None,
                 attempts: int = 1) -> bool:
        """Publish ``record`` to the DLQ with the reason, then mark it done. False: try again later."""
        reason = exc if isinstance(exc, str) else describe(exc)
        etype = error_type or (type(exc).__name__ if not isinstance(exc, str) else "Error")
        try:
            self.dlq.send(record, reason=reason, error_type=etype, attempts=attempts)
        except DeadLetterError as dlq_exc:
            self._failures += 1
            consumer_metrics.CONSUMER_ERRORS.labels(self.group, "dlq").inc()
            if self._failures >= self.dlq_max_attempts:
                raise FatalConsumerError(
                    f"cannot dead-letter to {self.dlq.topic} ({self._failures} attempts): {dlq_exc}"
                ) from dlq_exc
            log.warning("dead-lettering %s:%s@%s failed (attempt %d, will retry): %s", record.topic,
                        record.partition, record.offset, self._failures, dlq_exc)
            return False
        self._failures = 0
        self.dead_lettered += 1
        consumer_metrics.DLQ_EVENTS.labels(self.group).inc()
        self.mark(record, DEAD_LETTERED)
        return True

    def dead_letter(self, record: Record, exc: BaseException | str, *, error_type: str | None = None,
                    attempts: int = 1, delay: bool = True) -> None:
        """``try_send``; a record whose publish failed waits in the backlog (``poll`` sends it again,
        after a backoff unless ``delay`` is False)."""
        if self.try_send(record, exc, error_type=error_type, attempts=attempts):
            return
        reason = exc if isinstance(exc, str) else describe(exc)
        etype = error_type or (type(exc).__name__ if not isinstance(exc, str) else "Error")
        self._backlog.append(_Held(record, reason, etype))
        if delay:
            self.backoff.failed(self.retry, self.clock())

    def poll(self) -> None:
        """Publish the backlog from its head once its backoff is over (stops at the first failure);
        a dead letter sent from the backlog says attempt 1."""
        if not self._backlog or not self.backoff.ready(self.clock()):
            return
        while self._backlog:
            head = self._backlog[0]
            if not self.try_send(head.record, head.reason, error_type=head.error_type):
                self.backoff.failed(self.retry, self.clock())
                return
            self._backlog.pop(0)
        self.backoff.reset()

    def revoke(self, revoked: set[TopicPartitionKey]) -> None:
        """Drop the backlog's records of ``revoked`` partitions (the next owner receives them again)."""
        self._backlog = [held for held in self._backlog if held.record.tp not in revoked]
