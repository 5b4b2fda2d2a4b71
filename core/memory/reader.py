"""Reads of the memory truth with the read-side rules: active, unexpired, and past the hard filters.

Old dirty rows written before a filter existed are excluded here too, so every read path
(``memory_list``, recall, consolidation) sees the same clean set.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import ColumnElement, or_, select, update
from sqlalchemy.orm import Session

from core.filters import passes_read_filters
from core.storage.models import LongTermMemory


def live_clause(now: datetime) -> list[ColumnElement[bool]]:
    return [
        LongTermMemory.is_active.is_(True),
        or_(LongTermMemory.expires_at.is_(None), LongTermMemory.expires_at > now),
    ]


def list_live(
    session: Session, user_pk: int, memory_type: str | None = None, limit: int | None = None
) -> list[LongTermMemory]:
    """The user's live memories, most important and most recent first."""
    now = datetime.now(UTC)
    stmt = select(LongTermMemory).where(LongTermMemory.user_id == user_pk, *live_clause(now))
    if memory_type:
        stmt = stmt.where(LongTermMemory.memory_type == memory_type)
    stmt = stmt.order_by(
        LongTermMemory.importance.desc(), LongTermMemory.updated_at.desc(), LongTermMemory.id
    )
    rows = [r for r in session.scalars(stmt).all() if passes_read_filters(r.memory_key, r.content or "")]
    return rows[:limit] if limit is not None else rows


def get_live_by_ids(session: Session, user_pk: int, ids: Sequence[int]) -> list[LongTermMemory]:
    """Live memories among ``ids`` that belong to ``user_pk`` (never another user's)."""
    if not ids:
        return []
    now = datetime.now(UTC)
    rows = session.scalars(
        select(LongTermMemory).where(
            LongTermMemory.user_id == user_pk, LongTermMemory.id.in_(list(ids)), *live_clause(now)
        )
    ).all()
    return [r for r in rows if passes_read_filters(r.memory_key, r.content or "")]


def touch(session: Session, ids: Sequence[int]) -> None:
    """Set ``last_accessed_at`` for memories returned to a caller."""
    if ids:
        session.execute(
            update(LongTermMemory)
            .where(LongTermMemory.id.in_(list(ids)))
            .values(last_accessed_at=datetime.now(UTC))
        )
