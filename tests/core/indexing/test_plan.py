"""The per-row decision of a sync pass (``core.indexing.plan``): pure, no services."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np

from core.indexing.plan import IndexedRow, plan_sync, split_carried
from core.memory.text import embedding_text, text_hash
from core.types import VectorStatus

NOW = datetime(2026, 3, 1, tzinfo=UTC)
MODEL = "m"


def row(memory_id: int, content: str = "Prefers green tea over coffee", **changes: object) -> IndexedRow:
    base = IndexedRow(id=memory_id, user_id=1, memory_key=f"k{memory_id}", memory_type="preference",
                      content=content, is_active=True, expires_at=NOW + timedelta(days=30),
                      vector_status=VectorStatus.DIRTY.value, vector_model=None, vector_version=None,
                      vector_text_hash=None, updated_at=NOW, write_vector=None, write_vector_model=None,
                      write_vector_hash=None)
    return replace(base, **changes)  # type: ignore[arg-type]


def digest(r: IndexedRow) -> str:
    return text_hash(embedding_text(r.memory_type, r.memory_key, r.content))


def test_each_id_gets_one_decision() -> None:
    fresh = row(1)
    indexed = row(2)
    indexed = replace(indexed, vector_status=VectorStatus.SYNCED.value, vector_model=MODEL, vector_version=3,
                      vector_text_hash=digest(indexed))
    marked_dirty = replace(indexed, id=3, vector_status=VectorStatus.DIRTY.value)
    old_model = replace(indexed, id=4, vector_model="older")
    dead = row(5, is_active=False)
    dead_and_gone = row(6, is_active=False, vector_status=VectorStatus.SYNCED.value)
    rows = [fresh, indexed, marked_dirty, old_model, dead, dead_and_gone]
    plan = plan_sync([1, 2, 3, 4, 5, 6, 7], rows, MODEL, 3, NOW, force=False)
    assert plan.erase == [7]
    assert [r.id for r in plan.delete] == [5]
    assert [(r.id, d) for r, _, d in plan.embed] == [(1, digest(fresh)), (4, digest(old_model))]
    assert [r.id for r, _ in plan.refresh] == [3]
    assert plan.skip == [2, 6]


def test_a_forced_pass_skips_and_refreshes_nothing() -> None:
    indexed = row(2)
    indexed = replace(indexed, vector_status=VectorStatus.SYNCED.value, vector_model=MODEL, vector_version=3,
                      vector_text_hash=digest(indexed))
    dead = row(6, is_active=False, vector_status=VectorStatus.SYNCED.value)
    plan = plan_sync([2, 6], [indexed, dead], MODEL, 3, NOW, force=True)
    assert [r.id for r, _, _ in plan.embed] == [2] and [r.id for r in plan.delete] == [6]
    assert plan.skip == [] and plan.refresh == []


def test_only_a_vector_of_this_text_model_and_dimension_is_carried() -> None:
    vec = np.arange(4, dtype=np.float32)
    ok = row(1)
    ok = replace(ok, write_vector=vec.tobytes(), write_vector_model=MODEL, write_vector_hash=digest(ok))
    other_text = replace(ok, id=2, write_vector_hash="else")
    other_model = replace(ok, id=3, write_vector_model="older")
    other_dim = replace(ok, id=4, write_vector=vec[:2].tobytes())
    items = [(r, "text", digest(ok)) for r in (ok, other_text, other_model, other_dim, row(5))]
    carried, rest = split_carried(items, MODEL, 4)
    assert [item[0].id for item, _ in carried] == [1]
    assert np.array_equal(carried[0][1], vec)
    assert [r.id for r, _, _ in rest] == [2, 3, 4, 5]
