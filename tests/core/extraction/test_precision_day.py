"""Issue 24, precision (``h-prec24``): the merge keeps one thing under a list slot, a topical slot and a
catch-all fact key; one dish learned is of the day; a passing mood or thanks is no fact and no taste.
Sentences written for this test."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.extraction.rules.coherence import one_thing
from core.extraction.rules.events import life_change
from core.extraction.rules.gate_rescue import _DAY_MARKER, RESCUE_DAY
from core.extraction.rules.gate_units import RESCUE_KEEP
from core.extraction.rules.precision import precise
from core.extraction.rules.refine import CandidateMeta, refine_candidates
from core.types import MemoryType

PREF, FACT = MemoryType.PREFERENCE, MemoryType.FACT


def _cand(key: str, content: str, memory_type: MemoryType = PREF) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=memory_type, key=key, content=content,
                           importance=3, confidence=0.9)


def test_a_complaint_of_the_day_does_not_join_the_hobby_list() -> None:
    old = "I like kayaking, board games and pottery"
    assert not one_thing(old, "Lately my bread keeps coming out flat", PREF, "preference-hobby", True)
    assert one_thing(old, "I also enjoy birdwatching", PREF, "preference-hobby", True)
    assert one_thing("我喜欢下棋和钓鱼", "最近还迷上了做陶艺", PREF, "preference-hobby", True)


def test_a_taste_of_the_slot_topic_does_not_join_a_statement_of_no_topic() -> None:
    # an earlier turn filed a remark about an island under food: a cuisine does not glue onto it
    old = "I adored the little island we stayed on"
    assert not one_thing(old, "I prefer Hunan and Yunnan cuisine", PREF, "preference-food", True)
    assert one_thing("I love hand-pulled noodles", "I also really like dumplings with vinegar", PREF,
                     "preference-food", True)


def test_a_catch_all_fact_key_takes_only_a_statement_sharing_a_word() -> None:
    old = "My landlord raised the rent again"
    assert not one_thing(old, "I only earn a modest salary at the bakery", FACT, "fact-personal", True)
    assert one_thing("我有两个孩子", "老大今年上小学", FACT, "fact-family", True)
    mems = [ExistingMemory("fact-personal", "fact", old)]
    got = refine_candidates(mems, [_cand("fact-personal", "I only earn a modest salary at the bakery", FACT)],
                            {"fact-personal": CandidateMeta()})
    assert [c.content for c in got if c.key == "fact-personal"] == []
    assert any("bakery" in c.content for c in got)


@pytest.mark.parametrize(("told", "changes"), [
    ("学会了做一道可乐鸡翅", False),
    ("学会了弹两首曲子", False),
    ("learned a new recipe for lentil soup", False),
    ("学会了开车", True),
    ("开始学做陶艺了", True),
])
def test_one_dish_learned_is_of_the_day(told: str, changes: bool) -> None:
    assert life_change(told, any("\u4e00" <= ch <= "\u9fff" for ch in told)) is changes


@pytest.mark.parametrize(("content", "memory_type", "kept"), [
    ("I've been feeling lost and stuck lately", FACT, False),
    ("最近心情很低落", FACT, False),
    ("谢谢你一直这么耐心", PREF, False),
    ("I was diagnosed with an anxiety disorder last year", FACT, True),
    ("I love thanking people with handwritten cards", PREF, True),
])
def test_a_passing_mood_or_thanks_is_no_fact_and_no_taste(content: str, memory_type: MemoryType,
                                                           kept: bool) -> None:
    key = "fact-health" if memory_type is FACT else "preference-personal"
    got = precise([_cand(key, content, memory_type)], ExtractionInput(content))
    assert bool(got) is kept


@pytest.mark.parametrize(("content", "key"), [
    ("我会弹尤克里里、拼乐高来放松", "preference-"),
    ("I usually go bouldering to unwind", "preference-"),
    ("I want to learn to sail next summer", "goal-"),
])
def test_a_habit_told_as_a_goal_is_a_taste(content: str, key: str) -> None:
    got = precise([_cand("goal-travel", content, MemoryType.GOAL)], ExtractionInput(content))
    assert len(got) == 1 and got[0].key.startswith(key)
    assert got[0].memory_type.value == key.rstrip("-")


@pytest.mark.parametrize("text", ["你好，朋友，我最近开始学射箭了，感觉很酷", "I took up pottery last month"])
def test_a_pastime_taken_up_is_a_taste_not_a_dated_fact(text: str) -> None:
    from core.extraction.rules import RulesExtractor

    got = [c for c in RulesExtractor().extract(ExtractionInput(text)) if c.op is CandidateOp.UPSERT]
    assert got and got[0].memory_type is PREF and not got[0].key.startswith("fact-event-"), got
    assert not got[0].content.startswith(("你好", "朋友"))


def test_a_rescue_with_a_marker_of_these_days_needs_the_higher_threshold() -> None:
    assert RESCUE_DAY > RESCUE_KEEP
    for said in ("I've been thinking about my career a lot lately", "这几天工作压力好大", "today was rough",
                 "最近总觉得提不起劲", "I recently moved to Leeds"):
        assert _DAY_MARKER.search(said.lower())
    for said in ("I work nights at a bakery", "我周末喜欢去爬山", "I live in Porto now"):
        assert not _DAY_MARKER.search(said.lower())


def test_a_musing_of_these_days_is_not_rescued_but_a_pastime_taken_up_is_kept(ex: RulesExtractor) -> None:
    # no rule fires on the musing: only the classifier's rescue could store it, and "lately" asks it for 0.97
    assert ex.extract(ExtractionInput("I've been thinking about my career a lot lately")) == []
    kept = ex.extract(ExtractionInput("I recently started learning the ukulele and I love it"))
    assert [c.key for c in kept] == ["preference-hobby"]
