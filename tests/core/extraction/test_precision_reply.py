"""Issue 24, precision, session 12 (``h-prec24c``): a reply to the assistant's advice is no memory; a list of
items of one kind is not replaced by one of its items told again. Sentences written for this test."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput
from core.extraction.rules import RulesExtractor
from core.extraction.rules.judge_supersede import a_list
from core.extraction.rules.precision import _reply_to_advice
from core.extraction.rules.segment import normalise


@pytest.mark.parametrize(("message", "piece", "reply"), [
    ("Great, I will practise more and learn the basics of shading first",
     "I will practise more and learn the basics of shading first", True),
    ("You're right. I'll try to keep a sleep diary for a while.",
     "I'll try to keep a sleep diary for a while", True),
    ("好的，我会多参考这些方法，慢慢调整。", "我会多参考这些方法，慢慢调整", True),
    ("我知道了，以后我也会注意饮食的搭配。", "我知道了，以后我也会注意饮食的搭配", True),
    # no acknowledgement, or no acting on advice: the user's own plan or taste stays
    ("I will start learning Portuguese in January", "I will start learning Portuguese in January", False),
    ("ok, I'm moving to Valencia in the spring", "I'm moving to Valencia in the spring", False),
    ("好的，以后回答我都先给结论", "以后回答我都先给结论", False),
    ("Thanks! I love kayaking", "I love kayaking", False),
])
def test_a_reply_to_advice_is_recognised(message: str, piece: str, reply: bool) -> None:
    assert _reply_to_advice(normalise(piece), message) is reply


def test_a_reply_to_advice_is_not_stored(ex: RulesExtractor) -> None:
    for said in ("Great, I will practise more and learn the basics of shading first.",
                 "好的，我将尝试每天睡前做一些拉伸，希望能睡得好一点。"):
        assert [c for c in ex.extract(ExtractionInput(said)) if c.op is CandidateOp.UPSERT] == []
    kept = ex.extract(ExtractionInput("I will start learning Portuguese in January"))
    assert [c.memory_type.value for c in kept] == ["goal"]


def test_a_list_of_one_kind_is_recognised() -> None:
    assert a_list(ExistingMemory("preference-hobby", "preference", "I like chess"))  # a list slot
    assert a_list(ExistingMemory("preference-exercise", "preference", "我喜欢游泳、骑车、打羽毛球和爬山"))
    assert a_list(ExistingMemory("preference-music", "preference",
                                  "I love jazz, soul, and old funk records"))
    assert not a_list(ExistingMemory("fact-job", "fact", "I work as a radiographer"))
    assert not a_list(ExistingMemory("preference-drink", "preference", "I drink oat milk lattes"))


def test_one_item_told_again_does_not_replace_the_list(ex: RulesExtractor) -> None:
    old = ExistingMemory("preference-hobby", "preference", "我喜欢下棋、钓鱼、书法和摄影")
    data = ExtractionInput("最近我在研究一个新的钓鱼技巧，总是钓不上来，有什么窍门吗？", existing=(old,))
    refined = ex.refine(data, ex.extract(data))
    assert not any(c.supersedes == old.key or (c.key == old.key and c.op is CandidateOp.DELETE)
                   for c in refined)


@pytest.mark.parametrize(("text", "dropped"), [
    ("I plan to rent a bike for a couple of days during my trip", True),
    ("I'm thinking of a short trip to unwind after exams", True),
    ("I plan to go on a little trip to relax", True),
    ("我想出去旅行一趟散散心", True),
    ("到了那边我想先去逛逛夜市", True),
    ("I plan to visit Japan next year", False),
    ("我计划明年去冰岛看极光", False),
])
def test_a_trip_of_the_moment_is_no_goal(text: str, dropped: bool) -> None:
    from core.extraction.rules.precision import _dropped
    from core.types import MemoryType

    assert _dropped(normalise(text), MemoryType.GOAL) is dropped


def test_a_fact_with_remarks_is_no_list() -> None:
    job = "i'm a courier in the old town, it's ok, pays rent"
    assert not a_list(ExistingMemory("fact-job", "fact", job))
