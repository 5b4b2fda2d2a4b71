"""The memory-command consumer group: ``memory_save|append|delete`` events -> the tool service.

Per record: parse (malformed -> dead-letter) -> apply through ``MemoryTools`` with the event's
``command_id`` (a redelivered command returns its first result and writes nothing) -> done.
A command the domain rejects (noise key, profile key, bad value) is dead-lettered with the reason;
deleting a memory that does not exist is a no-op. A database failure keeps the record (and every
later record of its partition) pending and retries with backoff.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from sqlalchemy.exc import DBAPIError, OperationalError

from consumers.dlq import DeadLetterError, DeadLetterPublisher
from consumers.policies import RetryPolicy
from consumers.runtime import DoneCallback, Record
from core import metrics
from core.memory.errors import InvalidMemoryInput, MemoryNotFound
from core.memory.tools import MemoryTools, ToolResult
from schemas import MemoryAppendData, MemoryDeleteData, MemorySaveData, parse_memory_command
from schemas.errors import SchemaError

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
    ) -> None:
        self.tools = tools
        self.dlq = dlq
        self.group = group
        self.retry = retry or RetryPolicy()
        self.clock = clock
        self.on_result = on_result
        self._done: DoneCallback | None = None
        self._backlog: list[Record] = []
        self._attempts = 0
        self._not_before = 0.0
        self.dead_lettered = 0

    def bind(self, done: DoneCallback) -> None:
        self._done = done

    def submit(self, record: Record) -> None:
        if self._backlog or not self._apply(record):
            self._backlog.append(record)

    def poll(self) -> None:
        if self._backlog and self.clock() >= self._not_before:
            self._drain()

    def revoke(self, partitions: list[tuple[str, int]]) -> None:
        revoked = set(partitions)
        self._backlog = [r for r in self._backlog if r.tp not in revoked]

    def join(self, timeout: float) -> None:
        deadline = self.clock() + timeout
        while self._backlog and self.clock() < deadline:
            self._drain()
            if self._backlog:
                time.sleep(0.2)

    def close(self) -> None:
        self.dlq.close()

    def _drain(self) -> None:
        while self._backlog:
            if not self._apply(self._backlog[0]):
                self._attempts += 1
                self._not_before = self.clock() + self.retry.delay(self._attempts)
                return
            self._backlog.pop(0)
        self._attempts = 0

    def _dead_letter(self, record: Record, exc: Exception) -> bool:
        try:
            self.dlq.send(record, reason=str(exc), error_type=type(exc).__name__)
        except DeadLetterError as dlq_exc:
            log.warning("dead-lettering failed (will retry): %s", dlq_exc)
            return False
        self.dead_lettered += 1
        metrics.DLQ_EVENTS.labels(self.group).inc()
        metrics.EVENTS_CONSUMED.labels(self.group, record.topic, "dead_lettered").inc()
        assert self._done is not None
        self._done(record)
        return True

    def _apply(self, record: Record) -> bool:
        """True when the record is finished (applied, no-op or dead-lettered)."""
        assert self._done is not None, "strategy not bound"
        try:
            event = parse_memory_command(record.value or b"")
        except SchemaError as exc:
            return self._dead_letter(record, exc)
        cmd = event.data
        result: ToolResult | None = None
        try:
            if isinstance(cmd, MemorySaveData):
                result = self.tools.memory_save(
                    cmd.user_id,
                    cmd.key,
                    cmd.content,
                    cmd.memory_type,
                    cmd.importance or 3,
                    cmd.confidence if cmd.confidence is not None else 0.9,
                    cmd.ttl_days,
                    cmd.conversation_id,
                    command_id=cmd.command_id,
                    origin_at=event.time,
                )
            elif isinstance(cmd, MemoryAppendData):
                result = self.tools.memory_append(
                    cmd.user_id,
                    cmd.key,
                    cmd.content,
                    cmd.memory_type or "fact",
                    cmd.importance or 3,
                    cmd.confidence if cmd.confidence is not None else 0.9,
                    cmd.ttl_days,
                    cmd.conversation_id,
                    command_id=cmd.command_id,
                    origin_at=event.time,
                )
            elif isinstance(cmd, MemoryDeleteData):
                result = self.tools.memory_delete(cmd.user_id, cmd.key, command_id=cmd.command_id,
                                                  origin_at=event.time)
        except MemoryNotFound:
            log.info("command %s: nothing to delete for key %r", cmd.command_id, cmd.key)
        except InvalidMemoryInput as exc:
            return self._dead_letter(record, exc)
        except (OperationalError, DBAPIError) as exc:
            log.warning("command %s failed on the database (will retry): %s", cmd.command_id, exc)
            return False
        if self.on_result is not None:
            self.on_result(result)
        outcome = "processed" if result is not None and result.changed else "duplicate" if result else "noop"
        metrics.EVENTS_CONSUMED.labels(self.group, record.topic, outcome).inc()
        self._done(record)
        return True
