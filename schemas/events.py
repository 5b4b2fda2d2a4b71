"""Event models: the wire contract between producers and consumers (pure pydantic, no Kafka).

Every event is a CloudEvents 1.0 envelope in structured JSON mode::

    {"specversion": "1.0", "id": "...", "source": "pai-chat", "type": "pai.chat.message.v1",
     "schemaversion": 1, "dataschema": "urn:pai-memory:schemas:pai.chat.message.v1",
     "time": "2025-01-01T08:00:00Z", "subject": "<user id>", "datacontenttype": "application/json",
     "data": {...}}

Invariants:
- ``type`` is ``<family>.v<N>`` and ``schemaversion`` is ``N``; a new incompatible payload gets a new
  version (a new class), old versions stay parseable while producers may still send them.
- ``subject`` is the external user id and equals ``data.user_id`` (the Kafka key is the same id).
- Payloads and envelopes forbid unknown fields; timestamps are timezone-aware and normalised to UTC;
  text fields never contain NUL or lone surrogates (every valid event encodes to UTF-8).
"""

from __future__ import annotations

import base64
import binascii
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Final, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StringConstraints,
    ValidationInfo,
    model_validator,
)

from schemas.vocabulary import MemoryOperation, MemoryType, MessageRole

# --- limits ---------------------------------------------------------------------------------------
MAX_CONTENT_CHARS = 32000
"""Largest chat message ``content`` (and ``conversation_summary``) accepted, in characters."""
MAX_MEMORY_CONTENT_CHARS = 1000
"""Largest memory content a command may carry (``long_term_memories.content`` is VARCHAR(1000))."""
MAX_MEMORY_KEY_CHARS = 160
"""``long_term_memories.memory_key`` is VARCHAR(160)."""
DEFAULT_MEMORY_CONFIDENCE = 0.8
"""Confidence of a memory written without one (a command, a tool call, a candidate): the column's DEFAULT."""
MAX_DLQ_REASON_CHARS = 4000
ID_PATTERN = r"^[A-Za-z0-9._:@-]{1,128}$"
"""User, conversation, message and command ids: 1-128 chars of ``A-Za-z0-9._:@-``."""

SPEC_VERSION: Final = "1.0"
CONTENT_TYPE: Final = "application/json"
DATASCHEMA_PREFIX = "urn:pai-memory:schemas:"

CHAT_MESSAGE_V1: Final = "pai.chat.message.v1"
MEMORY_COMMAND_V1: Final = "pai.memory.command.v1"
MEMORY_DIRTY_V1: Final = "pai.memory.dirty.v1"
EPISODE_DIRTY_V1: Final = "pai.episode.dirty.v1"
DEAD_LETTER_V1: Final = "pai.dlq.v1"


# --- field types ----------------------------------------------------------------------------------
def _clean_text(value: str) -> str:
    if "\x00" in value:
        raise ValueError("text must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError("text must not contain lone surrogates") from exc
    return value


def _reject_numeric_time(value: Any) -> Any:
    if isinstance(value, bool | int | float):
        raise ValueError("timestamps must be RFC 3339 strings, not numbers")
    return value


def _to_utc(value: datetime) -> datetime:
    try:
        return value.astimezone(UTC)
    except OverflowError as exc:  # e.g. 0001-01-01T00:00+05:00 has no UTC representation
        raise ValueError("timestamp out of range in UTC") from exc


def _check_base64(value: str) -> str:
    try:
        base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError("not valid base64") from exc
    return value


Identifier = Annotated[str, StringConstraints(strict=True, pattern=ID_PATTERN)]
EventId = Annotated[str, StringConstraints(strict=True, pattern=r"^[\x21-\x7e]{1,200}$")]
SourceUri = Annotated[str, StringConstraints(strict=True, pattern=r"^[\x21-\x7e]{1,255}$")]
Timestamp = Annotated[AwareDatetime, BeforeValidator(_reject_numeric_time), AfterValidator(_to_utc)]
MessageText = Annotated[str, StringConstraints(strict=True, max_length=MAX_CONTENT_CHARS),
                        AfterValidator(_clean_text)]
MemoryText = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=MAX_MEMORY_CONTENT_CHARS),
                       AfterValidator(_clean_text)]
# A key as a client may send it: no control characters, no leading/trailing whitespace.
MemoryKey = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=MAX_MEMORY_KEY_CHARS,
                                             pattern=r"^[^\x00-\x20\x7f](?:[^\x00-\x1f\x7f]*[^\x00-\x20\x7f])?$")]
# A key as stored in PostgreSQL (the outbox must be able to announce any stored row).
StoredMemoryKey = Annotated[
    str, StringConstraints(strict=True, min_length=1, max_length=MAX_MEMORY_KEY_CHARS),
    AfterValidator(_clean_text)]
Base64Bytes = Annotated[str, StringConstraints(strict=True, pattern=r"^[A-Za-z0-9+/]*={0,2}$"),
                        AfterValidator(_check_base64)]
ShortText = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=255),
                      AfterValidator(_clean_text)]
Importance = Annotated[StrictInt, Field(ge=1, le=5)]
Confidence = Annotated[StrictFloat, Field(ge=0.0, le=1.0)]
TtlDays = Annotated[StrictInt, Field(ge=1, le=36500)]


class _Payload(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- payloads -------------------------------------------------------------------------------------
class ChatMessageData(_Payload):
    """One chat turn as the upstream chat service saw it. ``message_id`` is unique upstream and is
    the idempotency key downstream (re-publishing the same id changes nothing)."""

    message_id: Identifier
    user_id: Identifier
    conversation_id: Identifier
    role: MessageRole
    content: MessageText
    created_at: Timestamp
    conversation_summary: MessageText | None = None


class CommandTool(StrEnum):
    """Agent tools that write memory and can arrive as command events."""

    MEMORY_SAVE = "memory_save"
    MEMORY_APPEND = "memory_append"
    MEMORY_DELETE = "memory_delete"


class _CommandBase(_Payload):
    command_id: Identifier = Field(description="Unique per command; redelivery of the same id is a no-op.")
    user_id: Identifier
    key: MemoryKey = Field(description="memory_key of the target memory")
    conversation_id: Identifier | None = None


class MemorySaveData(_CommandBase):
    """``memory_save``: create the memory ``key`` or overwrite it."""

    tool: Literal["memory_save"] = "memory_save"
    memory_type: MemoryType = MemoryType.FACT
    content: MemoryText
    importance: Importance | None = None
    confidence: Confidence | None = None
    ttl_days: TtlDays | None = None


class MemoryAppendData(_CommandBase):
    """``memory_append``: add ``content`` to memory ``key`` (created with ``memory_type`` if absent)."""

    tool: Literal["memory_append"] = "memory_append"
    memory_type: MemoryType | None = None
    content: MemoryText
    importance: Importance | None = None
    confidence: Confidence | None = None
    ttl_days: TtlDays | None = None


class MemoryDeleteData(_CommandBase):
    """``memory_delete``: deactivate memory ``key``."""

    tool: Literal["memory_delete"] = "memory_delete"
    reason: Annotated[str, StringConstraints(strict=True, max_length=500),
                      AfterValidator(_clean_text)] | None = None


MemoryCommandData = Annotated[MemorySaveData | MemoryAppendData | MemoryDeleteData,
                              Field(discriminator="tool")]


class MemoryDirtyData(_Payload):
    """A committed change to one memory row that the index must reflect (from the outbox).

    Consumers must re-read the truth for ``memory_id``; the event says *that* it changed, not *to what*.
    """

    memory_id: Annotated[StrictInt, Field(ge=1)]
    user_id: Identifier = Field(description="external user id (also the Kafka key)")
    user_pk: Annotated[StrictInt, Field(ge=1)] = Field(description="internal users.id")
    memory_key: StoredMemoryKey
    operation: MemoryOperation
    outbox_id: Annotated[StrictInt, Field(ge=1)]
    changed_at: Timestamp
    origin_at: Timestamp | None = Field(
        None, description="when the cause of this change was created: the chat message (the earliest of "
        "its burst) or the memory command event; absent for lifecycle jobs and re-drives. Freshness is "
        "measured from it")


class EpisodeDirtyData(_Payload):
    """A committed change to one episode row (a passage of what the user said) that the episode index
    must reflect (from the outbox, on the ``memory.dirty`` topic beside ``pai.memory.dirty.v1``).

    Consumers must re-read the truth for ``episode_id``; a row that is gone or expired is removed.
    """

    episode_id: Annotated[StrictInt, Field(ge=1)]
    user_id: Identifier = Field(description="external user id (also the Kafka key)")
    user_pk: Annotated[StrictInt, Field(ge=1)] = Field(description="internal users.id")
    outbox_id: Annotated[StrictInt, Field(ge=1)]
    changed_at: Timestamp
    origin_at: Timestamp | None = Field(
        None, description="when the chat message of this passage was created; freshness is measured from it")


class KafkaHeader(_Payload):
    key: Annotated[str, StringConstraints(strict=True, max_length=1000)]
    value_b64: Base64Bytes | None = None


class DeadLetterData(_Payload):
    """A record a consumer could not process, with where it came from and the original bytes.

    ``value_b64`` is the original value in base64 (``None`` for a Kafka null value), possibly
    truncated to ``MAX_DLQ_VALUE_BYTES`` (then ``value_truncated`` is true; ``value_size`` is the
    original length). ``source_key`` is the original key when it was UTF-8, ``source_key_b64`` always.
    """

    reason: Annotated[str, StringConstraints(strict=True, min_length=1, max_length=MAX_DLQ_REASON_CHARS),
                      AfterValidator(_clean_text)]
    error_type: ShortText
    source_topic: Annotated[str, StringConstraints(strict=True, pattern=r"^[A-Za-z0-9._-]{1,249}$")]
    source_partition: Annotated[StrictInt, Field(ge=0)]
    source_offset: Annotated[StrictInt, Field(ge=0)]
    source_key: Annotated[str, AfterValidator(_clean_text)] | None = None
    source_key_b64: Base64Bytes | None = None
    source_timestamp_ms: StrictInt | None = None
    consumer_group: ShortText
    value_b64: Base64Bytes | None = None
    value_size: Annotated[StrictInt, Field(ge=0)] = 0
    value_truncated: StrictBool = False
    headers: list[KafkaHeader] = Field(default_factory=list)
    attempts: Annotated[StrictInt, Field(ge=1)] = 1
    failed_at: Timestamp

    def original_value(self) -> bytes | None:
        """The original (possibly truncated) value bytes, ``None`` for a null value."""
        return None if self.value_b64 is None else base64.b64decode(self.value_b64)

    def original_key(self) -> bytes | None:
        return None if self.source_key_b64 is None else base64.b64decode(self.source_key_b64)


# --- envelopes ------------------------------------------------------------------------------------
WIRE_REQUIRED = ("specversion", "type")
"""Attributes with a Python default that CloudEvents nevertheless requires on the wire."""


def _require_on_wire(schema: dict[str, Any]) -> None:
    schema["required"] = sorted({*schema.get("required", []), *WIRE_REQUIRED})


class EventBase(BaseModel):
    """CloudEvents 1.0 attributes shared by every event; subclasses fix ``type`` and ``data``.

    In Python ``specversion``/``type`` default to their only valid value; parsed from the wire
    (validation context ``{"wire": True}``, as ``schemas.parse_event`` does) they are required.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_require_on_wire)

    EVENT_TYPE: ClassVar[str]
    FAMILY: ClassVar[str]
    VERSION: ClassVar[int]

    specversion: Literal["1.0"] = SPEC_VERSION
    id: EventId = Field(description="Unique event id; the same id means the same event (safe to dedupe).")
    source: SourceUri = Field(description="Producer identity, e.g. 'pai-chat' or 'pai-memory/outbox'.")
    time: Timestamp
    datacontenttype: Literal["application/json"] = CONTENT_TYPE

    @model_validator(mode="before")
    @classmethod
    def _wire_attributes(cls, data: Any, info: ValidationInfo) -> Any:
        if info.context and info.context.get("wire") and isinstance(data, dict):
            missing = [name for name in WIRE_REQUIRED if name not in data]
            if missing:
                raise ValueError(f"missing required attribute(s): {', '.join(missing)}")
        return data

    @model_validator(mode="after")
    def _subject_is_user(self) -> EventBase:
        subject = getattr(self, "subject", None)
        user_id = getattr(getattr(self, "data", None), "user_id", None)
        if subject is not None and user_id is not None and subject != user_id:
            raise ValueError(f"subject must equal data.user_id ({user_id!r}), got {subject!r}")
        return self


def _register(cls: type[EventBase]) -> type[EventBase]:
    family, _, version = cls.EVENT_TYPE.rpartition(".v")
    cls.FAMILY = family
    cls.VERSION = int(version)
    return cls


class ChatMessageEvent(EventBase):
    """``pai.chat.message.v1``: a chat turn from the upstream chat service."""

    EVENT_TYPE: ClassVar[str] = CHAT_MESSAGE_V1
    type: Literal["pai.chat.message.v1"] = CHAT_MESSAGE_V1
    schemaversion: Literal[1] = 1
    dataschema: Literal["urn:pai-memory:schemas:pai.chat.message.v1"] = (
        "urn:pai-memory:schemas:pai.chat.message.v1")
    subject: Identifier = Field(description="external user id; equals data.user_id")
    data: ChatMessageData


class MemoryCommandEvent(EventBase):
    """``pai.memory.command.v1``: an agent tool write (save/append/delete) published as an event."""

    EVENT_TYPE: ClassVar[str] = MEMORY_COMMAND_V1
    type: Literal["pai.memory.command.v1"] = MEMORY_COMMAND_V1
    schemaversion: Literal[1] = 1
    dataschema: Literal["urn:pai-memory:schemas:pai.memory.command.v1"] = (
        "urn:pai-memory:schemas:pai.memory.command.v1")
    subject: Identifier = Field(description="external user id; equals data.user_id")
    data: MemoryCommandData


class MemoryDirtyEvent(EventBase):
    """``pai.memory.dirty.v1``: a memory row changed in PostgreSQL; the index must catch up."""

    EVENT_TYPE: ClassVar[str] = MEMORY_DIRTY_V1
    type: Literal["pai.memory.dirty.v1"] = MEMORY_DIRTY_V1
    schemaversion: Literal[1] = 1
    dataschema: Literal["urn:pai-memory:schemas:pai.memory.dirty.v1"] = (
        "urn:pai-memory:schemas:pai.memory.dirty.v1")
    subject: Identifier = Field(description="external user id; equals data.user_id")
    data: MemoryDirtyData


class EpisodeDirtyEvent(EventBase):
    """``pai.episode.dirty.v1``: an episode row changed in PostgreSQL; the episode index must catch up."""

    EVENT_TYPE: ClassVar[str] = EPISODE_DIRTY_V1
    type: Literal["pai.episode.dirty.v1"] = EPISODE_DIRTY_V1
    schemaversion: Literal[1] = 1
    dataschema: Literal["urn:pai-memory:schemas:pai.episode.dirty.v1"] = (
        "urn:pai-memory:schemas:pai.episode.dirty.v1")
    subject: Identifier = Field(description="external user id; equals data.user_id")
    data: EpisodeDirtyData


class DeadLetterEvent(EventBase):
    """``pai.dlq.v1``: a record a consumer group gave up on. ``subject`` is the user id when known."""

    EVENT_TYPE: ClassVar[str] = DEAD_LETTER_V1
    type: Literal["pai.dlq.v1"] = DEAD_LETTER_V1
    schemaversion: Literal[1] = 1
    dataschema: Literal["urn:pai-memory:schemas:pai.dlq.v1"] = (
        "urn:pai-memory:schemas:pai.dlq.v1")
    subject: Identifier | None = None
    data: DeadLetterData


EVENT_CLASSES: tuple[type[EventBase], ...] = tuple(
    _register(c) for c in (ChatMessageEvent, MemoryCommandEvent, MemoryDirtyEvent, EpisodeDirtyEvent,
                           DeadLetterEvent))

Event = Annotated[
    ChatMessageEvent | MemoryCommandEvent | MemoryDirtyEvent | EpisodeDirtyEvent | DeadLetterEvent,
    Field(discriminator="type")]
AnyEvent = ChatMessageEvent | MemoryCommandEvent | MemoryDirtyEvent | EpisodeDirtyEvent | DeadLetterEvent
