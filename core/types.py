"""Domain vocabulary shared by every layer: memory types, statuses, operations.

The enums the wire contract carries (``MemoryType``, ``MessageRole``, ``MemoryOperation``) are defined in
``schemas.vocabulary`` (the contract depends on nothing of ours) and re-exported here; the rest are
domain-only.
"""

from __future__ import annotations

from enum import StrEnum

from schemas.vocabulary import MemoryOperation, MemoryType, MessageRole

__all__ = [
    "MemoryOperation",
    "MemoryType",
    "MessageRole",
    "MessageStatus",
    "VectorStatus",
    "WriteSource",
]


class MessageStatus(StrEnum):
    """Memory-processing status of a stored message: PENDING -> PROCESSED | FAILED | SKIPPED."""

    PENDING = "PENDING"
    PROCESSED = "PROCESSED"
    FAILED = "FAILED"
    SKIPPED = "SKIPPED"


class VectorStatus(StrEnum):
    """Index state of a memory row: every write sets DIRTY; the indexer sets SYNCED or FAILED."""

    DIRTY = "DIRTY"
    SYNCED = "SYNCED"
    FAILED = "FAILED"


class WriteSource(StrEnum):
    """Which door a write came through."""

    EXTRACTOR = "extractor"
    TOOL = "tool"
    LIFECYCLE = "lifecycle"
