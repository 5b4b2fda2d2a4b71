"""``MemoryTools.apply_batch``: many users' commands in one transaction, same effects as one by one,
fewer statements. Real PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import Engine, event, func, select
from sqlalchemy.orm import Session

from core.config import Settings
from core.memory.errors import InvalidMemoryInput
from core.memory.tools import MemoryTools, ToolCommand, ToolWrite
from core.memory.writer import MemoryWriter
from core.storage.db import session_factory
from core.storage.models import LongTermMemory, MemoryHistory, OutboxEvent, ProcessedCommand
from schemas import parse_memory_dirty

pytestmark = pytest.mark.services


@pytest.fixture
def tools(settings: Settings, clean_db: Engine) -> MemoryTools:
    return MemoryTools(session_factory(clean_db), MemoryWriter.from_settings(settings))


@contextmanager
def counting(engine: Engine) -> Iterator[list[str]]:
    """Every SQL statement the engine executes meanwhile (BEGIN/COMMIT are not statements here)."""
    seen: list[str] = []

    def hook(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", hook)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", hook)


def _saves(n_users: int, per_user: int, tag: str) -> list[ToolCommand]:
    return [ToolCommand.of("memory_save", f"{tag}-u{u}", f"fact-k{k}", f"{tag} fact {k} of user {u}",
                        command_id=f"{tag}-{u}-{k}")
            for k in range(per_user) for u in range(n_users)]  # users interleaved


def test_a_batch_writes_what_one_by_one_writes_with_fewer_statements(tools: MemoryTools,
                                                                     clean_db: Engine) -> None:
    single = _saves(4, 3, "one")
    with counting(clean_db) as one_by_one:
        for c in single:
            tools.memory_save(c.request)
    batch = _saves(4, 3, "bat")
    with counting(clean_db) as batched:
        results = tools.apply_batch(batch)

    assert [r.operation if r else None for r in results] == ["create"] * 12
    assert [(r.user_id, r.key) for r in results if r] == [(c.request.user_id, c.request.key) for c in batch]
    with Session(clean_db) as s:
        for tag in ("one", "bat"):
            live = select(func.count()).select_from(LongTermMemory).where(
                LongTermMemory.content.like(f"{tag} %"), LongTermMemory.is_active.is_(True))
            assert s.scalar(live) == 12
        assert s.scalar(select(func.count()).select_from(MemoryHistory)) == 24
        assert s.scalar(select(func.count()).select_from(ProcessedCommand)) == 24
        outbox = s.scalars(select(OutboxEvent).order_by(OutboxEvent.id)).all()
    assert len(outbox) == 24
    for row in outbox:  # the id written into the payload by the INSERT is the row's own
        ev = parse_memory_dirty(json.dumps(row.payload))
        assert ev.id == f"outbox-{row.id}" and ev.data.outbox_id == row.id
        assert ev.data.memory_id == row.aggregate_id
    # per-user order: a user's outbox ids follow its command order
    by_user: dict[str, list[int]] = {}
    for row in outbox:
        by_user.setdefault(row.message_key, []).append(row.id)
    assert all(ids == sorted(ids) for ids in by_user.values())
    per_command_single = len(one_by_one) / len(single)
    per_command_batch = len(batched) / len(batch)
    assert per_command_batch <= 5.5 < per_command_single, (per_command_batch, per_command_single)


def test_redelivered_and_repeated_command_ids_return_the_first_result(tools: MemoryTools,
                                                                      clean_db: Engine) -> None:
    first = tools.memory_save(ToolWrite("dup-a", "fact-city", "lives in Wuhan", command_id="d1"))
    results = tools.apply_batch([
        ToolCommand.of("memory_save", "dup-a", "fact-city", "lives in Xi'an", command_id="d1"),  # redelivered
        ToolCommand.of("memory_save", "dup-b", "fact-pet", "has a dog", command_id="d2"),
        ToolCommand.of("memory_save", "dup-b", "fact-pet", "has two dogs", command_id="d2"),  # same id again
        ToolCommand.of("memory_delete", "dup-b", "fact-nothing", command_id="d3"),  # nothing to delete
        ToolCommand.of("memory_append", "dup-b", "fact-pet", "and a cat", command_id="d4"),
    ])
    assert results[0] is not None and results[0].duplicate_command and results[0].memory_id == first.memory_id
    assert results[1] is not None and results[1].operation == "create"
    assert results[2] is not None and results[2].duplicate_command
    assert results[2].memory_id == results[1].memory_id
    assert results[3] is None
    assert results[4] is not None and results[4].operation == "append"
    with Session(clean_db) as s:
        contents = {k: c for k, c in s.execute(select(LongTermMemory.memory_key, LongTermMemory.content))}
    assert contents == {"fact-city": "lives in Wuhan", "fact-pet": "has a dog; and a cat"}


def test_a_bad_command_fails_the_batch_and_writes_nothing(tools: MemoryTools, clean_db: Engine) -> None:
    with pytest.raises(InvalidMemoryInput):
        tools.apply_batch([ToolCommand.of("memory_save", "bad-a", "fact-ok", "fine", command_id="b1"),
                           ToolCommand.of("memory_save", "bad-b", "tool-list", "search, calendar",
                                       command_id="b2")])
    with pytest.raises(InvalidMemoryInput):
        tools.apply_batch([ToolCommand.of("memory_save", "bad-a", "fact-ok", "fine", importance=9)])
    with Session(clean_db) as s:
        assert s.scalar(select(func.count()).select_from(LongTermMemory)) == 0
        assert s.scalar(select(func.count()).select_from(ProcessedCommand)) == 0
