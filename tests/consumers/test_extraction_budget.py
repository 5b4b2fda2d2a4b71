"""A burst whose extraction exceeds ``MEMORY_EXTRACTOR_BURST_BUDGET_SEC`` on a real broker: its messages
end ``FAILED`` with the reason, the records are marked done, and the other users' messages on the
same partition are processed (one slow burst never stalls the partition)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

import consumers.processes
from consumers.processes import extractor_loop
from core.config import Settings
from core.extraction.budget import BudgetedExtractor
from core.extraction.candidates import CandidateExtractor, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.storage.models import Message
from localstack.process import wait_until
from producers.client import MemoryEventProducer
from tests.support.pipeline import conversation, group_caught_up, isolated_settings, running

pytestmark = pytest.mark.services

SLOW_MARKER = "SLOW-BURST"


class StallingExtractor:
    """A provider double: the rules extractor, except that a message containing ``SLOW_MARKER``
    stalls far past any budget (what a catastrophic pattern or a hung endpoint does)."""

    name = "rules"

    def __init__(self, stall_sec: float) -> None:
        self.inner = RulesExtractor()
        self.stall_sec = stall_sec
        self.stalled = threading.Event()

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        if SLOW_MARKER in data.user_message:
            self.stalled.set()
            time.sleep(self.stall_sec)
            return [MemoryCandidate(memory_type="fact", key="fact-late", content="written too late")]
        return self.inner.extract(data)

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        return self.inner.refine(data, candidates)


def statuses(engine: Engine) -> dict[str, tuple[str, str | None]]:
    with Session(engine) as s:
        rows = s.execute(
            select(Message.upstream_message_id, Message.memory_status, Message.memory_error)).all()
        return {mid: (st, err) for mid, st, err in rows}


def test_a_burst_over_budget_fails_and_the_partition_moves_on(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1,
                            MEMORY_EXTRACTOR_BURST_BUDGET_SEC=1.5)
    double = StallingExtractor(stall_sec=8.0)

    def build(s: Settings) -> CandidateExtractor:
        return BudgetedExtractor(double, s.extraction_burst_budget_sec)

    monkeypatch.setattr(consumers.processes, "build_extractor", build)
    slow = conversation("budget-slow", "c-slow", [("user", f"我住在上海 {SLOW_MARKER}")])
    fast = (conversation("budget-a", "c-a", [("user", "I live in Denver.")])
            + conversation("budget-b", "c-b", [("user", "我住在成都")]))
    started = time.monotonic()
    with running(extractor_loop(cfg)):
        with MemoryEventProducer(cfg) as producer:
            for m in [*slow, *fast]:  # one partition: the slow burst comes first
                producer.publish_message(m)
            producer.flush(30)
        wait_until(lambda: len(statuses(clean_db)) == 3 and all(
            st in ("PROCESSED", "SKIPPED", "FAILED") for st, _ in statuses(clean_db).values()), 60,
            what="all three messages final")
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 30,
                   what="offsets committed past the slow burst")
        settled = time.monotonic() - started
        final = statuses(clean_db)
        # the stalled worker finishes later; what it returns is dropped, never written
        time.sleep(max(0.0, double.stall_sec - settled) + 1.0)
        assert statuses(clean_db) == final

    assert double.stalled.is_set()
    assert final["c-slow:0"] == ("FAILED", "ExtractionTimeout: extraction exceeded the 1.5 s budget"), final
    assert final["c-a:0"][0] == "PROCESSED" and final["c-b:0"][0] == "PROCESSED", final
    assert settled < double.stall_sec, f"the partition waited for the stalled burst ({settled:.1f} s)"
    with Session(clean_db) as s:
        from core.storage.models import LongTermMemory

        keys = set(s.scalars(select(LongTermMemory.memory_key)).all())
    assert "fact-late" not in keys
