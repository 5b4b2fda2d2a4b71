"""The plan stage of a dense retrieval (``core.retrieval.plan``): pure, no services."""

from __future__ import annotations

from datetime import UTC, datetime

from core.config import Settings
from core.episodes.search import time_intent
from core.lexical import tokenize
from core.query_kinds import query_kinds
from core.retrieval.plan import (
    QUERY_MAX_CHARS,
    RetrievalPlan,
    build_query,
    in_first_person,
    plan_retrieval,
    without_names,
)

SETTINGS = Settings(_env_file=None, LONG_TERM_MEMORY_RETRIEVE_LIMIT=6, EPISODE_RETRIEVE_LIMIT=4)
NOW = datetime(2026, 3, 15, 12, tzinfo=UTC)


def plan(question: str, *, episodes: bool = True, limit: int | None = None, episode_limit: int | None = None,
         summary: str | None = None) -> RetrievalPlan:
    return plan_retrieval(SETTINGS, episodes, question, summary, limit, episode_limit, None, None, NOW)


def test_the_query_is_the_question_then_the_summary_capped() -> None:
    assert build_query("  tea?  ", "  we talked about drinks ") == "tea?\nwe talked about drinks"
    assert build_query("tea?", "   ") == "tea?"
    assert len(build_query("x" * 5000, None)) == QUERY_MAX_CHARS
    p = plan("What did I eat last week?", summary="dinner plans")
    assert p.query == "What did I eat last week?\ndinner plans"
    assert p.terms == set(tokenize(p.query))
    assert p.kinds == query_kinds("What did I eat last week?")
    assert p.intent == time_intent("What did I eat last week?")


def test_without_caller_limits_both_kinds_are_pooled_for_the_sum_of_the_limits() -> None:
    for question in ("What did I do two weeks ago?", "What kind of food do I like?", "Recommend a film"):
        p = plan(question)
        # each kind may fill the whole budget; the pooled order (core.retrieval.merge) picks the mix
        assert (p.limit, p.episodes.limit, p.pool) == (10, 10, 10), question
    p = plan("What did I do two weeks ago?", episodes=False)
    assert p.pool is None and (p.limit, p.episodes.limit) == (6, 0)


def test_caller_limits_are_kept_and_no_episodes_without_the_episode_search() -> None:
    p = plan("What did I do two weeks ago?", limit=3)
    assert (p.limit, p.episodes.limit, p.pool) == (3, 4, None)
    p = plan("What did I do two weeks ago?", episode_limit=1)
    assert (p.limit, p.episodes.limit, p.pool) == (6, 1, None)
    p = plan("What did I do two weeks ago?", episodes=False)
    assert p.episodes.limit == 0 and p.limit == 6
    assert p.episodes.hits == [] and p.episodes.window is not None  # "two weeks ago" is a window


def test_the_users_own_names_are_taken_out_of_the_question_the_search_reads() -> None:
    question = "What might Alice's career be, and does Alice like tea?"
    p = plan_retrieval(SETTINGS, True, question, "we talked about Alice", None, None, None, None, NOW,
                       user_names=["Alice"])
    assert p.query == "What might career be, and does like tea?\nwe talked about Alice"
    assert "alic" not in tokenize(p.query.splitlines()[0]) and p.terms == set(tokenize(p.query))
    assert p.kinds == query_kinds(question)  # read as asked
    assert plan(question).query == question  # no names given: the question as asked


def test_the_time_intent_reads_the_users_own_names_as_the_user() -> None:
    asked = "When did Alice go to the pottery class?"
    assert time_intent(asked) == "neutral"  # a third person: no "when did I"
    named = plan_retrieval(SETTINGS, True, asked, None, None, None, None, None, NOW, user_names=["Alice"])
    assert named.intent == "past" == time_intent("When did I go to the pottery class?")
    assert plan(asked).intent == "neutral"  # no names given: read as asked
    other = plan_retrieval(SETTINGS, True, "When did Bob go to the pottery class?", None, None, None, None,
                           None, NOW, user_names=["Alice"])
    assert other.intent == "neutral"  # someone else's name is not the user


def test_in_first_person_reads_names_and_possessives_as_the_user() -> None:
    assert in_first_person("What is Alice's favourite tea? Alicette?", ["Alice"]) == (
        "What is my favourite tea? Alicette?")
    assert in_first_person("Did Alice Chen ever visit James' farm?", ["Alice", "Alice Chen"]) == (
        "Did I ever visit James' farm?")
    assert in_first_person("张伟上周去哪了？", ["张伟"]) == "我上周去哪了？"
    assert in_first_person("When did Alice go?", []) == "When did Alice go?"


def test_without_names_takes_whole_words_and_possessives_only() -> None:
    assert without_names("Does Johnny know John's dog? JOHN’S cat", ["john"]) == "Does Johnny know dog? cat"
    assert without_names("What does Alice Chen like? Alice", ["Alice", "Alice Chen"]) == "What does like?"
    assert without_names("James' car", ["James"]) == "car"
    assert without_names("张伟喜欢什么？", ["张伟"]) == "喜欢什么？"
    assert without_names("Alice?", ["Alice"]) == "Alice?"  # nothing left: the question as asked
    assert without_names("What do I like?", ["Alice", " ", ""]) == "What do I like?"
