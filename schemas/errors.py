"""Errors raised when bytes or objects do not satisfy the event contract.

Every failure of ``schemas.parse_event`` (and the typed variants) is a ``SchemaError``; consumers
route any ``SchemaError`` to their dead-letter topic and keep the partition flowing. The subclass
says why, and ``reason`` is a short machine-friendly code for metrics and DLQ records.
"""

from __future__ import annotations


class SchemaError(ValueError):
    """An event does not satisfy the contract. ``reason`` is a stable short code."""

    reason = "schema_error"


class InvalidEvent(SchemaError):
    """Bytes are not valid UTF-8/JSON, too large, or the envelope/payload fails validation."""

    reason = "invalid_event"


class EventTooLarge(InvalidEvent):
    """The raw event exceeds ``schemas.MAX_EVENT_BYTES``."""

    reason = "event_too_large"


class UnknownEventType(SchemaError):
    """The ``type`` attribute names no event family this code knows."""

    reason = "unknown_event_type"


class UnsupportedSchemaVersion(SchemaError):
    """The event family is known but not at this schema version."""

    reason = "unsupported_schema_version"


class UnexpectedEventType(SchemaError):
    """A valid event of another type arrived where a specific type was required."""

    reason = "unexpected_event_type"
