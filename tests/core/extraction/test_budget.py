"""``BudgetedExtractor``: a wall-clock budget around any extraction provider."""

from __future__ import annotations

import threading
import time

import pytest

from core.config import Settings
from core.extraction.budget import BudgetedExtractor, ExtractionTimeout, run_burst
from core.extraction.candidates import ExtractionError, ExtractionInput, MemoryCandidate, is_cpu_bound
from core.extraction.factory import build_extractor
from core.extraction.rules import RulesExtractor

CANDIDATE = MemoryCandidate(memory_type="fact", key="fact-x", content="x")


class Sleeper:
    """A provider double whose stages sleep ``extract_sec`` / ``refine_sec``."""

    name = "sleeper"

    def __init__(self, extract_sec: float = 0.0, refine_sec: float = 0.0,
                 error: Exception | None = None) -> None:
        self.extract_sec, self.refine_sec, self.error = extract_sec, refine_sec, error
        self.finished = threading.Event()

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        time.sleep(self.extract_sec)
        if self.error is not None:
            raise self.error
        return [CANDIDATE]

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        time.sleep(self.refine_sec)
        self.finished.set()
        return candidates


def test_within_budget_both_stages_run_and_are_timed() -> None:
    result = run_burst(BudgetedExtractor(Sleeper(0.05, 0.05), 5.0), ExtractionInput("hi"))
    assert result.candidates == [CANDIDATE] and result.refined == [CANDIDATE]
    assert result.extract_sec >= 0.04 and result.refine_sec >= 0.04


def test_over_budget_raises_extraction_timeout_and_drops_the_late_result() -> None:
    slow = Sleeper(0.0, 1.0)  # the budget covers both stages: refine runs it out
    budgeted = BudgetedExtractor(slow, 0.3)
    started = time.perf_counter()
    with pytest.raises(ExtractionTimeout, match=r"extraction exceeded the 0\.3 s budget"):
        run_burst(budgeted, ExtractionInput("hi"))
    assert time.perf_counter() - started < 0.9
    assert isinstance(ExtractionTimeout("x"), ExtractionError)
    assert budgeted.abandoned == 1
    assert slow.finished.wait(5)
    deadline = time.monotonic() + 5
    while budgeted.abandoned and time.monotonic() < deadline:
        time.sleep(0.01)
    assert budgeted.abandoned == 0


def test_each_stage_alone_is_bounded_too() -> None:
    with pytest.raises(ExtractionTimeout):
        BudgetedExtractor(Sleeper(1.0), 0.2).extract(ExtractionInput("hi"))
    with pytest.raises(ExtractionTimeout):
        BudgetedExtractor(Sleeper(0.0, 1.0), 0.2).refine(ExtractionInput("hi"), [CANDIDATE])


def test_provider_errors_pass_through_unchanged() -> None:
    with pytest.raises(ExtractionError, match="endpoint down") as info:
        failing = Sleeper(error=ExtractionError("endpoint down"))
        run_burst(BudgetedExtractor(failing, 5.0), ExtractionInput("hi"))
    assert not isinstance(info.value, ExtractionTimeout)


def test_a_plain_extractor_runs_without_a_budget() -> None:
    assert run_burst(Sleeper(), ExtractionInput("hi")).refined == [CANDIDATE]


def test_the_factory_gives_every_provider_the_configured_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.model_fields:
        monkeypatch.delenv(name, raising=False)
    rules = build_extractor(Settings(_env_file=None, MEMORY_EXTRACTOR_PROVIDER="rules"))
    assert isinstance(rules, BudgetedExtractor) and rules.budget_sec == 20.0 and rules.name == "rules"
    assert isinstance(rules.inner.inner, RulesExtractor)  # type: ignore[attr-defined]
    custom = build_extractor(Settings(_env_file=None, MEMORY_EXTRACTOR_BURST_BUDGET_SEC=3.5))
    assert isinstance(custom, BudgetedExtractor) and custom.budget_sec == 3.5
    llm = Settings(_env_file=None, LLM_BASE_URL="http://127.0.0.1:9/v1",
                   LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC=30)
    assert llm.extraction_burst_budget_sec == 70.0  # both stages' own timeouts come first
    with pytest.raises(ValueError):
        Settings(_env_file=None, MEMORY_EXTRACTOR_BURST_BUDGET_SEC=0)


def test_rules_extraction_of_the_issue_input_is_well_inside_the_budget() -> None:
    budgeted = BudgetedExtractor(RulesExtractor(), 20.0)
    started = time.perf_counter()
    run_burst(budgeted, ExtractionInput("我住在上海" + "哈" * 24 + "x"))
    assert time.perf_counter() - started < 2.0


def test_the_budget_worker_sees_the_callers_burst_scope() -> None:
    """The provider runs in the budget's worker thread; the burst's deadline and token bill
    (``core.extraction.burst``, a context variable) must reach it there."""
    from core.extraction.burst import burst_scope, current_burst

    seen: list[object] = []

    class ScopeReader(Sleeper):
        def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
            scope = current_burst()
            seen.append(scope)
            if scope is not None:
                scope.add_usage(5, 3)
            return [CANDIDATE]

    with burst_scope(30.0) as scope:
        run_burst(BudgetedExtractor(ScopeReader(), 5.0), ExtractionInput("hi"))
    assert seen == [scope] and scope.requests == 1 and scope.total_tokens == 8


def test_only_the_in_process_provider_is_cpu_bound_through_its_decorators(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The extractor process sizes its extraction slots by this (``CONSUMER_EXTRACTOR_CPU_SLOTS``)."""
    for name in Settings.model_fields:
        monkeypatch.delenv(name, raising=False)
    rules = build_extractor(Settings(_env_file=None, MEMORY_EXTRACTOR_PROVIDER="rules"))
    llm = build_extractor(Settings(_env_file=None, LLM_BASE_URL="http://127.0.0.1:9/v1"))
    assert is_cpu_bound(rules) and is_cpu_bound(RulesExtractor())
    assert llm.name != "rules" and not is_cpu_bound(llm)
