"""Issue 24, precision, session 19 (``gslot35``): a goal candidate under a catalogue slot ("goal-travel",
found by intent words a plan of the day has too) goes when the precision model says drop from
``GATE_DROP_GOAL_SLOT`` (measured at 0.50, shipped off: the slot bar); other catalogue slots keep
``GATE_DROP_SLOT``, and the memory classifier's own reading keeps it for goals too. A stand-in precision
model says a p(drop) for the rules' candidate (0 for other texts). Sentences written for this test."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pytest

from core.extraction.candidates import CandidateOp, ContextMessage, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor, gate_verdicts
from core.extraction.rules import extractor as extractor_module
from core.extraction.rules.gate_verdicts import GATE_DROP_GOAL_SLOT, GATE_DROP_SLOT

ARM = 0.50  # the bar measured on the held-out split (shipped off: ``GATE_DROP_GOAL_SLOT`` is the slot bar)

TRIPS = ("my plan is to see the northern lights in Norway", "我打算带孩子们去葡萄牙自驾游")
TASTE = "I really love hiking in the mountains on weekends."
TURN = "Any plans coming up?"


def test_off_a_goal_slot_keeps_the_slot_bar(ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    """As shipped (off): the precision model's drop under the slot bar leaves the goal."""
    assert [c.key for c in _upserts(ex, (ARM + GATE_DROP_SLOT) / 2, TRIPS[0], monkeypatch)] == ["goal-travel"]


@dataclass
class _Says:
    """Stands in for the precision MLP: p(drop) ``drop`` for the text of ``target`` (a vector), else 0."""

    drop: float
    target: npt.NDArray[np.float32]
    context: bool = False

    def predict_proba(self, vectors: npt.NDArray[np.float32], prev: npt.NDArray[np.float32] | None = None
                      ) -> npt.NDArray[np.float64]:
        out = np.zeros((len(vectors), 6))
        out[:, 0] = np.where(np.isclose(vectors @ self.target, 1.0, atol=1e-4), self.drop, 0.0)
        out[:, 1] = 1.0 - out[:, 0]
        return out


def _upserts(ex: RulesExtractor, drop: float | None, message: str,
             monkeypatch: pytest.MonkeyPatch) -> list[MemoryCandidate]:
    """The upserts of ``message``, the precision model saying p(drop) ``drop`` for the text of the rules' own
    candidate (None: no precision model)."""
    assert ex.classifier is not None
    data = ExtractionInput(message, context=(ContextMessage("assistant", TURN),))
    monkeypatch.setattr(extractor_module, "_precision_model", lambda: None)
    alone = [c for c in RulesExtractor(ex.classifier).extract(data) if c.op is CandidateOp.UPSERT]
    if drop is None:
        return alone
    target = ex.classifier.embed([alone[0].content])[0]
    monkeypatch.setattr(extractor_module, "_precision_model", lambda: _Says(drop, target))
    return [c for c in RulesExtractor(ex.classifier).extract(data) if c.op is CandidateOp.UPSERT]


def test_the_bars_order() -> None:
    assert 0.5 <= GATE_DROP_GOAL_SLOT <= GATE_DROP_SLOT


def test_a_goal_slot_goes_on_the_precision_models_drop(ex: RulesExtractor,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_verdicts, "GATE_DROP_GOAL_SLOT", ARM)
    between = (ARM + GATE_DROP_SLOT) / 2
    for trip in TRIPS:
        kept = _upserts(ex, None, trip, monkeypatch)
        assert [c.key for c in kept] == ["goal-travel"]  # the rules' goal slot, kept by the classifier alone
        assert _upserts(ex, between, trip, monkeypatch) == []
        assert [c.key for c in _upserts(ex, 0.45, trip, monkeypatch)] == ["goal-travel"]  # no say under 0.5


def test_other_catalogue_slots_keep_the_slot_bar(ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_verdicts, "GATE_DROP_GOAL_SLOT", ARM)
    between = (ARM + GATE_DROP_SLOT) / 2
    for message in (TASTE, "I work as a pharmacist at a hospital in Leeds."):
        alone = _upserts(ex, None, message, monkeypatch)
        assert alone and all(not c.key.startswith("goal-") for c in alone)
        assert [c.key for c in _upserts(ex, between, message, monkeypatch)] == [c.key for c in alone]
