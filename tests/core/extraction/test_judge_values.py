"""``core.extraction.rules.judge_values``: the clauses of an update statement that are the new value, and the
requests glued to it. Pure functions, no model. Moved from ``test_update_judge.py`` and
``test_update_judge_stages.py`` (session 17, helper judge30); sentences written for these tests, none from an
evaluation set."""

from __future__ import annotations

import pytest

from core.extraction.rules.judge_values import new_part, without_requests


def test_new_part_keeps_the_new_value_only() -> None:
    assert (
        new_part("gave up squash, it's rowing for me these days", "I play squash")
        == "it's rowing for me these days"
    )
    assert new_part("不喝可乐了，现在改喝气泡水", "我每天喝可乐") == "现在改喝气泡水"
    assert (
        new_part("im in Tacoma these days, olympia rent got silly", "I live in Olympia")
        == "im in Tacoma these days"
    )


def test_new_part_of_a_correction_and_of_an_implied_change() -> None:
    assert new_part("是儿子啊，你搞错了", "我女儿在上初一") == "是儿子啊"
    assert new_part("lisbon PORTUGAL, not texas", "i live in lisbon") == "lisbon PORTUGAL"
    implied = new_part("the bakery on elm st is way better, been at the new flat two weeks now",
                       "i rent a flat on oak road", implicit=True)
    assert "elm st" in implied


def test_a_correction_names_the_slot_without_the_wrong_value() -> None:
    assert new_part("lisbon PORTUGAL lol, not texas, way warmer", "i live in lisbon", correction=True) \
        == "lisbon PORTUGAL lol, way warmer"


def test_new_part_cuts_the_reason_before_so() -> None:
    assert new_part("the shuttle got cancelled so i walk to the office now", "i take the shuttle to work",
                    implicit=True) == "i walk to the office now"
    assert new_part("店关门了所以现在改去菜市场买菜", "我一般在那家超市买菜") == "现在改去菜市场买菜"


def test_a_closing_cue_completes_the_clause_before_it() -> None:
    assert new_part("每天练20分钟，就够了，工作太忙", "每天练琴一小时") == "每天练20分钟"
    assert new_part("一周去两次健身房，就行，工作太忙", "我一周去四次健身房") == "一周去两次健身房"


# issue 24, session 16 (helper upd29): a clause of the cue, a pronoun and a particle only tells the old
# value's disposal, not the new value; the clause after it does
@pytest.mark.parametrize(("statement", "old", "new", "gone"), [
    ("switched it up, green tea in the mornings", "a double espresso every morning", "green tea", "switched"),
    ("swapped it out, i'm on a standing desk these days", "i work from a couch", "standing desk", "swapped"),
])
def test_a_disposal_clause_by_pronoun_is_no_new_value(statement: str, old: str, new: str, gone: str) -> None:
    got = new_part(statement, old)
    assert new in got and gone not in got, got


def test_a_request_glued_to_a_value_is_cut() -> None:
    assert without_requests("改成每天两杯了，帮我记一下") == "改成每天两杯了"
    assert without_requests("帮我记一下") == "帮我记一下"  # every clause asks: the value stands
    told = "I moved to Denver, the commute is short"
    assert without_requests(told) == told


def test_a_rule_restated_with_its_changed_value_is_the_new_value_whole() -> None:
    old = "when you plan my runs, 3 routes at most, past that, i overthink it"
    new = "when you plan my runs, 2 routes at most, past that, i overthink it"
    assert new_part(new, old) == new  # not "past that": a clause the old rule already holds
    zh_old = "以后帮我挑餐厅的时候，每次四家就够了，多了我挑花眼"
    zh_new = "以后帮我挑餐厅的时候，每次两家就够了，多了我挑花眼"
    assert new_part(zh_new, zh_old) == zh_new


def test_a_statement_dismissing_the_old_value_keeps_the_clause_that_states_the_new_one() -> None:
    old = "when you plan my runs, 3 routes at most, past that, i overthink it"
    assert new_part("make it 2 routes, 3 is still a lot", old) == "make it 2 routes"
    zh_old = "以后帮我挑餐厅的时候，每次四家就够了，多了我挑花眼"
    assert new_part("改成两家吧，四家还是太多了", zh_old) == "改成两家吧"
