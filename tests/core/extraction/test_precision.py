"""Precision over volume (issue 24, ``core.extraction.rules.precision``): thanks, one-off requests,
passing moods and momentary wants are never a goal or a constraint; the day's events are no memory;
a pronoun-only statement keeps its referent or is not stored. Sentences written for this test (none
from an evaluation set); run through the classifier-gated extractor the factory builds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.extraction.candidates import CandidateOp, ContextMessage, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.types import MemoryType

SENT = datetime(2025, 9, 3, 20, 15, tzinfo=UTC)


def _upserts(ex: RulesExtractor, text: str,
             context: tuple[ContextMessage, ...] = ()) -> list[MemoryCandidate]:
    return [c for c in ex.extract(ExtractionInput(text, context=context, sent_at=SENT))
            if c.op is CandidateOp.UPSERT]


@pytest.mark.parametrize("text", [
    # thanks and praise
    "honestly every chat with you leaves me feeling inspired and helped",
    "Thank you so much, you have been super helpful with the garden plans",
    "谢谢你，每次和你聊完都很有启发",
    # one-off requests
    "in the future could you help me find a few cheap flights to Lisbon",
    "I'd like to talk to you about my situation at work",
    "帮我找几部适合周末看的电影",
    "我想跟你聊聊我最近的工作状态",
    # passing moods
    "I'm feeling kind of lost these days, everyone around me seems so sure of themselves",
    "最近感觉自己有点迷茫，不知道该干嘛",
    # momentary wants
    "I want to find some podcasts for the drive tonight",
    "我想找一些轻松的纪录片看看",
    # a remembered detail of the day
    "um I vaguely remember adding cumin and a pinch of cinnamon to that stew",
])
def test_thanks_requests_moods_and_momentary_wants_are_no_goal_or_rule(ex: RulesExtractor, text: str) -> None:
    kinds = {c.memory_type for c in _upserts(ex, text)}
    assert not kinds & {MemoryType.GOAL, MemoryType.CONSTRAINT}, (text, _upserts(ex, text))


@pytest.mark.parametrize("text", [
    "Just got home from a long walk by the canal, feeling great",
    "We had dumplings at the night market this evening",
    "Watched a horror film tonight with my cousin",
    "今天中午吃了一碗牛肉面，挺香的",
    "我们昨晚去看了一场脱口秀",
    "Went to a pottery workshop last Sunday, it was fun",
])
def test_the_days_events_are_no_memory(ex: RulesExtractor, text: str) -> None:
    assert _upserts(ex, text) == []


@pytest.mark.parametrize(("text", "kind", "words"), [
    ("We moved to Porto last spring", MemoryType.FACT, "Porto"),
    ("I got engaged to my girlfriend two weeks ago", MemoryType.FACT, "engaged"),
    ("我们上个月领养了一只小狗", MemoryType.FACT, "小狗"),
    ("From now on, please always put the summary first when you review my reports",
     MemoryType.CONSTRAINT, "summary first"),
    ("以后你帮我改简历的时候，先把错别字标出来", MemoryType.CONSTRAINT, "先把错别字标出来"),
    ("I want to run a half marathon before I turn forty", MemoryType.GOAL, "half marathon"),
    # a want with a horizon beyond the day is a goal, not a momentary want
    ("I think I'd like to get my Portuguese to C1 eventually", MemoryType.GOAL, "Portuguese"),
])
def test_what_changes_the_user_and_standing_rules_stay(ex: RulesExtractor, text: str, kind: MemoryType,
                                                       words: str) -> None:
    found = [c for c in _upserts(ex, text) if c.memory_type is kind]
    assert found and words in found[0].content, (text, _upserts(ex, text))


def _stored(ex: RulesExtractor, text: str,
            context: tuple[ContextMessage, ...] = ()) -> list[MemoryCandidate]:
    """What stage 2 hands the store (the referent of a leaning statement is joined in there)."""
    data = ExtractionInput(text, context=context, sent_at=SENT)
    return [c for c in ex.refine(data, ex.extract(data)) if c.op is CandidateOp.UPSERT]


def test_a_pronoun_keeps_its_referent_from_the_previous_sentence(ex: RulesExtractor) -> None:
    found = _stored(ex, "I keep three Shetland ponies at my aunt's farm. I love riding them.")
    riding = [c for c in found if "riding them" in c.content]
    assert riding and "Shetland ponies" in riding[0].content


def test_a_pronoun_takes_the_users_previous_turn_as_referent(ex: RulesExtractor) -> None:
    context = (ContextMessage("user", "I have two old vespas in the garage"),
               ContextMessage("assistant", "Nice! Do you ride much?"))
    found = _stored(ex, "I love riding them", context)
    assert found and "vespas" in found[0].content
    assert found[0].content.endswith("I love riding them")


def test_a_pronoun_without_a_referent_is_not_stored(ex: RulesExtractor) -> None:
    assert _upserts(ex, "I love riding them") == []
    assert _upserts(ex, "我超喜欢骑它们") == []


def test_a_remark_about_a_films_content_is_no_taste(ex: RulesExtractor) -> None:
    assert _upserts(ex, "honestly the best bit was how the protagonist slowly turns into the villain") == []
    kept = _upserts(ex, "I love books where the protagonist is an unreliable narrator")
    assert kept and kept[0].memory_type is MemoryType.PREFERENCE


@pytest.mark.parametrize("text", ["最近我经常感到很烦躁", "I'm feeling really stressed out lately"])
def test_a_mood_is_no_taste(ex: RulesExtractor, text: str) -> None:
    assert not [c for c in _upserts(ex, text) if c.memory_type is MemoryType.PREFERENCE]
