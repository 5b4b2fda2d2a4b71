"""Reads of the memory truth with the read-side rules: active, unexpired, and past the hard filters.

Old dirty rows written before a filter existed are excluded here too, so every read path
(``memory_list``, recall, consolidation) sees the same clean set.

The filtering, ordering and limit run in SQL (``live_clause`` + ``filtered_key_clause``, ORDER BY
importance, recency, id, LIMIT; served by the partial index ``ix_ltm_user_live_order``), so a read
of the top N never loads the user's other rows. Every row is re-checked in Python
(``passes_read_filters``: noise content and keys not in normalised form cannot be judged in SQL);
when the re-check drops rows the next rows are fetched, so the result is exactly the first N rows
that pass the filters, the same as filtering everything in Python before the limit.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from functools import cache

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    DateTime,
    Integer,
    Row,
    Select,
    String,
    and_,
    bindparam,
    func,
    not_,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session

from core.filters import SQL_FILTERED_KEY_PATTERN, SQL_NORMALISED_KEY_PATTERN, passes_read_filters
from core.storage.models import LongTermMemory, MemoryHistory, User
from schemas.vocabulary import MemoryOperation

# rows fetched per round when no limit is given to a paged read; any size gives the same result
_MIN_PAGE = 64


def live_clause(now: datetime | BindParameter[datetime]) -> list[ColumnElement[bool]]:
    return [
        LongTermMemory.is_active.is_(True),
        or_(LongTermMemory.expires_at.is_(None), LongTermMemory.expires_at > now),
    ]


def filtered_key_clause() -> ColumnElement[bool]:
    """True for rows whose key the hard filters drop (noise or profile key), decided in SQL for keys
    in normalised form only; other keys are left to the Python re-check (never dropped wrongly)."""
    canonical = func.btrim(func.regexp_replace(LongTermMemory.memory_key, "[._-]+", "-", "g"), "-")
    return and_(
        LongTermMemory.memory_key.regexp_match(SQL_NORMALISED_KEY_PATTERN),
        canonical.regexp_match(SQL_FILTERED_KEY_PATTERN),
    )


@cache
def _live_stmt(by_type: bool) -> Select[LongTermMemory]:
    """``list_live``'s statement, built once (parameters ``user_pk``, ``now`` and, ``by_type``,
    ``memory_type``): the extractor reads live memories several times per burst."""
    now = bindparam("now", type_=DateTime(timezone=True))
    stmt = select(LongTermMemory).where(
        LongTermMemory.user_id == bindparam("user_pk", type_=Integer), *live_clause(now),
        not_(filtered_key_clause()),
    )
    if by_type:
        stmt = stmt.where(LongTermMemory.memory_type == bindparam("memory_type", type_=String))
    return stmt.order_by(
        LongTermMemory.importance.desc(), LongTermMemory.updated_at.desc(), LongTermMemory.id
    )


_LIVE_ROW_COLUMNS = (LongTermMemory.id, LongTermMemory.memory_key, LongTermMemory.memory_type,
                     LongTermMemory.content, LongTermMemory.importance, LongTermMemory.updated_at)


@cache
def _live_rows_stmt() -> Select[int, str, str | None, str | None, int | None, datetime]:
    """``live_rows``' statement: ``list_live``'s statement (its filters and order), six columns."""
    return _live_stmt(False).with_only_columns(*_LIVE_ROW_COLUMNS)


LiveRow = Row[int, str, str | None, str | None, int | None, datetime]


def live_rows(session: Session, user_pk: int) -> list[LiveRow]:
    """``list_live(session, user_pk)`` as plain rows of ``id, memory_key, memory_type, content,
    importance, updated_at`` (same rows, same order, same read filters): for callers that only read
    those, e.g. the extractor, several times per burst. A Core statement on the session's connection:
    no ORM objects are built (nor put in the session), and no other column (the write vector) is read.
    Inside the session's transaction it sees the transaction's own writes, as ``list_live`` does (pending
    ORM changes are flushed first, as the ORM's autoflush would; a no-op when there are none)."""
    session.flush()
    rows = session.connection().execute(_live_rows_stmt(), {"user_pk": user_pk, "now": datetime.now(UTC)})
    return [r for r in rows if passes_read_filters(r.memory_key, r.content or "")]


def list_live(
    session: Session, user_pk: int, memory_type: str | None = None, limit: int | None = None
) -> list[LongTermMemory]:
    """The user's live memories, most important and most recent first (at most ``limit``)."""
    params: dict[str, object] = {"user_pk": user_pk, "now": datetime.now(UTC)}
    if memory_type:
        params["memory_type"] = memory_type
    stmt = _live_stmt(bool(memory_type))
    if limit is None:
        return [r for r in session.scalars(stmt, params).all()
                if passes_read_filters(r.memory_key, r.content or "")]
    if limit <= 0:
        return []
    kept: list[LongTermMemory] = []
    seen: set[int] = set()
    offset = 0
    page = limit
    while len(kept) < limit:
        rows = session.scalars(stmt.offset(offset).limit(page), params).all()
        for row in rows:
            if row.id not in seen and passes_read_filters(row.memory_key, row.content or ""):
                seen.add(row.id)
                kept.append(row)
                if len(kept) == limit:
                    break
        if len(rows) < page:
            break
        offset += page
        page = max(page, _MIN_PAGE)  # rows were dropped: read on in bigger steps
    return kept


def get_live_by_ids(session: Session, user_pk: int, ids: Sequence[int],
                    external_id: str | None = None) -> list[LongTermMemory]:
    """Live memories among ``ids`` that belong to ``user_pk`` (never another user's).

    With ``external_id`` the same statement also requires that ``user_pk`` is that user's internal
    id (a join on ``users``), so a caller holding a remembered id needs no separate user lookup.
    """
    if not ids:
        return []
    now = datetime.now(UTC)
    stmt = select(LongTermMemory).where(
        LongTermMemory.user_id == user_pk,
        LongTermMemory.id.in_(list(ids)),
        *live_clause(now),
        not_(filtered_key_clause()),
    )
    if external_id is not None:
        stmt = stmt.join(User, User.id == LongTermMemory.user_id).where(User.external_id == external_id)
    rows = session.scalars(stmt).all()
    return [r for r in rows if passes_read_filters(r.memory_key, r.content or "")]


def touch(session: Session, ids: Sequence[int]) -> None:
    """Set ``last_accessed_at`` for memories returned to a caller."""
    if ids:
        session.execute(
            update(LongTermMemory)
            .where(LongTermMemory.id.in_(list(ids)))
            .values(last_accessed_at=datetime.now(UTC))
        )


def superseded_sources(session: Session, memory_ids: Collection[int]) -> dict[int, int]:
    """Message id -> memory id, for every message whose statement a memory of ``memory_ids`` overwrote:
    the sources of the memory's history rows before its latest ``overwrite`` (a message that is the
    overwrite's own source is not one of them)."""
    rows = session.execute(
        select(MemoryHistory.memory_id, MemoryHistory.operation, MemoryHistory.source_message_id)
        .where(MemoryHistory.memory_id.in_(list(memory_ids)))
        .order_by(MemoryHistory.memory_id, MemoryHistory.id)).all()
    sources: dict[int, list[int]] = {}
    out: dict[int, int] = {}
    for memory_id, operation, message_id in rows:
        if memory_id is None:
            continue
        seen = sources.setdefault(memory_id, [])
        if operation == MemoryOperation.OVERWRITE.value:
            out.update({m: memory_id for m in seen if m != message_id})
        if message_id is not None:
            seen.append(message_id)
    return out


def stated_sources(session: Session, memory_ids: Collection[int]) -> dict[int, int]:
    """Memory id -> the message whose statement the memory now holds (its ``source_message_id``, the
    source of its create or latest update), for the memories of ``memory_ids`` that have one."""
    if not memory_ids:
        return {}
    rows = session.execute(
        select(LongTermMemory.id, LongTermMemory.source_message_id)
        .where(LongTermMemory.id.in_(list(memory_ids)), LongTermMemory.source_message_id.is_not(None))).all()
    return {int(memory_id): int(message_id) for memory_id, message_id in rows if message_id is not None}
