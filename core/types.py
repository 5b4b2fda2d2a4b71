"""Domain vocabulary shared by every layer: memory types, statuses, operations."""

from __future__ import annotations

from enum import StrEnum


class MemoryType(StrEnum):
    """The five long-term memory types of the seed. Profile fields are never memories."""

    PREFERENCE = "preference"
    FACT = "fact"
    GOAL = "goal"
    PROJECT = "project"
    CONSTRAINT = "constraint"


class MessageRole(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


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


class MemoryOperation(StrEnum):
    """What a write did to a memory; recorded in history and counted in metrics."""

    CREATE = "create"
    OVERWRITE = "overwrite"
    MERGE = "merge"
    APPEND = "append"
    DELETE = "delete"
    EXPIRE = "expire"
    DEDUPE = "dedupe"
    NORMALISE = "normalise"
    ERASE = "erase"


class WriteSource(StrEnum):
    """Which door a write came through."""

    EXTRACTOR = "extractor"
    TOOL = "tool"
    LIFECYCLE = "lifecycle"
