"""The agent tools ``memory_save``, ``memory_append``, ``memory_delete``, ``memory_list``.

One service behind three doors (Python API, the memory-command consumer, the HTTP API). Each
write is one transaction: truth + history + outbox (+ the command id when given, so a
redelivered command changes nothing twice and returns its first result).

With a ``SemanticDeduper`` a save or an append under a key the user has no live memory of is checked
against the live memories of the same type that the user's messages wrote (extracted: a source message),
never against another tool write (two tool keys are two memories by the caller's choice). Such a memory
is the same one when it passes the bars of the extraction's upsert (``SemanticDeduper.best_match``: the
reuse cosine, or the lexical gate; two named slots never) **and** one of the two says nothing the other
does not (``says_no_more``: every salient word of one is in the other, polarity words read as one and
the same polarity on both sides): the bars alone
join short different facts ("Allergic to peanuts" / "Allergic to shellfish", "My sister lives in Berlin" /
"My brother lives in Berlin" pass them), and a take-over retires a memory. Then the tool's key takes it
over: the write lands under the tool's key (a save with its content, an append with the addition after
the other memory's content) and the other memory is deactivated (operation ``dedupe``, its history row
names the tool's key). So a tool write and an extracted memory that say the same end as one memory in
either order: the extraction reuses the tool's key when the tool wrote first, the tool takes the
extracted memory over when it wrote second. An embedder that fails leaves the write as it was asked.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session, sessionmaker

from core import metrics, tracing
from core.embedding.base import EmbeddingError
from core.memory.dedup import DedupItem, SemanticDeduper
from core.memory.errors import InvalidMemoryInput, MemoryInactive, MemoryNotFound
from core.memory.reader import list_live
from core.memory.store import (
    find_user,
    get_or_create_conversation,
    get_or_create_user,
    get_or_create_users,
    lock_user,
    lock_users,
)
from core.memory.upsert import NamedSlot, is_live, no_named_slots
from core.memory.writer import MemoryWrite, MemoryWriter, WriteContext, WriteResult
from core.storage.db import transaction
from core.storage.models import LongTermMemory, ProcessedCommand
from core.text.salient import EN_KEEP, salient_tokens
from core.types import MemoryOperation, MemoryType, WriteSource
from schemas.events import DEFAULT_MEMORY_CONFIDENCE

log = logging.getLogger(__name__)


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


ToolName = Literal["memory_save", "memory_append", "memory_delete"]
_Apply = Callable[[Session, WriteContext], WriteResult]


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


@dataclass(frozen=True)
class ToolCommand:
    """One tool call as data (what a ``pai.memory.command.v1`` event asks for), for ``apply_batch``;
    a delete uses only the request's user, key, command id and origin time."""

    tool: ToolName
    request: ToolWrite

    @classmethod
    def of(cls, tool: ToolName, user_id: str, key: str, content: str = "", **fields: Any) -> ToolCommand:
        """``ToolCommand(tool, ToolWrite(user_id, key, content, **fields))``."""
        return cls(tool, ToolWrite(user_id, key, content, **fields))


def _validate_user(user_id: str) -> str:
    if not user_id or len(user_id) > 128 or any(c.isspace() or ord(c) < 32 for c in user_id):
        raise InvalidMemoryInput("user_id must be 1-128 printable characters without spaces")
    return user_id


class MemoryTools:
    """The four tools over the PostgreSQL truth."""

    def __init__(self, sessions: sessionmaker[Session], writer: MemoryWriter,
                 deduper: SemanticDeduper | None = None, named_slot: NamedSlot = no_named_slots) -> None:
        """``deduper``: a save or append that says what an extracted memory of another key says takes it
        over (module doc); ``None``: writes go exactly where they are asked. ``named_slot``: the extraction
        provider's named slots, never taken over by another named slot."""
        self.sessions = sessions
        self.writer = writer
        self.deduper = deduper
        self.named_slot = named_slot

    def memory_save(self, request: ToolWrite) -> ToolResult:
        """Create the memory with this key, or overwrite it."""
        return self._run(ToolCommand("memory_save", request))

    def memory_append(self, request: ToolWrite) -> ToolResult:
        """Append to the memory with this key (created when absent)."""
        return self._run(ToolCommand("memory_append", request))

    def apply(self, c: ToolCommand) -> ToolResult:
        """One command in its own transaction: ``memory_save``, ``memory_append`` or ``memory_delete``
        as ``c.tool`` says (a delete of nothing raises ``MemoryNotFound``)."""
        return self._run(c)

    def _run(self, c: ToolCommand) -> ToolResult:
        """One command in its own transaction (``_write``)."""
        apply, r = self._applier(c), c.request
        return self._write(c.tool, r.user_id, r.key, r.conversation_id, r.command_id, r.origin_at, apply)

    def memory_delete(self, user_id: str, key: str, command_id: str | None = None,
                      origin_at: datetime | None = None) -> ToolResult:
        """Deactivate the memory; raises ``MemoryNotFound`` when there is no active one."""
        return self._run(ToolCommand.of("memory_delete", user_id, key, command_id=command_id,
                                        origin_at=origin_at))

    def apply_batch(self, commands: Sequence[ToolCommand]) -> list[ToolResult | None]:
        """Apply ``commands`` in ONE transaction (one commit for the lot); one result per command, in
        order, ``None`` for a delete of a memory that does not exist (a no-op, as ``memory_delete``'s
        ``MemoryNotFound``).

        Same effects as applying them one by one in list order (a user's commands keep their order;
        a command id seen earlier, stored or in this batch, returns its first result), with fewer
        statements: users resolved, locked (ascending id) and command ids looked up once per batch,
        the per-user cap checked once per user at the end of its commands, the command ids stored in
        one INSERT. Any other error rolls the whole batch back and propagates: the caller then applies
        the commands one by one, so one bad command never fails the others.
        """
        appliers = [self._applier(c) for c in commands]  # validation first: nothing written on a bad one
        if not commands:
            return []
        results: list[ToolResult | None] = [None] * len(commands)
        written: list[ToolResult] = []
        with tracing.stage("upsert", {"pai.commands": len(commands)}), transaction(self.sessions) as session:
            users = get_or_create_users(session, [c.request.user_id for c in commands])
            lock_users(session, list(users.values()))
            ids = [c.request.command_id for c in commands if c.request.command_id is not None]
            seen: dict[str, tuple[int, dict[str, Any] | None]] = {}
            if ids:
                for cid, upk, res in session.execute(
                        select(ProcessedCommand.command_id, ProcessedCommand.user_id, ProcessedCommand.result)
                        .where(ProcessedCommand.command_id.in_(ids))):
                    seen[cid] = (upk, res)
            by_user: dict[int, list[int]] = {}
            for i, c in enumerate(commands):
                by_user.setdefault(users[c.request.user_id], []).append(i)
            fresh: list[dict[str, Any]] = []
            for user_pk, indices in by_user.items():
                first = commands[indices[0]]
                cap_ctx = WriteContext(user_pk=user_pk, source=WriteSource.TOOL,
                                       command_id=first.request.command_id, reason=f"tool {first.tool}",
                                       origin_at=first.request.origin_at)
                with self.writer.capped_batch(session, cap_ctx):
                    for i in indices:
                        results[i] = self._batch_one(session, user_pk, commands[i], appliers[i], seen, fresh,
                                                     written)
            if fresh:
                session.connection().execute(insert(ProcessedCommand).values(fresh))
        for result in written:
            metrics.MEMORY_WRITES.labels(str(result.operation), WriteSource.TOOL.value).inc()
        return results

    def _batch_one(self, session: Session, user_pk: int, c: ToolCommand, apply: _Apply,
                   seen: dict[str, tuple[int, dict[str, Any] | None]], fresh: list[dict[str, Any]],
                   written: list[ToolResult]) -> ToolResult | None:
        """One command of ``apply_batch`` (its user locked); ``seen``/``fresh``/``written`` accumulate."""
        r = c.request
        if r.command_id is not None and r.command_id in seen:
            owner, stored = seen[r.command_id]
            if owner != user_pk:
                raise InvalidMemoryInput("command_id is already used by another user's command")
            if stored is not None:
                return ToolResult(**{**stored, "duplicate_command": True})
        try:
            result, res = self._apply(session, c.tool, r.user_id, user_pk, r.conversation_id, r.command_id,
                                      r.origin_at, apply)
        except MemoryNotFound:
            return None  # nothing was written for it (the lookup found no active memory)
        if res.operation is not None:
            written.append(result)
        if r.command_id is not None:
            seen[r.command_id] = (user_pk, result.as_dict())
            fresh.append({"command_id": r.command_id, "user_id": user_pk, "result": result.as_dict()})
        return result

    def _applier(self, c: ToolCommand) -> _Apply:
        """The write ``c`` asks for, validated (``InvalidMemoryInput`` before anything is written)."""
        r = c.request
        _validate_user(r.user_id)
        if c.tool == "memory_delete":
            return lambda s, ctx: self.writer.deactivate(s, ctx, r.key)
        mtype = _memory_type(r.memory_type)
        _check_scores(r.importance, r.confidence, r.ttl_days)
        if c.tool in ("memory_save", "memory_append"):
            write = MemoryWrite(r.key, mtype, r.content, r.importance, r.confidence, r.ttl_days)
            append = c.tool == "memory_append"
            return lambda s, ctx: self._save_or_append(s, ctx, write, append)
        raise InvalidMemoryInput(f"unknown tool {c.tool!r}")

    def _save_or_append(self, session: Session, ctx: WriteContext, write: MemoryWrite,
                        append: bool) -> WriteResult:
        """``memory_save`` / ``memory_append`` of ``write`` for the locked user; with the deduper, an
        extracted memory of another key that says the same is taken over by ``write.key`` (module doc)."""
        twin = self._twin(session, ctx, write)
        if twin is None:
            result = (self.writer.append(session, ctx, write.key, write.content, write.memory_type,
                                         write.importance, write.confidence, write.ttl_days)
                      if append else self.writer.save(session, ctx, write))
        else:
            item, score = twin
            content = write.content
            if append and write.content.casefold() not in item.content.casefold():
                content = f"{item.content}; {write.content}"
            elif append:
                content = item.content
            took = WriteContext(**{**ctx.__dict__,
                                   "reason": f"{ctx.reason}; took over {item.key}, a semantic duplicate "
                                             f"(cosine {score:.3f})"})
            result = self.writer.save(session, took, MemoryWrite(write.key, write.memory_type, content,
                                                                 write.importance, write.confidence,
                                                                 write.ttl_days))
            retired = WriteContext(**{**ctx.__dict__,
                                      "reason": f"semantic duplicate of {write.key} (cosine {score:.3f}); "
                                                f"taken over by {ctx.reason}"})
            self.writer.deactivate(session, retired, item.key, MemoryOperation.DEDUPE, missing_ok=True)
        return result

    def _twin(self, session: Session, ctx: WriteContext,
              write: MemoryWrite) -> tuple[DedupItem, float] | None:
        """The live memory of another key and the same type, written from the user's messages, that
        ``write`` says the same as (the upsert's bars and one's salient words within the other's; module
        doc), with its cosine; None without a deduper, when the key itself is live (the write lands
        there), or when the embedder fails."""
        if self.deduper is None or is_live(self.writer.get_for_update(session, ctx.user_pk, write.key)):
            return None
        named = self.named_slot(write.key)
        said = [DedupItem(m.memory_key, m.memory_type or "fact", m.content or "")
                for m in list_live(session, ctx.user_pk, write.memory_type.value)
                if m.source_message_id is not None and m.memory_key != write.key
                and not (named and self.named_slot(m.memory_key))]
        try:
            item = DedupItem(write.key, write.memory_type.value, write.content)
            match = self.deduper.best_match(item, said)
        except EmbeddingError:
            log.warning("the dedup embedder failed; %s written without the duplicate check", write.key)
            return None
        return match if match is not None and says_no_more(write.content, match[0].content) else None

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

    def memory_correct(self, user_id: str, memory_id: int, *, actor: str, content: str | None = None,
                       importance: int | None = None, ttl_days: int | None = None) -> ToolResult:
        """A human correction of memory ``memory_id`` of ``user_id`` (the HTTP ``PATCH``): content,
        importance and/or a new expiry, through ``MemoryWriter.correct``; history records ``actor``.
        ``MemoryNotFound`` when the id is not one of this user's memories (another user's id is the
        same answer), ``MemoryInactive`` when it is deleted or expired."""
        user_id = _validate_user(user_id)
        if ttl_days is not None:
            _check_scores(importance or 3, DEFAULT_MEMORY_CONFIDENCE, ttl_days)
        with tracing.stage("upsert", {"pai.tool": "memory_correct"}), transaction(self.sessions) as session:
            user_pk = find_user(session, user_id)
            if user_pk is None:
                raise MemoryNotFound(f"no memory {memory_id} for this user")
            lock_user(session, user_pk)
            row = session.scalar(select(LongTermMemory).where(
                LongTermMemory.id == memory_id, LongTermMemory.user_id == user_pk).with_for_update())
            if row is None:
                raise MemoryNotFound(f"no memory {memory_id} for this user")
            now = datetime.now(UTC)
            if not row.is_active or (row.expires_at is not None and row.expires_at <= now):
                raise MemoryInactive(f"memory {memory_id} is deleted or expired; save it again instead")
            ctx = WriteContext(user_pk, WriteSource.TOOL, reason=f"human correction by {actor}"[:500])
            res = self.writer.correct(session, ctx, row, content=content, importance=importance,
                                      ttl_days=ttl_days)
        if res.operation is not None:
            metrics.MEMORY_WRITES.labels(res.operation.value, WriteSource.TOOL.value).inc()
        return ToolResult("memory_correct", user_id, res.memory_key, res.memory_id,
                          res.operation.value if res.operation else None, res.changed)

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
        with tracing.stage("upsert", {"pai.tool": tool}), transaction(self.sessions) as session:
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
            result, res = self._apply(session, tool, user_id, user_pk, conversation_id, command_id, origin_at,
                                      apply)
            if command_id is not None:
                session.execute(
                    insert(ProcessedCommand).values(
                        command_id=command_id, user_id=user_pk, result=result.as_dict()
                    )
                )
        if res.operation is not None:
            metrics.MEMORY_WRITES.labels(res.operation.value, WriteSource.TOOL.value).inc()
        return result

    @staticmethod
    def _apply(session: Session, tool: str, user_id: str, user_pk: int, conversation_id: str | None,
               command_id: str | None, origin_at: datetime | None,
               apply: _Apply) -> tuple[ToolResult, WriteResult]:
        """One write for a locked user inside the caller's transaction."""
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
        return result, res


_NEGATION = "<not>"


def says_no_more(a: str, b: str) -> bool:
    """One of ``a`` and ``b`` says nothing the other does not: every salient word of one is in the other
    (``core.text.salient``), the polarity words (``EN_KEEP``: no, not, never, without...) read as one, and
    both of the same polarity."""
    ta, tb = ({_NEGATION if t in EN_KEEP else t for t in salient_tokens(x)} for x in (a, b))
    return bool(ta and tb) and (_NEGATION in ta) == (_NEGATION in tb) and (ta <= tb or tb <= ta)


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
