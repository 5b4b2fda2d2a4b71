"""Lifecycle jobs over the memory truth: TTL expiry and per-user consolidation.

Both write only through ``MemoryWriter`` (source ``lifecycle``), so every change is a row update plus a
``memory_history`` row carrying its reason plus a ``memory.dirty`` outbox row in the same transaction;
the indexer then removes or refreshes the index entry. Each user is handled in its own transaction
under the user's advisory lock (``store.lock_user``), so the jobs never interleave with a writer of
the same user. ``dry_run`` runs the same transaction and rolls it back: the report says what would
change, nothing is committed (outbox ids drawn from the sequence are simply skipped).

Expiry: every active memory whose ``expires_at`` has passed is deactivated with operation ``expire``
(reads already hide it; this removes it from the index and records why). Every episode past its
``expires_at`` (``EPISODE_TTL_DAYS``) is deleted with a ``pai.episode.dirty.v1`` outbox row, so the
indexer removes its vector (``core.episodes``).

Consolidation of one user, deterministic rules in this order (``ConsolidationReport`` lists each):

1. **delete** active rows that are expired (operation ``expire``) or fail the read-side hard filters:
   noise key, noise content, profile field (operation ``delete``);
2. **normalise** the rest: content whitespace collapsed and runs of repeated punctuation reduced to one
   (``!!!`` -> ``!``, ``。。`` -> ``。``; ``.`` runs are kept: they may be an ellipsis), an unknown
   ``memory_type`` becomes ``fact``, and a key that is not in ``normalise_key`` form moves to its
   normalised key (merged by append into a live memory already there, or dropped when that memory
   already says the same). ``expires_at`` is preserved: consolidation never extends a memory's life;
3. **merge** exact duplicates (same type, same content ignoring case and whitespace, different keys):
   the most recently updated copy is kept, the others deactivated (operation ``dedupe``);
4. **merge** semantic duplicates at or above the merge threshold with
   ``core.memory.upsert.merge_redundant`` (the post-write 0.90 rule, over every pair of the user);
5. **keep** everything else.

An LLM-based review is not part of this module: the rules above are what runs, with any provider.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from core import metrics
from core.episodes.store import delete_expired
from core.filters import is_noise_content, is_noise_key, is_profile_key, normalise_key, passes_read_filters
from core.keys import prune_audit_log, prune_console_sessions
from core.memory.dedup import SemanticDeduper
from core.memory.errors import InvalidMemoryInput
from core.memory.reader import list_live
from core.memory.store import lock_user
from core.memory.upsert import merge_redundant
from core.memory.writer import MemoryWrite, MemoryWriter, WriteContext, WriteResult
from core.storage.models import Episode, LongTermMemory, MemoryHistory, User
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryOperation, MemoryType, WriteSource
from schemas.events import DEFAULT_MEMORY_CONFIDENCE

log = logging.getLogger(__name__)

_WHITESPACE = re.compile(r"\s+")
# a run of one repeated mark ("!!!", "。。"): an alternation per mark (``re`` used a backreference)
_REPEATED_PUNCT = re.compile("|".join(re.escape(mark) + "{2,}" for mark in "!?,;:！？，。；：、"))
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,;:!?，。；：！？、])")
_MEMORY_TYPES = {t.value for t in MemoryType}


def normalise_content(content: str) -> str:
    """Whitespace collapsed, repeated punctuation reduced to one mark, no space before a mark."""
    text = _WHITESPACE.sub(" ", content.replace("\x00", "")).strip()
    text = _REPEATED_PUNCT.sub(lambda m: m.group(0)[0], text)
    return _SPACE_BEFORE_PUNCT.sub(r"\1", text)


def _remaining_ttl_days(expires_at: datetime | None, now: datetime) -> int | None:
    if expires_at is None:
        return None
    return max(1, math.ceil((expires_at - now).total_seconds() / 86400))


@dataclass(frozen=True)
class Change:
    """One change a lifecycle job made (or would make, in a dry run)."""

    user: str
    memory_id: int | None
    key: str
    action: str  # expire | delete | normalise | merge
    operation: str
    reason: str
    old_content: str | None = None
    new_content: str | None = None
    new_key: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass
class ConsolidationReport:
    """Per-user outcome; ``kept`` counts the memories that were live before and are unchanged."""

    user: str
    kept: int = 0
    changes: list[Change] = field(default_factory=list)
    dry_run: bool = False

    def count(self, action: str) -> int:
        return sum(1 for c in self.changes if c.action == action)

    def as_dict(self) -> dict[str, Any]:
        return {"user": self.user, "dry_run": self.dry_run, "kept": self.kept,
                "expired": self.count("expire"), "deleted": self.count("delete"),
                "normalised": self.count("normalise"), "merged": self.count("merge"),
                "changes": [c.as_dict() for c in self.changes]}


@dataclass
class ExpiryReport:
    expired: list[Change] = field(default_factory=list)
    dry_run: bool = False
    episodes_expired: int = 0  # episodes past EPISODE_TTL_DAYS deleted (core.episodes)
    audit_pruned: int = 0  # audit log rows older than AUDIT_LOG_RETENTION_DAYS deleted
    console_sessions_pruned: int = 0  # console logins expired or revoked, deleted

    def as_dict(self) -> dict[str, Any]:
        users = sorted({c.user for c in self.expired})
        return {"dry_run": self.dry_run, "expired": len(self.expired), "users": len(users),
                "episodes_expired": self.episodes_expired, "audit_pruned": self.audit_pruned,
                "console_sessions_pruned": self.console_sessions_pruned,
                "changes": [c.as_dict() for c in self.expired]}


class LifecycleJobs:
    """Expiry and consolidation over a session factory (see module docstring)."""

    def __init__(self, sessions: sessionmaker[Session], writer: MemoryWriter,
                 deduper: SemanticDeduper | None = None, *, audit_retention_days: int | None = None) -> None:
        self.sessions = sessions
        self.writer = writer
        self.deduper = deduper
        self.audit_retention_days = audit_retention_days  # None: the audit log is kept

    # --- expiry -----------------------------------------------------------------------------------
    def expire(self, *, user: str | None = None, dry_run: bool = False, batch_size: int = 500,
               now: datetime | None = None) -> ExpiryReport:
        """Deactivate (operation ``expire``) every active memory whose ``expires_at`` <= ``now``, and
        delete every episode past its ``expires_at`` (``EPISODE_TTL_DAYS``), announced to the indexer;
        a pass over everyone (``user`` None) also deletes the audit rows older than
        ``audit_retention_days`` and the console sessions that expired or were revoked (both counted
        in ``pai_memory_retention_pruned_total``)."""
        now = now or datetime.now(UTC)
        report = ExpiryReport(dry_run=dry_run)
        if user is None and self.audit_retention_days is not None:
            with self._unit(dry_run) as session:
                cutoff = now - timedelta(days=self.audit_retention_days)
                report.audit_pruned = prune_audit_log(session, cutoff)
            if not dry_run:
                metrics.RETENTION_PRUNED.labels("audit_log").inc(report.audit_pruned)
        if user is None:
            with self._unit(dry_run) as session:
                report.console_sessions_pruned = prune_console_sessions(session, now)
            if not dry_run:
                metrics.RETENTION_PRUNED.labels("console_sessions").inc(report.console_sessions_pruned)
        report.episodes_expired = self._expire_episodes(user, dry_run, batch_size, now)
        after_user = 0
        while True:
            with self.sessions() as session:
                stmt = (select(LongTermMemory.user_id, User.external_id)
                        .join(User, User.id == LongTermMemory.user_id)
                        .where(LongTermMemory.is_active.is_(True), LongTermMemory.expires_at <= now,
                               LongTermMemory.user_id > after_user)
                        .group_by(LongTermMemory.user_id, User.external_id)
                        .order_by(LongTermMemory.user_id).limit(batch_size))
                if user is not None:
                    stmt = stmt.where(User.external_id == user)
                users = [(int(pk), ext) for pk, ext in session.execute(stmt).all()]
            if not users:
                return report
            for user_pk, external_id in users:
                with self._unit(dry_run) as session:
                    lock_user(session, user_pk)
                    rows = session.scalars(
                        select(LongTermMemory)
                        .where(LongTermMemory.user_id == user_pk, LongTermMemory.is_active.is_(True),
                               LongTermMemory.expires_at <= now)
                        .order_by(LongTermMemory.id).with_for_update()).all()
                    for row in rows:
                        assert row.expires_at is not None
                        reason = f"ttl expired at {row.expires_at.isoformat()}"
                        res = self.writer.deactivate_row(session, self._ctx(user_pk, reason), row,
                                                         MemoryOperation.EXPIRE)
                        self._count(res, dry_run)
                        report.expired.append(Change(external_id, row.id, row.memory_key, "expire",
                                                     MemoryOperation.EXPIRE.value, reason, row.content))
            after_user = users[-1][0]

    def _expire_episodes(self, user: str | None, dry_run: bool, batch_size: int, now: datetime) -> int:
        """Per user, under the user's lock: the expired episodes deleted with their outbox rows."""
        done = 0
        after_user = 0
        while True:
            with self.sessions() as session:
                stmt = (select(Episode.user_id, User.external_id).join(User, User.id == Episode.user_id)
                        .where(Episode.expires_at <= now, Episode.user_id > after_user)
                        .group_by(Episode.user_id, User.external_id).order_by(Episode.user_id)
                        .limit(batch_size))
                if user is not None:
                    stmt = stmt.where(User.external_id == user)
                users = [(int(pk), ext) for pk, ext in session.execute(stmt).all()]
            if not users:
                return done
            for user_pk, external_id in users:
                with self._unit(dry_run) as session:
                    lock_user(session, user_pk)
                    done += len(delete_expired(session, user_pk=user_pk, user_external_id=external_id,
                                               topic=self.writer.dirty_topic, now=now))
            after_user = users[-1][0]

    # --- consolidation ----------------------------------------------------------------------------
    def users_to_consolidate(self, since: datetime | None = None) -> list[str]:
        """External ids of users with active memories (changed since ``since``, when given)."""
        with self.sessions() as session:
            stmt = (select(User.external_id).join(LongTermMemory, LongTermMemory.user_id == User.id)
                    .where(LongTermMemory.is_active.is_(True)).distinct())
            if since is not None:
                changed = select(MemoryHistory.user_id).where(MemoryHistory.created_at >= since)
                stmt = stmt.where(User.id.in_(changed))
            return sorted(session.scalars(stmt).all())

    def consolidate(self, user: str, *, dry_run: bool = False,
                    now: datetime | None = None) -> ConsolidationReport:
        """Apply the consolidation rules to one user's memories (see module docstring)."""
        now = now or datetime.now(UTC)
        report = ConsolidationReport(user, dry_run=dry_run)
        with self._unit(dry_run) as session:
            user_pk = session.scalar(select(User.id).where(User.external_id == user))
            if user_pk is None:
                raise LookupError(f"no user with id {user!r}")
            lock_user(session, user_pk)
            rows = list(session.scalars(
                select(LongTermMemory)
                .where(LongTermMemory.user_id == user_pk, LongTermMemory.is_active.is_(True))
                .order_by(LongTermMemory.id).with_for_update()).all())
            # a key normalised into a new row and its old row deactivated is no net growth: the
            # per-user cap is checked once at the end
            with self.writer.capped_batch(session, self._ctx(user_pk, "consolidate")):
                survivors = [row for row in rows
                             if not self._delete_if_dead(session, user_pk, row, report, now)]
                for row in survivors:
                    self._normalise(session, user_pk, row, report, now)
                self._merge_exact(session, user_pk, report)
                if self.deduper is not None:
                    self._merge_semantic(session, user_pk, report)
            touched = {c.memory_id for c in report.changes}
            original = {row.id for row in rows}
            report.kept = sum(1 for m in list_live(session, user_pk)
                              if m.id in original and m.id not in touched)
        return report

    # --- rules --------------------------------------------------------------------------------------
    def _delete_if_dead(self, session: Session, user_pk: int, row: LongTermMemory,
                        report: ConsolidationReport, now: datetime) -> bool:
        if row.expires_at is not None and row.expires_at <= now:
            op, action, reason = (MemoryOperation.EXPIRE, "expire",
                                  f"consolidate: ttl expired at {row.expires_at.isoformat()}")
        elif passes_read_filters(row.memory_key, row.content or ""):
            return False
        else:
            op, action = MemoryOperation.DELETE, "delete"
            if is_noise_key(row.memory_key):
                reason = "consolidate: noise key"
            elif is_profile_key(row.memory_key):
                reason = "consolidate: profile field, not a memory"
            elif is_noise_content(row.content or ""):
                reason = "consolidate: noise content"
            else:
                reason = "consolidate: fails the read filters"
        res = self.writer.deactivate_row(session, self._ctx(user_pk, reason), row, op)
        self._count(res, report.dry_run)
        report.changes.append(Change(report.user, row.id, row.memory_key, action, op.value, reason,
                                     row.content))
        return True

    def _normalise(self, session: Session, user_pk: int, row: LongTermMemory, report: ConsolidationReport,
                   now: datetime) -> None:
        if not row.is_active:  # merged away by an earlier row of this pass
            return
        old_key, old_content = row.memory_key, row.content or ""
        new_key = normalise_key(old_key)
        new_content = normalise_content(old_content)
        mtype = MemoryType(row.memory_type) if row.memory_type in _MEMORY_TYPES else MemoryType.FACT
        if not new_content:
            reason = "consolidate: empty content"
            res = self.writer.deactivate_row(session, self._ctx(user_pk, reason), row, MemoryOperation.DELETE)
            self._count(res, report.dry_run)
            report.changes.append(Change(report.user, row.id, old_key, "delete", "delete", reason,
                                         old_content))
            return
        confidence = row.confidence if row.confidence is not None else DEFAULT_MEMORY_CONFIDENCE
        write = MemoryWrite(new_key, mtype, new_content, row.importance or 3, float(confidence),
                            _remaining_ttl_days(row.expires_at, now))
        expires_at = row.expires_at
        if new_key == old_key:
            if new_content == old_content and mtype.value == row.memory_type:
                return
            what = [w for w, changed in (("content", new_content != old_content),
                                         ("memory_type", mtype.value != row.memory_type)) if changed]
            reason = f"consolidate: normalised {' and '.join(what)}"
            res = self._save(session, user_pk, write, reason, report)
            self._restore_expiry(session, res, expires_at)
            report.changes.append(Change(report.user, row.id, old_key, "normalise",
                                         MemoryOperation.NORMALISE.value, reason, old_content, new_content))
            return
        # the key moves to its normalised form
        target = self.writer.get_for_update(session, user_pk, new_key)
        target_live = (target is not None and bool(target.is_active)
                       and (target.expires_at is None or target.expires_at > now))
        if target_live and target is not None:
            if new_content.casefold() in (target.content or "").casefold():
                reason = f"consolidate: same as {new_key} after key normalisation"
                action, op = "merge", MemoryOperation.DEDUPE
            else:
                reason = f"consolidate: key {old_key!r} normalised to {new_key}; content appended"
                try:
                    res = self.writer.append(session, self._ctx(user_pk, reason), new_key, new_content, mtype,
                                             write.importance, write.confidence)
                except InvalidMemoryInput as exc:
                    log.warning("consolidate %s: cannot append to %s: %s", report.user, new_key, exc)
                    return
                self._count(res, report.dry_run)
                action, op = "merge", MemoryOperation.NORMALISE
        else:
            reason = f"consolidate: key {old_key!r} normalised to {new_key}"
            res = self._save(session, user_pk, write, reason, report)
            self._restore_expiry(session, res, expires_at)
            action, op = "normalise", MemoryOperation.NORMALISE
        res = self.writer.deactivate_row(session, self._ctx(user_pk, reason), row, op)
        self._count(res, report.dry_run)
        report.changes.append(Change(report.user, row.id, old_key, action, op.value, reason, old_content,
                                     new_content, new_key))

    def _merge_exact(self, session: Session, user_pk: int, report: ConsolidationReport) -> None:
        groups: dict[tuple[str, str], list[LongTermMemory]] = {}
        for m in list_live(session, user_pk):
            fingerprint = " ".join((m.content or "").casefold().split())
            groups.setdefault((m.memory_type or "fact", fingerprint), []).append(m)
        for copies in groups.values():
            if len(copies) < 2:
                continue
            copies.sort(key=lambda m: (m.updated_at, m.id), reverse=True)
            keep = copies[0]
            for drop in copies[1:]:
                reason = f"consolidate: exact duplicate of {keep.memory_key}"
                res = self.writer.deactivate_row(session, self._ctx(user_pk, reason), drop,
                                                 MemoryOperation.DEDUPE)
                self._count(res, report.dry_run)
                report.changes.append(Change(report.user, drop.id, drop.memory_key, "merge",
                                             MemoryOperation.DEDUPE.value, reason, drop.content))

    def _merge_semantic(self, session: Session, user_pk: int, report: ConsolidationReport) -> None:
        assert self.deduper is not None
        before = {m.id: m for m in list_live(session, user_pk)}
        results = merge_redundant(session, self.writer, self.deduper, self._ctx(user_pk, "consolidate"))
        reasons: dict[int | None, str | None] = {}
        for memory_id, reason in session.execute(
            select(MemoryHistory.memory_id, MemoryHistory.reason)
            .where(MemoryHistory.user_id == user_pk,
                   MemoryHistory.memory_id.in_([r.memory_id for r in results if r.changed]))
            .order_by(MemoryHistory.id)).all():
            reasons[memory_id] = reason
        for res in results:
            if not res.changed or res.memory_id is None:
                continue
            self._count(res, report.dry_run)
            row = before.get(res.memory_id)
            report.changes.append(Change(report.user, res.memory_id, res.memory_key, "merge",
                                         MemoryOperation.DEDUPE.value,
                                         f"consolidate: {reasons.get(res.memory_id) or 'redundant copy'}",
                                         row.content if row is not None else None))

    # --- plumbing -----------------------------------------------------------------------------------
    def _save(self, session: Session, user_pk: int, write: MemoryWrite, reason: str,
              report: ConsolidationReport) -> WriteResult:
        res = self.writer.save(session, self._ctx(user_pk, reason), write,
                               operation=MemoryOperation.NORMALISE)
        self._count(res, report.dry_run)
        return res

    @staticmethod
    def _restore_expiry(session: Session, res: WriteResult, expires_at: datetime | None) -> None:
        if res.changed and res.memory_id is not None:
            session.execute(update(LongTermMemory).where(LongTermMemory.id == res.memory_id)
                            .values(expires_at=expires_at))

    @staticmethod
    def _ctx(user_pk: int, reason: str) -> WriteContext:
        return WriteContext(user_pk=user_pk, source=WriteSource.LIFECYCLE, reason=reason)

    @staticmethod
    def _count(res: WriteResult, dry_run: bool) -> None:
        if res.operation is not None and not dry_run:
            metrics.MEMORY_WRITES.labels(res.operation.value, WriteSource.LIFECYCLE.value).inc()

    @contextmanager
    def _unit(self, dry_run: bool) -> Iterator[Session]:
        """One transaction: committed, or rolled back when ``dry_run`` (or on error)."""
        with self.sessions() as session:
            session.begin()
            try:
                yield session
            except BaseException:
                session.rollback()
                raise
            if dry_run:
                session.rollback()
            else:
                session.commit()


def consolidate_all(jobs: LifecycleJobs, users: Sequence[str], *,
                    dry_run: bool = False) -> list[ConsolidationReport]:
    """Consolidate each user in turn; a user that fails is logged and skipped, not fatal."""
    reports: list[ConsolidationReport] = []
    for user in users:
        try:
            reports.append(jobs.consolidate(user, dry_run=dry_run))
        except LookupError:
            continue
        except Exception:
            log.exception("consolidation of user %s failed", user)
    return reports
