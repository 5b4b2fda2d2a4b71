"""``MessageProcessor.process(ids, model_slot)``: the caller's slot is held around the model stage only,
so the extractor's extra bursts read and commit while every slot serves a model call."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core.config import Settings
from core.extraction.candidates import ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.memory.processing import MessageProcessor
from core.memory.store import IncomingMessage
from core.storage.db import session_factory
from core.storage.models import Message

pytestmark = pytest.mark.services


class SlotWatchingExtractor(RulesExtractor):
    """The rules provider, noting whether the caller's one-permit slot was held during each stage."""

    def __init__(self, slot: threading.BoundedSemaphore) -> None:
        super().__init__()
        self.slot = slot
        self.held_during: list[bool] = []

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        self.held_during.append(not self.slot.acquire(blocking=False))
        if not self.held_during[-1]:
            self.slot.release()
        return super().extract(data)


def test_the_model_slot_is_held_during_the_model_stage_and_given_back(
    settings: Settings, clean_db: Engine
) -> None:
    slot = threading.BoundedSemaphore(1)
    extractor = SlotWatchingExtractor(slot)
    processor = MessageProcessor(settings, session_factory(clean_db), extractor, None)
    stored = processor.ingest(IncomingMessage(
        message_id="slot-m1", user_id="slot-user", conversation_id="slot-c1", role="user",
        content="I live in Lima now.", created_at=datetime.now(UTC)))

    outcome = processor.process([stored.message_pk], slot)

    assert extractor.held_during == [True], "the model stage ran without the caller's slot"
    assert slot.acquire(blocking=False), "the slot was not given back after the burst"
    assert outcome.processed == [stored.message_pk] and outcome.writes
    with Session(clean_db) as s:
        assert s.scalar(select(Message.memory_status).where(Message.id == stored.message_pk)) == "PROCESSED"
