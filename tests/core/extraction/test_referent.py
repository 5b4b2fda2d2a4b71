"""A memory never loses its referent (issue 24, ``core.extraction.rules.referent``): which statements lean
on a thing named outside them, and which sentence names it. Sentences written for this test (none from an
evaluation set or a benchmark)."""

from __future__ import annotations

import pytest

from core.extraction.rules.referent import leans, nounlike, referent_for


@pytest.mark.parametrize("text", [
    "I adore feeding them",
    "they always want me to sing it again",
    "each album is a masterpiece to me",
    "those are my go-to snacks",
    "I could listen to their songs all day",
    "I'm totally hooked on it",
    "我每天都要遛它们",
    "这些都是我最爱的零食",
    "我也挺喜欢这种风格",
    "每部都看了三遍",
    "我想一直跟着她练",
])
def test_a_statement_whose_thing_is_named_elsewhere_leans(text: str) -> None:
    assert leans(text)


@pytest.mark.parametrize("text", [
    "I keep bees and I harvest their honey every autumn",
    "It's tough to find time for the gym",
    "It depends on my shifts",
    "what I really like is running along the river when it's quiet",
    "I walk to work whenever it's dry",
    "these days I mostly cook at home",
    "this year I want to learn the cello",
    "every weekend I go bouldering",
    "I'm knitting a scarf for every cousin, three done so far",
    "I run a tiny podcast called Fernweh - it covers slow travel",
    "我对榴莲那个味道完全没有抵抗力",
    "I'm a pharmacist in Leeds",
    "我养了两只兔子，它们很黏人",
    "这个周末我想去露营",
    "其他的运动我都不太擅长",
    "那些年我住在大连",
    "我会弹吉他",
])
def test_a_statement_that_names_its_own_thing_does_not_lean(text: str) -> None:
    assert not leans(text)


def test_the_nearest_sentence_that_names_a_thing_is_the_referent() -> None:
    message = "Thanks! My sister gave me three bonsai trees. Honestly. I water them every morning."
    assert referent_for("I water them every morning", message, None) == "My sister gave me three bonsai trees"


def test_the_users_previous_turn_is_the_referent_when_the_message_names_nothing() -> None:
    assert referent_for("我每天都要遛它们", "我每天都要遛它们", "我家有两只柯基") == "我家有两只柯基"


def test_no_referent_when_nothing_near_names_a_thing() -> None:
    assert referent_for("I adore feeding them", "Haha yes. I adore feeding them", "lol ok") is None
    long_turn = "I went out today and " + "it was a long long day " * 12
    assert referent_for("I adore feeding them", "I adore feeding them", long_turn) is None


def test_a_sentence_that_leans_itself_is_no_referent() -> None:
    message = "Those ones were gorgeous. I adore feeding them"
    assert referent_for("I adore feeding them", message, None) is None


@pytest.mark.parametrize(("text", "names"), [("a vintage Vespa", True), ("I love riding", False),
                                             ("一辆老摩托", True), ("我也很喜欢", False)])
def test_nounlike(text: str, names: bool) -> None:
    assert nounlike(text) is names


def test_a_question_is_no_referent() -> None:
    assert referent_for("I adore feeding them", "Do you keep any pets? I adore feeding them", None) is None
    assert referent_for("I adore feeding them", "I adore feeding them", "what else do you like to do") is None
    assert referent_for("我每天都要遛它们", "我每天都要遛它们", "你养宠物吗？") is None
