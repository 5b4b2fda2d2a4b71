"""What the index holds for a memory row: the text its vector is computed from (``embedding_text``: the
content) and that text's hash, the lexical index text ``[{memory_type}] {memory_key}: {content}``, whether
the row belongs in the index at all, and the ``memory.dirty`` operation its state calls for
(``docs/design.md#indexer``). One place, so the indexer, reindex, verify and the sweep judge a row the
same way."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from core.filters import passes_read_filters
from core.storage.models import LongTermMemory
from core.types import MemoryOperation


def index_text(memory_type: str | None, memory_key: str, content: str | None) -> str:
    return f"[{memory_type or 'fact'}] {memory_key}: {content or ''}"


def embedding_text(memory_type: str | None, memory_key: str, content: str | None) -> str:
    """The text a memory's vector is computed from (index, semantic dedup, the write's carried vector):
    its content alone. It is exactly what the memory classifier embeds for a candidate, so a kept
    candidate reaches the model once (``core.embedding.cache``); the type stays a scalar field of the
    index, the key counts in the rerank's key bonus, both in the lexical fallback's ``index_text``."""
    del memory_type, memory_key  # same signature as index_text: every caller passes the row's fields
    return content or ""


def text_hash(text: str) -> str:
    """SHA-256 hex of the index text (fits ``vector_text_hash VARCHAR(64)``)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class LiveFields(Protocol):
    """The fields that decide whether a memory row is live (an ORM row or an ``IndexState``)."""

    @property
    def memory_key(self) -> str: ...
    @property
    def content(self) -> str | None: ...
    @property
    def is_active(self) -> bool | None: ...
    @property
    def expires_at(self) -> datetime | None: ...


def not_indexable_reason(row: LiveFields, now: datetime) -> str | None:
    """Why ``row`` has no place in the index (``inactive``, ``expired``, ``filtered`` by the read-side hard
    filters), or None when it does. The Python twin of ``core.memory.reader.live_clause`` plus
    ``passes_read_filters``."""
    if not row.is_active:
        return "inactive"
    if row.expires_at is not None and row.expires_at <= now:
        return "expired"
    if not passes_read_filters(row.memory_key, row.content or ""):
        return "filtered"
    return None


def is_indexable(row: LiveFields, now: datetime) -> bool:
    """Should this row have an index entry? Active, unexpired and past the read-side hard filters."""
    return not_indexable_reason(row, now) is None


def dirty_operation(is_active: bool | None, expires_at: datetime | None, now: datetime) -> MemoryOperation:
    """The ``memory.dirty`` operation that re-announces a row in this state: ``delete`` (inactive),
    ``expire`` (past ``expires_at``) or ``overwrite``."""
    if not is_active:
        return MemoryOperation.DELETE
    if expires_at is not None and expires_at <= now:
        return MemoryOperation.EXPIRE
    return MemoryOperation.OVERWRITE


@dataclass(frozen=True)
class IndexState:
    """The columns of a memory row that decide its index entry, read without loading the ORM object
    (select ``INDEX_STATE_COLUMNS``)."""

    id: int
    user_id: int
    memory_key: str
    memory_type: str | None
    content: str | None
    is_active: bool | None
    expires_at: datetime | None
    vector_status: str | None
    vector_model: str | None
    vector_version: int | None
    vector_text_hash: str | None


INDEX_STATE_COLUMNS = (
    LongTermMemory.id, LongTermMemory.user_id, LongTermMemory.memory_key, LongTermMemory.memory_type,
    LongTermMemory.content, LongTermMemory.is_active, LongTermMemory.expires_at,
    LongTermMemory.vector_status, LongTermMemory.vector_model, LongTermMemory.vector_version,
    LongTermMemory.vector_text_hash,
)
