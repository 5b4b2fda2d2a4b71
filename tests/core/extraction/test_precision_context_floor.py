"""The floor of a precision model that reads the turn (``gate_opinion.CONTEXT_FLOOR``): its p(drop)
counts only from that floor, even where the text's own floor is lower (a rescue's 0.0); a model without the
turn counts from the text's floor as before."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import MLPModel, Prediction
from core.extraction.rules.gate_opinion import CONTEXT_FLOOR, PRECISION_RESCUE, second_opinion


@dataclass
class _Fixed:
    """A precision model stand-in: the same p(drop) for every text."""

    context: bool
    p_drop: float

    def predict_proba(self, vectors: npt.NDArray[np.float32], prev: npt.NDArray[np.float32] | None = None
                      ) -> npt.NDArray[np.float64]:
        out = np.zeros((len(vectors), 6))
        out[:, 0], out[:, 1] = self.p_drop, 1.0 - self.p_drop
        return out


def _read(context: bool, p_drop: float, floor: float) -> Prediction:
    first = [Prediction((0.01, 0.95, 0.01, 0.01, 0.01, 0.01))]
    vectors = np.zeros((1, 4), dtype=np.float32)
    turn = np.zeros((1, 4), dtype=np.float32) if context else None
    return second_opinion(cast(MLPModel, _Fixed(context, p_drop)), vectors, first, [floor], turn)[0]


def test_a_model_that_reads_the_turn_counts_only_from_its_floor() -> None:
    assert PRECISION_RESCUE < CONTEXT_FLOOR < 0.5
    below = CONTEXT_FLOOR - 0.2
    assert _read(True, below, PRECISION_RESCUE).probs[0] == 0.01  # the classifier's reading stands
    assert _read(True, CONTEXT_FLOOR + 0.05, PRECISION_RESCUE).probs[0] == round(CONTEXT_FLOOR + 0.05, 6)
    assert _read(True, 0.45, 0.5).probs[0] == 0.01  # a higher floor of the text still holds


def test_a_model_without_the_turn_counts_from_the_texts_floor() -> None:
    below = CONTEXT_FLOOR - 0.2
    assert _read(False, below, PRECISION_RESCUE).probs[0] == round(below, 6)
