"""Session 32 (past51), issue 24: the dated-change head (``core.extraction.dated_change``) read by the gate's
rescue (``gate_rescue.dated_changes``): a dated sentence told in the past tense that changes who the user is
or what they have is kept as a fact, a ``past`` drop of the rules only then; the day's news told with a date,
a date to come and a relative's change are not. Sentences written for this test."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from core.extraction import dated_change
from core.extraction.candidates import ExtractionInput
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import gate_rescue
from core.extraction.rules.extractor import RulesExtractor
from core.extraction.rules.gate_rescue import _dated, dated_changes
from core.extraction.rules.gate_units import NEVER, RESCUE_KEEP, Unit
from core.types import MemoryType


class _Head:
    def __init__(self, p: list[float]) -> None:
        self.p = p
        self.calls = 0

    def predict_proba(self, x: Any) -> np.ndarray:
        self.calls += 1
        return np.array(self.p[: len(x)])


def test_a_date_of_the_past_is_dated_and_a_date_to_come_is_not() -> None:
    assert _dated("sold the flat in 2021")
    assert _dated("三年前搬到了厦门")
    assert _dated("went vegan over the summer")
    assert not _dated("maybe do a marathon in april")
    assert not _dated("明年打算搬去成都")
    assert not _dated("i like cycling")


def test_the_head_lifts_a_change_and_keeps_a_past_drop_out_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    head = _Head([0.9, 0.2, 0.2])
    monkeypatch.setattr(dated_change, "shipped_dated_change", lambda: head)
    units = [Unit("sold the flat in 2021", 0, dated=True, past=True),
             Unit("quit the choir in may", 0, dated=True, past=True),
             Unit("went to a gig in june", 1, dated=True),
             Unit("my brother moved to oslo in 2020", 2, owner="brother", dated=True, past=True),
             Unit("i like cycling", 3)]
    out = dated_changes(units, np.zeros((5, 4), dtype=np.float32))
    assert out[0].change and out[0].threshold == dated_change.DATED_CHANGE_KEEP
    assert not out[1].change and out[1].threshold == NEVER  # a past drop the head does not lift stays out
    assert out[2] == units[2]  # any other dated unit is as it was
    assert out[3].threshold == NEVER  # a relative's is never read
    assert out[4] == units[4]
    assert head.calls == 1


def test_off_nothing_is_read_and_a_past_drop_stays_out(monkeypatch: pytest.MonkeyPatch) -> None:
    head = _Head([0.99])
    monkeypatch.setattr(dated_change, "shipped_dated_change", lambda: head)
    monkeypatch.setattr(dated_change, "DATED_CHANGE_ON", False)
    units = [Unit("sold the flat in 2021", 0, dated=True, past=True), Unit("went to a gig in june", 1)]
    out = dated_changes(units, np.zeros((2, 4), dtype=np.float32))
    assert out[0].threshold == NEVER and out[1].threshold == RESCUE_KEEP and head.calls == 0


def _stored(extractor: RulesExtractor, message: str) -> list[Any]:
    data = ExtractionInput(message)
    return extractor.refine(data, extractor.extract(data))


def test_through_the_extractor_on_and_off(monkeypatch: pytest.MonkeyPatch) -> None:
    extractor = RulesExtractor(classifier=MemoryClassifier())
    change = "Gave up cigarettes back in may, seven months now"
    news = "borrowed a mate's van on saturday to shift the sofa"
    on = _stored(extractor, change)
    assert any("cigarettes" in c.content and c.memory_type is MemoryType.FACT for c in on)
    assert _stored(extractor, news) == []
    monkeypatch.setattr(dated_change, "DATED_CHANGE_ON", False)
    assert not any("cigarettes" in c.content for c in _stored(RulesExtractor(classifier=MemoryClassifier()),
                                                                change))
    assert gate_rescue.DATED_CHANGE_AS_WRITTEN
