"""The rescue-turn head on a rule's statements too (issue 24, session 31, prec50: ``RESCUE_TURN_RULES_ON``,
``written_news.without_rescue_turns``'s ``others_bar``): a goal, a taste or a fact a rule wrote, in which the
user speaks of themself, read with its turn at ``others_bar`` or more is not written; one under it is; a
clause with no first person, a habit, a replacement and a rule type are never read; a rescue keeps its own
bar; with the flag on, the extractor leaves out a trip being planned and still writes a job."""

from __future__ import annotations

import pytest

from core.extraction import asked_turn, rescue_turn
from core.extraction.candidates import ContextMessage, ExtractionInput
from core.extraction.rules import RulesExtractor
from core.extraction.rules.written_news import without_rescue_turns
from core.types import MemoryType
from tests.support.extraction import upsert_candidate as _cand
from tests.support.head_readers import recording_reader

PLAN = "我已经订好了去清迈的机票，打算在那边住五晚"
TASTE = "I really like slow jazz on rainy nights"


def test_a_rules_statement_read_over_the_others_bar_is_not_written_and_one_under_it_is() -> None:
    read, calls = recording_reader({PLAN}, high=0.70, low=0.40)
    plan = _cand("goal-travel", MemoryType.GOAL, PLAN)
    taste = _cand("preference-music", MemoryType.PREFERENCE, TASTE)
    assert without_rescue_turns([plan, taste], (), frozenset(), read, 0.65, others_bar=0.65) == [taste]
    assert calls == [[PLAN, TASTE]]  # one call reads the burst, though nothing was rescued
    # over the others bar only: the rescue's bar is not the rules' bar
    read_mid, _ = recording_reader({PLAN}, high=0.70, low=0.40)
    assert without_rescue_turns([plan], (), frozenset(), read_mid, 0.65, others_bar=0.75) == [plan]


def test_without_the_others_bar_a_rules_statement_is_never_read() -> None:
    read, calls = recording_reader({PLAN})
    plan = _cand("goal-travel", MemoryType.GOAL, PLAN)
    assert without_rescue_turns([plan], (), frozenset(), read, 0.65) == [plan]
    assert calls == []


def test_no_first_person_a_habit_a_replacement_and_a_rule_type_are_never_read() -> None:
    clause = _cand("fact-pets", MemoryType.FACT, "two cats (Miso and Tofu)")  # a clause of a long turn
    habit = _cand("preference-routine", MemoryType.PREFERENCE, "我每天晚上都去河边跑步")
    replacement = _cand("goal-travel", MemoryType.GOAL, PLAN, supersedes="goal-travel")
    rule = _cand("constraint-food", MemoryType.CONSTRAINT, "I can't eat anything with peanuts")
    texts = {c.content for c in (clause, habit, replacement, rule)}
    read, calls = recording_reader(texts)
    cands = [clause, habit, replacement, rule]
    assert without_rescue_turns(cands, (), frozenset(), read, 0.65, others_bar=0.65) == cands
    assert calls == []


def test_a_rescued_statement_keeps_its_own_bar_beside_the_others_bar() -> None:
    read, _ = recording_reader({PLAN, TASTE}, high=0.70)
    plan = _cand("goal-travel", MemoryType.GOAL, PLAN)
    taste = _cand("preference-music", MemoryType.PREFERENCE, TASTE)
    # the rescue (PLAN) at 0.65 goes; the rule's taste is read at 0.80 and stays
    assert without_rescue_turns([plan, taste], (), frozenset({PLAN}), read, 0.65, others_bar=0.80) == [taste]


@pytest.mark.parametrize("on", [False, True])
def test_the_flag_leaves_out_a_trip_being_planned_and_still_writes_a_job(
        on: bool, ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rescue_turn, "RESCUE_TURN_RULES_ON", on)
    # this flag alone: the asked-turn head (session 32) also reads the trip, answered to "你开始准备了吗？"
    monkeypatch.setattr(asked_turn, "ASKED_TURN_ON", False)
    extractor = ex
    context = (ContextMessage(role="assistant", content="听起来很棒，你开始准备了吗？"),)
    plan = ExtractionInput(
        user_message="我最近在计划去挪威旅行，想去看看峡湾和极光，已经开始查机票和酒店了。", context=context)
    contents = " ".join(c.content for c in extractor.refine(plan, extractor.extract(plan)))
    assert ("峡湾" in contents) is not on  # off: the goal rule's trip is written
    job = ExtractionInput(user_message="我在一家设计院画图纸，已经干了七年了。", context=context)
    assert "设计院" in " ".join(c.content for c in extractor.refine(job, extractor.extract(job)))
