"""``MessageProcessor.ingest_many`` (one transaction for a poll's messages) against ``ingest`` one by
one, over real PostgreSQL: the same results and the same rows for every kind of message."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, select, update

from core.config import Settings
from core.erasure import user_hash
from core.extraction.rules import RulesExtractor
from core.memory.processing import IngestResult, MessageProcessor
from core.memory.store import IncomingMessage
from core.storage.db import session_factory, transaction
from core.storage.models import Conversation, ErasedUser, Message, User

pytestmark = pytest.mark.services

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def msg(prefix: str, mid: str, user: str, conv: str, role: str = "user", summary: str | None = None,
        minutes: int = 0) -> IncomingMessage:
    return IncomingMessage(f"{prefix}{mid}", f"{prefix}{user}", conv, role, f"text of {mid}",
                           T0 + timedelta(minutes=minutes), summary, "chat", 0, minutes)


def scenario(prefix: str) -> tuple[list[IncomingMessage], list[IncomingMessage]]:
    """(stored beforehand, then the batch): new users and conversations, context, duplicates within
    the batch, a message stored before, a replay under a new extractor version, an erased user."""
    before = [msg(prefix, "old", "u1", "c1", minutes=1), msg(prefix, "replayed", "u1", "c1", minutes=2)]
    batch = [
        msg(prefix, "a1", "u2", "c2", role="assistant", minutes=3),
        msg(prefix, "m1", "u2", "c2", summary="first summary", minutes=4),
        msg(prefix, "m2", "u2", "c2", minutes=5),
        msg(prefix, "m2", "u2", "c2", minutes=5),  # the same event twice in one poll
        msg(prefix, "m3", "u2", "c2", summary="second summary", minutes=6),
        msg(prefix, "old", "u1", "c1", minutes=1),  # stored before: a duplicate
        msg(prefix, "replayed", "u1", "c1", minutes=2),  # final under another extractor version
        msg(prefix, "m4", "u1", "c3", minutes=7),
        msg(prefix, "gone", "u3", "c4", minutes=8),  # erased after it was written
        msg(prefix, "back", "u3", "c4", minutes=30),  # written after the erasure: accepted
    ]
    return before, batch


def prepare(processor: MessageProcessor, prefix: str, before: list[IncomingMessage]) -> None:
    for m in before:
        processor.ingest(m)
    with transaction(processor.sessions) as s:
        s.execute(update(Message).where(Message.upstream_message_id == f"{prefix}replayed")
                  .values(memory_status="PROCESSED", extractor_version="rules:older"))
        s.add(ErasedUser(user_hash=user_hash(f"{prefix}u3"), user_pk=999_999,
                         erased_at=T0 + timedelta(minutes=10)))


def state(processor: MessageProcessor, prefix: str) -> dict[str, Any]:
    """The rows of the scenario, with ids replaced by upstream/external ids (comparable across runs)."""
    with processor.sessions() as s:
        users = {pk: ext.removeprefix(prefix) for pk, ext in s.execute(select(User.id, User.external_id))
                 if ext.startswith(prefix)}
        convs = {pk: (users[u], ext, summary) for pk, u, ext, summary in
                 s.execute(select(Conversation.id, Conversation.user_id, Conversation.external_id,
                                  Conversation.summary)) if u in users}
        messages = sorted((m.upstream_message_id.removeprefix(prefix), users[m.user_id],
                           convs[m.conversation_id], m.role, m.memory_status)
                          for m in s.scalars(select(Message)) if m.upstream_message_id.startswith(prefix))
    return {"users": sorted(users.values()), "conversations": sorted(convs.values()), "messages": messages}


def comparable(results: list[IngestResult], processor: MessageProcessor,
               prefix: str) -> list[tuple[Any, ...]]:
    with processor.sessions() as s:
        ids = {pk: mid.removeprefix(prefix)
               for pk, mid in s.execute(select(Message.id, Message.upstream_message_id))}
    return [(ids.get(r.message_pk), r.created, r.needs_processing, r.user_pk > 0, r.conversation_pk > 0)
            for r in results]


def test_ingest_many_equals_ingest_one_by_one(settings: Settings, clean_db: Engine) -> None:
    processor = MessageProcessor(settings, session_factory(clean_db), RulesExtractor(), None)
    before, batch = scenario("one-")
    prepare(processor, "one-", before)
    one_by_one = [processor.ingest(m) for m in batch]
    before, batch = scenario("many-")
    prepare(processor, "many-", before)
    together = processor.ingest_many(batch)

    assert comparable(together, processor, "many-") == comparable(one_by_one, processor, "one-")
    assert state(processor, "many-") == state(processor, "one-")
    by_id = dict(zip([m.message_id for m in batch], together, strict=True))
    assert not by_id["many-a1"].needs_processing and by_id["many-m1"].created
    assert by_id["many-replayed"].needs_processing and not by_id["many-old"].created  # still PENDING
    assert by_id["many-gone"] == IngestResult(0, 0, 0, False, False) and by_id["many-back"].created
    assert ("u2", "c2", "second summary") in state(processor, "many-")["conversations"]


def test_ingest_many_is_all_or_nothing(settings: Settings, clean_db: Engine) -> None:
    processor = MessageProcessor(settings, session_factory(clean_db), RulesExtractor(), None)
    good = msg("aon-", "fine", "u1", "c1")
    bad = IncomingMessage("aon-bad", "aon-u1", "c1", "user", "nul \x00 byte", T0)  # PostgreSQL refuses NUL
    with pytest.raises(Exception):  # noqa: B017 - whatever the driver raises, nothing may be stored
        processor.ingest_many([good, bad])
    assert state(processor, "aon-")["messages"] == []
    assert processor.ingest_many([good])[0].created
