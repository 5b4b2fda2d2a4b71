"""Publish a JSONL file of events: the engine behind ``pai-memory publish``.

Each non-blank line is one of:

- a full event envelope (any ``schemas`` event type), parsed strictly with ``schemas.parse_event``;
- a bare chat-message payload (``ChatMessageData`` fields) or memory-command payload
  (``MemorySaveData``/``MemoryAppendData``/``MemoryDeleteData`` fields, with ``tool``), wrapped in an
  envelope with a deterministic id and ``time`` = now;
- a conversation ``{"user_id", "conversation_id", "messages": [{"role", "content"}, ...],
  "conversation_summary"?, "started_at"?}``, expanded into one chat-message event per turn with
  message id ``conversation_message_id(user_id, conversation_id, index)``: stable, so re-publishing is
  idempotent downstream, and distinct across users (two users' conversations ``x`` never share an id).

Invalid lines are reported with their line number and skipped; valid events are published in file
order (per user ordered, key = user id) and counted when Kafka confirms them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from time import monotonic
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from core.config import KafkaSettings
from core.types import MessageRole
from producers.client import DeliveryFuture, FlushTimeout, MemoryEventProducer, default_topic
from schemas import (
    AnyEvent,
    ChatMessageData,
    ChatMessageEvent,
    MemoryCommandData,
    MemoryCommandEvent,
    SchemaError,
    describe_validation_error,
    make_event,
    parse_event,
)
from schemas.events import Identifier, MessageText, Timestamp

MAX_LINE_BYTES = 16 * 1024 * 1024
MAX_REPORTED_ERRORS = 50
DEFAULT_SOURCE = "pai-memory-cli"

_COMMAND_ADAPTER: TypeAdapter[Any] = TypeAdapter(MemoryCommandData)


class InputKind(StrEnum):
    """What a file may contain: chat messages (incl. conversations), commands, or anything."""

    MESSAGES = "messages"
    COMMANDS = "commands"
    AUTO = "auto"


class InvalidLine(ValueError):
    """A line that cannot become events; the message says why (no line number)."""


class ConversationTurn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: MessageRole
    content: MessageText
    message_id: Identifier | None = None
    created_at: Timestamp | None = None


class Conversation(BaseModel):
    """The demo-friendly conversation line format."""

    model_config = ConfigDict(extra="forbid")

    user_id: Identifier
    conversation_id: Identifier
    messages: list[ConversationTurn] = Field(min_length=1)
    conversation_summary: MessageText | None = None
    started_at: Timestamp | None = None


def _now() -> datetime:
    return datetime.now(UTC)


def conversation_message_id(user_id: str, conversation_id: str, index: int) -> str:
    """The id of turn ``index`` of a user's conversation: ``{conversation_id}:{index}:{h}`` where ``h``
    is 16 hex digits of SHA-256 over (user id, conversation id), so ids differ across users even when
    their conversation ids are equal (the readable prefix is cut to 80 characters; the id stays a
    valid ``Identifier`` of at most 128)."""
    digest = hashlib.sha256(f"{user_id}\x00{conversation_id}".encode()).hexdigest()[:16]
    return f"{conversation_id[:80]}:{index}:{digest}"


def _expand_conversation(conv: Conversation, source: str, now: datetime) -> list[AnyEvent]:
    n = len(conv.messages)
    base = conv.started_at or now - timedelta(seconds=n - 1)
    events: list[AnyEvent] = []
    for index, turn in enumerate(conv.messages):
        data = ChatMessageData(
            message_id=turn.message_id or conversation_message_id(conv.user_id, conv.conversation_id, index),
            user_id=conv.user_id, conversation_id=conv.conversation_id, role=turn.role,
            content=turn.content, created_at=turn.created_at or base + timedelta(seconds=index),
            conversation_summary=conv.conversation_summary,
        )
        events.append(make_event(data, source=source, time=now))
    return events


def _classify(obj: dict[str, Any]) -> str:
    if "specversion" in obj or ("type" in obj and "data" in obj):
        return "envelope"
    if "messages" in obj:
        return "conversation"
    if "tool" in obj:
        return "command"
    if "role" in obj or "message_id" in obj:
        return "message"
    raise InvalidLine("cannot tell what this is: expected an event envelope, a chat message, "
                      "a memory command (with 'tool') or a conversation (with 'messages')")


def events_from_line(raw: bytes, kind: InputKind = InputKind.AUTO, *, source: str = DEFAULT_SOURCE,
                     now: datetime | None = None) -> list[AnyEvent]:
    """The events one JSONL line stands for; ``InvalidLine`` when it stands for none."""
    if len(raw) > MAX_LINE_BYTES:
        raise InvalidLine(f"line longer than {MAX_LINE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidLine(f"not valid UTF-8 (byte {exc.start})") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidLine(f"invalid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise InvalidLine("invalid JSON: nested too deeply") from None
    if not isinstance(obj, dict):
        raise InvalidLine(f"expected a JSON object, got {type(obj).__name__}")
    what = _classify(obj)
    now = now or _now()
    try:
        if what == "envelope":
            event = parse_event(raw)
            events: list[AnyEvent] = [event]
        elif what == "conversation":
            events = list(_expand_conversation(Conversation.model_validate(obj), source, now))
        elif what == "command":
            events = [make_event(_COMMAND_ADAPTER.validate_python(obj), source=source, time=now)]
        else:
            events = [make_event(ChatMessageData.model_validate(obj), source=source, time=now)]
    except SchemaError as exc:
        raise InvalidLine(str(exc)) from None
    except ValidationError as exc:
        raise InvalidLine(f"{what}: {describe_validation_error(exc)}") from None
    for event in events:
        if kind is InputKind.MESSAGES and not isinstance(event, ChatMessageEvent):
            raise InvalidLine(f"{event.type} is not a chat message (--kind messages)")
        if kind is InputKind.COMMANDS and not isinstance(event, MemoryCommandEvent):
            raise InvalidLine(f"{event.type} is not a memory command (--kind commands)")
    return events


def read_events(lines: Iterable[bytes], kind: InputKind = InputKind.AUTO, *, source: str = DEFAULT_SOURCE
                ) -> Iterator[tuple[int, list[AnyEvent] | InvalidLine]]:
    """``(line number, events or the InvalidLine error)`` for each non-blank line (1-based)."""
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not stripped:
            continue
        try:
            yield number, events_from_line(stripped, kind, source=source)
        except InvalidLine as exc:
            yield number, exc


@dataclass
class PublishSummary:
    """Outcome of one publish run. ``published`` counts broker-confirmed events."""

    published: int = 0
    failed: int = 0
    invalid: int = 0
    events: int = 0
    lines: int = 0
    seconds: float = 0.0
    dry_run: bool = False
    topics: dict[str, int] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"published": self.published, "failed": self.failed, "invalid": self.invalid,
                "events": self.events, "lines": self.lines, "seconds": round(self.seconds, 3),
                "dry_run": self.dry_run, "topics": dict(sorted(self.topics.items())),
                "errors": self.errors}


class _Tally:
    def __init__(self, summary: PublishSummary) -> None:
        self.summary = summary
        self.lock = threading.Lock()

    def error(self, line: int, message: str) -> None:
        with self.lock:
            if len(self.summary.errors) < MAX_REPORTED_ERRORS:
                self.summary.errors.append({"line": line, "error": message})

    def watch(self, future: DeliveryFuture, line: int) -> None:
        def done(f: Any) -> None:
            exc = f.exception()
            with self.lock:
                if exc is None:
                    self.summary.published += 1
                else:
                    self.summary.failed += 1
            if exc is not None:
                self.error(line, f"delivery failed: {exc}")
        future.add_done_callback(done)


def publish_lines(lines: Iterable[bytes], producer: MemoryEventProducer | None, *,
                  kind: InputKind = InputKind.AUTO, topic: str | None = None, source: str = DEFAULT_SOURCE,
                  settings: KafkaSettings | None = None, flush_timeout: float = 60.0,
                  on_invalid: Callable[[int, str], None] | None = None) -> PublishSummary:
    """Publish every valid line's events; ``producer=None`` validates only (dry run).

    Returns once all events are confirmed or failed (or ``flush_timeout`` passed: the events still
    pending are counted as failed when the producer is closed and purges them).
    """
    if producer is None and settings is None:
        raise ValueError("a dry run needs settings to resolve topics")
    cfg = settings or (producer.settings if producer is not None else None)
    assert cfg is not None
    summary = PublishSummary(dry_run=producer is None)
    tally = _Tally(summary)
    started = monotonic()
    for number, result in read_events(lines, kind, source=source):
        summary.lines = number
        if isinstance(result, InvalidLine):
            summary.invalid += 1
            tally.error(number, str(result))
            if on_invalid is not None:
                on_invalid(number, str(result))
            continue
        try:
            targets = [topic or default_topic(cfg, event) for event in result]
        except ValueError as exc:
            summary.invalid += 1
            tally.error(number, str(exc))
            if on_invalid is not None:
                on_invalid(number, str(exc))
            continue
        for event, target in zip(result, targets, strict=True):
            summary.events += 1
            summary.topics[target] = summary.topics.get(target, 0) + 1
            if producer is not None:
                tally.watch(producer.publish(event, target), number)
    if producer is not None:
        with contextlib.suppress(FlushTimeout):  # pending futures fail when the producer is closed
            producer.flush(flush_timeout)
    summary.seconds = monotonic() - started
    return summary
