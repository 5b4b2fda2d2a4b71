"""Defects the demo showed (issue 13): naming the assistant is not a memory; a long-term plan is a goal."""

from __future__ import annotations

import pytest

from core.extraction.candidates import ExtractionInput
from core.extraction.rules import RulesExtractor


@pytest.fixture(scope="module")
def ex() -> RulesExtractor:
    return RulesExtractor()


@pytest.mark.parametrize("text", ["你以后就叫小七吧。", "你以后叫小七", "你就叫小橘", "以后叫你小七"])
def test_naming_the_assistant_is_not_stored(ex: RulesExtractor, text: str) -> None:
    assert ex.extract(ExtractionInput(user_message=text)) == []


@pytest.mark.parametrize("text", ["我的长期计划是写一本关于家庭物理小实验的科普书。",
                                  "My long-term goal is to move to Japan and work as a game designer."])
def test_a_long_term_plan_is_a_goal(ex: RulesExtractor, text: str) -> None:
    got = ex.extract(ExtractionInput(user_message=text))
    assert [c.memory_type.value for c in got] == ["goal"]


def test_a_standing_rule_for_the_assistant_stays_a_constraint(ex: RulesExtractor) -> None:
    got = ex.extract(ExtractionInput(user_message="以后给我推荐菜谱的时候，绝对不要有肉和鱼"))
    assert [c.memory_type.value for c in got] == ["constraint"]
