"""Truth vs index: compare the PostgreSQL memory rows with the active Milvus collection, and repair drift.

Every memory id in scope (one user's, or everyone's) falls in exactly one class, checked in this order:

- ``unsynced``: the row's ``vector_status`` is ``DIRTY``/``FAILED`` (or NULL): index work is pending
  or failed. Harmless while the pipeline is catching up, drift once it is idle.
- ``orphaned``: Milvus holds an entry the truth does not want there: no row at all (erased), a row
  that is not indexable (inactive, expired, caught by the read filters), or a row of another user
  than the entry's ``user_id`` (``orphan_reasons`` tells which).
- ``missing``: an indexable, ``SYNCED`` row with no entry in Milvus.
- ``stale``: an indexable, ``SYNCED`` row whose entry exists, but whose ``vector_text_hash`` is not
  the hash of its current index text, or whose ``vector_model``/``vector_version`` are not the
  active collection's.

PostgreSQL and Milvus are read at slightly different moments, so a concurrent write can look like
drift; every flagged id is therefore read again from both sides once (``confirm``) and reported only
if it is still in the same class.

Repair (``repair``) goes through the normal outbox path wherever a truth row exists: the row is set
``DIRTY`` with ``vector_text_hash`` cleared (so the indexer cannot take its "unchanged" shortcut) and a
``memory.dirty`` event is enqueued in the same transaction (``overwrite`` for a live row, ``delete``
for an inactive one, ``expire`` for an expired one, like the sweeper). The indexer then upserts,
re-files (wrong user) or deletes the entry from the truth. Entries whose id has *no* row in
PostgreSQL are deleted from Milvus directly: ids are never reused, so no later truth can race with
that delete, and there is no user left to key an event by. Repair never changes memory content, so
it writes no history rows.

Milvus filters are built only by ``core.vectorstore`` from validated ints.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from core.memory.outbox import enqueue_memory_dirty
from core.memory.store import lock_user
from core.memory.text import (
    INDEX_STATE_COLUMNS,
    IndexState,
    embedding_text,
    is_indexable,
    not_indexable_reason,
    text_hash,
)
from core.storage.db import transaction
from core.storage.models import LongTermMemory, User
from core.types import MemoryOperation, VectorStatus
from core.vectorstore import MilvusMemoryIndex, active_collection

SAMPLE_SIZE = 10
_CHUNK = 1000
_USERS_PER_TX = 100

UNSYNCED = "unsynced"
ORPHANED = "orphaned"
MISSING = "missing"
STALE = "stale"
CLASSES = (UNSYNCED, ORPHANED, MISSING, STALE)


class VerifyError(RuntimeError):
    """Verification could not run (e.g. the named user does not exist)."""


@dataclass(frozen=True)
class _Truth(IndexState):
    external_id: str


@dataclass
class VerifyReport:
    """Outcome of one verification; ``drift`` is the number of ids in any class."""

    user: str | None
    collection: str | None
    collection_version: int | None
    model: str | None
    rows: int = 0  # truth rows in scope
    indexable: int = 0  # of which should be in the index
    entries: int = 0  # Milvus entries in scope
    ids: dict[str, list[int]] = field(default_factory=lambda: {c: [] for c in CLASSES})
    orphan_reasons: dict[str, int] = field(default_factory=dict)
    checked_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    @property
    def drift(self) -> int:
        return sum(len(v) for v in self.ids.values())

    @property
    def clean(self) -> bool:
        return self.drift == 0

    def as_dict(self, sample: int = SAMPLE_SIZE) -> dict[str, Any]:
        return {
            "user": self.user,
            "collection": self.collection,
            "collection_version": self.collection_version,
            "model": self.model,
            "rows": self.rows,
            "indexable": self.indexable,
            "entries": self.entries,
            "drift": self.drift,
            "counts": {c: len(self.ids[c]) for c in CLASSES},
            "samples": {c: self.ids[c][:sample] for c in CLASSES},
            "orphan_reasons": dict(sorted(self.orphan_reasons.items())),
            "checked_at": self.checked_at.isoformat(),
        }

    def render(self, sample: int = SAMPLE_SIZE) -> str:
        scope = f"user {self.user}" if self.user is not None else "all users"
        where = (f"collection {self.collection} (version {self.collection_version}, model {self.model})"
                 if self.collection else "no active collection")
        lines = [f"verify {scope} against {where}",
                 f"  truth rows {self.rows}, indexable {self.indexable}, index entries {self.entries}"]
        for cls in CLASSES:
            ids = self.ids[cls]
            more = f" (first {sample}: {ids[:sample]})" if ids else ""
            extra = ""
            if cls == ORPHANED and self.orphan_reasons:
                extra = " [" + ", ".join(f"{k} {v}" for k, v in sorted(self.orphan_reasons.items())) + "]"
            lines.append(f"  {cls:<9} {len(ids)}{extra}{more}")
        lines.append("  OK: no drift" if self.clean else f"  DRIFT: {self.drift} memories")
        return "\n".join(lines)


@dataclass
class RepairReport:
    """What ``repair`` did: outbox rows enqueued per operation, entries deleted from Milvus directly."""

    enqueued: dict[str, int] = field(default_factory=dict)
    enqueued_ids: list[int] = field(default_factory=list)
    deleted_entries: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"enqueued": dict(sorted(self.enqueued.items())), "enqueued_total": len(self.enqueued_ids),
                "deleted_entries": len(self.deleted_entries)}


class TruthIndexVerifier:
    """Compares the truth with the active Milvus collection (see module docstring)."""

    def __init__(self, sessions: sessionmaker[Session], index: MilvusMemoryIndex) -> None:
        self.sessions = sessions
        self.index = index  # any view on the Milvus server; the active collection is looked up

    # --- verification -----------------------------------------------------------------------------
    def verify(self, user: str | None = None, *, confirm: bool = True,
               confirm_delay: float = 0.5) -> VerifyReport:
        """Classify every memory id of ``user`` (external id), or of everyone, into the drift classes."""
        with self.sessions() as session:
            row = active_collection(session)
            user_pk = self._user_pk(session, user)
            report = VerifyReport(user, row.name if row else None, row.version if row else None,
                                  row.model if row else None)
        view = self._view(report)
        truth = self._truth_in_scope(user_pk)
        entries = self._entries_in_scope(view, user_pk, truth)
        extra = [i for i in entries if i not in truth]
        truth.update(self._truth_by_ids(extra))
        now = datetime.now(UTC)
        report.rows = sum(1 for t in truth.values() if user_pk is None or t.user_id == user_pk)
        report.indexable = sum(1 for t in truth.values()
                               if (user_pk is None or t.user_id == user_pk) and is_indexable(t, now))
        report.entries = len(entries)
        flagged = _classify(report, truth, entries, sorted(set(truth) | set(entries)), now)
        if confirm and flagged:
            time.sleep(confirm_delay)
            ids = sorted(flagged)
            again = _classify(report, self._truth_by_ids(ids), self._entries_by_ids(view, ids), ids,
                              datetime.now(UTC))
            flagged = {i: verdict for i, verdict in flagged.items() if again.get(i) == verdict}
        for mid, (cls, reason) in sorted(flagged.items()):
            report.ids[cls].append(mid)
            if reason:
                report.orphan_reasons[reason] = report.orphan_reasons.get(reason, 0) + 1
        return report

    # --- repair -----------------------------------------------------------------------------------
    def repair(self, report: VerifyReport, *, dirty_topic: str) -> RepairReport:
        """Fix the drift of ``report`` (see module docstring). Idempotent; safe to run twice."""
        out = RepairReport()
        ids = sorted({i for cls in CLASSES for i in report.ids[cls]})
        if not ids:
            return out
        truth = self._truth_by_ids(ids)
        no_row = [i for i in ids if i not in truth]
        with_row = [i for i in ids if i in truth]
        now = datetime.now(UTC)
        by_user: dict[int, list[int]] = {}
        for mid in with_row:
            by_user.setdefault(truth[mid].user_id, []).append(mid)
        users = sorted(by_user)
        for start in range(0, len(users), _USERS_PER_TX):
            with transaction(self.sessions) as session:
                for user_pk in users[start:start + _USERS_PER_TX]:
                    ids = by_user[user_pk]
                    lock_user(session, user_pk)  # the writers' lock order: user first, then rows
                    session.execute(update(LongTermMemory).where(LongTermMemory.id.in_(ids))
                                    .values(vector_status=VectorStatus.DIRTY.value, vector_text_hash=None,
                                            vector_error=None))
                    for mid in ids:
                        t = truth[mid]
                        op = _operation(t, now)
                        enqueue_memory_dirty(session, topic=dirty_topic, user_external_id=t.external_id,
                                             user_pk=t.user_id, memory_id=mid, memory_key=t.memory_key,
                                             operation=op)
                        out.enqueued[op.value] = out.enqueued.get(op.value, 0) + 1
                        out.enqueued_ids.append(mid)
        if no_row and report.collection is not None:
            view = self.index.for_collection(report.collection)
            view.delete(no_row)
            out.deleted_entries = no_row
        return out

    def wait_synced(self, ids: Sequence[int], timeout: float, interval: float = 0.5) -> bool:
        """Wait until none of ``ids`` is ``DIRTY`` any more (the indexer caught up); True if so."""
        deadline = time.monotonic() + timeout
        ids = list(ids)
        while True:
            with self.sessions() as session:
                pending = 0
                for start in range(0, len(ids), _CHUNK):
                    pending += len(session.scalars(select(LongTermMemory.id).where(
                        LongTermMemory.id.in_(ids[start:start + _CHUNK]),
                        LongTermMemory.vector_status == VectorStatus.DIRTY.value)).all())
            if pending == 0:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(interval)

    # --- reads ------------------------------------------------------------------------------------
    def _view(self, report: VerifyReport) -> MilvusMemoryIndex | None:
        if report.collection is None:
            return None
        view = self.index.for_collection(report.collection)
        return view if view.has_collection() else None

    @staticmethod
    def _user_pk(session: Session, user: str | None) -> int | None:
        if user is None:
            return None
        pk = session.scalar(select(User.id).where(User.external_id == user))
        if pk is None:
            raise VerifyError(f"no user with id {user!r}")
        return int(pk)

    def _select(self) -> Any:
        return select(*INDEX_STATE_COLUMNS, User.external_id).join(User, User.id == LongTermMemory.user_id)

    def _truth_in_scope(self, user_pk: int | None) -> dict[int, _Truth]:
        stmt = self._select()
        if user_pk is not None:
            stmt = stmt.where(LongTermMemory.user_id == user_pk)
        with self.sessions() as session:
            result = session.execute(stmt.execution_options(yield_per=5000))
            return {int(r.id): _Truth(**dict(r._mapping)) for r in result}

    def _truth_by_ids(self, ids: Sequence[int]) -> dict[int, _Truth]:
        out: dict[int, _Truth] = {}
        ids = list(ids)
        with self.sessions() as session:
            for start in range(0, len(ids), _CHUNK):
                stmt = self._select().where(LongTermMemory.id.in_(ids[start:start + _CHUNK]))
                out.update({int(r.id): _Truth(**dict(r._mapping)) for r in session.execute(stmt)})
        return out

    @staticmethod
    def _entries_by_ids(view: MilvusMemoryIndex | None, ids: Sequence[int]) -> dict[int, int]:
        """``memory_id -> user_id`` of the Milvus entries among ``ids``."""
        if view is None:
            return {}
        out: dict[int, int] = {}
        ids = list(ids)
        for start in range(0, len(ids), _CHUNK):
            out.update(view.get_user_ids(ids[start:start + _CHUNK]))
        return out

    def _entries_in_scope(self, view: MilvusMemoryIndex | None, user_pk: int | None,
                          truth: dict[int, _Truth]) -> dict[int, int]:
        """Milvus entries filed under the user (or all), plus entries of the user's rows filed elsewhere."""
        if view is None:
            return {}
        if user_pk is None:
            return self._entries_by_ids(view, view.list_ids())
        entries = {i: user_pk for i in view.list_ids(user_pk)}
        elsewhere = [i for i in truth if i not in entries]
        entries.update(self._entries_by_ids(view, elsewhere))
        return entries



def _operation(row: _Truth, now: datetime) -> MemoryOperation:
    """The ``memory.dirty`` operation that re-drives ``row`` (as the sweeper chooses it)."""
    if is_indexable(row, now):
        return MemoryOperation.OVERWRITE
    if row.is_active and row.expires_at is not None and row.expires_at <= now:
        return MemoryOperation.EXPIRE
    return MemoryOperation.DELETE


def _classify(report: VerifyReport, truth: dict[int, _Truth], entries: dict[int, int], ids: Iterable[int],
              now: datetime) -> dict[int, tuple[str, str]]:
    """``memory_id -> (class, orphan reason or "")`` for the ids that drift (see module docstring)."""
    flagged: dict[int, tuple[str, str]] = {}
    for mid in ids:
        row = truth.get(mid)
        entry_user = entries.get(mid)
        if row is None:
            if entry_user is not None:
                flagged[mid] = (ORPHANED, "no_row")
        elif row.vector_status != VectorStatus.SYNCED.value:
            flagged[mid] = (UNSYNCED, "")
        elif not is_indexable(row, now):
            if entry_user is not None:
                flagged[mid] = (ORPHANED, not_indexable_reason(row, now) or "")
        elif entry_user is None:
            flagged[mid] = (MISSING, "")
        elif entry_user != row.user_id:
            flagged[mid] = (ORPHANED, "wrong_user")
        elif (row.vector_text_hash != text_hash(embedding_text(row.memory_type, row.memory_key, row.content))
              or row.vector_model != report.model or row.vector_version != report.collection_version):
            flagged[mid] = (STALE, "")
    return flagged
