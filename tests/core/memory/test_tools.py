"""The tool service over real PostgreSQL: truth + history + outbox in one transaction."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, func, select, update
from sqlalchemy.orm import Session

from core.config import Settings
from core.memory.errors import InvalidMemoryInput, MemoryNotFound
from core.memory.tools import MemoryTools, ToolWrite
from core.memory.writer import MemoryWriter
from core.storage.db import session_factory
from core.storage.models import LongTermMemory, MemoryHistory, OutboxEvent
from schemas import parse_memory_dirty

pytestmark = pytest.mark.services


@pytest.fixture
def tools(settings: Settings, clean_db: Engine) -> MemoryTools:
    writer = MemoryWriter(
        dirty_topic=settings.TOPIC_MEMORY_DIRTY, default_ttl_days=settings.LONG_TERM_MEMORY_DEFAULT_TTL_DAYS
    )
    return MemoryTools(session_factory(clean_db), writer)


def _counts(engine: Engine) -> tuple[int, int, int]:
    with Session(engine) as s:
        return (
            s.scalar(select(func.count()).select_from(LongTermMemory)) or 0,
            s.scalar(select(func.count()).select_from(MemoryHistory)) or 0,
            s.scalar(select(func.count()).select_from(OutboxEvent)) or 0,
        )


def test_save_writes_row_history_and_outbox(tools: MemoryTools, clean_db: Engine, settings: Settings) -> None:
    res = tools.memory_save(ToolWrite("alice", "food-favorite", "Loves Sichuan food", "preference",
                                      importance=4))
    assert res.changed and res.operation == "create"
    with Session(clean_db) as s:
        row = s.scalars(select(LongTermMemory)).one()
        assert (row.memory_key, row.memory_type, row.content, row.vector_status) == (
            "food-favorite",
            "preference",
            "Loves Sichuan food",
            "DIRTY",
        )
        assert row.expires_at is not None
        days = (row.expires_at - row.created_at).days
        assert days == settings.LONG_TERM_MEMORY_DEFAULT_TTL_DAYS
        outbox = s.scalars(select(OutboxEvent)).one()
        event = parse_memory_dirty(json.dumps(outbox.payload).encode())
        assert event.data.memory_id == row.id and event.data.user_id == "alice"
        assert outbox.message_key == "alice" and outbox.topic == settings.TOPIC_MEMORY_DIRTY
        hist = s.scalars(select(MemoryHistory)).one()
        assert (hist.operation, hist.source, hist.new_content) == ("create", "tool", "Loves Sichuan food")


def test_identical_save_changes_nothing(tools: MemoryTools, clean_db: Engine) -> None:
    tools.memory_save(ToolWrite("bob", "home-city", "Lives in Wuhan", "fact"))
    before = _counts(clean_db)
    res = tools.memory_save(ToolWrite("bob", "home-city", "Lives in Wuhan", "fact"))
    assert not res.changed
    assert _counts(clean_db) == before


def test_overwrite_append_delete_and_list(tools: MemoryTools, clean_db: Engine) -> None:
    tools.memory_save(ToolWrite("carol", "home-city", "Lives in Wuhan", "fact"))
    assert tools.memory_save(ToolWrite("carol", "home-city", "Lives in Shanghai",
                                       "fact")).operation == "overwrite"
    assert tools.memory_append(ToolWrite("carol", "home-city", "near the Bund")).operation == "append"
    assert tools.memory_append(ToolWrite("carol", "home-city", "near the Bund")).changed is False
    listed = tools.memory_list("carol")
    assert [m.content for m in listed] == ["Lives in Shanghai; near the Bund"]
    assert tools.memory_delete("carol", "home-city").operation == "delete"
    assert tools.memory_list("carol") == []
    with pytest.raises(MemoryNotFound):
        tools.memory_delete("carol", "home-city")
    with Session(clean_db) as s:
        ops = s.scalars(select(MemoryHistory.operation).order_by(MemoryHistory.id)).all()
        assert ops == ["create", "overwrite", "append", "delete"]
        assert s.scalar(select(func.count()).select_from(OutboxEvent)) == 4
        row = s.scalars(select(LongTermMemory)).one()
        assert row.is_active is False and row.vector_status == "DIRTY"
    # saving again reactivates the same row (UNIQUE(user_id, memory_key))
    assert tools.memory_save(ToolWrite("carol", "home-city", "Lives in Hangzhou",
                                       "fact")).operation == "create"
    assert [m.content for m in tools.memory_list("carol")] == ["Lives in Hangzhou"]


def test_filters_reject_noise_and_profile_keys(tools: MemoryTools, clean_db: Engine) -> None:
    for key in (
        "weather-date_2026_01_01",
        "tool-list",
        "system-prompt",
        "reminder-last_umbrella",
        "finance-monthly_spend",
    ):
        with pytest.raises(InvalidMemoryInput):
            tools.memory_save(ToolWrite("dave", key, "something", "fact"))
    with pytest.raises(InvalidMemoryInput):
        tools.memory_save(ToolWrite("dave", "k", "x", "profile"))
    assert _counts(clean_db) == (0, 0, 0)


def test_list_excludes_expired_and_old_noise_rows(tools: MemoryTools, clean_db: Engine) -> None:
    tools.memory_save(ToolWrite("erin", "drink-tea", "Likes oolong tea", "preference"))
    tools.memory_save(ToolWrite("erin", "goal-jlpt", "Pass JLPT N1 by year end", "goal", ttl_days=30))
    with Session(clean_db) as s, s.begin():
        s.execute(
            update(LongTermMemory)
            .where(LongTermMemory.memory_key == "goal-jlpt")
            .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
        )
        # an old dirty row written before the filters existed
        uid = s.scalar(select(LongTermMemory.user_id))
        now = datetime.now(UTC)
        s.add(
            LongTermMemory(
                user_id=uid,
                memory_key="weather-date_2025_06_01",
                memory_type="fact",
                content="Sunny 30C",
                created_at=now,
                updated_at=now,
            )
        )
    assert [m.key for m in tools.memory_list("erin")] == ["drink-tea"]


def test_command_id_makes_redelivery_harmless(tools: MemoryTools, clean_db: Engine) -> None:
    first = tools.memory_save(ToolWrite("frank", "pet", "Has a cat named Mochi", "fact", command_id="cmd-1"))
    before = _counts(clean_db)
    again = tools.memory_save(ToolWrite("frank", "pet", "Has a cat named Mochi", "fact", command_id="cmd-1"))
    assert again.duplicate_command and again.memory_id == first.memory_id
    assert _counts(clean_db) == before


def test_users_are_isolated(tools: MemoryTools, clean_db: Engine) -> None:
    tools.memory_save(ToolWrite("u1", "city", "Lives in Paris", "fact"))
    tools.memory_save(ToolWrite("u2", "city", "Lives in Rome", "fact"))
    assert [m.content for m in tools.memory_list("u1")] == ["Lives in Paris"]
    assert [m.content for m in tools.memory_list("u2")] == ["Lives in Rome"]
    assert tools.memory_list("nobody") == []
