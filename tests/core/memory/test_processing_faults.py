"""Message processing under faults found by the fault-injection suite (tests/reliability):
- a later statement wins: an older message applied after a newer one (a FAILED message re-driven by
  the sweeper once the user's next messages were processed) never overwrites what the user said later;
- an embedding failure while applying is a recorded attempt (then FAILED for the sweeper), not a crash."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core.config import Settings
from core.embedding.openai_embedder import OpenAIEmbedder
from core.extraction.rules import RulesExtractor
from core.memory.dedup import SemanticDeduper
from core.memory.processing import MessageProcessor, PermanentProcessingError, TransientProcessingError
from core.memory.store import IncomingMessage
from core.storage.db import session_factory
from core.storage.models import LongTermMemory, MemoryHistory, Message
from tests.support.fake_openai import FakeOpenAIServer  # the `fake_openai` fixture: tests/core/conftest.py

pytestmark = pytest.mark.services

T0 = datetime.now(UTC) - timedelta(hours=1)


def _message(n: int, city: str) -> IncomingMessage:
    return IncomingMessage(message_id=f"order-m{n}", user_id="order-user", conversation_id=f"order-c{n}",
                           role="user", content=f"I live in {city} now.",
                           created_at=T0 + timedelta(minutes=n))


def _state(engine: Engine) -> tuple[list[str], list[str | None], dict[str, tuple[str, str | None]]]:
    with Session(engine) as s:
        live = s.scalars(select(LongTermMemory.content).where(LongTermMemory.is_active.is_(True))).all()
        history = s.scalars(select(MemoryHistory.new_content).order_by(MemoryHistory.id)).all()
        statuses = {m: (st, err) for m, st, err in s.execute(
            select(Message.upstream_message_id, Message.memory_status, Message.memory_error))}
    return [c or "" for c in live], list(history), statuses


def test_an_older_message_applied_late_does_not_overwrite_a_newer_statement(
    settings: Settings, clean_db: Engine
) -> None:
    processor = MessageProcessor(settings, session_factory(clean_db), RulesExtractor(), None)
    old, new = processor.ingest(_message(1, "Tunis")), processor.ingest(_message(2, "Lima"))
    processor.process([new.message_pk])  # the newer message first (the older one had failed)
    outcome = processor.process([old.message_pk])  # then the re-driven older one

    live, history, statuses = _state(clean_db)
    assert live == ["I live in Lima now"], live
    assert history == ["I live in Lima now"], "the superseded statement left a change"
    assert outcome.writes == [] and outcome.processed == [old.message_pk]
    assert statuses["order-m1"][0] == "PROCESSED" and "superseded" in (statuses["order-m1"][1] or "")
    assert statuses["order-m2"] == ("PROCESSED", None)


def test_messages_in_order_each_leave_their_change(settings: Settings, clean_db: Engine) -> None:
    processor = MessageProcessor(settings, session_factory(clean_db), RulesExtractor(), None)
    ids = [processor.ingest(_message(n, city)).message_pk for n, city in enumerate(["Oslo", "Riga", "Kyoto"])]
    for pk in ids:
        processor.process([pk])
    live, history, statuses = _state(clean_db)
    assert live == ["I live in Kyoto now"]
    assert history == ["I live in Oslo now", "I live in Riga now", "I live in Kyoto now"]
    assert {st for st, _ in statuses.values()} == {"PROCESSED"}


def test_an_embedding_failure_while_applying_is_a_recorded_attempt_not_a_crash(
    settings: Settings, clean_db: Engine, fake_openai: FakeOpenAIServer
) -> None:
    """Found by the fault suite: the semantic dedup embeds while applying; an embeddings endpoint
    failure used to escape as EmbeddingError and kill the extractor process."""
    embedder = OpenAIEmbedder(base_url=fake_openai.base_url, model="fake-embed", dim=16, timeout=5.0,
                              max_retries=0)
    cfg = settings.model_copy(update={"MEMORY_MESSAGE_MAX_ATTEMPTS": 2})
    processor = MessageProcessor(cfg, session_factory(clean_db), RulesExtractor(),
                                 SemanticDeduper(embedder, 0.82, 0.90))
    first = processor.ingest(_message(1, "Oslo"))
    processor.process([first.message_pk])  # no other memory yet: nothing to embed
    job = processor.ingest(IncomingMessage(message_id="order-job", user_id="order-user",
                                           conversation_id="order-cj", role="user",
                                           content="I work as a pilot.",
                                           created_at=T0 + timedelta(minutes=5)))
    fake_openai.embedding_fault(status=500, repeat=2)
    with pytest.raises(TransientProcessingError):
        processor.process([job.message_pk])
    with pytest.raises(PermanentProcessingError):
        processor.process([job.message_pk])
    _, _, statuses = _state(clean_db)
    assert statuses["order-job"][0] == "FAILED" and "EmbeddingError" in (statuses["order-job"][1] or "")
    processor.process([job.message_pk])  # the endpoint is back (the sweeper's re-drive)
    live, _, statuses = _state(clean_db)
    assert statuses["order-job"] == ("PROCESSED", None) and "I work as a pilot" in live
