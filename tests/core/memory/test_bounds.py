"""Per-user bounds over real PostgreSQL: the cap on live memories (every write door) and the bounds
on one extraction's input (messages per burst, characters of user text)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, func, select, update
from sqlalchemy.orm import Session

from core.config import Settings
from core.extraction.candidates import ExtractionError, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.lifecycle import LifecycleJobs
from core.memory.processing import (
    TRUNCATION_MARKER,
    MessageProcessor,
    TransientProcessingError,
    cut_for_extraction,
    split_burst,
)
from core.memory.store import IncomingMessage
from core.memory.tools import MemoryTools, ToolWrite
from core.memory.writer import DEFAULT_MAX_ACTIVE_PER_USER, MemoryWriter
from core.storage.db import session_factory
from core.storage.models import LongTermMemory, MemoryHistory, Message, OutboxEvent

pytestmark = pytest.mark.services

T0 = datetime.now(UTC) - timedelta(hours=1)


def _live(engine: Engine, user: str = "capped") -> dict[str, int]:
    from core.storage.models import User

    with Session(engine) as s:
        rows = s.execute(select(LongTermMemory.memory_key, LongTermMemory.importance)
                         .join(User, User.id == LongTermMemory.user_id)
                         .where(User.external_id == user, LongTermMemory.is_active.is_(True))).all()
    return {k: i for k, i in rows}


# --- the cap on live memories -------------------------------------------------------------------
@pytest.fixture
def capped(settings: Settings, clean_db: Engine) -> MemoryTools:
    writer = MemoryWriter(dirty_topic=settings.TOPIC_MEMORY_DIRTY, default_ttl_days=180,
                          max_active_per_user=3)
    return MemoryTools(session_factory(clean_db), writer)


def test_the_default_cap_comes_from_the_configuration(settings: Settings) -> None:
    assert DEFAULT_MAX_ACTIVE_PER_USER == 1000 == Settings.model_fields[
        "LONG_TERM_MEMORY_MAX_ACTIVE_PER_USER"].default
    cfg = settings.model_copy(update={"LONG_TERM_MEMORY_MAX_ACTIVE_PER_USER": 7})
    assert MemoryWriter.from_settings(cfg).max_active_per_user == 7


def test_a_save_over_the_cap_retires_the_lowest_importance_memory_with_history_and_outbox(
    capped: MemoryTools, clean_db: Engine
) -> None:
    capped.memory_save(ToolWrite("capped", "fact-a", "Alpha fact", importance=4))
    capped.memory_save(ToolWrite("capped", "fact-b", "Beta fact", importance=2))
    capped.memory_save(ToolWrite("capped", "fact-c", "Gamma fact", importance=5))
    assert _live(clean_db) == {"fact-a": 4, "fact-b": 2, "fact-c": 5}
    res = capped.memory_save(ToolWrite("capped", "fact-d", "Delta fact", importance=1))
    assert res.operation == "create"  # the new memory lands even with the lowest importance
    assert _live(clean_db) == {"fact-a": 4, "fact-c": 5, "fact-d": 1}
    with Session(clean_db) as s:
        retired = s.scalars(select(LongTermMemory).where(LongTermMemory.memory_key == "fact-b")).one()
        assert retired.is_active is False and retired.vector_status == "DIRTY"
        hist = s.scalars(select(MemoryHistory).where(MemoryHistory.memory_id == retired.id)
                         .order_by(MemoryHistory.id.desc())).first()
        assert hist is not None and hist.operation == "delete" and hist.source == "tool"
        assert hist.reason is not None and "retired" in hist.reason and "3 active memories" in hist.reason
        assert hist.old_content == "Beta fact" and hist.new_content is None
        events = [json.loads(json.dumps(o.payload))["data"] for o in s.scalars(select(OutboxEvent)).all()]
        assert any(e["memory_id"] == retired.id and e["operation"] == "delete" for e in events)


def test_at_equal_importance_the_least_recently_used_memory_is_retired(
    capped: MemoryTools, clean_db: Engine
) -> None:
    for key in ("fact-a", "fact-b", "fact-c"):
        capped.memory_save(ToolWrite("capped", key, f"Memory {key}", importance=3))
    old = datetime.now(UTC) - timedelta(days=30)
    with Session(clean_db) as s, s.begin():  # a and b were written long ago; a was read yesterday
        s.execute(update(LongTermMemory).where(LongTermMemory.memory_key.in_(["fact-a", "fact-b"]))
                  .values(updated_at=old))
        s.execute(update(LongTermMemory).where(LongTermMemory.memory_key == "fact-a")
                  .values(last_accessed_at=datetime.now(UTC) - timedelta(days=1)))
    capped.memory_append(ToolWrite("capped", "fact-e",
                                   "Epsilon"))  # append creates: the append door is capped too
    assert set(_live(clean_db)) == {"fact-a", "fact-c", "fact-e"}


def test_overwrites_and_a_user_below_the_cap_retire_nothing(capped: MemoryTools, clean_db: Engine) -> None:
    capped.memory_save(ToolWrite("capped", "fact-a", "Alpha", importance=1))
    capped.memory_save(ToolWrite("capped", "fact-b", "Beta", importance=1))
    capped.memory_save(ToolWrite("capped", "fact-c", "Gamma", importance=1))
    capped.memory_save(ToolWrite("capped", "fact-a", "Alpha changed", importance=1))
    capped.memory_append(ToolWrite("capped", "fact-b", "more"))
    capped.memory_save(ToolWrite("other", "fact-z", "Other user's", importance=1))
    assert set(_live(clean_db)) == {"fact-a", "fact-b", "fact-c"}
    with Session(clean_db) as s:
        assert s.scalar(select(func.count()).select_from(MemoryHistory)
                        .where(MemoryHistory.reason.like("retired%"))) == 0


def test_a_reactivated_memory_counts_against_the_cap(capped: MemoryTools, clean_db: Engine) -> None:
    for i, key in enumerate(("fact-a", "fact-b", "fact-c")):
        capped.memory_save(ToolWrite("capped", key, f"Memory {key}", importance=2 + i))
    capped.memory_delete("capped", "fact-c")
    capped.memory_save(ToolWrite("capped", "fact-d", "Delta", importance=5))
    capped.memory_save(ToolWrite("capped", "fact-c", "Gamma again", importance=5))  # reactivates fact-c
    assert set(_live(clean_db)) == {"fact-b", "fact-c", "fact-d"}


def test_extraction_is_capped_once_per_burst(settings: Settings, clean_db: Engine) -> None:
    cfg = settings.model_copy(update={"LONG_TERM_MEMORY_MAX_ACTIVE_PER_USER": 2})
    processor = MessageProcessor(cfg, session_factory(clean_db), RulesExtractor(), None)
    text = "I live in Lisbon. I work as a nurse. I am allergic to peanuts. I love jazz."
    msg = processor.ingest(IncomingMessage("cap-m1", "capped", "cap-c1", "user", text, T0))
    outcome = processor.process([msg.message_pk])
    assert len([w for w in outcome.writes if w.operation is not None]) >= 3
    assert len(_live(clean_db)) == 2
    with Session(clean_db) as s:
        status = s.scalar(select(Message.memory_status).where(Message.id == msg.message_pk))
        reasons = s.scalars(select(MemoryHistory.reason).where(MemoryHistory.operation == "delete")).all()
    assert status == "PROCESSED"
    assert reasons and all(r is not None and r.startswith("retired") for r in reasons)


def test_consolidation_renaming_keys_at_the_cap_retires_nothing(settings: Settings, clean_db: Engine) -> None:
    writer = MemoryWriter(dirty_topic=settings.TOPIC_MEMORY_DIRTY, default_ttl_days=180,
                          max_active_per_user=3)
    tools = MemoryTools(session_factory(clean_db), writer)
    for key in ("fact-a", "fact-b", "fact-c"):
        tools.memory_save(ToolWrite("capped", key, f"Memory {key}"))
    with Session(clean_db) as s, s.begin():  # an old row whose key is not in normalised form
        s.execute(update(LongTermMemory).where(LongTermMemory.memory_key == "fact-a")
                  .values(memory_key="Fact A Old"))
    LifecycleJobs(session_factory(clean_db), writer, None).consolidate("capped")
    assert set(_live(clean_db)) == {"fact_a_old", "fact-b", "fact-c"}


# --- bounded extraction input -------------------------------------------------------------------
def test_split_burst_keeps_order_and_bounds() -> None:
    assert split_burst([], 3, 100) == []
    assert split_burst([10] * 7, 3, 1000) == [range(0, 3), range(3, 6), range(6, 7)]
    assert split_burst([40, 40, 40], 50, 100) == [range(0, 2), range(2, 3)]  # 40+1+40 fits, +41 does not
    assert split_burst([500, 5, 5], 50, 100) == [range(0, 1), range(1, 3)]  # too long: alone
    for sizes in ([1] * 120, [99, 1, 1, 98, 50, 50, 1], [0, 0, 300, 0]):
        groups = split_burst(sizes, 4, 100)
        assert [i for g in groups for i in g] == list(range(len(sizes)))
        for g in groups:
            assert len(g) <= 4
            assert len(g) == 1 or sum(sizes[i] for i in g) + len(g) - 1 <= 100


def test_cut_for_extraction_marks_what_was_cut() -> None:
    assert cut_for_extraction("short", 600) == "short"
    cut = cut_for_extraction("z" * 5000, 600)
    assert len(cut) == 600 and cut.endswith(TRUNCATION_MARKER.format(kept=cut.count("z"), total=5000))


@dataclass
class RecordingExtractor:
    """The rules extractor, recording each extraction's user text; optionally failing once."""

    inner: RulesExtractor = field(default_factory=RulesExtractor)
    seen: list[str] = field(default_factory=list)
    fail_on_call: int | None = None
    name: str = "rules"

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        self.seen.append(data.user_message)
        if self.fail_on_call is not None and len(self.seen) == self.fail_on_call:
            raise ExtractionError("provider unavailable (planted)")
        return self.inner.extract(data)

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        return self.inner.refine(data, candidates)


def _burst(processor: MessageProcessor, texts: list[str]) -> list[int]:
    return [processor.ingest(IncomingMessage(f"b-m{i}", "burster", "b-c1", "user", t,
                                             T0 + timedelta(seconds=i))).message_pk
            for i, t in enumerate(texts)]


def _statuses(engine: Engine, ids: list[int]) -> list[str]:
    with Session(engine) as s:
        by_id = dict(s.execute(select(Message.id, Message.memory_status).where(Message.id.in_(ids))).all())
    return [by_id[i] for i in ids]


def test_a_burst_over_the_message_cap_is_extracted_in_parts_in_order(
    settings: Settings, clean_db: Engine
) -> None:
    cfg = settings.model_copy(update={"LONG_TERM_MEMORY_MAX_BURST_MESSAGES": 2})
    extractor = RecordingExtractor()
    processor = MessageProcessor(cfg, session_factory(clean_db), extractor, None)  # type: ignore[arg-type]
    texts = ["I live in Oslo.", "ok", "I live in Riga.", "hmm", "I live in Kyoto."]
    ids = _burst(processor, texts)
    outcome = processor.process(ids)
    assert extractor.seen == ["I live in Oslo.\nok", "I live in Riga.\nhmm", "I live in Kyoto."]
    assert sorted(outcome.processed + outcome.skipped) == sorted(ids)
    assert set(_statuses(clean_db, ids)) <= {"PROCESSED", "SKIPPED"}
    assert list(_live(clean_db, "burster").keys()) == ["fact-home_city"]
    with Session(clean_db) as s:
        history = s.scalars(select(MemoryHistory.new_content).order_by(MemoryHistory.id)).all()
    assert history == ["I live in Oslo", "I live in Riga", "I live in Kyoto"]


def test_an_over_long_message_is_cut_for_extraction_and_stored_whole(
    settings: Settings, clean_db: Engine
) -> None:
    cfg = settings.model_copy(update={"LONG_TERM_MEMORY_MAX_PROMPT_CHARS": 1000})
    extractor = RecordingExtractor()
    processor = MessageProcessor(cfg, session_factory(clean_db), extractor, None)  # type: ignore[arg-type]
    long_text = "I live in Porto. " + "blah " * 1200
    ids = _burst(processor, ["I am allergic to peanuts.", long_text, "I love jazz."])
    processor.process(ids)
    assert len(extractor.seen) == 3  # each part's joined text fits 1000 characters
    assert all(len(seen) <= 1000 for seen in extractor.seen)
    assert extractor.seen[1].startswith("I live in Porto.")
    assert "truncated for extraction" in extractor.seen[1]
    assert set(_statuses(clean_db, ids)) <= {"PROCESSED", "SKIPPED"}
    with Session(clean_db) as s:
        assert s.scalar(select(Message.content).where(Message.id == ids[1])) == long_text
    assert {"fact-home_city", "fact-allergy"} <= set(_live(clean_db, "burster"))


def test_a_part_that_fails_leaves_earlier_parts_committed_and_the_retry_resumes(
    settings: Settings, clean_db: Engine
) -> None:
    cfg = settings.model_copy(update={"LONG_TERM_MEMORY_MAX_BURST_MESSAGES": 1})
    extractor = RecordingExtractor(fail_on_call=2)
    processor = MessageProcessor(cfg, session_factory(clean_db), extractor, None)  # type: ignore[arg-type]
    ids = _burst(processor, ["I live in Oslo.", "I live in Riga.", "I live in Kyoto."])
    with pytest.raises(TransientProcessingError):
        processor.process(ids)
    assert _statuses(clean_db, ids) == ["PROCESSED", "PENDING", "PENDING"]
    processor.process(ids)  # what the consumer does on retry: the whole burst again
    assert _statuses(clean_db, ids) == ["PROCESSED"] * 3
    assert extractor.seen == ["I live in Oslo.", "I live in Riga.", "I live in Riga.", "I live in Kyoto."]


DISTINCT = {"fact-a": "Lives in Porto", "fact-b": "Works as a welder", "fact-c": "Has two cats"}


def test_every_door_is_built_with_the_configured_cap(settings: Settings, clean_db: Engine) -> None:
    """The command consumer's tools, the HTTP API and the extractor read the cap from the settings."""
    from fastapi.testclient import TestClient

    from api.app import create_app
    from consumers.processes import build_tools

    cfg = settings.model_copy(update={"LONG_TERM_MEMORY_MAX_ACTIVE_PER_USER": 2,
                                      "MEMORY_MILVUS_ENABLED": False})
    tools = build_tools(cfg)
    for key, content in DISTINCT.items():  # three different memories (the tools' dedup keeps paraphrases one)
        tools.memory_save(ToolWrite("door-commands", key, content, command_id=f"cmd-{key}"))
    assert len(_live(clean_db, "door-commands")) == 2
    with TestClient(create_app(cfg)) as client:
        for key, content in DISTINCT.items():
            body = {"user_id": "door-http", "key": key, "content": content}
            assert client.post("/v1/memories/save", json=body).status_code == 200
        listed = client.get("/v1/memories", params={"user_id": "door-http"}).json()["memories"]
    assert len(listed) == 2 and len(_live(clean_db, "door-http")) == 2
    processor = MessageProcessor(cfg, session_factory(clean_db), RulesExtractor(), None)
    assert processor.writer.max_active_per_user == 2
