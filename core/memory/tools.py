"""The agent tools ``memory_save``, ``memory_append``, ``memory_delete``, ``memory_list``.

One service behind three doors (Python API, the memory-command consumer, the HTTP API). Each
write is one transaction: truth + history + outbox (+ the command id when given, so a
redelivered command changes nothing twice and returns its first result).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session, sessionmaker

from core import metrics
from core.memory.errors import InvalidMemoryInput
from core.memory.reader import list_live
from core.memory.store import find_user, get_or_create_conversation, get_or_create_user, lock_user
from core.memory.writer import MemoryWrite, MemoryWriter, WriteContext, WriteResult
from core.storage.db import transaction
from core.storage.models import LongTermMemory, ProcessedCommand
from core.types import MemoryType, WriteSource
from schemas.events import DEFAULT_MEMORY_CONFIDENCE


@dataclass(frozen=True)
class MemoryView:
    """A memory as the tools and retrieval return it."""

    id: int
    key: str
    memory_type: str
    content: str
    importance: int
    confidence: float
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None
    last_accessed_at: datetime | None

    @classmethod
    def of(cls, row: LongTermMemory) -> MemoryView:
        return cls(
            row.id,
            row.memory_key,
            row.memory_type or "fact",
            row.content or "",
            row.importance or 3,
            float(row.confidence if row.confidence is not None else DEFAULT_MEMORY_CONFIDENCE),
            row.created_at,
            row.updated_at,
            row.expires_at,
            row.last_accessed_at,
        )

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k in ("created_at", "updated_at", "expires_at", "last_accessed_at"):
            d[k] = d[k].isoformat() if d[k] is not None else None
        return d


@dataclass(frozen=True)
class ToolResult:
    """Outcome of a tool write: ``changed`` False means an identical state was already there."""

    tool: str
    user_id: str
    key: str
    memory_id: int | None
    operation: str | None
    changed: bool
    duplicate_command: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ToolWrite:
    """One ``memory_save`` / ``memory_append`` request, whichever door it came through.

    ``command_id`` makes the write idempotent (a repeated command returns its first result and changes
    nothing); ``origin_at`` is when the upstream event was written (for the freshness metric).
    Validation happens in the tool (``InvalidMemoryInput``), not here.
    """

    user_id: str
    key: str
    content: str
    memory_type: MemoryType | str = MemoryType.FACT
    importance: int = 3
    confidence: float = DEFAULT_MEMORY_CONFIDENCE
    ttl_days: int | None = None
    conversation_id: str | None = None
    command_id: str | None = None
    origin_at: datetime | None = None


def _validate_user(user_id: str) -> str:
    if not user_id or len(user_id) > 128 or any(c.isspace() or ord(c) < 32 for c in user_id):
        raise InvalidMemoryInput("user_id must be 1-128 printable characters without spaces")
    return user_id


class MemoryTools:
    """The four tools over the PostgreSQL truth."""

    def __init__(self, sessions: sessionmaker[Session], writer: MemoryWriter) -> None:
        self.sessions = sessions
        self.writer = writer

    def memory_save(self, request: ToolWrite) -> ToolResult:
        """Create the memory with this key, or overwrite it."""
        mtype = _memory_type(request.memory_type)
        _check_scores(request.importance, request.confidence, request.ttl_days)
        write = MemoryWrite(request.key, mtype, request.content, request.importance, request.confidence,
                            request.ttl_days)
        return self._write("memory_save", request.user_id, request.key, request.conversation_id,
                           request.command_id, request.origin_at,
                           lambda s, ctx: self.writer.save(s, ctx, write))

    def memory_append(self, request: ToolWrite) -> ToolResult:
        """Append to the memory with this key (created when absent)."""
        mtype = _memory_type(request.memory_type)
        _check_scores(request.importance, request.confidence, request.ttl_days)
        return self._write(
            "memory_append", request.user_id, request.key, request.conversation_id, request.command_id,
            request.origin_at,
            lambda s, ctx: self.writer.append(s, ctx, request.key, request.content, mtype, request.importance,
                                              request.confidence, request.ttl_days),
        )

    def memory_delete(self, user_id: str, key: str, command_id: str | None = None,
                      origin_at: datetime | None = None) -> ToolResult:
        """Deactivate the memory; raises ``MemoryNotFound`` when there is no active one."""
        return self._write(
            "memory_delete",
            user_id,
            key,
            None,
            command_id,
            origin_at,
            lambda s, ctx: self.writer.deactivate(s, ctx, key),
        )

    def memory_list(
        self, user_id: str, memory_type: MemoryType | str | None = None, limit: int = 200
    ) -> list[MemoryView]:
        """Live memories (active, unexpired, past the read-side hard filters)."""
        mtype = _memory_type(memory_type).value if memory_type else None
        with self.sessions() as session:
            user_pk = find_user(session, _validate_user(user_id))
            if user_pk is None:
                return []
            return [MemoryView.of(r) for r in list_live(session, user_pk, mtype, limit)]

    def _write(
        self,
        tool: str,
        user_id: str,
        key: str,
        conversation_id: str | None,
        command_id: str | None,
        origin_at: datetime | None,
        apply: Any,
    ) -> ToolResult:
        user_id = _validate_user(user_id)
        with transaction(self.sessions) as session:
            user_pk = get_or_create_user(session, user_id)
            lock_user(session, user_pk)
            if command_id is not None:
                done = session.execute(
                    select(ProcessedCommand.user_id, ProcessedCommand.result).where(
                        ProcessedCommand.command_id == command_id
                    )
                ).first()
                if done is not None and done.user_id != user_pk:
                    # command ids are global: never answer with (or skip a write because of)
                    # another user's command
                    raise InvalidMemoryInput("command_id is already used by another user's command")
                if done is not None and done.result is not None:
                    return ToolResult(**{**done.result, "duplicate_command": True})
            conv_pk = (
                get_or_create_conversation(session, user_pk, conversation_id, None)
                if conversation_id
                else None
            )
            ctx = WriteContext(
                user_pk=user_pk,
                source=WriteSource.TOOL,
                conversation_pk=conv_pk,
                command_id=command_id,
                reason=f"tool {tool}",
                origin_at=origin_at,
            )
            res: WriteResult = apply(session, ctx)
            result = ToolResult(
                tool,
                user_id,
                res.memory_key,
                res.memory_id,
                res.operation.value if res.operation else None,
                res.changed,
            )
            if command_id is not None:
                session.execute(
                    insert(ProcessedCommand).values(
                        command_id=command_id, user_id=user_pk, result=result.as_dict()
                    )
                )
        if res.operation is not None:
            metrics.MEMORY_WRITES.labels(res.operation.value, WriteSource.TOOL.value).inc()
        return result


def _memory_type(value: MemoryType | str) -> MemoryType:
    try:
        return MemoryType(value)
    except ValueError:
        raise InvalidMemoryInput(
            f"memory_type must be one of {', '.join(t.value for t in MemoryType)}, got {value!r}"
        ) from None


def _check_scores(importance: int, confidence: float, ttl_days: int | None) -> None:
    if not 1 <= importance <= 5:
        raise InvalidMemoryInput("importance must be between 1 and 5")
    if not 0.0 <= confidence <= 1.0:
        raise InvalidMemoryInput("confidence must be between 0 and 1")
    if ttl_days is not None and ttl_days < 1:
        raise InvalidMemoryInput("ttl_days must be a positive number of days")
