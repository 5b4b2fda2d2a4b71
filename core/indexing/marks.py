"""The ``vector_*`` columns a sync pass writes, optimistically: only rows still at the ``updated_at``
that was read are marked, so a duplicate or late event never marks a newer version synced."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Integer, String, column, update, values
from sqlalchemy.orm import Session

from core.indexing.plan import IndexedRow
from core.storage.models import LongTermMemory
from core.types import VectorStatus


def mark_synced(session: Session, rows: list[tuple[IndexedRow, str]], model: str, version: int,
                now: datetime) -> set[int]:
    """Mark ``(row, text hash)`` ``SYNCED`` for ``model`` and collection ``version``; the ids marked."""
    if not rows:
        return set()
    v = values(column("id", Integer), column("read_at", DateTime(timezone=True)),
               column("digest", String), name="v").data(
                   [(row.id, row.updated_at, digest) for row, digest in rows])
    stmt = (update(LongTermMemory)
            .where(LongTermMemory.id == v.c.id, LongTermMemory.updated_at == v.c.read_at)
            .values(vector_status=VectorStatus.SYNCED.value, vector_synced_at=now,
                    vector_model=model, vector_version=version,
                    vector_text_hash=v.c.digest, vector_error=None, write_vector=None,
                    write_vector_model=None, write_vector_hash=None)
            .returning(LongTermMemory.id))
    return set(session.scalars(stmt).all())


def mark_removed(session: Session, rows: list[IndexedRow], now: datetime) -> set[int]:
    """Mark rows removed from the index ``SYNCED`` with no text hash; the ids marked."""
    if not rows:
        return set()
    v = values(column("id", Integer), column("read_at", DateTime(timezone=True)),
               name="v").data([(row.id, row.updated_at) for row in rows])
    stmt = (update(LongTermMemory)
            .where(LongTermMemory.id == v.c.id, LongTermMemory.updated_at == v.c.read_at)
            .values(vector_status=VectorStatus.SYNCED.value, vector_synced_at=now,
                    vector_text_hash=None, vector_error=None, write_vector=None,
                    write_vector_model=None, write_vector_hash=None)
            .returning(LongTermMemory.id))
    return set(session.scalars(stmt).all())


def mark_failed(session: Session, rows: list[IndexedRow], error: str) -> None:
    """Mark rows ``FAILED`` with ``error`` (and no text hash, so nothing is skipped later)."""
    if not rows:
        return
    v = values(column("id", Integer), column("read_at", DateTime(timezone=True)),
               name="v").data([(row.id, row.updated_at) for row in rows])
    session.execute(update(LongTermMemory)
                    .where(LongTermMemory.id == v.c.id, LongTermMemory.updated_at == v.c.read_at)
                    .values(vector_status=VectorStatus.FAILED.value, vector_error=error,
                            vector_text_hash=None))
