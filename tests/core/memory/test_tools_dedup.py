"""The tools' semantic dedup (``core.memory.tools``) with the real local embedder over real PostgreSQL: a
save or an append that says what a live memory of another key says takes it over under the tool's key,
with the bars the extraction's upsert uses; everything else lands exactly where it was asked."""

from __future__ import annotations

import numpy as np
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core.config import Settings
from core.embedding.base import EmbeddingError, Vectors
from core.embedding.factory import build_embedder
from core.memory.dedup import SemanticDeduper
from core.memory.tools import MemoryTools, ToolCommand, ToolWrite
from core.memory.writer import MemoryWriter
from core.storage.db import session_factory
from core.storage.models import MemoryHistory

pytestmark = pytest.mark.services
PEANUTS = "I'm allergic to peanuts, so never give me recipes with peanuts"


@pytest.fixture(scope="module")
def deduper(settings: Settings) -> SemanticDeduper:
    reuse, merge = settings.dedup_thresholds
    return SemanticDeduper(build_embedder(settings), reuse, merge)


def _tools(engine: Engine, deduper: SemanticDeduper | None,
           named: frozenset[str] = frozenset()) -> MemoryTools:
    writer = MemoryWriter(dirty_topic="memory.dirty", default_ttl_days=180)
    return MemoryTools(session_factory(engine), writer, deduper, lambda key: key in named)


def _live(tools: MemoryTools, user: str) -> dict[str, str]:
    return {m.key: m.content for m in tools.memory_list(user)}


def test_a_save_takes_over_the_memory_of_another_key_that_says_the_same(
        clean_db: Engine, deduper: SemanticDeduper) -> None:
    tools = _tools(clean_db, deduper)
    tools.memory_save(ToolWrite("u", "constraint-food", PEANUTS, "constraint"))
    res = tools.memory_save(ToolWrite("u", "allergy-note", "Allergic to peanuts: never include peanuts in "
                                      "recipes", "constraint"))
    assert res.changed and res.key == "allergy-note"
    assert _live(tools, "u") == {"allergy-note": "Allergic to peanuts: never include peanuts in recipes"}
    with Session(clean_db) as s:
        retired = s.execute(select(MemoryHistory.operation, MemoryHistory.reason)
                            .where(MemoryHistory.memory_key == "constraint-food")
                            .order_by(MemoryHistory.id)).all()
    assert retired[-1][0] == "dedupe" and "allergy-note" in (retired[-1][1] or ""), retired


def test_an_append_takes_over_with_what_the_other_memory_said(clean_db: Engine,
                                                              deduper: SemanticDeduper) -> None:
    tools = _tools(clean_db, deduper)
    tools.memory_save(ToolWrite("u", "preference-drink", "I prefer green tea to coffee", "preference"))
    tools.memory_append(ToolWrite("u", "drink-favorite", "Prefers green tea over coffee", "preference"))
    assert _live(tools, "u") == {
        "drink-favorite": "I prefer green tea to coffee; Prefers green tea over coffee"}


def test_what_says_something_else_lands_where_it_was_asked(clean_db: Engine,
                                                           deduper: SemanticDeduper) -> None:
    tools = _tools(clean_db, deduper)
    tools.memory_save(ToolWrite("u", "constraint-food", PEANUTS, "constraint"))
    tools.memory_save(ToolWrite("u", "reply-style", "Answers in English only", "constraint"))
    tools.memory_save(ToolWrite("u", "allergy-fact", "Allergic to peanuts", "fact"))  # another type
    assert set(_live(tools, "u")) == {"constraint-food", "reply-style", "allergy-fact"}
    # the key itself is live: the write lands there, whatever else says the same
    tools.memory_save(ToolWrite("u", "reply-style", "I'm allergic to peanuts, never put peanuts in my "
                                "recipes", "constraint"))
    assert "reply-style" in _live(tools, "u")


def test_two_named_slots_are_never_one_memory(clean_db: Engine, deduper: SemanticDeduper) -> None:
    tools = _tools(clean_db, deduper, frozenset({"fact-home_city", "fact-hometown"}))
    tools.memory_save(ToolWrite("u", "fact-home_city", "I live in Wuhan", "fact"))
    tools.memory_save(ToolWrite("u", "fact-hometown", "Lives in Wuhan", "fact"))
    assert set(_live(tools, "u")) == {"fact-home_city", "fact-hometown"}
    tools.memory_save(ToolWrite("u", "city-note", "Lives in Wuhan", "fact"))  # a free key takes a slot over
    assert "city-note" in _live(tools, "u") and len(_live(tools, "u")) == 2


def test_a_batch_of_commands_dedups_as_one_by_one(clean_db: Engine, deduper: SemanticDeduper) -> None:
    tools = _tools(clean_db, deduper)
    tools.apply_batch([
        ToolCommand.of("memory_save", "u", "home-city", "I live in Wuhan", memory_type="fact"),
        ToolCommand.of("memory_save", "u", "city-note", "Lives in Wuhan", memory_type="fact"),
    ])
    assert _live(tools, "u") == {"city-note": "Lives in Wuhan"}


class _Down:
    model, dim = "down", 4

    def embed_passages(self, texts: list[str]) -> Vectors:
        raise EmbeddingError("embedder down")

    def embed_queries(self, texts: list[str]) -> Vectors:
        return np.zeros((len(texts), 4), dtype=np.float32)


def test_a_failing_embedder_leaves_the_write_as_asked(clean_db: Engine) -> None:
    tools = _tools(clean_db, SemanticDeduper(_Down(), 0.5, 0.5))
    tools.memory_save(ToolWrite("u", "home-city", "I live in Wuhan", "fact"))
    assert tools.memory_save(ToolWrite("u", "city-note", "Lives in Wuhan", "fact")).changed
    assert set(_live(tools, "u")) == {"home-city", "city-note"}


def test_without_a_deduper_nothing_is_taken_over(clean_db: Engine) -> None:
    tools = _tools(clean_db, None)
    tools.memory_save(ToolWrite("u", "home-city", "I live in Wuhan", "fact"))
    tools.memory_save(ToolWrite("u", "city-note", "I live in Wuhan", "fact"))
    assert set(_live(tools, "u")) == {"home-city", "city-note"}
