"""The decision of a sync pass, per row read from PostgreSQL: erase, delete, embed, refresh or skip.

Pure: no I/O; ``plan_sync`` and ``split_carried`` decide from the rows, the model and the target.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from core.embedding.base import Vectors
from core.memory.text import INDEX_STATE_COLUMNS, IndexState, embedding_text, is_indexable, text_hash
from core.storage.models import LongTermMemory
from core.types import VectorStatus
from core.vectorstore import MilvusMemoryIndex


@dataclass(frozen=True)
class ActiveTarget:
    """The collection vectors are written to: Milvus view, registry name and version."""

    name: str
    version: int
    view: MilvusMemoryIndex


@dataclass(frozen=True)
class IndexedRow(IndexState):
    """A memory row as a sync pass reads it (its index state, ``updated_at``, the carried vector)."""

    updated_at: datetime
    write_vector: bytes | None
    write_vector_model: str | None
    write_vector_hash: str | None


ROW_COLUMNS = (*INDEX_STATE_COLUMNS, LongTermMemory.updated_at, LongTermMemory.write_vector,
               LongTermMemory.write_vector_model, LongTermMemory.write_vector_hash)
"""The columns of an ``IndexedRow``, in its fields' order."""

ToEmbed = tuple[IndexedRow, str, str]  # row, index text, text hash


@dataclass
class SyncPlan:
    """What one pass does with each id (each id in one list)."""

    erase: list[int] = field(default_factory=list)  # not in PostgreSQL
    delete: list[IndexedRow] = field(default_factory=list)  # not live
    embed: list[ToEmbed] = field(default_factory=list)
    refresh: list[tuple[IndexedRow, str]] = field(default_factory=list)  # row, hash
    skip: list[int] = field(default_factory=list)


def plan_sync(ids: list[int], rows: list[IndexedRow], model: str, version: int, now: datetime,
              force: bool) -> SyncPlan:
    """The plan of one pass over ``ids`` (``rows``: those found). ``force`` (a repeat pass) embeds
    and deletes again what a first pass would skip or refresh."""
    plan = SyncPlan()
    found = {row.id for row in rows}
    plan.erase = [i for i in ids if i not in found]
    for row in rows:
        if not is_indexable(row, now):
            if not force and row.vector_status == VectorStatus.SYNCED and row.vector_text_hash is None:
                plan.skip.append(row.id)
            else:
                plan.delete.append(row)
            continue
        text = embedding_text(row.memory_type, row.memory_key, row.content)
        digest = text_hash(text)
        same = row.vector_text_hash == digest and row.vector_model == model and row.vector_version == version
        if same and not force:
            if row.vector_status == VectorStatus.SYNCED:
                plan.skip.append(row.id)
            else:
                plan.refresh.append((row, digest))
        else:
            plan.embed.append((row, text, digest))
    return plan


def split_carried(items: list[ToEmbed], model: str, dim: int
                  ) -> tuple[list[tuple[ToEmbed, Vectors]], list[ToEmbed]]:
    """Split ``items`` into those whose row carries the vector of exactly this text from this model
    and dimension (written by the extractor, ``write_vector*``) and those still to embed."""
    carried: list[tuple[ToEmbed, Vectors]] = []
    rest: list[ToEmbed] = []
    size = dim * 4
    for item in items:
        row, _, digest = item
        if (row.write_vector is not None and len(row.write_vector) == size
                and row.write_vector_model == model and row.write_vector_hash == digest):
            carried.append((item, np.frombuffer(row.write_vector, dtype=np.float32)))
        else:
            rest.append(item)
    return carried, rest
