"""The memory-command consumer group: ``memory_save|append|delete`` events -> the tool service.

Per record: parse (malformed -> dead-letter) -> apply through ``MemoryTools`` with the event's
``command_id`` (a redelivered command returns its first result and writes nothing) -> done.

Batching: ``submit`` only queues; ``poll`` (each loop turn, after up to the loop's batch of records)
applies the queued commands, of any users, with ``MemoryTools.apply_batch`` in ONE transaction and
marks them done after its commit (a user's commands keep their partition order). When the batch
fails for any reason (a rejected command, a database error, a record that does not parse), nothing
of it was committed and its records are applied one by one through the per-record path below, so
each command keeps its own error handling and one bad command never fails the others.
Errors are classified by ``consumers.errors`` through the shared ``consumers.steps``: a command the
domain rejects (noise key, profile key, bad value), an integrity/data error, or an unexpected error
after ``max_record_attempts`` tries is dead-lettered with the reason and the partition moves on;
deleting a memory that does not exist is a no-op; a transient failure (the database unreachable)
keeps the record (and every later record of its partition) pending and retries with backoff; a
fatal one stops the process. While ``max_buffered`` records wait behind a failure the loop pauses
the partitions.

Traces (``core.tracing``, on with ``OTEL_ENABLED``): each application is a CONSUMER span continuing the
trace context of its records' headers: one record, its publisher's trace; a batch, the first
command's trace with a span link to every command's context (as the extractor does for a burst). The
write's outbox rows carry that span's context on to the relay and the indexer. Off: no header read.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from opentelemetry.trace import INVALID_SPAN, Span

from consumers.dlq import DeadLetterPublisher
from consumers.policies import RetryPolicy
from consumers.runtime import DoneCallback, Record
from consumers.steps.dead_letter import DeadLetterStep
from consumers.steps.dlq_limit import DlqLimit
from consumers.steps.retry import Action, Backoff, ErrorPolicy
from core import tracing
from core.memory.errors import MemoryNotFound
from core.memory.tools import MemoryTools, ToolCommand, ToolName, ToolResult
from producers.tracing import contexts_of
from schemas import (
    MemoryAppendData,
    MemoryCommandEvent,
    MemoryDeleteData,
    MemorySaveData,
    parse_memory_command,
)
from schemas.events import DEFAULT_MEMORY_CONFIDENCE

log = logging.getLogger(__name__)


class CommandStrategy:
    """Processing strategy of the command group (see ``consumers.runtime`` for the contract)."""

    def __init__(
        self,
        tools: MemoryTools,
        dlq: DeadLetterPublisher,
        *,
        group: str = "commands",
        retry: RetryPolicy | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        on_result: Callable[[ToolResult | None], None] | None = None,
        max_buffered: int = 2000,
        max_record_attempts: int = 3,
        dlq_max_attempts: int = 5,
        max_batch: int = 100,
        dlq_limit: DlqLimit | None = None,
    ) -> None:
        """``max_batch``: commands per transaction (1: one transaction per command)."""
        if max_batch < 1:
            raise ValueError("max_batch must be >= 1")
        self.max_batch = max_batch
        self.tools = tools
        self.dlq = dlq
        self.group = group
        self.retry = retry or RetryPolicy()
        self.clock = clock
        self.sleep = sleep
        self.on_result = on_result
        self.max_buffered = max_buffered
        self.errors = ErrorPolicy(group, max_record_attempts=max_record_attempts)
        # no backlog of its own here: a record whose dead letter failed stays in ``_backlog`` (re-applied)
        self.dead_letters = DeadLetterStep(group, dlq, retry=self.retry, dlq_max_attempts=dlq_max_attempts,
                                           limit=dlq_limit, clock=clock)
        self._backlog: list[Record] = []
        self._pending: list[Record] = []  # queued by submit, applied by the next poll
        self._backoff = Backoff()
        self.batches = 0  # transactions that committed more than one command

    @property
    def dead_lettered(self) -> int:
        return self.dead_letters.dead_lettered

    def bind(self, done: DoneCallback) -> None:
        self.dead_letters.bind(done)

    def submit(self, record: Record) -> None:
        if self._backlog:
            self._backlog.append(record)  # keep partition order behind the failed record
        else:
            self._pending.append(record)
            if len(self._pending) >= self.max_batch:
                self._flush()

    def poll(self) -> None:
        if self._pending:
            self._flush()
        if self._backlog and self._backoff.ready(self.clock()):
            self._drain()

    def backpressure(self) -> bool:
        return len(self._backlog) >= self.max_buffered

    def revoke(self, partitions: list[tuple[str, int]], lost: bool = False) -> None:
        revoked = set(partitions)
        if not lost and any(r.tp in revoked for r in self._pending):
            self._flush()  # queued records of revoked partitions: apply them now, before they go
        self._pending = [r for r in self._pending if r.tp not in revoked]
        self._backlog = [r for r in self._backlog if r.tp not in revoked]
        if not self._backlog:
            self._backoff.reset()

    def join(self, timeout: float) -> None:
        if self._pending:
            self._flush()
        deadline = self.clock() + timeout
        while self._backlog and self.clock() < deadline:
            if self._backoff.ready(self.clock()):
                self._drain()
            if self._backlog:
                self.sleep(0.2)

    def close(self) -> None:
        self.dlq.close()

    def _flush(self) -> None:
        """Apply the queued records: as one batch when there are several, else (or when the batch
        fails) one by one, each record behind any failed one of before (partition order)."""
        records, self._pending = self._pending, []
        if len(records) > 1 and self._apply_batch(records):
            return
        for record in records:
            if self._backlog:
                self._backlog.append(record)
            elif not self._apply(record):
                self._backlog.append(record)
                self._backoff.failed(self.retry, self.clock())

    def _apply_batch(self, records: list[Record]) -> bool:
        """True when every record was applied in one transaction and marked done; False when nothing
        was committed (the caller applies them one by one)."""
        try:
            commands = [_command(parse_memory_command(r.value or b"")) for r in records]
        except Exception:  # a record that does not parse: the per-record path dead-letters it
            return False
        try:
            with tracing.current(_span(records)):
                results = self.tools.apply_batch(commands)
        except Exception as exc:
            log.info("a batch of %d commands failed (%s: %s); applying them one by one", len(records),
                     type(exc).__name__, str(exc).splitlines()[0][:200] if str(exc) else "")
            return False
        self.batches += 1
        for record, result in zip(records, results, strict=True):
            if self.on_result is not None:
                self.on_result(result)
            self.dead_letters.mark(record, _outcome(result))
        return True

    def _drain(self) -> None:
        self._backoff.drain(self._backlog, self._apply, self.retry, self.clock)

    def _dead_letter(self, record: Record, exc: BaseException) -> bool:
        return self.dead_letters.try_send(record, exc, attempts=self._backoff.attempts + 1)

    def _apply(self, record: Record) -> bool:
        """True when the record is finished (applied, no-op or dead-lettered)."""
        try:
            event = parse_memory_command(record.value or b"")
        except Exception as exc:  # SchemaError, or anything else parsing raises: this record never parses
            return self._dead_letter(record, exc)
        cmd = event.data
        result: ToolResult | None = None
        try:
            with tracing.current(_span([record])):
                result = self.tools.apply(_command(event))
        except MemoryNotFound:
            log.info("command %s: nothing to delete for key %r", cmd.command_id, cmd.key)
        except Exception as exc:
            what = f"command {cmd.command_id} ({record.topic}:{record.partition}@{record.offset})"
            if self.errors.decide(exc, self._backoff.attempts + 1, what) is Action.RETRY:
                return False
            return self._dead_letter(record, exc)
        if self.on_result is not None:
            self.on_result(result)
        self.dead_letters.mark(record, _outcome(result))
        return True


def _span(records: list[Record]) -> Span:
    """The CONSUMER span of applying ``records`` (see module docstring); the invalid span when off."""
    if not tracing.enabled():
        return INVALID_SPAN
    return tracing.consume_span(f"{records[0].topic} process", contexts_of(records),
                                {"messaging.system": "kafka", "messaging.operation.type": "process",
                                 "messaging.batch.message_count": len(records)})


def _outcome(result: ToolResult | None) -> str:
    return "processed" if result is not None and result.changed else "duplicate" if result else "noop"


def _command(event: MemoryCommandEvent) -> ToolCommand:
    """The tool call a parsed command event asks for (defaults: importance 3, the default confidence,
    an append without a type is a ``fact``)."""
    cmd = event.data
    if isinstance(cmd, MemoryDeleteData):
        return ToolCommand.of("memory_delete", cmd.user_id, cmd.key, command_id=cmd.command_id,
                              origin_at=event.time)
    if isinstance(cmd, MemorySaveData | MemoryAppendData):
        tool: ToolName = "memory_save" if isinstance(cmd, MemorySaveData) else "memory_append"
        confidence = cmd.confidence if cmd.confidence is not None else DEFAULT_MEMORY_CONFIDENCE
        return ToolCommand.of(tool, cmd.user_id, cmd.key, cmd.content, memory_type=cmd.memory_type or "fact",
                              importance=cmd.importance or 3, confidence=confidence,
                              ttl_days=cmd.ttl_days, conversation_id=cmd.conversation_id,
                              command_id=cmd.command_id, origin_at=event.time)
    raise TypeError(f"unknown command {type(cmd).__name__}")
