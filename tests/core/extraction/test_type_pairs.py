"""The type-pair heads (``core.extraction.rules.type_pairs``): read only where the memory classifier's two
likeliest types are a head's pair with a small gap, sharing only those two types' probability."""

from __future__ import annotations

import numpy as np
import pytest

from core.extraction.classifier import LABELS, MemoryClassifier
from core.extraction.logistic_head import LogisticHead
from core.extraction.rules import RulesExtractor
from core.extraction.rules.type_pairs import (
    TYPE_PAIRS_ON,
    PairHead,
    TypePair,
    TypePairReader,
    grounded,
    load_reader,
)

PREF, FACT, PROJ = LABELS.index("preference"), LABELS.index("fact"), LABELS.index("project")


def _reader(p_first: float, margin: float = 0.5) -> TypePairReader:
    """A taste / fact head that reads every row as ``p_first`` (a bias alone)."""
    bias = float(np.log(p_first / (1.0 - p_first)))
    head = TypePair(LogisticHead.of(np.zeros(4), bias))
    return TypePairReader((PairHead(PREF, FACT, head, margin),))


def test_only_a_hesitant_row_of_the_pair_is_reread_and_keep_stays() -> None:
    probs = np.array([
        [0.1, 0.40, 0.45, 0.05, 0.0, 0.0],   # fact over taste by 0.05 / 0.9: read
        [0.1, 0.05, 0.80, 0.05, 0.0, 0.0],   # fact by far: not read
        [0.1, 0.40, 0.05, 0.45, 0.0, 0.0],   # goal and taste: another pair, not read
    ])
    out = _reader(0.9).reread(probs, np.zeros((3, 4), dtype=np.float32))
    assert out[0, PREF] == pytest.approx(0.85 * 0.9) and out[0, FACT] == pytest.approx(0.85 * 0.1)
    assert np.array_equal(out[1:], probs[1:])
    assert np.allclose(out.sum(axis=1), 1.0) and np.array_equal(out[:, 0], probs[:, 0])


def test_a_margin_of_zero_reads_nothing() -> None:
    probs = np.array([[0.1, 0.40, 0.45, 0.05, 0.0, 0.0]])
    assert np.array_equal(_reader(0.9, margin=0.0).reread(probs, np.zeros((1, 4), dtype=np.float32)), probs)


def test_a_diet_of_faith_or_health_is_read_a_fact() -> None:
    probs = np.array([[0.1, 0.45, 0.40, 0.05, 0.0, 0.0]] * 2)
    texts = ["i cant eat pork for religious reasons", "i'm vegetarian"]
    out = _reader(0.9).reread(probs, np.zeros((2, 4), dtype=np.float32), texts)
    assert out[0, FACT] == pytest.approx(0.85) and out[1, PREF] == pytest.approx(0.85 * 0.9)
    assert grounded("我对花生过敏") and grounded("no pork, I'm muslim") and not grounded("I went vegan")


def test_the_classifier_reads_the_heads_only_when_asked() -> None:
    assert (RulesExtractor(MemoryClassifier()).classifier.type_pairs is None) == (not TYPE_PAIRS_ON)
    texts = ["i play the trumpet in a brass band on fridays", "i cant eat pork for religious reasons",
             "I love hiking", "renting a small flat with my cousin near the station"]
    plain = MemoryClassifier(type_pairs=TypePairReader(()))
    armed = MemoryClassifier(type_pairs=load_reader())
    before, after = plain.predict(texts), armed.predict(texts)
    assert [p.p_keep for p in before] == [p.p_keep for p in after]
    assert before[0].memory_type.value == "fact" and after[0].memory_type.value == "preference"
    assert after[1].memory_type.value == "fact" and after[1].p_type("fact") > before[1].p_type("fact")
    assert before[2:] == after[2:]  # a confident taste, a confident reading of another pair: the classifier's
