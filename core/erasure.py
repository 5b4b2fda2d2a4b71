"""User erasure: remove one user's data from everything we hold, then prove it.

``UserEraser.erase(external_id)``:

1. deletes the user's entries from every Milvus collection (each registered collection, the
   configured one and ``extra_collections``: the episodes' collection), selected by
   ``user_id == <internal id>`` (filter built from a validated int);
2. in ONE PostgreSQL transaction, under the user's advisory lock (so no writer of this user runs
   concurrently): deletes the user's memories, memory history, processed commands, episodes, outbox rows
   (published or not: their payloads name the user), messages, conversations and the user row, and
   records the erasure in ``erased_users`` (a SHA-256 of the external id, the internal id, the time);
3. deletes from Milvus again, catching an indexer that read a memory before step 2 and wrote its
   vector after step 1, and retries until the count is zero or the attempts are used up;
4. proves it: counts what is left in every PostgreSQL table for that user and in every collection
   for that internal id (``ErasureProof``; ``ok`` only when everything is zero).

What this does not reach: Kafka topics (chat messages, commands, ``memory.dirty``, dead-letter topics)
keep the user's past events until their retention expires; Kafka offers no per-key delete on a
non-compacted topic. To keep a replay or a late redelivery from bringing the user back, the extractor
skips chat messages of an erased user created at or before the erasure (``erased_before``); memory
commands replayed from the commands topic are not filtered. Backups of PostgreSQL and Milvus are
outside the service.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session, sessionmaker

from core.memory.store import lock_user, user_hash
from core.storage.models import (
    Conversation,
    Episode,
    ErasedUser,
    LongTermMemory,
    MemoryHistory,
    Message,
    OutboxEvent,
    ProcessedCommand,
    User,
    VectorCollection,
)
from core.vectorstore import MilvusMemoryIndex, validated_int64

ERASE_ATTEMPTS = 5


class UnknownUser(LookupError):
    """No user with that external id exists, and none was erased under it."""


@dataclass
class ErasureProof:
    """What was deleted and what is left (must be all zero) for one erased user."""

    user: str
    user_pk: int
    erased_at: datetime | None = None
    already_erased: bool = False
    deleted: dict[str, int] = field(default_factory=dict)  # PostgreSQL table -> rows deleted
    milvus_deleted: dict[str, int] = field(default_factory=dict)  # collection -> entries deleted
    remaining: dict[str, int] = field(default_factory=dict)  # PostgreSQL table -> rows left
    milvus_remaining: dict[str, int] = field(default_factory=dict)  # collection -> entries left

    @property
    def ok(self) -> bool:
        return not any(self.remaining.values()) and not any(self.milvus_remaining.values())

    def as_dict(self) -> dict[str, Any]:
        return {"user": self.user, "user_pk": self.user_pk, "ok": self.ok,
                "already_erased": self.already_erased,
                "erased_at": self.erased_at.isoformat() if self.erased_at else None,
                "deleted": self.deleted, "milvus_deleted": self.milvus_deleted,
                "remaining": self.remaining, "milvus_remaining": self.milvus_remaining}

    def render(self) -> str:
        lines = [f"forget-user {self.user} (internal id {self.user_pk})"
                 + (" - already erased before, re-checked" if self.already_erased else "")]
        if self.deleted:
            lines.append("  deleted from PostgreSQL: "
                         + ", ".join(f"{t} {n}" for t, n in self.deleted.items()))
        if self.milvus_deleted:
            lines.append("  deleted from Milvus: "
                         + ", ".join(f"{c} {n}" for c, n in self.milvus_deleted.items()))
        lines.append("  proof, PostgreSQL rows left: "
                     + ", ".join(f"{t} {n}" for t, n in self.remaining.items()))
        lines.append("  proof, Milvus entries left: "
                     + (", ".join(f"{c} {n}" for c, n in self.milvus_remaining.items()) or "no collections"))
        lines.append("  OK: nothing of this user is left in PostgreSQL or Milvus" if self.ok
                     else "  NOT OK: data of this user is still present")
        return "\n".join(lines)


class UserEraser:
    """Erases users from PostgreSQL and every Milvus collection (see module docstring)."""

    def __init__(self, sessions: sessionmaker[Session], index: MilvusMemoryIndex,
                 extra_collections: tuple[str, ...] | None = None) -> None:
        """``extra_collections``: collections beside the registry's, swept too; default the episodes'
        collection of the default naming, ``<index.collection>_episodes``
        (``Settings.episode_collection``)."""
        self.sessions = sessions
        self.index = index  # a view on the Milvus server; its collection is included in the sweep
        self.extra_collections = (extra_collections if extra_collections is not None
                                  else (f"{index.collection}_episodes",))

    def erase(self, external_id: str) -> ErasureProof:
        """Erase the user and return the proof. ``UnknownUser`` if there is nothing to erase."""
        with self.sessions() as session:
            user_pk = session.scalar(select(User.id).where(User.external_id == external_id))
            record = session.get(ErasedUser, user_hash(external_id))
        if user_pk is None:
            if record is None:
                raise UnknownUser(f"no user with id {external_id!r} (and none erased under it)")
            proof = ErasureProof(external_id, record.user_pk, record.erased_at, already_erased=True)
            self._delete_vectors(proof)  # finish a run that failed half-way in Milvus, if any
            self._prove(proof)
            return proof
        proof = ErasureProof(external_id, int(user_pk))
        self._delete_vectors(proof)
        with self.sessions() as session, session.begin():
            lock_user(session, proof.user_pk)
            proof.deleted = self._delete_rows(session, external_id, proof.user_pk)
            erased_at = datetime.now(UTC)
            session.execute(insert(ErasedUser)
                            .values(user_hash=user_hash(external_id), user_pk=proof.user_pk,
                                    erased_at=erased_at)
                            .on_conflict_do_update(index_elements=["user_hash"],
                                                   set_={"user_pk": proof.user_pk, "erased_at": erased_at}))
            proof.erased_at = erased_at
        for attempt in range(ERASE_ATTEMPTS):
            self._delete_vectors(proof)
            self._prove(proof)
            if proof.ok:
                break
            time.sleep(0.5 * (attempt + 1))
        return proof

    def prove(self, external_id: str) -> ErasureProof:
        """The proof for an already erased user (``UnknownUser`` if never erased)."""
        with self.sessions() as session:
            record = session.get(ErasedUser, user_hash(external_id))
        if record is None:
            raise UnknownUser(f"no erasure recorded for {external_id!r}")
        proof = ErasureProof(external_id, record.user_pk, record.erased_at, already_erased=True)
        self._prove(proof)
        return proof

    # --- internals ----------------------------------------------------------------------------------
    def _collections(self) -> list[MilvusMemoryIndex]:
        """Views on every registered collection and the configured one that exist in Milvus."""
        with self.sessions() as session:
            rows = session.execute(select(VectorCollection.name, VectorCollection.dim)).all()
        dims = {name: dim for name, dim in rows}
        dims.setdefault(self.index.collection, self.index.dim)
        for name in self.extra_collections:
            dims.setdefault(name, self.index.dim)
        views = [self.index.for_collection(name, dim) for name, dim in sorted(dims.items())]
        return [v for v in views if v.has_collection()]

    def _delete_vectors(self, proof: ErasureProof) -> None:
        user_pk = validated_int64(proof.user_pk, "user_id")
        for view in self._collections():
            ids = view.list_ids(user_pk, anywhere=True)  # every partition, not only the user's bucket
            if ids:
                view.delete(ids)
                done = proof.milvus_deleted.get(view.collection, 0)
                proof.milvus_deleted[view.collection] = done + len(ids)

    @staticmethod
    def _delete_rows(session: Session, external_id: str, user_pk: int) -> dict[str, int]:
        """Delete in foreign-key order; returns rows deleted per table."""
        counts: dict[str, int] = {}
        for name, stmt in (
            ("long_term_memories", delete(LongTermMemory).where(LongTermMemory.user_id == user_pk)),
            ("memory_history", delete(MemoryHistory).where(MemoryHistory.user_id == user_pk)),
            ("processed_commands", delete(ProcessedCommand).where(ProcessedCommand.user_id == user_pk)),
            ("episodes", delete(Episode).where(Episode.user_id == user_pk)),
            ("outbox", delete(OutboxEvent).where(OutboxEvent.message_key == external_id)),
            ("messages", delete(Message).where(Message.user_id == user_pk)),
            ("conversations", delete(Conversation).where(Conversation.user_id == user_pk)),
            ("users", delete(User).where(User.id == user_pk)),
        ):
            counts[name] = int(session.execute(stmt).rowcount or 0)  # type: ignore[attr-defined]
        return counts

    def _prove(self, proof: ErasureProof) -> None:
        pk, ext = proof.user_pk, proof.user
        # a user who came back after the erasure has a new internal id; their new outbox rows (same
        # key) are not part of the proof
        outbox_scope = [OutboxEvent.message_key == ext]
        if proof.erased_at is not None:
            outbox_scope.append(OutboxEvent.created_at <= proof.erased_at)
        with self.sessions() as session:
            def count(stmt: Any) -> int:
                return int(session.scalar(stmt) or 0)

            proof.remaining = {
                "users": count(select(func.count()).select_from(User).where(User.id == pk)),
                "long_term_memories": count(select(func.count()).select_from(LongTermMemory)
                                            .where(LongTermMemory.user_id == pk)),
                "memory_history": count(select(func.count()).select_from(MemoryHistory)
                                        .where(MemoryHistory.user_id == pk)),
                "processed_commands": count(select(func.count()).select_from(ProcessedCommand)
                                            .where(ProcessedCommand.user_id == pk)),
                "episodes": count(select(func.count()).select_from(Episode).where(Episode.user_id == pk)),
                "outbox": count(select(func.count()).select_from(OutboxEvent).where(*outbox_scope)),
                "messages": count(select(func.count()).select_from(Message).where(Message.user_id == pk)),
                "conversations": count(select(func.count()).select_from(Conversation)
                                       .where(Conversation.user_id == pk)),
            }
        proof.milvus_remaining = {view.collection: view.count(pk, anywhere=True)  # every partition
                                  for view in self._collections()}
