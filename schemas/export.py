"""The document ``GET /v1/users/{user_id}/export`` returns: one user's memories, memory history and
stored messages (GDPR art. 15/20). Pure pydantic; the JSON Schema is checked in as
``schemas/export.schema.json`` (``pai-memory schemas generate|check``, drift-checked like the events).

Timestamps are ISO 8601 with an offset; ``null`` where the store has none. Lists are complete (the
API streams them); ``memories`` by id, ``history`` and ``messages`` oldest first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from schemas.generated_file import stale_file, write_file

EXPORT_FORMAT = "pai.user.export.v1"
SCHEMA_FILE = Path(__file__).resolve().parent / "export.schema.json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ExportedMemory(_Doc):
    id: int
    key: str
    memory_type: str | None
    content: str | None
    importance: int | None
    confidence: float | None
    is_active: bool
    expires_at: str | None
    vector_status: str | None
    source_message_id: int | None = Field(description="``messages[].id`` of the message that produced it")
    created_at: str
    updated_at: str
    last_accessed_at: str | None


class ExportedChange(_Doc):
    id: int
    memory_id: int | None
    key: str
    operation: str = Field(description="create, overwrite, append, merge, delete, expire, ...")
    source: str = Field(description="extractor, tool, lifecycle")
    source_message_id: int | None
    command_id: str | None
    old_content: str | None
    new_content: str | None
    memory_type: str | None
    reason: str | None
    created_at: str


class ExportedMessage(_Doc):
    id: int
    message_id: str = Field(description="the upstream message id")
    conversation_id: str
    role: str
    content: str
    memory_status: str
    created_at: str
    processed_at: str | None


class UserExport(_Doc):
    """Everything pai-memory holds about one user in PostgreSQL (vectors are derived from ``memories``)."""

    format: str = Field(EXPORT_FORMAT, pattern=f"^{EXPORT_FORMAT.replace('.', '[.]')}$")
    user_id: str
    exported_at: str
    memories: list[ExportedMemory]
    history: list[ExportedChange]
    messages: list[ExportedMessage]


def export_schema() -> dict[str, Any]:
    return {"$schema": DRAFT, "$id": f"urn:pai-memory:schemas:{EXPORT_FORMAT}",
            **UserExport.model_json_schema(mode="validation")}


def render() -> str:
    return json.dumps(export_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def stale(path: Path = SCHEMA_FILE) -> list[str]:
    return stale_file(path, render, "differs from the model (pai-memory schemas generate)")


def write(path: Path = SCHEMA_FILE) -> Path:
    return write_file(path, render)
