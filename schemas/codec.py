"""Bytes <-> events: the single entry point for parsing, serialising, keying and building events.

``parse_event`` accepts exactly what the models accept and raises a ``SchemaError`` subclass for
anything else (never a pydantic or JSON exception). ``to_bytes`` is compact UTF-8 JSON without
null fields; ``parse_event(to_bytes(e)) == e`` for every valid event.
"""

from __future__ import annotations

import base64
import json
import re
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, TypeVar, overload

from pydantic import TypeAdapter, ValidationError

from schemas.errors import (
    EventTooLarge,
    InvalidEvent,
    SchemaError,
    UnexpectedEventType,
    UnknownEventType,
    UnsupportedSchemaVersion,
)
from schemas.events import (
    EVENT_CLASSES,
    ID_PATTERN,
    MAX_DLQ_REASON_CHARS,
    AnyEvent,
    ChatMessageData,
    ChatMessageEvent,
    CommandTool,
    DeadLetterData,
    DeadLetterEvent,
    EpisodeDirtyEvent,
    Event,
    EventBase,
    KafkaHeader,
    MemoryAppendData,
    MemoryCommandEvent,
    MemoryDeleteData,
    MemoryDirtyData,
    MemoryDirtyEvent,
    MemorySaveData,
)

MAX_EVENT_BYTES = 1_000_000
"""Largest serialised event accepted (Kafka's default ``max.message.bytes`` is ~1 MiB)."""
MAX_DLQ_VALUE_BYTES = 512 * 1024
"""Original values larger than this are truncated in dead-letter events."""

_EVENT_ADAPTER: TypeAdapter[AnyEvent] = TypeAdapter(Event)
EVENT_TYPES: dict[str, type[EventBase]] = {c.EVENT_TYPE: c for c in EVENT_CLASSES}
SUPPORTED_VERSIONS: dict[str, tuple[int, ...]] = {}
for _cls in EVENT_CLASSES:
    SUPPORTED_VERSIONS[_cls.FAMILY] = (*SUPPORTED_VERSIONS.get(_cls.FAMILY, ()), _cls.VERSION)
_TYPE_RE = re.compile(r"^(?P<family>.+)\.v(?P<version>\d+)$")
_ID_RE = re.compile(ID_PATTERN)
_NAMESPACE = uuid.UUID("9a4f3f0e-55a3-4b7c-9a53-0c7a2d2b6f10")
_E = TypeVar("_E", bound=EventBase)
_WIRE = {"wire": True}
_UNION_TAGS = frozenset({*EVENT_TYPES, *(t.value for t in CommandTool)})

RawEvent = bytes | bytearray | memoryview | str


def _decode(raw: RawEvent | None) -> str:
    if raw is None:
        raise InvalidEvent("event value is null (tombstone)")
    if isinstance(raw, str):
        if len(raw) > MAX_EVENT_BYTES:  # cheap pre-check; exact byte size checked below
            raise EventTooLarge(f"event exceeds {MAX_EVENT_BYTES} bytes")
        try:
            data = raw.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidEvent(f"event text is not encodable as UTF-8: {exc.reason}") from None
        raw = data
    size = len(raw)
    if size > MAX_EVENT_BYTES:
        raise EventTooLarge(f"event is {size} bytes, limit {MAX_EVENT_BYTES}")
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidEvent(f"event is not valid UTF-8 (byte {exc.start}: {exc.reason})") from None


def describe_validation_error(exc: ValidationError, limit: int = 3) -> str:
    """One line naming the first ``limit`` failing fields (input values are never echoed)."""
    parts = []
    for err in exc.errors(include_url=False, include_input=False)[:limit]:
        # drop discriminated-union tags (event types, command tools): they are not fields
        path = [str(p) for p in err.get("loc", ()) if p not in _UNION_TAGS]
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        parts.append(f"{'.'.join(path) or 'event'}: {msg}")
    more = exc.error_count() - limit
    return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")


def _diagnose(text: str, exc: ValidationError) -> SchemaError:
    """Turn a failed validation into the most specific ``SchemaError``."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as jexc:
        return InvalidEvent(f"invalid JSON: {jexc.msg} at line {jexc.lineno} column {jexc.colno}")
    except RecursionError:
        return InvalidEvent("invalid JSON: nested too deeply")
    except ValueError as vexc:  # e.g. an integer literal past sys.get_int_max_str_digits()
        return InvalidEvent(f"invalid JSON: {str(vexc)[:200]}")
    if not isinstance(obj, dict):
        return InvalidEvent(f"event must be a JSON object, got {type(obj).__name__}")
    etype = obj.get("type")
    if not isinstance(etype, str):
        return InvalidEvent("event has no string 'type' attribute")
    cls = EVENT_TYPES.get(etype)
    if cls is None:
        match = _TYPE_RE.match(etype)
        if match and match["family"] in SUPPORTED_VERSIONS:
            supported = ", ".join(f"v{v}" for v in SUPPORTED_VERSIONS[match["family"]])
            return UnsupportedSchemaVersion(
                f"event type {etype!r}: version v{match['version']} not supported (supported: {supported})")
        return UnknownEventType(f"unknown event type {etype[:120]!r}")
    version = obj.get("schemaversion", cls.VERSION)
    if version != cls.VERSION:
        return UnsupportedSchemaVersion(f"event type {etype!r} with schemaversion {version!r} not supported")
    if obj.get("specversion") != "1.0":
        return InvalidEvent(f"unsupported CloudEvents specversion {obj.get('specversion')!r}")
    return InvalidEvent(f"{etype}: {describe_validation_error(exc)}")


def parse_event(raw: RawEvent | None) -> AnyEvent:
    """Parse one serialised event of any known type.

    Raises ``EventTooLarge``/``InvalidEvent`` (size, UTF-8, JSON, validation), ``UnknownEventType``
    or ``UnsupportedSchemaVersion``; all are ``SchemaError``.
    """
    text = _decode(raw)
    try:
        return _EVENT_ADAPTER.validate_json(text, context=_WIRE)
    except ValidationError as exc:
        raise _diagnose(text, exc) from None


def _parse_as(cls: type[_E], raw: RawEvent | None) -> _E:
    text = _decode(raw)
    try:
        return cls.model_validate_json(text, context=_WIRE)
    except ValidationError as exc:
        err = _diagnose(text, exc)
    if type(err) is InvalidEvent and not str(err).startswith(cls.EVENT_TYPE):
        # Valid JSON of another (known) type? Say so precisely.
        try:
            other = _EVENT_ADAPTER.validate_json(text, context=_WIRE)
        except ValidationError:
            raise err from None
        raise UnexpectedEventType(f"expected {cls.EVENT_TYPE}, got {other.type}") from None
    raise err


def parse_chat_message(raw: RawEvent | None) -> ChatMessageEvent:
    """Parse a ``pai.chat.message.v1`` event; another valid type raises ``UnexpectedEventType``."""
    return _parse_as(ChatMessageEvent, raw)


def parse_memory_command(raw: RawEvent | None) -> MemoryCommandEvent:
    """Parse a ``pai.memory.command.v1`` event; another valid type raises ``UnexpectedEventType``."""
    return _parse_as(MemoryCommandEvent, raw)


def parse_memory_dirty(raw: RawEvent | None) -> MemoryDirtyEvent:
    """Parse a ``pai.memory.dirty.v1`` event; another valid type raises ``UnexpectedEventType``."""
    return _parse_as(MemoryDirtyEvent, raw)


def parse_index_event(raw: RawEvent | None) -> MemoryDirtyEvent | EpisodeDirtyEvent:
    """Parse an event of the ``memory.dirty`` topic: ``pai.memory.dirty.v1`` or ``pai.episode.dirty.v1``;
    another valid type raises ``UnexpectedEventType``."""
    event = parse_event(raw)
    if not isinstance(event, MemoryDirtyEvent | EpisodeDirtyEvent):
        raise UnexpectedEventType(f"expected pai.memory.dirty.v1 or pai.episode.dirty.v1, got {event.type}")
    return event


def parse_dead_letter(raw: RawEvent | None) -> DeadLetterEvent:
    return _parse_as(DeadLetterEvent, raw)


def to_bytes(event: EventBase) -> bytes:
    """Compact UTF-8 JSON of ``event`` (null fields omitted). Raises ``EventTooLarge`` past the limit."""
    out = event.model_dump_json(exclude_none=True).encode("utf-8")
    if len(out) > MAX_EVENT_BYTES:
        raise EventTooLarge(f"event is {len(out)} bytes, limit {MAX_EVENT_BYTES}")
    return out


def to_dict(event: EventBase) -> dict[str, Any]:
    """JSON-compatible dict of ``event`` (as ``to_bytes`` would write it); e.g. for outbox payloads."""
    return event.model_dump(mode="json", exclude_none=True)


def event_key(event: EventBase) -> bytes:
    """Kafka key: the external user id (``subject``); for a dead letter without a user, the
    original record's key, else the event id."""
    subject = getattr(event, "subject", None)
    if subject:
        return str(subject).encode("utf-8")
    if isinstance(event, DeadLetterEvent):
        key = event.data.original_key()
        if key is not None:
            return key
    return event.id.encode("utf-8")


def _stable_id(*parts: object) -> str:
    return str(uuid.uuid5(_NAMESPACE, "/".join(str(p) for p in parts)))


def _now() -> datetime:
    return datetime.now(UTC)


@overload
def make_event(data: ChatMessageData, *, source: str, event_id: str | None = ...,
               time: datetime | None = ...) -> ChatMessageEvent: ...
@overload
def make_event(data: MemorySaveData | MemoryAppendData | MemoryDeleteData, *, source: str,
               event_id: str | None = ..., time: datetime | None = ...) -> MemoryCommandEvent: ...
@overload
def make_event(data: MemoryDirtyData, *, source: str, event_id: str | None = ...,
               time: datetime | None = ...) -> MemoryDirtyEvent: ...
@overload
def make_event(data: DeadLetterData, *, source: str, event_id: str | None = ...,
               time: datetime | None = ...) -> DeadLetterEvent: ...
def make_event(data: Any, *, source: str, event_id: str | None = None,
               time: datetime | None = None) -> AnyEvent:
    """Wrap a payload in its envelope. ``subject`` is taken from the payload.

    The default ``id`` is deterministic for payloads with a natural key (message id, command id,
    outbox id, DLQ source position), so re-publishing the same payload yields the same event id.
    ``time`` defaults to now (UTC). Raises ``InvalidEvent`` when the envelope does not validate.
    """
    try:
        if isinstance(data, ChatMessageData):
            return ChatMessageEvent(id=event_id or _stable_id(ChatMessageEvent.EVENT_TYPE, data.message_id),
                                    source=source, time=time or _now(), subject=data.user_id, data=data)
        if isinstance(data, MemorySaveData | MemoryAppendData | MemoryDeleteData):
            cid = event_id or _stable_id(MemoryCommandEvent.EVENT_TYPE, data.command_id)
            return MemoryCommandEvent(id=cid, source=source, time=time or _now(), subject=data.user_id,
                                      data=data)
        if isinstance(data, MemoryDirtyData):
            return MemoryDirtyEvent(id=event_id or _stable_id(MemoryDirtyEvent.EVENT_TYPE, data.outbox_id),
                                    source=source, time=time or _now(), subject=data.user_id, data=data)
        if isinstance(data, DeadLetterData):
            subject = data.source_key if data.source_key and _ID_RE.match(data.source_key) else None
            eid = event_id or _stable_id(DeadLetterEvent.EVENT_TYPE, data.consumer_group, data.source_topic,
                                         data.source_partition, data.source_offset)
            return DeadLetterEvent(id=eid, source=source, time=time or _now(), subject=subject, data=data)
    except ValidationError as exc:
        raise InvalidEvent(describe_validation_error(exc)) from None
    raise TypeError(f"not an event payload: {type(data).__name__}")


def make_dead_letter(*, reason: str, error_type: str, topic: str, partition: int, offset: int,
                     key: bytes | None, value: bytes | None, consumer_group: str,
                     headers: Iterable[tuple[str, bytes | str | None]] | None = None,
                     timestamp_ms: int | None = None, attempts: int = 1, source: str = "pai-memory",
                     failed_at: datetime | None = None) -> DeadLetterEvent:
    """Build a dead-letter event for a consumed record from its raw Kafka fields.

    Never fails on odd input bytes: the key/value are carried as base64, the value truncated to
    ``MAX_DLQ_VALUE_BYTES``, the reason to ``MAX_DLQ_REASON_CHARS`` (NULs replaced).
    """
    def b64(raw: bytes) -> str:
        return base64.b64encode(raw).decode("ascii")

    source_key: str | None = None
    if key is not None:
        try:
            decoded = key.decode("utf-8")
            source_key = decoded if "\x00" not in decoded else None
        except UnicodeDecodeError:
            source_key = None
    hdrs = []
    for name, hval in headers or ():
        raw_h = hval.encode("utf-8") if isinstance(hval, str) else hval
        hdrs.append(KafkaHeader(key=name.replace("\x00", "")[:1000],
                                value_b64=None if raw_h is None else b64(raw_h)))
    clean_reason = (reason.replace("\x00", "\\0").encode("utf-8", "replace").decode("utf-8")
                    [:MAX_DLQ_REASON_CHARS] or "unknown")
    data = DeadLetterData(
        reason=clean_reason,
        error_type=(error_type.replace("\x00", "") or "Error")[:255],
        source_topic=topic, source_partition=partition, source_offset=offset,
        source_key=source_key, source_key_b64=None if key is None else b64(key),
        source_timestamp_ms=timestamp_ms, consumer_group=consumer_group,
        value_b64=None if value is None else b64(value[:MAX_DLQ_VALUE_BYTES]),
        value_size=0 if value is None else len(value),
        value_truncated=value is not None and len(value) > MAX_DLQ_VALUE_BYTES,
        headers=hdrs, attempts=attempts, failed_at=failed_at or _now(),
    )
    return make_event(data, source=source)
