"""Episodes: PostgreSQL truth vs their Milvus collection, and the repair through the outbox.

``verify_episodes`` classifies, for one user (internal id) or everyone:
- ``unsynced``: rows DIRTY or FAILED (the indexer has work to do);
- ``missing``: live (unexpired) rows marked SYNCED with a text hash but absent from the collection;
- ``orphaned``: entities the truth does not want: no row, an expired row, filed under another user, or
  outside their user's bucket (``core.vector_buckets``: a search would not find them; a live one is
  ``missing`` too, so the repair deletes it and announces it again, into the right partition).
``repair_episodes`` deletes the orphans from Milvus and announces every unsynced or missing row again
(``pai.episode.dirty.v1`` through the outbox, ``store.redrive``'s statement), so the running relay and
indexer bring them back; it marks missing rows DIRTY first. ``reindex_episodes`` re-embeds every
episode through the same path (``pai-memory reindex``), dropping and recreating the collection first
when the model changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from core.episodes.store import announce
from core.storage.db import transaction
from core.storage.models import Episode, User
from core.types import VectorStatus
from core.vectorstore import MilvusMemoryIndex


@dataclass
class EpisodeVerifyReport:
    rows: int = 0
    entries: int = 0
    buckets: int = 0  # the collection's user buckets (0: none, searched whole; reindex rebuilds it)
    unsynced: list[int] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    orphaned: list[int] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.unsynced or self.missing or self.orphaned)

    def as_dict(self) -> dict[str, Any]:
        return {"rows": self.rows, "entries": self.entries, "buckets": self.buckets, "clean": self.clean,
                "unsynced": len(self.unsynced), "missing": len(self.missing), "orphaned": len(self.orphaned),
                "sample": {"unsynced": self.unsynced[:10], "missing": self.missing[:10],
                           "orphaned": self.orphaned[:10]}}

    def render(self) -> str:
        return (f"episodes: {self.rows} rows, {self.entries} index entries in {self.buckets or 'no'} user "
                f"buckets; unsynced {len(self.unsynced)}, "
                f"missing {len(self.missing)}, orphaned {len(self.orphaned)}"
                + (" - clean" if self.clean else " - DRIFT"))


def verify_episodes(sessions: sessionmaker[Session], view: MilvusMemoryIndex, user_pk: int | None = None,
                    now: datetime | None = None) -> EpisodeVerifyReport:
    """The drift of the episodes (of ``user_pk``, or everyone) between PostgreSQL and ``view``."""
    now = now or datetime.now(UTC)
    query = select(Episode.id, Episode.user_id, Episode.expires_at, Episode.vector_status,
                   Episode.vector_text_hash)
    if user_pk is not None:
        query = query.where(Episode.user_id == user_pk)
    with sessions() as session:
        rows = {r.id: r for r in session.execute(query)}
    exists = view.has_collection()
    ids = view.list_ids(user_pk, anywhere=True) if exists else []
    owners = view.get_user_ids(ids) if ids else {}
    misplaced = set(view.misplaced_ids(user_pk)) if ids else set()
    report = EpisodeVerifyReport(rows=len(rows), entries=len(ids), buckets=view.layout() if exists else 0)
    own = set(rows)
    for row in [r for r in rows.values() if r.id in own]:
        live = row.expires_at is None or row.expires_at > now
        if row.vector_status != VectorStatus.SYNCED:
            report.unsynced.append(row.id)
        elif live and row.vector_text_hash and (row.id not in owners or row.id in misplaced):
            report.missing.append(row.id)
    strangers = [e for e in owners if e not in rows]  # filed under this user, not this user's row
    if strangers:
        with sessions() as session:
            rows.update({r.id: r for r in session.execute(
                select(Episode.id, Episode.user_id, Episode.expires_at, Episode.vector_status,
                       Episode.vector_text_hash).where(Episode.id.in_(strangers)))})
    for entity, owner in owners.items():
        found = rows.get(entity)
        if found is None or owner != found.user_id or entity in misplaced or (
                found.expires_at is not None and found.expires_at <= now):
            report.orphaned.append(entity)
    report.unsynced.sort()
    report.missing.sort()
    report.orphaned.sort()
    return report


def repair_episodes(sessions: sessionmaker[Session], view: MilvusMemoryIndex, report: EpisodeVerifyReport, *,
                    topic: str) -> list[int]:
    """Delete the orphans from ``view``, announce the unsynced and missing rows again; returns the ids
    announced."""
    if report.orphaned:
        view.delete(report.orphaned)
    todo = sorted(set(report.unsynced) | set(report.missing))
    if not todo:
        return []
    now = datetime.now(UTC)
    out: list[int] = []
    with transaction(sessions) as session:
        if report.missing:
            session.execute(update(Episode).where(Episode.id.in_(report.missing))
                            .values(vector_status=VectorStatus.DIRTY.value, vector_text_hash=None))
        owners = session.execute(select(Episode.id, Episode.user_id, User.external_id)
                                 .join(User, User.id == Episode.user_id).where(Episode.id.in_(todo))).all()
        by_user: dict[tuple[int, str], list[int]] = {}
        for episode_id, user_pk, external_id in owners:
            by_user.setdefault((int(user_pk), str(external_id)), []).append(int(episode_id))
        for (user_pk, external_id), ids in by_user.items():
            out.extend(announce(session, ids, user_pk=user_pk, user_external_id=external_id, topic=topic,
                                now=now))
    return sorted(out)


def reindex_episodes(sessions: sessionmaker[Session], view: MilvusMemoryIndex, *, topic: str, dim: int,
                     rebuild: bool, user_pk: int | None = None, batch: int = 1000,
                     user_partitions: int = 64) -> int:
    """Re-embed the episodes through the outbox: every row (of ``user_pk``, or all) is marked DIRTY with
    no text hash and announced (``pai.episode.dirty.v1``), so the indexer embeds it again with the
    configured model. ``rebuild``: the collection is first dropped and created for ``dim`` (a model
    change: vectors of two models must not mix) with ``user_partitions`` user buckets; a reindex of
    everyone also rebuilds a collection of another layout (made with a partition key, or another bucket
    count: ``core.vector_buckets``). Returns the rows announced."""
    if not rebuild and user_pk is None and view.has_collection():
        rebuild = view.layout(refresh=True) != user_partitions
    if rebuild:
        if view.has_collection():
            view.drop_collection()
        view.user_partitions = user_partitions  # EPISODE_MILVUS_USER_PARTITIONS
        view.ensure_collection(dim=dim)
    done = 0
    after = 0
    while True:
        with transaction(sessions) as session:
            query = (select(Episode.id, Episode.user_id, User.external_id)
                     .join(User, User.id == Episode.user_id)
                     .where(Episode.id > after).order_by(Episode.id).limit(batch))
            if user_pk is not None:
                query = query.where(Episode.user_id == user_pk)
            rows = session.execute(query).all()
            if not rows:
                return done
            ids = [int(r[0]) for r in rows]
            session.execute(update(Episode).where(Episode.id.in_(ids)).values(
                vector_status=VectorStatus.DIRTY.value, vector_text_hash=None, vector_model=None))
            by_user: dict[tuple[int, str], list[int]] = {}
            for episode_id, owner, external_id in rows:
                by_user.setdefault((int(owner), str(external_id)), []).append(int(episode_id))
            now = datetime.now(UTC)
            for (owner, external_id), group in by_user.items():
                done += len(announce(session, group, user_pk=owner, user_external_id=external_id, topic=topic,
                                     now=now))
            after = ids[-1]
