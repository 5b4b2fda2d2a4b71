"""What the user says that is not about the user (issue 24, hallucination cases,
``core.extraction.rules.others`` through ``precision``): another person's fact outside the household, a
wish for someone else, a plan considered and rejected, a denied identity and a mocking self-claim store
nothing of theirs; the user's own statement beside them stays. Also the clause-level fixes of the same
pass: a question tag after a statement, "tl;dr" as one token, a lower-case town in a self-introduction.
Sentences written for this test (none from an evaluation set); run through the classifier-gated extractor."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.extraction.rules.others import someone_elses, without_denials, without_others
from core.extraction.rules.segment import split_clauses
from core.types import MemoryType


def _stored(ex: RulesExtractor, text: str) -> list[MemoryCandidate]:
    data = ExtractionInput(user_message=text)
    return [c for c in ex.refine(data, ex.extract(data)) if c.op is CandidateOp.UPSERT]


def _text(cands: list[MemoryCandidate]) -> str:
    return " | ".join(f"{c.key}: {c.content}" for c in cands).lower()


@pytest.mark.parametrize(("text", "absent"), [
    ("my neighbour just started working as a paramedic, night shifts and all", "paramedic"),
    ("我表姐在银行做柜员，天天数钱", "柜员"),
    ("my old roommate is obsessed with opera, she goes like twice a month", "opera"),
    ("我同事对猫毛过敏，一进我家就打喷嚏", "猫毛"),
    ("fingers crossed my cousin lands that nursing job in the spring", "nursing"),
    ("希望我儿子明年能考上重点高中", "重点高中"),
    ("I was planning to learn the cello this year but decided against it", "cello"),
    ("之前打算考个教师资格证，后来想想还是算了", "教师资格证"),
])
def test_someone_elses_fact_wish_or_rejected_plan_stores_nothing_of_it(ex: RulesExtractor, text: str,
                                                                      absent: str) -> None:
    assert absent not in _text(_stored(ex, text)), _stored(ex, text)


@pytest.mark.parametrize(("text", "absent", "present"), [
    ("nope, I'm not a student, I manage a bike shop downtown", "student", "bike shop"),
    ("我不是程序员哈，我是做平面设计的", "程序员", "平面设计"),
    ("my sister's the one who can't do dairy, I eat pretty much everything but I really love sardines",
     "dairy", "sardines"),
])
def test_the_users_own_statement_beside_it_stays(ex: RulesExtractor, text: str, absent: str,
                                                 present: str) -> None:
    stored = _text(_stored(ex, text))
    assert absent not in stored and present in stored, stored


def test_a_statement_that_speaks_of_the_user_stays(ex: RulesExtractor) -> None:
    stored = _stored(ex, "my coworker got me into bouldering and now I go three times a week")
    assert "bouldering" in _text(stored)


def test_a_household_members_fact_is_still_a_family_fact(ex: RulesExtractor) -> None:
    assert [c.key for c in _stored(ex, "My husband is allergic to kiwi.")] == ["fact-family"]


def test_a_mocking_self_claim_is_no_fact_but_the_straight_one_after_it_is(ex: RulesExtractor) -> None:
    stored = _text(_stored(ex, "oh sure, and I'm also the queen of england 🙄 I repair pianos for a living"))
    assert "queen" not in stored and "piano" in stored, stored


def test_a_question_tag_does_not_void_the_statement_before_it(ex: RulesExtractor) -> None:
    stored = _stored(ex, "honestly I kind of love ironing shirts on sunday evenings, is that weird")
    assert any(c.memory_type is MemoryType.PREFERENCE and "ironing" in c.content for c in stored), stored


def test_tldr_is_one_token_and_the_instruction_keeps_its_object(ex: RulesExtractor) -> None:
    line = "always start with a tl;dr line"
    assert [c.text for c in split_clauses(line)] == [line]
    stored = _stored(ex, "when you review my pull requests, always start with a tl;dr of the risks")
    assert any(c.memory_type is MemoryType.CONSTRAINT and "tl;dr of the risks" in c.content
               for c in stored), stored


def test_a_lower_case_town_in_a_self_introduction_is_the_home(ex: RulesExtractor) -> None:
    stored = _stored(ex, "hey! 41, living in hexham, work as a veterinary nurse")
    assert any(c.key == "fact-home_city" and "hexham" in c.content.lower() for c in stored), stored
    denial = _stored(ex, "living in denial about my screen time lol")
    assert not any(c.key == "fact-home_city" for c in denial)


def test_the_piece_functions() -> None:
    assert without_denials("no no, i'm not vegan at all, i just hate olives") == "i just hate olives"
    assert without_denials("I'm not a fan of olives") == "I'm not a fan of olives"
    assert without_denials("我不是很喜欢香菜") == "我不是很喜欢香菜"
    assert without_others("my boss is a marathoner, I prefer yoga") == "I prefer yoga"
    assert without_others("my wife is a marathoner") == "my wife is a marathoner"
    assert someone_elses("really hoping my nephew passes his driving test")
    assert not someone_elses("i was going to learn piano but switched to guitar instead")


def test_a_clause_with_its_own_i_is_read_alone_where_nothing_fired(ex: RulesExtractor) -> None:
    stored = _text(_stored(ex, "honestly the cold wouldn't faze me, i drive a snowplough for the county"))
    assert "snowplough" in stored, stored


def test_a_rule_group_drowned_by_hedges_is_read_again_by_its_first_clause(ex: RulesExtractor) -> None:
    stored = _stored(ex, "i kinda wanna swim across lake geneva someday, no pressure, just for the story")
    assert any(c.memory_type is MemoryType.GOAL and "swim across lake geneva" in c.content
               for c in stored), stored


def test_a_change_is_no_denied_identity() -> None:
    text = "I'm not a student anymore, I just joined a consulting firm"
    assert without_denials(text) == text  # the update judge reads it
    assert without_denials("我不是学生了，刚入职一家咨询公司") == "我不是学生了，刚入职一家咨询公司"


def test_what_the_user_does_with_a_relative_is_the_users_project(ex: RulesExtractor) -> None:
    stored = _stored(ex, "me and my grandad are rebuilding his old rowing boat in the shed, a plank a week")
    assert [c.memory_type for c in stored] == [MemoryType.PROJECT], stored
