"""What a sync reports, and how it fails: ``SyncReport``, ``IndexSyncFailed``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_ERROR_CHARS = 1000
"""``vector_error`` is truncated to this many characters."""


class IndexingError(RuntimeError):
    """Base of the indexer's errors."""


class IndexSyncFailed(IndexingError):
    """A sync did not complete; ``memory_ids`` are not (all) in their final state. Retry them.

    ``stage`` is ``embed``, ``milvus`` or ``database``; ``failed_ids`` were marked ``FAILED`` (empty
    when the database itself failed).
    """

    def __init__(self, stage: str, memory_ids: Sequence[int], failed_ids: Sequence[int],
                 message: str) -> None:
        super().__init__(f"indexing {len(memory_ids)} memories failed at {stage}: {message}")
        self.stage = stage
        self.memory_ids = list(memory_ids)
        self.failed_ids = list(failed_ids)


@dataclass
class SyncReport:
    """What one ``sync`` did, by memory id (each id in at most one list)."""

    requested: int = 0
    upserted: list[int] = field(default_factory=list)  # embedded, written to Milvus, SYNCED
    refreshed: list[int] = field(default_factory=list)  # text unchanged: SYNCED without embedding
    skipped: list[int] = field(default_factory=list)  # already SYNCED for this text, model, collection
    deleted: list[int] = field(default_factory=list)  # not live: removed from Milvus, SYNCED
    erased: list[int] = field(default_factory=list)  # not in PostgreSQL: removed from Milvus
    superseded: list[int] = field(default_factory=list)  # kept changing: left DIRTY for the newer event
    embedded_texts: int = 0
    embed_calls: int = 0
    reused_vectors: int = 0  # texts whose vector came with the row (``write_vector``): no model call
    passes: int = 0
    embed_sec: float = 0.0
    milvus_sec: float = 0.0
    db_sec: float = 0.0

    @property
    def indexed(self) -> int:
        """Memories whose index entry was written or removed (the work the indexer exists for)."""
        return len(self.upserted) + len(self.deleted) + len(self.erased)

    def as_dict(self) -> dict[str, Any]:
        return {"requested": self.requested, "upserted": len(self.upserted), "refreshed": len(self.refreshed),
                "skipped": len(self.skipped), "deleted": len(self.deleted), "erased": len(self.erased),
                "superseded": len(self.superseded), "embedded_texts": self.embedded_texts,
                "embed_calls": self.embed_calls,
                "reused_vectors": self.reused_vectors, "passes": self.passes,
                "embed_sec": round(self.embed_sec, 6),
                "milvus_sec": round(self.milvus_sec, 6), "db_sec": round(self.db_sec, 6)}


def first_line(exc: BaseException) -> str:
    """The first line of ``exc`` (its type's name when it has no text)."""
    lines = str(exc).splitlines()
    return lines[0] if lines else type(exc).__name__


def error_text(stage: str, exc: BaseException) -> str:
    """The ``vector_error`` text: NUL escaped (PostgreSQL text cannot hold it), capped."""
    return f"{stage}: {type(exc).__name__}: {exc}".replace("\x00", "\\0")[:MAX_ERROR_CHARS]
