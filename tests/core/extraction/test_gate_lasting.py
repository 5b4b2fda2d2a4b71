"""The lasting-statement head's say in the gate (``core.extraction.rules.gate_lasting``): a lasting statement
of the user's own that the memory classifier keeps under its rescue bar is rescued; nothing else moves."""

from __future__ import annotations

import numpy as np
import pytest

from bench.eval_rules_offline import make_extractor
from core.extraction.candidates import ExtractionInput
from core.extraction.classifier import Prediction
from core.extraction.lasting import LASTING_KEEP, shipped_lasting
from core.extraction.rules.extractor import RulesExtractor
from core.extraction.rules.gate_lasting import AGREE_KEEP, agreed_units, lasting_units
from core.extraction.rules.gate_rescue import RESCUE_DAY
from core.extraction.rules.gate_units import Unit

# a lasting circumstance told in chat words, no rule word (the head reads it over LASTING_KEEP)
STANDING_DESK = "been on a standing desk since spring"
# a fact told in chat words: the classifier keeps it 0.6-0.9, the precision model over AGREE_KEEP
HOUSEBOAT = "we live on a houseboat, yes really"
# a message of several facts, the job told bare: the gate keeps the job's clause but under RESCUE_KEEP
INTRO = ("idk what u need but: qa engineer, based in Riga for 4 yrs now, originally from Minsk, have eczema "
         "so no wool pls, and im trying to learn the drums this year lol")


@pytest.fixture(scope="module")
def extractor() -> RulesExtractor:
    """The shipped extractor with the head switched on (``LASTING_ON`` is off: a measured arm)."""
    ext = make_extractor(True)
    assert ext._gate is not None
    ext._gate.lasting = shipped_lasting()
    return ext


def test_the_head_is_off_in_the_shipped_extractor() -> None:
    ext = make_extractor(True)
    assert ext._gate is not None and ext._gate.lasting is None
    on = RulesExtractor(classifier=ext.classifier, lasting=True)
    assert on._gate is not None and on._gate.lasting is not None


def _keys(ext: RulesExtractor, text: str) -> list[str]:
    return [c.key for c in ext.extract(ExtractionInput(text))]


def test_a_lasting_statement_under_the_rescue_bar_is_rescued_with_the_head(extractor: RulesExtractor) -> None:
    def job(ext: RulesExtractor) -> list[str]:
        return [c.key for c in ext.extract(ExtractionInput(INTRO)) if "qa engineer" in c.content]

    assert job(extractor)  # the job, a clause of its own that no rule fired on, read under the rescue bar
    assert job(make_extractor(True)) == []  # the shipped gate, without the head: under the bar, lost


def test_units_outside_the_band_or_not_the_users_keep_their_bar(extractor: RulesExtractor) -> None:
    head = shipped_lasting()
    assert head is not None and extractor.classifier is not None
    vectors = extractor.classifier.embed([STANDING_DESK] * 4)
    fact = Prediction((0.3, 0.0, 0.7, 0.0, 0.0, 0.0))  # p(keep) 0.7, a fact (LABELS: drop, preference, fact…)
    low = Prediction((0.5, 0.0, 0.5, 0.0, 0.0, 0.0))  # under LASTING_FLOOR
    assert head.predict_proba(vectors[:1])[0] >= LASTING_KEEP
    units = [Unit(STANDING_DESK, 0, run=1), Unit(STANDING_DESK, 0, owner="fact-family", run=2),
             Unit(STANDING_DESK, 0, threshold=RESCUE_DAY, run=3), Unit(STANDING_DESK, 0, run=4)]
    out = lasting_units(head, units, [fact, fact, fact, low], vectors)
    assert out[0].threshold == pytest.approx(0.7)
    assert out[1:] == units[1:]
    assert lasting_units(None, units, [fact] * 4, vectors) is units
    # a run the classifier rescues from already is left alone; a list-style message is the list model's
    sure = Prediction((0.05, 0.0, 0.95, 0.0, 0.0, 0.0))
    run = [Unit(STANDING_DESK, 0, run=7, whole=True), Unit(STANDING_DESK, 0, run=7, whole=False)]
    assert lasting_units(head, run, [sure, fact], vectors[:2]) == run
    listed = [Unit(STANDING_DESK, 0, run=1), Unit("two cats", 0, run=2, item=True)]
    assert lasting_units(head, listed, [fact, fact], vectors[:2]) is listed
    assert np.all(head.predict_proba(vectors) >= 0.0)


def test_a_band_unit_both_models_keep_is_rescued_and_nothing_else_moves(extractor: RulesExtractor) -> None:
    """``agreed_units``: a fact the classifier keeps under its bar, from ``LASTING_FLOOR``, that
    the precision model keeps at ``AGREE_KEEP`` alone needs only the p(keep) it has; a unit of someone else,
    under the floor, of another type, or that the precision model keeps less surely keeps its bar."""
    assert extractor.classifier is not None and extractor._gate is not None
    precision = extractor._gate.precision
    assert precision is not None
    own, day = HOUSEBOAT, "ugh the bus was late again this morning"
    vectors = extractor.classifier.embed([own, own, own, own, day])
    read = 1.0 - precision.predict_proba(vectors, None)[:, 0]
    assert read[0] >= AGREE_KEEP > read[4]
    fact = Prediction((0.3, 0.0, 0.7, 0.0, 0.0, 0.0))
    low = Prediction((0.5, 0.0, 0.5, 0.0, 0.0, 0.0))
    taste = Prediction((0.3, 0.7, 0.0, 0.0, 0.0, 0.0))
    units = [Unit(own, 0, run=1), Unit(own, 0, owner="fact-family", run=2), Unit(own, 0, run=3),
             Unit(own, 0, run=4), Unit(day, 0, run=5)]
    out = agreed_units(precision, units, [fact, fact, low, taste, fact], vectors)
    assert out[0].threshold == pytest.approx(0.7)
    assert out[1:] == units[1:]
    assert agreed_units(None, units, [fact] * 5, vectors) is units
    listed = [Unit(own, 0, run=1), Unit("two cats", 0, run=2, item=True)]
    assert agreed_units(precision, listed, [fact, fact], vectors[:2]) is listed


def test_the_agreement_arm_rescues_what_the_gate_alone_leaves() -> None:
    """``AGREE_ON`` is off in the product (a measured arm); on, the extractor keeps a fact the classifier
    reads 0.6-0.9 and the precision model over ``AGREE_KEEP``, which the gate alone leaves; the day's news
    stays out either way."""
    from core.extraction.rules import gate

    def kept(text: str) -> list[str]:
        return [c.content for c in make_extractor(True).extract(ExtractionInput(text))]

    assert not gate.AGREE_ON
    assert kept(HOUSEBOAT) == []
    try:
        gate.AGREE_ON = True
        assert kept(HOUSEBOAT) == [HOUSEBOAT]
        assert kept("ugh the bus was late again this morning") == []
    finally:
        gate.AGREE_ON = False
