"""Life events of the user (``core.extraction.rules.events``): a told event is a dated ``fact`` only
when it changes who the user is or what they have (issue 24: precision over volume); the day's
events (a support group attended, a race run, a trip, a lesson), short-term happenings, plans,
questions and other people's lives stay out (they remain findable as episodes). Sentences
written for this test (none from an evaluation set); run through the classifier-gated extractor
the factory builds."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.extraction.rules.events import EVENT_PREFIX, resolve_date
from core.types import MemoryType

SENT = datetime(2024, 3, 14, 18, 30, tzinfo=UTC)  # a Thursday


def _events(ex: RulesExtractor, text: str, sent_at: datetime | None = SENT) -> list[MemoryCandidate]:
    return [c for c in ex.extract(ExtractionInput(text, sent_at=sent_at))
            if c.op is CandidateOp.UPSERT and c.key.startswith(EVENT_PREFIX)]


@pytest.mark.parametrize(("text", "words", "when"), [
    ("Guess what - I joined a community choir last week", "community choir", "(the week before 2024-03-14)"),
    ("I bought a secondhand piano last weekend", "secondhand piano", "(the weekend before 2024-03-14)"),
    ("去年我们在杭州买了一套房子", "杭州买了一套房子", "(2023年)"),
    ("我终于拿到了潜水证", "潜水证", "(截至2024-03-14)"),
    ("I have been volunteering at an animal shelter", "animal shelter", "(by 2024-03-14)"),
    ("I'm taking a ceramics class at the community center", "ceramics class", "(by 2024-03-14)"),
    ("我两个月前报了一个油画班", "油画班", "(2024-01)"),
    ("I finally earned my nursing degree last spring", "nursing degree", "(spring 2023)"),
    ("我上个月加入了一个羽毛球俱乐部", "羽毛球俱乐部", "(2024-02)"),
])
def test_event_is_a_dated_fact_in_the_users_words(ex: RulesExtractor, text: str, words: str,
                                                  when: str) -> None:
    found = _events(ex, text)
    assert len(found) == 1, (text, ex.extract(ExtractionInput(text, sent_at=SENT)))
    memory = found[0]
    assert memory.memory_type is MemoryType.FACT
    assert words in memory.content
    assert memory.content.endswith(when)
    assert memory.key.startswith(EVENT_PREFIX) and len(memory.key) > len(EVENT_PREFIX) + 3
    assert all(ch.isascii() for ch in memory.key)


@pytest.mark.parametrize("text", [
    "I went to bed early yesterday",  # routine
    "I bought a coffee on the way this morning",  # consumable
    "Yesterday I took a nap after lunch",  # momentary
    "I'm so tired today",  # a passing state
    "I will go to a pottery class tomorrow",  # a plan
    "I want to run a marathon someday",  # a goal, not something done
    "Did you go to the concert last night?",  # a question
    "If I moved to Berlin, I'd learn German",  # hypothetical
    "My sister went to Peru last year",  # someone else's life
    "I didn't go to the reunion last week",  # negated
    "I'm off to go swimming with the kids",  # right now, not a life event
    "You did great and won yesterday",  # the other person's
    "Excited for this new chapter",  # a feeling, no action
    "Got your back, always",  # support talk
    "I wanted to call you earlier",  # not an action done
    "Never mind the garden shed, we scrapped it",  # a retraction
    "also I spent 210 dollars on takeout this month, ugh",  # a short-term finance figure
    "I'm going to a tech conference this month",  # a plan
    "昨天加班到两点，累死了",  # overtime and tiredness: short-term
    "我昨天去了趟超市",  # an errand
    "我在超市买了点水果",  # groceries
    "我下周要去参加一个婚礼",  # a plan
    "他上个月去了日本旅游",  # someone else's
    "你昨天去参加那个讲座了吗",  # a question
    # the day's events: findable as episodes, not memories (issue 24)
    "I went to a grief support group yesterday and it helped a lot",
    "I just finished my first half marathon!",
    "We went camping by the lake three years ago",
    "I volunteered at the food bank last Saturday",
    "我上周去参加了一个木工体验课",
    "我和老公前天去云南旅游了",
    "I repaired my grandfather's old pendulum clock",
    "Had my first driving lesson yesterday!",
    "I reached the final of a chess tournament last Saturday, and I won",
    "Just got back from a long walk along the river, so peaceful",
    "我们昨晚去看了一场电影",
])
def test_short_term_or_not_the_users_is_no_event(ex: RulesExtractor, text: str) -> None:
    assert _events(ex, text) == []


@pytest.mark.parametrize(("text", "key", "when"), [
    ("We adopted two rescue kittens last month", "fact-pets", "(2024-02)"),
    ("去年我们搬到了成都", "fact-home_city", "(2023年)"),
    ("我前天领养了一只橘猫，叫豆包", "fact-pets", "(2024-03-12)"),
    ("My husband and I got married in Lisbon three years ago", "fact-relationship", "(2021)"),
])
def test_a_fact_slot_told_as_an_event_keeps_its_slot_and_gets_the_date(ex: RulesExtractor, text: str,
                                                                       key: str, when: str) -> None:
    found = [c for c in ex.extract(ExtractionInput(text, sent_at=SENT)) if c.op is CandidateOp.UPSERT]
    assert [c.key for c in found] == [key]
    assert found[0].content.endswith(when)


def test_same_event_without_a_timestamp_has_no_date(ex: RulesExtractor) -> None:
    found = _events(ex, "I joined a rowing club yesterday", sent_at=None)
    assert len(found) == 1
    assert found[0].content == "I joined a rowing club yesterday"


def test_event_key_is_stable_and_readable(ex: RulesExtractor) -> None:
    first = _events(ex, "I joined a community choir last week")
    again = _events(ex, "I joined a community choir last week", sent_at=datetime(2024, 6, 1, tzinfo=UTC))
    assert first[0].key == again[0].key == "fact-event-joined_community_choir"
    assert first[0].content != again[0].content  # same words, another date


@pytest.mark.parametrize(("sentence", "expected"), [
    ("i did it the day before yesterday", "2024-03-12"),
    ("it was last thursday", "2024-03-07"),
    ("we moved two weeks ago", "around 2024-02-29"),
    ("i started this month", "2024-03"),
    ("we rescued him last spring", "spring 2023"),  # spring 2024 has not ended on 2024-03-14
    ("i ran it last summer", "summer 2023"),
    ("it was in 2019", ""),  # the sentence names its own year
    ("我三天前搬的家", "2024-03-11"),
    ("今年春节我们结婚了", "2024年"),
])
def test_resolve_date(sentence: str, expected: str) -> None:
    assert resolve_date(sentence, SENT) == expected


def test_resolve_date_needs_a_timestamp() -> None:
    assert resolve_date("yesterday", None) == ""
    assert date.fromisoformat(resolve_date("yesterday", SENT)) == date(2024, 3, 13)


@pytest.mark.parametrize(("text", "content"), [
    ("Big news! I joined a triathlon club last month. We train every Sunday at dawn. How are you?",
     "I joined a triathlon club last month. We train every Sunday at dawn (2024-02)"),
    ("I joined a choir last week. You should come sometime!", "I joined a choir last week "
     "(the week before 2024-03-14)"),
    ("我上周报了一个木工班。每周六上课。你最近忙吗？",
     "我上周报了一个木工班。每周六上课 (2024-03-14前一周)"),
])
def test_the_next_sentence_is_kept_as_detail_unless_it_turns_away(ex: RulesExtractor, text: str,
                                                                   content: str) -> None:
    found = _events(ex, text)
    assert [c.content for c in found] == [content]
