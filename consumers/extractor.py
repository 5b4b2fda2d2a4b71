"""The extractor consumer group: chat-message events -> stored messages -> memory writes.

Per record: parse (malformed -> dead-letter, done) -> store the message (idempotent) -> if it needs
extraction, buffer it in its conversation's burst. A burst is extracted once, when its
conversation has been quiet for ``LONG_TERM_MEMORY_DEBOUNCE_SEC`` (or has waited ``max_wait_sec``),
and its records are marked done only after the extraction transaction committed. Bursts of the
same user are flushed oldest first, so a later statement always lands after an earlier one.
Transient failures retry with exponential backoff without marking anything done; exhausted
attempts leave the messages ``FAILED`` in PostgreSQL for the sweeper and mark the records done.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy.exc import DBAPIError, OperationalError

from consumers.dlq import DeadLetterError, DeadLetterPublisher
from consumers.policies import RetryPolicy
from consumers.runtime import DoneCallback, Record
from core import metrics
from core.memory.processing import (
    MessageProcessor,
    PermanentProcessingError,
    ProcessOutcome,
    TransientProcessingError,
)
from core.memory.store import IncomingMessage
from schemas import parse_chat_message
from schemas.errors import SchemaError

log = logging.getLogger(__name__)


@dataclass
class _Burst:
    user_pk: int
    conversation_pk: int
    first_seen: float
    last_seen: float
    records: list[Record] = field(default_factory=list)
    message_pks: list[int] = field(default_factory=list)
    attempts: int = 0
    not_before: float = 0.0


class ExtractorStrategy:
    """Processing strategy of the extractor group (see ``consumers.runtime`` for the contract)."""

    def __init__(
        self,
        processor: MessageProcessor,
        dlq: DeadLetterPublisher,
        *,
        debounce_sec: float,
        group: str = "extractor",
        max_wait_sec: float | None = None,
        retry: RetryPolicy | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_outcome: Callable[[ProcessOutcome], None] | None = None,
    ) -> None:
        self.processor = processor
        self.dlq = dlq
        self.group = group
        self.debounce_sec = debounce_sec
        self.max_wait_sec = max_wait_sec if max_wait_sec is not None else max(debounce_sec * 4, 30.0)
        self.retry = retry or RetryPolicy()
        self.clock = clock
        self.on_outcome = on_outcome
        self._done: DoneCallback | None = None
        self._bursts: dict[int, _Burst] = {}  # conversation_pk -> burst, insertion = age order
        self._ingest_backlog: list[Record] = []
        self._ingest_attempts = 0
        self._ingest_not_before = 0.0
        self.dead_lettered = 0

    # --- strategy contract --------------------------------------------------------------------
    def bind(self, done: DoneCallback) -> None:
        self._done = done

    def submit(self, record: Record) -> None:
        if self._ingest_backlog and any(r.tp == record.tp for r in self._ingest_backlog):
            self._ingest_backlog.append(record)  # keep partition order behind a failed ingest
            return
        if not self._ingest(record):
            self._ingest_backlog.append(record)

    def poll(self) -> None:
        now = self.clock()
        if self._ingest_backlog and now >= self._ingest_not_before:
            self._drain_ingest_backlog()
        due = [
            b
            for b in self._bursts.values()
            if now >= b.not_before
            and (now - b.last_seen >= self.debounce_sec or now - b.first_seen >= self.max_wait_sec)
        ]
        for burst in due:
            if burst.conversation_pk in self._bursts:
                self._flush_user_until(burst)

    def revoke(self, partitions: list[tuple[str, int]]) -> None:
        revoked = set(partitions)
        self._ingest_backlog = [r for r in self._ingest_backlog if r.tp not in revoked]
        for burst in list(self._bursts.values()):
            if any(r.tp in revoked for r in burst.records) and not self._flush(burst):
                # abandon: offsets stay uncommitted; the next owner redelivers, the stored
                # PENDING messages make re-processing idempotent
                self._bursts.pop(burst.conversation_pk, None)

    def join(self, timeout: float) -> None:
        deadline = self.clock() + timeout
        while (self._bursts or self._ingest_backlog) and self.clock() < deadline:
            if self._ingest_backlog:
                self._drain_ingest_backlog()
            for burst in list(self._bursts.values()):
                if burst.conversation_pk in self._bursts:
                    self._flush(burst)
            if self._bursts or self._ingest_backlog:
                time.sleep(0.2)

    def close(self) -> None:
        self.dlq.close()

    @property
    def buffered(self) -> int:
        return sum(len(b.records) for b in self._bursts.values()) + len(self._ingest_backlog)

    # --- internals ----------------------------------------------------------------------------
    def _mark(self, record: Record, outcome: str) -> None:
        assert self._done is not None, "strategy not bound"
        metrics.EVENTS_CONSUMED.labels(self.group, record.topic, outcome).inc()
        self._done(record)

    def _ingest(self, record: Record) -> bool:
        """Store the record's message; False when the database failed (retry later)."""
        try:
            event = parse_chat_message(record.value or b"")
        except SchemaError as exc:
            try:
                self.dlq.send(record, reason=str(exc), error_type=type(exc).__name__)
            except DeadLetterError as dlq_exc:
                log.warning(
                    "dead-lettering %s:%s@%s failed (will retry): %s",
                    record.topic,
                    record.partition,
                    record.offset,
                    dlq_exc,
                )
                return False
            self.dead_lettered += 1
            metrics.DLQ_EVENTS.labels(self.group).inc()
            self._mark(record, "dead_lettered")
            return True
        data = event.data
        msg = IncomingMessage(
            message_id=data.message_id,
            user_id=data.user_id,
            conversation_id=data.conversation_id,
            role=data.role.value,
            content=data.content,
            created_at=data.created_at,
            conversation_summary=data.conversation_summary,
            source_topic=record.topic,
            source_partition=record.partition,
            source_offset=record.offset,
        )
        try:
            res = self.processor.ingest(msg)
        except (OperationalError, DBAPIError) as exc:
            log.warning("storing message %s failed (will retry): %s", data.message_id, exc)
            return False
        now = self.clock()
        burst = self._bursts.get(res.conversation_pk)
        if not res.needs_processing:
            if burst is not None:
                burst.last_seen = now
            self._mark(record, "context" if msg.role != "user" else "duplicate")
            return True
        if burst is None:
            burst = _Burst(res.user_pk, res.conversation_pk, now, now)
            self._bursts[res.conversation_pk] = burst
        burst.last_seen = now
        burst.records.append(record)
        if res.message_pk not in burst.message_pks:
            burst.message_pks.append(res.message_pk)
        return True

    def _drain_ingest_backlog(self) -> None:
        while self._ingest_backlog:
            if not self._ingest(self._ingest_backlog[0]):
                self._ingest_attempts += 1
                self._ingest_not_before = self.clock() + self.retry.delay(self._ingest_attempts)
                return
            self._ingest_backlog.pop(0)
        self._ingest_attempts = 0

    def _flush_user_until(self, target: _Burst) -> None:
        """Flush the user's older bursts, then ``target`` (per-user order)."""
        for burst in list(self._bursts.values()):
            if burst.user_pk != target.user_pk:
                continue
            if not self._flush(burst):
                return
            if burst is target:
                return

    def _flush(self, burst: _Burst) -> bool:
        """Process one burst; True when its records are done (processed or finally failed)."""
        try:
            outcome = self.processor.process(burst.message_pks)
        except TransientProcessingError as exc:
            return self._later(burst, exc)
        except (OperationalError, DBAPIError) as exc:
            return self._later(burst, exc)
        except PermanentProcessingError as exc:
            log.error("burst of conversation %s failed for good: %s", burst.conversation_pk, exc)
            result = "failed"
        else:
            result = "processed" if outcome.processed else "skipped" if outcome.skipped else "duplicate"
            log.info("conversation %s: %d message(s) %s, %d memory change(s) [%s]", burst.conversation_pk,
                     len(burst.message_pks), result, sum(w.changed for w in outcome.writes),
                     " ".join(f"{k}={v * 1000:.0f}ms" for k, v in outcome.stage_seconds.items()))
            if self.on_outcome is not None:
                self.on_outcome(outcome)
        self._bursts.pop(burst.conversation_pk, None)
        for record in burst.records:
            self._mark(record, result)
        return True

    def _later(self, burst: _Burst, exc: Exception) -> bool:
        burst.attempts += 1
        burst.not_before = self.clock() + self.retry.delay(burst.attempts)
        log.warning(
            "burst of conversation %s: attempt %d failed, retry in %.1fs: %s",
            burst.conversation_pk,
            burst.attempts,
            burst.not_before - self.clock(),
            exc,
        )
        return False
