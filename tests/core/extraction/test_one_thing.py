"""One memory, one thing (issue 24, ``core.extraction.rules.coherence`` through stage 2): a merge
keeps a memory coherent, an unrelated statement becomes a memory of its own, merged length is
capped, standing instructions are kept whole. Sentences written for this test."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.extraction.rules.coherence import MERGED_MAX_CHARS, one_thing
from core.extraction.rules.refine import CandidateMeta, refine_candidates
from core.types import MemoryType

PREF = MemoryType.PREFERENCE


def _cand(key: str, content: str, memory_type: MemoryType = PREF) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=memory_type, key=key, content=content,
                           importance=3, confidence=0.9)


def _refine(existing: list[tuple[str, str, str]], cand: MemoryCandidate) -> dict[str, str]:
    mems = [ExistingMemory(k, t, c) for k, t, c in existing]
    return {c.key: c.content for c in refine_candidates(mems, [cand], {cand.key: CandidateMeta()})
            if c.op is CandidateOp.UPSERT}


def test_a_remark_of_another_topic_never_joins_a_topical_memory() -> None:
    got = _refine([("preference-food", "preference", "I love hand-pulled noodles with chili oil")],
                  _cand("preference-food", "I think the best part of the movie was the soundtrack"))
    assert "preference-food" not in got
    assert got == {"preference-movies": "I think the best part of the movie was the soundtrack"}


def test_an_item_of_the_same_topic_joins_it() -> None:
    got = _refine([("preference-food", "preference", "I love hand-pulled noodles with chili oil")],
                  _cand("preference-food", "I also really like dumplings with vinegar"))
    assert "noodles" in got["preference-food"] and "dumplings" in got["preference-food"]


def test_a_list_slot_takes_items_of_any_topic() -> None:
    got = _refine([("preference-hobby", "preference", "我平时喜欢养多肉和拼乐高")],
                  _cand("preference-hobby", "我最近还喜欢上了攀岩"))
    assert "乐高" in got["preference-hobby"] and "攀岩" in got["preference-hobby"]


def test_a_memory_that_would_grow_too_long_becomes_a_new_memory() -> None:
    old = "; ".join(["I am practising watercolour landscapes every evening after work",
                     "I am practising bread baking with a sourdough starter on Sundays",
                     "I am practising the ukulele with online lessons twice a week",
                     "I am practising Spanish conversation with a tutor on Fridays"])
    got = _refine([("goal-skill", "goal", old)],
                  _cand("goal-skill", "I am practising chess openings with a club every Tuesday",
                        MemoryType.GOAL))
    assert "goal-skill" not in got  # the existing memory is left as it was
    (key, content), = got.items()
    assert key.startswith("goal-") and content.startswith("I am practising chess")


def test_one_thing_bounds() -> None:
    short = "I like green tea"
    assert one_thing(short, "I like jasmine tea too", PREF, "preference-drink", True)
    long = "x" * (MERGED_MAX_CHARS - 10)
    assert not one_thing(long, "I like jasmine tea too", PREF, "preference-drink", True)
    assert one_thing("我有两个孩子", "老大今年上小学", MemoryType.FACT, "fact-family", True)


@pytest.mark.parametrize(("text", "whole"), [
    ("From now on, when you review my contracts, list the risks first", "list the risks first"),
    ("以后你帮我看合同的时候，先列风险点，再给修改建议", "先列风险点，再给修改建议"),
    ("Whenever you draft emails for me, keep them under five sentences", "keep them under five sentences"),
    # standing instructions without "from now on"
    ("going forward, celsius temperatures please", "celsius temperatures"),
    ("keep marketing speak out of anything you draft for me", "marketing speak"),
    ("今后麻烦都用公制单位", "公制单位"),
])
def test_a_standing_instruction_is_kept_whole_with_its_object(ex: RulesExtractor, text: str,
                                                               whole: str) -> None:
    from core.extraction.candidates import ExtractionInput

    rules = [c for c in ex.extract(ExtractionInput(text)) if c.memory_type is MemoryType.CONSTRAINT]
    assert rules and whole in rules[0].content, rules


@pytest.mark.parametrize("text", [
    "going forward I'll cycle to work, please wish me luck",
    "以后我会早点睡，请监督我",
])
def test_the_users_own_plan_said_politely_is_no_rule(ex: RulesExtractor, text: str) -> None:
    from core.extraction.candidates import ExtractionInput

    assert not [c for c in ex.extract(ExtractionInput(text)) if c.memory_type is MemoryType.CONSTRAINT]
