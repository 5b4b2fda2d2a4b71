"""Issue 24, session 23 (type42): the type a statement is filed under where two readings exist, as the
writers of the readable case sets agree (``docs/design.md#memory-types``): a chosen diet is a taste, a diet
of faith or health a fact; the phone or computer the user has is a fact, the software a taste; an
instrument played or learned with no intent or date is a taste. Sentences written for this test."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.extraction.rules.detectors import diet_key
from core.extraction.rules.precision import precise
from core.extraction.rules.slots import is_single, spec
from core.query_kinds import memory_kinds
from core.types import MemoryType


def _upserts(text: str) -> list[MemoryCandidate]:
    ext = RulesExtractor()
    data = ExtractionInput(text)
    return [c for c in ext.refine(data, ext.extract(data)) if c.op is CandidateOp.UPSERT]


@pytest.mark.parametrize(("body", "key"), [
    ("i've been vegan since college", "preference-diet"),
    ("我吃素三年了", "preference-diet"),
    ("i eat pescatarian these days", "preference-diet"),
    ("i only eat halal meat", "fact-diet"),
    ("i don't eat pork, for religious reasons", "fact-diet"),
    ("i'm vegetarian on my doctor's advice", "fact-diet"),
    ("我是清真饮食", "fact-diet"),
])
def test_a_chosen_diet_is_a_taste_and_a_diet_of_faith_or_health_a_fact(body: str, key: str) -> None:
    assert diet_key(body) == key


def test_the_diet_slots_are_single_and_typed_by_their_prefix() -> None:
    assert spec("preference-diet").memory_type is MemoryType.PREFERENCE and is_single("preference-diet")
    assert spec("fact-diet").memory_type is MemoryType.FACT and is_single("fact-diet")
    assert spec("fact-devices").memory_type is MemoryType.FACT and not is_single("fact-devices")


def test_a_chosen_diet_told_alone_is_stored_as_a_preference() -> None:
    got = _upserts("i've been vegan since college")
    assert [(c.key, c.memory_type) for c in got] == [("preference-diet", MemoryType.PREFERENCE)]


def test_a_chosen_diet_is_not_a_hobby_for_retrieval() -> None:
    assert "hobby" not in memory_kinds("preference-diet", "preference", "Vegan since college")
    assert "health" in memory_kinds("preference-diet", "preference", "Vegan since college")
    assert "hobby" in memory_kinds("preference-music", "preference", "Plays the oboe")


@pytest.mark.parametrize("text", ["我用的是荣耀 Magic 5", "i daily drive a thinkpad"])
def test_the_device_the_user_has_is_a_fact(text: str) -> None:
    got = _upserts(text)
    assert [(c.key, c.memory_type) for c in got] == [("fact-devices", MemoryType.FACT)], got


def test_the_software_the_user_uses_stays_a_taste() -> None:
    got = _upserts("i mostly use emacs")
    assert [(c.key, c.memory_type) for c in got] == [("preference-tech", MemoryType.PREFERENCE)], got


def _goal(content: str) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.GOAL, key="goal-skill",
                           content=content, importance=4, confidence=0.9)


@pytest.mark.parametrize(("content", "memory_type"), [
    ("I'm learning the oboe on weekends", MemoryType.PREFERENCE),
    ("最近在学二胡", MemoryType.PREFERENCE),
    ("I want to learn the oboe by next summer", MemoryType.GOAL),
    ("trying to learn the banjo this year", MemoryType.GOAL),
    ("今年要把二胡考到五级", MemoryType.GOAL),
    ("learning to code in Rust", MemoryType.GOAL),
])
def test_an_instrument_learned_with_no_intent_or_date_is_a_taste(content: str,
                                                                  memory_type: MemoryType) -> None:
    got = precise([_goal(content)], ExtractionInput(content))
    assert len(got) == 1 and got[0].memory_type is memory_type, got
    if memory_type is MemoryType.PREFERENCE:
        assert got[0].key == "preference-music"


@pytest.mark.parametrize(("old", "retired"), [("I'm vegetarian", True),
                                              ("I don't eat pork, religious reasons", False)])
def test_a_chosen_diet_retires_the_diet_fact_an_older_extractor_wrote(old: str, retired: bool) -> None:
    ext = RulesExtractor()
    data = ExtractionInput("i'm vegan now", existing=(ExistingMemory("fact-diet", "fact", old),))
    got = [c for c in ext.refine(data, ext.extract(data)) if c.op is CandidateOp.UPSERT]
    want = [("preference-diet", "fact-diet" if retired else None)]
    assert [(c.key, c.supersedes) for c in got] == want, got
