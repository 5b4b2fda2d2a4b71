"""The tools' semantic dedup (``core.memory.tools``) with the real local embedder over real PostgreSQL: a
save or an append that says what a memory the user's messages wrote says (the upsert's bars, and one's
salient words within the other's) takes it over under the tool's key; everything else lands exactly where
it was asked, and a tool write never takes another tool write over."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core.config import Settings
from core.embedding.base import EmbeddingError, Vectors
from core.embedding.factory import build_embedder
from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.memory.dedup import SemanticDeduper
from core.memory.processing import MessageProcessor
from core.memory.store import IncomingMessage
from core.memory.tools import MemoryTools, ToolCommand, ToolWrite
from core.memory.writer import MemoryWriter
from core.storage.db import session_factory
from core.storage.models import MemoryHistory
from core.types import MemoryType

pytestmark = pytest.mark.services
PEANUTS = "I'm allergic to peanuts, so never give me recipes with peanuts"
NOTE = "Allergic to peanuts: never give recipes with peanuts"


@pytest.fixture(scope="module")
def deduper(settings: Settings) -> SemanticDeduper:
    reuse, merge = settings.dedup_thresholds
    return SemanticDeduper(build_embedder(settings), reuse, merge)


def _tools(engine: Engine, deduper: SemanticDeduper | None,
           named: frozenset[str] = frozenset()) -> MemoryTools:
    writer = MemoryWriter(dirty_topic="memory.dirty", default_ttl_days=180)
    return MemoryTools(session_factory(engine), writer, deduper, lambda key: key in named)


class _Says:
    """An extractor that files the message whole under one key and type."""

    name = "says"

    def __init__(self, key: str, memory_type: str) -> None:
        self.key, self.memory_type = key, MemoryType(memory_type)

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        return [MemoryCandidate(op=CandidateOp.UPSERT, memory_type=self.memory_type, key=self.key,
                                content=data.user_message, importance=3, confidence=0.9)]

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        return candidates


def _said(settings: Settings, engine: Engine, user: str, key: str, memory_type: str, text: str) -> None:
    """``text`` said by ``user`` and extracted under ``key``: a memory with a source message."""
    processor = MessageProcessor(settings, session_factory(engine), _Says(key, memory_type), None)
    got = processor.ingest(IncomingMessage(message_id=f"{user}:{key}", user_id=user,
                                           conversation_id=f"{user}:c", role="user", content=text,
                                           created_at=datetime.now(UTC)))
    processor.process([got.message_pk])


def _live(tools: MemoryTools, user: str) -> dict[str, str]:
    return {m.key: m.content for m in tools.memory_list(user)}


def test_a_save_takes_over_the_extracted_memory_that_says_the_same(
        settings: Settings, clean_db: Engine, deduper: SemanticDeduper) -> None:
    tools = _tools(clean_db, deduper)
    _said(settings, clean_db, "u", "constraint-food", "constraint", PEANUTS)
    res = tools.memory_save(ToolWrite("u", "allergy-note", NOTE, "constraint"))
    assert res.changed and res.key == "allergy-note"
    assert _live(tools, "u") == {"allergy-note": NOTE}
    with Session(clean_db) as s:
        retired = s.execute(select(MemoryHistory.operation, MemoryHistory.reason)
                            .where(MemoryHistory.memory_key == "constraint-food")
                            .order_by(MemoryHistory.id)).all()
    assert retired[-1][0] == "dedupe" and "allergy-note" in (retired[-1][1] or ""), retired


def test_an_append_takes_over_with_what_the_other_memory_said(
        settings: Settings, clean_db: Engine, deduper: SemanticDeduper) -> None:
    tools = _tools(clean_db, deduper)
    _said(settings, clean_db, "u", "preference-drink", "preference", "I prefer green tea to coffee")
    tools.memory_append(ToolWrite("u", "drink-favorite", "Prefers green tea over coffee", "preference"))
    assert _live(tools, "u") == {
        "drink-favorite": "I prefer green tea to coffee; Prefers green tea over coffee"}


@pytest.mark.parametrize(("said", "written"), [
    ("Allergic to peanuts", "Allergic to shellfish"),
    ("I like spicy food", "I don't like spicy food"),
    ("My sister lives in Berlin", "My brother lives in Berlin"),
    ("Has a dog named Max", "Has a cat named Max"),
    ("Lives in Wuhan", "Was born in Wuhan"),
])
def test_a_different_fact_close_in_meaning_is_never_taken_over(
        settings: Settings, clean_db: Engine, deduper: SemanticDeduper, said: str, written: str) -> None:
    """These pairs pass the upsert's bars (cosine 0.93-0.96); each says something the other does not."""
    tools = _tools(clean_db, deduper)
    _said(settings, clean_db, "u", "fact-said", "fact", said)
    tools.memory_save(ToolWrite("u", "fact-written", written, "fact"))
    assert _live(tools, "u") == {"fact-said": said, "fact-written": written}


def test_what_says_something_else_lands_where_it_was_asked(
        settings: Settings, clean_db: Engine, deduper: SemanticDeduper) -> None:
    tools = _tools(clean_db, deduper)
    _said(settings, clean_db, "u", "constraint-food", "constraint", PEANUTS)
    tools.memory_save(ToolWrite("u", "reply-style", "Answers in English only", "constraint"))
    tools.memory_save(ToolWrite("u", "allergy-fact", "Allergic to peanuts", "fact"))  # another type
    assert set(_live(tools, "u")) == {"constraint-food", "reply-style", "allergy-fact"}


def test_a_tool_write_never_takes_another_tool_write_over(clean_db: Engine, deduper: SemanticDeduper) -> None:
    tools = _tools(clean_db, deduper)
    tools.memory_save(ToolWrite("u", "home-city", "I live in Wuhan", "fact"))
    tools.memory_save(ToolWrite("u", "city-note", "Lives in Wuhan", "fact"))
    assert set(_live(tools, "u")) == {"home-city", "city-note"}


def test_two_named_slots_are_never_one_memory(settings: Settings, clean_db: Engine,
                                             deduper: SemanticDeduper) -> None:
    tools = _tools(clean_db, deduper, frozenset({"fact-home_city", "fact-hometown"}))
    _said(settings, clean_db, "u", "fact-home_city", "fact", "I live in Wuhan")
    tools.memory_save(ToolWrite("u", "fact-hometown", "Lives in Wuhan", "fact"))
    assert set(_live(tools, "u")) == {"fact-home_city", "fact-hometown"}
    tools.memory_save(ToolWrite("u", "city-note", "Lives in Wuhan", "fact"))  # a free key takes a slot over
    assert set(_live(tools, "u")) == {"city-note", "fact-hometown"}


def test_a_batch_of_commands_dedups_as_one_by_one(settings: Settings, clean_db: Engine,
                                                 deduper: SemanticDeduper) -> None:
    tools = _tools(clean_db, deduper)
    _said(settings, clean_db, "u", "fact-home_city", "fact", "I live in Wuhan")
    tools.apply_batch([
        ToolCommand.of("memory_save", "u", "city-note", "Lives in Wuhan", memory_type="fact"),
        ToolCommand.of("memory_save", "u", "job-note", "Works as a nurse", memory_type="fact")])
    assert _live(tools, "u") == {"city-note": "Lives in Wuhan", "job-note": "Works as a nurse"}


class _Down:
    model, dim = "down", 4

    def embed_passages(self, texts: list[str]) -> Vectors:
        raise EmbeddingError("embedder down")

    def embed_queries(self, texts: list[str]) -> Vectors:
        return np.zeros((len(texts), 4), dtype=np.float32)


def test_a_failing_embedder_leaves_the_write_as_asked(settings: Settings, clean_db: Engine) -> None:
    tools = _tools(clean_db, SemanticDeduper(_Down(), 0.5, 0.5))
    _said(settings, clean_db, "u", "home-city", "fact", "I live in Wuhan")
    assert tools.memory_save(ToolWrite("u", "city-note", "Lives in Wuhan", "fact")).changed
    assert set(_live(tools, "u")) == {"home-city", "city-note"}


def test_without_a_deduper_nothing_is_taken_over(settings: Settings, clean_db: Engine) -> None:
    tools = _tools(clean_db, None)
    _said(settings, clean_db, "u", "home-city", "fact", "I live in Wuhan")
    tools.memory_save(ToolWrite("u", "city-note", "I live in Wuhan", "fact"))
    assert set(_live(tools, "u")) == {"home-city", "city-note"}
