"""Replay planning: which stored chat messages a replay would re-extract, and what it would change.

A replay re-delivers chat-message records from a start offset per partition (the Kafka side lives in
``cli/replay_cmd.py``). The extractor stores each message once and re-extracts it only when it is not
final for the *current* extractor version (``MessageProcessor.ingest``), so a replay under an unchanged
version changes nothing, and a replay after a version or provider change re-extracts every message in
range.

``ReplayPlanner.dry_run`` predicts that outcome without committing anything: it selects the stored
user messages of the range (``messages.source_topic/partition/offset``), keeps those the current
version would re-extract, and per user runs the real pipeline (context and existing memories as the
extractor builds them, extract, refine, admissibility, upsert with semantic dedup) burst by burst -
one burst per conversation, oldest first, each seeing the effects of the previous ones - inside a
PostgreSQL transaction that is rolled back. The live memories before and after give the diff: keys
that would be added, changed (type or content) or removed (deactivated). Outbox ids drawn from the
sequence by the simulated writes are skipped, nothing else persists. While a user is simulated, the
rows it would touch are locked (``lock_timeout`` bounds the wait for a concurrent writer).

Records of the range that the extractor never stored (not consumed yet) are not in PostgreSQL and
cannot be predicted; the CLI reports their number from the topic's watermarks.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, or_, select, text
from sqlalchemy.orm import Session

from core.extraction.candidates import ExtractionError, reads_context
from core.memory.processing import FINAL, MessageProcessor
from core.memory.reader import list_live
from core.memory.upsert import admissible, apply_candidates
from core.memory.writer import WriteContext
from core.storage.models import Message, User
from core.types import MessageRole, WriteSource

log = logging.getLogger(__name__)

LOCK_TIMEOUT_MS = 5000


@dataclass(frozen=True)
class MessageRange:
    """Records of ``topic`` from ``start_offsets[partition]`` on (partitions not listed: none)."""

    topic: str
    start_offsets: Mapping[int, int]


@dataclass(frozen=True)
class MemoryChange:
    key: str
    memory_type: str
    old_content: str | None = None
    new_content: str | None = None
    old_type: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass
class UserDiff:
    user: str
    messages: int = 0  # user messages of the range
    reprocessed: int = 0  # of which the current extractor version would extract again
    failed_bursts: int = 0  # extraction errors during the simulation
    added: list[MemoryChange] = field(default_factory=list)
    changed: list[MemoryChange] = field(default_factory=list)
    removed: list[MemoryChange] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"user": self.user, "messages": self.messages, "reprocessed": self.reprocessed,
                "failed_bursts": self.failed_bursts,
                "added": [c.as_dict() for c in self.added], "changed": [c.as_dict() for c in self.changed],
                "removed": [c.as_dict() for c in self.removed]}


@dataclass
class ReplayDiff:
    extractor_version: str
    topic: str
    users: list[UserDiff] = field(default_factory=list)

    def totals(self) -> dict[str, int]:
        return {"users": len(self.users), "messages": sum(u.messages for u in self.users),
                "reprocessed": sum(u.reprocessed for u in self.users),
                "failed_bursts": sum(u.failed_bursts for u in self.users),
                "added": sum(len(u.added) for u in self.users),
                "changed": sum(len(u.changed) for u in self.users),
                "removed": sum(len(u.removed) for u in self.users)}

    def as_dict(self) -> dict[str, Any]:
        return {"extractor_version": self.extractor_version, "topic": self.topic, "totals": self.totals(),
                "users": [u.as_dict() for u in self.users]}

    def render(self) -> str:
        t = self.totals()
        lines = [f"dry run (extractor {self.extractor_version}, topic {self.topic}): {t['messages']} user "
                 f"messages in range, {t['reprocessed']} would be extracted again; memories: "
                 f"+{t['added']} added, ~{t['changed']} changed, -{t['removed']} removed"]
        for u in self.users:
            if not (u.added or u.changed or u.removed or u.failed_bursts):
                continue
            lines.append(f"  user {u.user}: {u.reprocessed}/{u.messages} messages"
                         + (f", {u.failed_bursts} bursts failed to extract" if u.failed_bursts else ""))
            lines.extend(f"    + {c.key} [{c.memory_type}]: {c.new_content}" for c in u.added)
            lines.extend(f"    ~ {c.key} [{c.memory_type}]: {c.old_content} -> {c.new_content}"
                         for c in u.changed)
            lines.extend(f"    - {c.key} [{c.memory_type}]: {c.old_content}" for c in u.removed)
        return "\n".join(lines)


class ReplayPlanner:
    """Dry runs of a replay with the configured extractor (see module docstring)."""

    def __init__(self, processor: MessageProcessor) -> None:
        self.processor = processor

    def messages_in_range(self, rng: MessageRange) -> list[tuple[int, int, str, str | None, str | None]]:
        """``(message id, user id, user external id, status, extractor version)`` of the stored user
        messages of the range, in conversation order."""
        if not rng.start_offsets:
            return []
        in_range = or_(*(and_(Message.source_partition == int(p), Message.source_offset >= int(o))
                         for p, o in rng.start_offsets.items()))
        with self.processor.sessions() as session:
            rows = session.execute(
                select(Message.id, Message.user_id, User.external_id, Message.memory_status,
                       Message.extractor_version)
                .join(User, User.id == Message.user_id)
                .where(Message.source_topic == rng.topic, Message.role == MessageRole.USER.value, in_range)
                .order_by(Message.created_at, Message.id)).all()
        return [(int(r[0]), int(r[1]), r[2], r[3], r[4]) for r in rows]

    def dry_run(self, rng: MessageRange, user: str | None = None) -> ReplayDiff:
        version = self.processor.version
        diff = ReplayDiff(version, rng.topic)
        by_user: dict[int, tuple[str, list[int], int]] = {}
        for mid, user_pk, external, status, msg_version in self.messages_in_range(rng):
            if user is not None and external != user:
                continue
            ext, todo, seen = by_user.get(user_pk, (external, [], 0))
            if not (status in FINAL and msg_version == version):
                todo.append(mid)
            by_user[user_pk] = (ext, todo, seen + 1)
        for user_pk, (external, todo, seen) in sorted(by_user.items(), key=lambda kv: kv[1][0]):
            udiff = UserDiff(external, messages=seen, reprocessed=len(todo))
            if todo:
                self._simulate(user_pk, todo, udiff)
            diff.users.append(udiff)
        return diff

    def _simulate(self, user_pk: int, message_ids: list[int], udiff: UserDiff) -> None:
        proc = self.processor
        with proc.sessions() as session:
            session.begin()
            try:
                session.execute(text(f"SET LOCAL lock_timeout = {LOCK_TIMEOUT_MS}"))
                before = _live(session, user_pk)
                msgs = list(session.scalars(select(Message).where(Message.id.in_(message_ids))
                                            .order_by(Message.created_at, Message.id)).all())
                bursts: dict[int, list[Message]] = {}
                for m in msgs:
                    bursts.setdefault(m.conversation_id, []).append(m)
                for conv_pk, burst in bursts.items():
                    data, _ = proc._input(session, burst)
                    try:
                        candidates = proc.extractor.extract(data)
                        # a bare retraction is judged too, so is a change of an unstored statement (run_burst)
                        judged = candidates or data.existing or reads_context(proc.extractor, data)
                        refined = proc.extractor.refine(data, candidates) if judged else []
                    except ExtractionError as exc:
                        log.warning("dry run: extraction of a burst of user %s failed: %s", udiff.user, exc)
                        udiff.failed_bursts += 1
                        continue
                    kept = admissible(refined, proc.policy)
                    ctx = WriteContext(user_pk=user_pk, source=WriteSource.EXTRACTOR,
                                       conversation_pk=conv_pk, source_message_pk=burst[-1].id,
                                       reason=f"replay dry run ({proc.version})")
                    apply_candidates(session, proc.writer, proc.deduper, ctx, kept, proc.named_slot)
                    session.flush()
                after = _live(session, user_pk)
            finally:
                session.rollback()
        for key, (mtype, content) in after.items():
            old = before.get(key)
            if old is None:
                udiff.added.append(MemoryChange(key, mtype, new_content=content))
            elif old != (mtype, content):
                udiff.changed.append(MemoryChange(key, mtype, old[1], content,
                                                  old[0] if old[0] != mtype else None))
        for key, (mtype, content) in before.items():
            if key not in after:
                udiff.removed.append(MemoryChange(key, mtype, old_content=content))


def _live(session: Session, user_pk: int) -> dict[str, tuple[str, str]]:
    return {m.memory_key: (m.memory_type or "fact", m.content or "") for m in list_live(session, user_pk)}
