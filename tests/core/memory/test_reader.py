"""``list_live`` filters, orders and limits in SQL, with the same result as filtering in Python.

Over real PostgreSQL: the SQL key pattern against the Python filters on generated keys, the result
of every (type, limit) against a reference that loads every row and filters in Python (what the
reader did before), the number of rows a top-N read fetches, and the index that serves it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, event, func, insert, select, text
from sqlalchemy.orm import Session

from core.filters import (
    SQL_FILTERED_KEY_PATTERN,
    is_noise_key,
    is_profile_key,
    passes_read_filters,
)
from core.memory.reader import filtered_key_clause, get_live_by_ids, list_live
from core.memory.store import get_or_create_user
from core.storage.models import LongTermMemory

pytestmark = pytest.mark.services

_WORDS = ["weather", "date", "today", "tool", "tools", "system", "sys", "reminder", "last", "finance",
          "monthly", "week", "streaming", "stream", "output", "profile", "name", "names", "full", "real",
          "nickname", "nick", "emoji", "avatar", "persona", "username", "ai", "assistant", "bot", "user",
          "my", "call", "me", "you", "for", "of", "display", "preferred", "fact", "preference", "goal",
          "project", "constraint", "pet", "city", "home", "food", "x1", "2024", "systems", "tooling"]


def _generated_keys(n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    keys = set()
    for a, b in itertools.product(_WORDS[:30], ["", "-", "_", ".", "__", "-."]):
        keys.add(a + b)
    while len(keys) < n:
        words = [rng.choice(_WORDS) for _ in range(rng.randint(1, 4))]
        seps = [rng.choice(["-", "_", ".", "--", "_.", "-_-"]) for _ in words]
        key = "".join(w + s for w, s in zip(words, seps, strict=True))[: -len(seps[-1])]
        if rng.random() < 0.2:
            key = rng.choice(["-", "_", "."]) + key + rng.choice(["", "-", "_"])
        keys.add(key[:160])
    return sorted(keys)


def test_the_sql_key_pattern_agrees_with_the_python_filters_on_normalised_keys(engine: Engine) -> None:
    keys = _generated_keys(4000)
    canonical = func.btrim(func.regexp_replace(text(":k"), "[._-]+", "-", "g"), "-")
    with Session(engine) as s:
        flags = {k: bool(s.scalar(select(canonical.regexp_match(SQL_FILTERED_KEY_PATTERN)),
                                  {"k": k})) for k in keys}
    python = {k: is_noise_key(k) or is_profile_key(k) for k in keys}
    assert sum(python.values()) > 500 and sum(not v for v in python.values()) > 500  # both kinds covered
    differ = sorted(k for k in keys if flags[k] != python[k])
    assert differ == [], differ[:20]


def test_sql_drops_only_rows_the_python_filters_drop(clean_db: Engine, mixed_user: int) -> None:
    """SQL judges only ``[a-z0-9._-]`` keys; others (old dirty rows) are left to the Python re-check."""
    with Session(clean_db) as s:
        dropped = s.scalars(select(LongTermMemory.memory_key)
                            .where(LongTermMemory.user_id == mixed_user, filtered_key_clause())).all()
        kept = s.scalars(select(LongTermMemory.memory_key)
                         .where(LongTermMemory.user_id == mixed_user, ~filtered_key_clause())).all()
    assert sorted(dropped) == sorted({"weather-date_0512", "fact-weather-date", "tool-list", "user_nickname",
                                      "profile-x", "call_me", "sys", "system-prompt", "fact-name"})
    assert all(is_noise_key(k) or is_profile_key(k) for k in dropped)
    # not normalised: kept by SQL whatever they are, the Python re-check drops "Weather Date 2024" etc.
    assert {"Weather Date 2024", "SYSTEM", "name天气", "天气"} <= set(kept)


@pytest.fixture
def mixed_user(clean_db: Engine) -> Iterator[int]:
    """One user with live, dead and filtered rows of every kind, and a second user."""
    now = datetime.now(UTC)
    rng = random.Random(5)
    with Session(clean_db) as s, s.begin():
        pk = get_or_create_user(s, "reader-user")
        other = get_or_create_user(s, "reader-other")
        rows = []
        keys = ["fact-city", "weather-date_0512", "fact-weather-date", "tool-list", "user_nickname",
                "profile-x", "fact-pet_name", "Weather Date 2024", "SYSTEM", "name天气", "天气", "call_me",
                "preference-food", "goal-run", "project-x", "constraint-diet", "sys", "system-prompt",
                "fact-name"]
        keys += [f"fact-item_{i}" for i in range(60)]
        for key in keys:
            content = rng.choice(["Lives in Paris", "今天天气晴 25℃", "Likes tea", "可用工具列表: 计算器",
                                  "Runs marathons"])
            rows.append({
                "user_id": pk, "memory_key": key,
                "memory_type": rng.choice(["fact", "preference", "goal", None]),
                "content": content, "importance": rng.choice([1, 2, 3, 3, 4, 5, None]),
                "is_active": rng.random() > 0.15,
                "expires_at": rng.choice([None, now + timedelta(days=3), now - timedelta(days=1)]),
                # ties on importance and updated_at are common: id decides
                "updated_at": now - timedelta(minutes=rng.choice([1, 2, 3])),
                "created_at": now - timedelta(days=1),
            })
        rows.append({"user_id": other, "memory_key": "fact-city", "content": "Lives in Oslo", "importance": 5,
                     "is_active": True, "updated_at": now, "created_at": now})
        s.execute(insert(LongTermMemory), rows)
    yield pk


def _reference(s: Session, user_pk: int, memory_type: str | None, limit: int | None) -> list[int]:
    """What list_live returned before: every row of the user, filtered in Python, then limited."""
    now = datetime.now(UTC)
    stmt = select(LongTermMemory).where(
        LongTermMemory.user_id == user_pk, LongTermMemory.is_active.is_(True),
        (LongTermMemory.expires_at.is_(None)) | (LongTermMemory.expires_at > now))
    if memory_type:
        stmt = stmt.where(LongTermMemory.memory_type == memory_type)
    stmt = stmt.order_by(LongTermMemory.importance.desc(), LongTermMemory.updated_at.desc(),
                         LongTermMemory.id)
    rows = [r.id for r in s.scalars(stmt).all() if passes_read_filters(r.memory_key, r.content or "")]
    return rows[:limit] if limit is not None else rows


def test_list_live_equals_the_python_reference_for_every_type_and_limit(
    clean_db: Engine, mixed_user: int
) -> None:
    with Session(clean_db) as s:
        full = _reference(s, mixed_user, None, None)
        assert 10 < len(full) < 79, len(full)  # some rows are filtered, most are kept
        for memory_type in (None, "fact", "preference", "goal"):
            for limit in (None, 1, 2, 3, 5, 7, 10, 20, 40, 64, 65, 200):
                got = [r.id for r in list_live(s, mixed_user, memory_type, limit)]
                assert got == _reference(s, mixed_user, memory_type, limit), (memory_type, limit)
        ids = [r.id for r in s.scalars(select(LongTermMemory)).all()]
        assert sorted(r.id for r in get_live_by_ids(s, mixed_user, ids)) == sorted(full)


def test_a_top_n_read_fetches_n_rows_not_the_whole_user(clean_db: Engine) -> None:
    now = datetime.now(UTC)
    with Session(clean_db) as s, s.begin():
        pk = get_or_create_user(s, "many")
        s.execute(insert(LongTermMemory), [
            {"user_id": pk, "memory_key": f"fact-item_{i}", "content": f"Item number {i}", "importance": 3,
             "is_active": True, "updated_at": now - timedelta(seconds=i), "created_at": now}
            for i in range(400)])
    fetched: list[int] = []

    def count_rows(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if "FROM long_term_memories" in statement:
            fetched.append(cursor.rowcount)

    event.listen(clean_db, "after_cursor_execute", count_rows)
    try:
        with Session(clean_db) as s:
            rows = list_live(s, pk, None, 6)
    finally:
        event.remove(clean_db, "after_cursor_execute", count_rows)
    assert [r.memory_key for r in rows] == [f"fact-item_{i}" for i in range(6)]
    assert sum(fetched) == 6, fetched  # the old reader fetched all 400 rows


def test_an_index_serves_the_ordered_read(clean_db: Engine, mixed_user: int) -> None:
    with Session(clean_db) as s:
        s.execute(text("SET LOCAL enable_seqscan = off"))
        stmt = (select(LongTermMemory.id)
                .where(LongTermMemory.user_id == mixed_user, LongTermMemory.is_active.is_(True))
                .order_by(LongTermMemory.importance.desc(), LongTermMemory.updated_at.desc(),
                          LongTermMemory.id).limit(5))
        compiled = stmt.compile(clean_db, compile_kwargs={"literal_binds": True})
        plan = "\n".join(s.execute(text(f"EXPLAIN {compiled}")).scalars().all())
    assert "ix_ltm_user_live_order" in plan, plan
    assert "Sort" not in plan.split("ix_ltm_user_live_order")[0], plan  # rows come in index order
