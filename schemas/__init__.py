"""The event contract: versioned CloudEvents-style pydantic models, parsing and serialisation.

Pure contract: nothing here imports Kafka. Producers and consumers use::

    parse_event(raw) / parse_chat_message(raw) / parse_memory_command(raw)  -> event or SchemaError
    to_bytes(event) -> bytes          event_key(event) -> bytes (the user id)
    make_event(payload, source=...)   make_dead_letter(...)

JSON Schema files generated from the models live in ``schemas/json/<type>.json``
(``python -m schemas.generate``).
"""

from schemas.codec import (
    EVENT_TYPES,
    MAX_DLQ_VALUE_BYTES,
    MAX_EVENT_BYTES,
    SUPPORTED_VERSIONS,
    event_key,
    make_dead_letter,
    make_event,
    parse_chat_message,
    parse_dead_letter,
    parse_event,
    parse_memory_command,
    parse_memory_dirty,
    to_bytes,
    to_dict,
)
from schemas.errors import (
    EventTooLarge,
    InvalidEvent,
    SchemaError,
    UnexpectedEventType,
    UnknownEventType,
    UnsupportedSchemaVersion,
)
from schemas.events import (
    CHAT_MESSAGE_V1,
    DEAD_LETTER_V1,
    EVENT_CLASSES,
    ID_PATTERN,
    MAX_CONTENT_CHARS,
    MAX_MEMORY_CONTENT_CHARS,
    MEMORY_COMMAND_V1,
    MEMORY_DIRTY_V1,
    AnyEvent,
    ChatMessageData,
    ChatMessageEvent,
    CommandTool,
    DeadLetterData,
    DeadLetterEvent,
    Event,
    EventBase,
    KafkaHeader,
    MemoryAppendData,
    MemoryCommandData,
    MemoryCommandEvent,
    MemoryDeleteData,
    MemoryDirtyData,
    MemoryDirtyEvent,
    MemorySaveData,
)

__all__ = [
    "CHAT_MESSAGE_V1",
    "DEAD_LETTER_V1",
    "EVENT_CLASSES",
    "EVENT_TYPES",
    "ID_PATTERN",
    "MAX_CONTENT_CHARS",
    "MAX_DLQ_VALUE_BYTES",
    "MAX_EVENT_BYTES",
    "MAX_MEMORY_CONTENT_CHARS",
    "MEMORY_COMMAND_V1",
    "MEMORY_DIRTY_V1",
    "SUPPORTED_VERSIONS",
    "AnyEvent",
    "ChatMessageData",
    "ChatMessageEvent",
    "CommandTool",
    "DeadLetterData",
    "DeadLetterEvent",
    "Event",
    "EventBase",
    "EventTooLarge",
    "InvalidEvent",
    "KafkaHeader",
    "MemoryAppendData",
    "MemoryCommandData",
    "MemoryCommandEvent",
    "MemoryDeleteData",
    "MemoryDirtyData",
    "MemoryDirtyEvent",
    "MemorySaveData",
    "SchemaError",
    "UnexpectedEventType",
    "UnknownEventType",
    "UnsupportedSchemaVersion",
    "event_key",
    "make_dead_letter",
    "make_event",
    "parse_chat_message",
    "parse_dead_letter",
    "parse_event",
    "parse_memory_command",
    "parse_memory_dirty",
    "to_bytes",
    "to_dict",
]
