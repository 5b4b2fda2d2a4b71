"""The ingest step of the extractor: chat-message records -> stored messages, in batches.

``IngestStep`` (loop thread only):

- ``submit(record)`` only queues; ``flush()`` (each loop turn) parses the queued records and stores
  them in ONE transaction (``MessageProcessor.ingest_many``); if that fails, one by one
  (``ingest``), so one bad record costs the batch only its speed;
- a record that never parses is dead-lettered at once (``DeadLetterStep``); a store that fails is
  decided by the ``ErrorPolicy``: transient (or unexpected, up to ``max_record_attempts``) -> the
  record waits in the ingest backlog and ``poll`` stores it again after a backoff, every later record
  of its partition queued behind it (partition order); permanent -> dead-lettered;
- a stored record goes on: a message id known with other content is dead-lettered
  (``MessageIdConflict``, counted in ``pai_memory_message_id_conflicts_total``); a message that needs
  no extraction (context, duplicate) is marked done and only ``touch``es its conversation's open
  burst; one that needs extraction is ``add``ed to the next step (an ``IngestedSink``, the burst
  scheduler), which marks it done later;
- ``revoke(revoked)`` stores what was queued, then drops the backlog's records of the revoked
  partitions (not done: the next owner gets them again).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

from consumers.offsets import TopicPartitionKey
from consumers.policies import RetryPolicy
from consumers.runtime import Record
from consumers.steps.dead_letter import DeadLetterStep
from consumers.steps.retry import Action, Backoff, ErrorPolicy
from core import metrics as core_metrics
from core.memory.processing import IngestResult, MessageProcessor
from core.memory.store import IncomingMessage
from schemas import parse_chat_message

log = logging.getLogger(__name__)


class IngestedSink(Protocol):
    """The step after ingest (``consumers.steps.bursts.BurstScheduler``)."""

    def add(self, record: Record, ingested: IngestResult) -> None:
        """Take a stored record whose message needs extraction (it marks the record done later)."""
        ...

    def touch(self, conversation_pk: int) -> None:
        """A message of the conversation arrived that needs no extraction."""
        ...


def incoming_message(record: Record) -> IncomingMessage:
    """The message of a chat-message record; raises (``SchemaError`` or else) when it does not parse."""
    data = parse_chat_message(record.value or b"").data
    return IncomingMessage(
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


class IngestStep:
    """Parse and store chat-message records in batches (see the module docstring)."""

    def __init__(self, processor: MessageProcessor, sink: IngestedSink, dead_letters: DeadLetterStep,
                 errors: ErrorPolicy, *, retry: RetryPolicy | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.processor = processor
        self.sink = sink
        self.dead_letters = dead_letters
        self.errors = errors
        self.group = errors.group
        self.retry = retry or RetryPolicy()
        self.clock = clock
        self._pending: list[Record] = []  # submitted this loop turn, stored together at ``flush``
        self._backlog: list[Record] = []
        self._backoff = Backoff()

    @property
    def held(self) -> int:
        """Records queued or waiting in the backlog."""
        return len(self._pending) + len(self._backlog)

    def submit(self, record: Record) -> None:
        self._pending.append(record)

    def flush(self) -> None:
        """Store the records submitted since the last call (see the module docstring)."""
        records, self._pending = self._pending, []
        batch: list[tuple[Record, IncomingMessage]] = []
        for record in records:
            if self._behind_backlog(record):
                self._backlog.append(record)  # keep partition order behind a failed store
                continue
            msg = self._parse(record)
            if msg is not None:
                batch.append((record, msg))
        if not batch:
            return
        if len(batch) > 1:
            try:
                results = self.processor.ingest_many([msg for _, msg in batch])
            except Exception as exc:
                log.info("storing %d messages together failed, storing them one by one: %s",
                         len(batch), type(exc).__name__)
            else:
                for (record, msg), res in zip(batch, results, strict=True):
                    self._place(record, msg, res)
                return
        for record, msg in batch:
            if self._behind_backlog(record):
                self._backlog.append(record)
            elif not self._store(record, msg):
                self._backlog.append(record)
                self._backoff.failed(self.retry, self.clock())

    def poll(self) -> None:
        """Store the backlog again from its head once its backoff is over."""
        if self._backlog and self._backoff.ready(self.clock()):
            self._backoff.drain(self._backlog, self._ingest, self.retry, self.clock)

    def revoke(self, revoked: set[TopicPartitionKey]) -> None:
        self.flush()
        self._backlog = [r for r in self._backlog if r.tp not in revoked]

    def _behind_backlog(self, record: Record) -> bool:
        return bool(self._backlog) and any(r.tp == record.tp for r in self._backlog)

    def _ingest(self, record: Record) -> bool:
        """Store the record's message; False when it must be retried later (backlog)."""
        msg = self._parse(record)
        return True if msg is None else self._store(record, msg)

    def _parse(self, record: Record) -> IncomingMessage | None:
        """The record's message, or None after dead-lettering a record that never parses."""
        try:
            return incoming_message(record)
        except Exception as exc:  # SchemaError, or anything else parsing raises: this record never parses
            self.dead_letters.dead_letter(record, exc)
            return None

    def _store(self, record: Record, msg: IncomingMessage) -> bool:
        """Store one message; False when it must be retried later (backlog)."""
        try:
            res = self.processor.ingest(msg)
        except Exception as exc:
            what = f"storing message {msg.message_id} ({record.topic}:{record.partition}@{record.offset})"
            if self.errors.decide(exc, self._backoff.attempts + 1, what) is Action.RETRY:
                return False
            self.dead_letters.dead_letter(record, exc, attempts=self._backoff.attempts + 1)
            return True
        self._place(record, msg, res)
        return True

    def _place(self, record: Record, msg: IncomingMessage, res: IngestResult) -> None:
        """Dead-letter a conflict, mark a message without extraction done, or pass it on."""
        if res.conflict is not None:
            # a known id (this user) with other content: not a redelivery, never dropped silently
            core_metrics.MESSAGE_ID_CONFLICTS.labels(self.group).inc()
            log.warning("%s (%s:%s@%s)", res.conflict, record.topic, record.partition, record.offset)
            self.dead_letters.dead_letter(record, res.conflict, error_type="MessageIdConflict")
            return
        if not res.needs_processing:
            self.sink.touch(res.conversation_pk)
            self.dead_letters.mark(record, "context" if msg.role != "user" else "duplicate")
            return
        self.sink.add(record, res)
