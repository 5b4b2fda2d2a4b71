"""A burst whose user's memories change between its read and its commit (``core.memory.processing``): it is
extracted again on the memories as they are, so a memory written meanwhile is never overwritten unseen;
past ``STALE_RERUNS`` it is applied to what it read, and its messages end final either way."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core.config import Settings
from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.memory.processing import STALE_RERUNS, MessageProcessor
from core.memory.store import IncomingMessage
from core.memory.tools import MemoryTools, ToolWrite
from core.memory.writer import MemoryWriter
from core.storage.db import session_factory
from core.storage.models import Message
from core.types import MemoryType

pytestmark = pytest.mark.services
KEY = "project-garden"


class _Extractor:
    """Files the message under ``KEY``, after what the live memory of that key says (as refine merges news
    into a memory it sees); ``during`` runs inside each extraction (a tool write landing meanwhile)."""

    name = "stub"

    def __init__(self, during: Callable[[int], object]) -> None:
        self.during = during
        self.calls = 0

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        self.calls += 1
        self.during(self.calls)
        seen = [m.content for m in data.existing if m.key == KEY]
        content = "; ".join([*seen, data.user_message])
        return [MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.PROJECT, key=KEY,
                                content=content, importance=3, confidence=0.9)]

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        return candidates


def _run(settings: Settings, engine: Engine,
         during: Callable[[MemoryTools, int], object]) -> tuple[str, int, str]:
    writer = MemoryWriter(dirty_topic="memory.dirty", default_ttl_days=180)
    tools = MemoryTools(session_factory(engine), writer)
    extractor = _Extractor(lambda call: during(tools, call))
    processor = MessageProcessor(settings, session_factory(engine), extractor, None)
    got = processor.ingest(IncomingMessage(message_id="m1", user_id="u", conversation_id="c", role="user",
                                           content="Building a raised-bed garden",
                                           created_at=datetime.now(UTC)))
    processor.process([got.message_pk])
    (memory,) = tools.memory_list("u")
    with Session(engine) as s:
        status = s.scalar(select(Message.memory_status).where(Message.id == got.message_pk)) or ""
    return memory.content, extractor.calls, status


def test_a_tool_write_during_the_extraction_is_kept(settings: Settings, clean_db: Engine) -> None:
    def once(tools: MemoryTools, call: int) -> None:
        if call == 1:
            tools.memory_append(ToolWrite("u", KEY, "Will add drip irrigation next", "project"))

    content, calls, status = _run(settings, clean_db, once)
    assert content == "Will add drip irrigation next; Building a raised-bed garden"
    assert calls == 2 and status == "PROCESSED"


def test_a_memory_changing_at_every_read_is_applied_after_the_last_rerun(settings: Settings,
                                                                        clean_db: Engine) -> None:
    def always(tools: MemoryTools, call: int) -> None:
        tools.memory_append(ToolWrite("u", KEY, f"news {call}", "project"))

    content, calls, status = _run(settings, clean_db, always)
    assert calls == STALE_RERUNS + 1 and status == "PROCESSED"
    assert content.endswith("Building a raised-bed garden")


def test_an_unchanged_store_extracts_once(settings: Settings, clean_db: Engine) -> None:
    content, calls, _ = _run(settings, clean_db, lambda tools, call: None)
    assert (content, calls) == ("Building a raised-bed garden", 1)
