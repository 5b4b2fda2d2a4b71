"""The memory-command consumer group: ``memory_save|append|delete`` events -> the tool service.

Per record: parse (malformed -> dead-letter) -> apply through ``MemoryTools`` with the event's
``command_id`` (a redelivered command returns its first result and writes nothing) -> done.
Errors are classified by ``consumers.errors`` through the shared ``consumers.steps``: a command the
domain rejects (noise key, profile key, bad value), an integrity/data error, or an unexpected error
after ``max_record_attempts`` tries is dead-lettered with the reason and the partition moves on;
deleting a memory that does not exist is a no-op; a transient failure (the database unreachable)
keeps the record (and every later record of its partition) pending and retries with backoff; a
fatal one stops the process. While ``max_buffered`` records wait behind a failure the loop pauses
the partitions.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from consumers.dlq import DeadLetterPublisher
from consumers.policies import RetryPolicy
from consumers.runtime import DoneCallback, Record
from consumers.steps import Action, Backoff, RecordSteps
from core.memory.errors import MemoryNotFound
from core.memory.tools import MemoryTools, ToolResult, ToolWrite
from schemas import MemoryAppendData, MemoryDeleteData, MemorySaveData, parse_memory_command
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
        on_result: Callable[[ToolResult | None], None] | None = None,
        max_buffered: int = 2000,
        max_record_attempts: int = 3,
        dlq_max_attempts: int = 5,
    ) -> None:
        self.tools = tools
        self.dlq = dlq
        self.group = group
        self.retry = retry or RetryPolicy()
        self.clock = clock
        self.on_result = on_result
        self.max_buffered = max_buffered
        self.steps = RecordSteps(group, dlq, retry=self.retry, max_record_attempts=max_record_attempts,
                                 dlq_max_attempts=dlq_max_attempts, clock=clock)
        self._backlog: list[Record] = []
        self._backoff = Backoff()

    @property
    def dead_lettered(self) -> int:
        return self.steps.dead_lettered

    def bind(self, done: DoneCallback) -> None:
        self.steps.bind(done)

    def submit(self, record: Record) -> None:
        if self._backlog:
            self._backlog.append(record)  # keep partition order behind the failed record
        elif not self._apply(record):
            self._backlog.append(record)
            self._backoff.failed(self.retry, self.clock())

    def poll(self) -> None:
        if self._backlog and self._backoff.ready(self.clock()):
            self._drain()

    def backpressure(self) -> bool:
        return len(self._backlog) >= self.max_buffered

    def revoke(self, partitions: list[tuple[str, int]], lost: bool = False) -> None:
        revoked = set(partitions)
        self._backlog = [r for r in self._backlog if r.tp not in revoked]
        if not self._backlog:
            self._backoff.reset()

    def join(self, timeout: float) -> None:
        deadline = self.clock() + timeout
        while self._backlog and self.clock() < deadline:
            if self._backoff.ready(self.clock()):
                self._drain()
            if self._backlog:
                time.sleep(0.2)

    def close(self) -> None:
        self.dlq.close()

    def _drain(self) -> None:
        self._backoff.drain(self._backlog, self._apply, self.retry, self.clock)

    def _dead_letter(self, record: Record, exc: BaseException) -> bool:
        return self.steps.dead_letter(record, exc, attempts=self._backoff.attempts + 1)

    def _apply(self, record: Record) -> bool:
        """True when the record is finished (applied, no-op or dead-lettered)."""
        try:
            event = parse_memory_command(record.value or b"")
        except Exception as exc:  # SchemaError, or anything else parsing raises: this record never parses
            return self._dead_letter(record, exc)
        cmd = event.data
        result: ToolResult | None = None
        try:
            if isinstance(cmd, MemorySaveData):
                result = self.tools.memory_save(ToolWrite(
                    cmd.user_id,
                    cmd.key,
                    cmd.content,
                    cmd.memory_type,
                    cmd.importance or 3,
                    cmd.confidence if cmd.confidence is not None else DEFAULT_MEMORY_CONFIDENCE,
                    cmd.ttl_days,
                    cmd.conversation_id,
                    command_id=cmd.command_id,
                    origin_at=event.time,
                ))
            elif isinstance(cmd, MemoryAppendData):
                result = self.tools.memory_append(ToolWrite(
                    cmd.user_id,
                    cmd.key,
                    cmd.content,
                    cmd.memory_type or "fact",
                    cmd.importance or 3,
                    cmd.confidence if cmd.confidence is not None else DEFAULT_MEMORY_CONFIDENCE,
                    cmd.ttl_days,
                    cmd.conversation_id,
                    command_id=cmd.command_id,
                    origin_at=event.time,
                ))
            elif isinstance(cmd, MemoryDeleteData):
                result = self.tools.memory_delete(cmd.user_id, cmd.key, command_id=cmd.command_id,
                                                  origin_at=event.time)
        except MemoryNotFound:
            log.info("command %s: nothing to delete for key %r", cmd.command_id, cmd.key)
        except Exception as exc:
            what = f"command {cmd.command_id} ({record.topic}:{record.partition}@{record.offset})"
            if self.steps.decide(exc, self._backoff.attempts + 1, what) is Action.RETRY:
                return False
            return self._dead_letter(record, exc)
        if self.on_result is not None:
            self.on_result(result)
        outcome = "processed" if result is not None and result.changed else "duplicate" if result else "noop"
        self.steps.mark(record, outcome)
        return True
