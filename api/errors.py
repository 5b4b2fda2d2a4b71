"""How request errors are worded, for every door (REST and MCP): one place, so both say the same."""

from __future__ import annotations

from typing import Any

from api.models import ID_PATTERN


def field_of(loc: Any) -> str | None:
    """The dotted field name of a validation error's location (request parts left out)."""
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or None


def validation_message(error: Any) -> str:
    """The pydantic message, with regular-expression mismatches said in words."""
    if error.get("type") == "string_pattern_mismatch":
        pattern = (error.get("ctx") or {}).get("pattern")
        if pattern == ID_PATTERN:
            return "must be 1-128 characters from A-Z a-z 0-9 . _ : @ -"
        return "contains characters that are not allowed (control characters)"
    return str(error.get("msg", "invalid value"))


def invalid_field(message: str) -> str | None:
    """Best guess at the field a domain ``InvalidMemoryInput`` message is about."""
    lowered = message.lower()
    for name, marker in (("key", "memory key"), ("content", "memory content"), ("memory_type", "memory_type"),
                         ("importance", "importance"), ("confidence", "confidence"), ("ttl_days", "ttl_days"),
                         ("user_id", "user_id")):
        if lowered.startswith(marker) or f" {marker}" in lowered:
            return name
    return None
