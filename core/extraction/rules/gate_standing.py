"""The classifier gate's say for the standing-instruction model: a rule said with a question tag or in chat
words is rescued without a p(keep) of its own.

Contract: ``standing_rules(standing, units, predictions, vectors)`` returns ``units`` with the threshold of
each unit set to 0 where the unit was asked (``Unit.asked``: the rules dropped it as a question or a request,
or it is a consequence of the fact before it), is the user's, the classifier types it as a rule with
p(type | keep) >= ``gate_rescue.RESCUE_TYPE``, and the standing-instruction model calls it a standing rule
(``STANDING_RESCUE``, or the unit's own ``bar``: ``gate_rescue`` sets ``STANDING_ADDRESSED`` for a clause
it reads alone); every other unit is returned as it is. Without the model or units, ``units`` itself.
Pure.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import Prediction
from core.extraction.rules.gate_rescue import RESCUE_TYPE
from core.extraction.rules.gate_units import Unit
from core.extraction.standing_instruction import STANDING_RESCUE, StandingInstruction
from core.types import MemoryType


def standing_rules(standing: StandingInstruction | None, units: list[Unit], predictions: list[Prediction],
                   vectors: npt.NDArray[np.float32]) -> list[Unit]:
    """``units``, a unit the rules dropped as a question or a request, or a consequence of a fact
    (``Unit.asked``), that the classifier types as a rule (``RESCUE_TYPE``) and the standing-instruction
    model calls a standing rule (``STANDING_RESCUE``, calibrated on sentences that end like a question)
    needing no p(keep) of its own: a rule said with a question tag or in chat words ("no X in anything
    you suggest, ok?", "帮我…的时候pls先…"), which the classifier alone keeps too rarely."""
    if standing is None or not units:
        return units
    probs = standing.predict_proba(vectors)
    return [replace(u, threshold=0.0) if u.asked and u.owner is None
            and pred.memory_type is MemoryType.CONSTRAINT
            and pred.p_type(MemoryType.CONSTRAINT) >= RESCUE_TYPE
            and p >= (STANDING_RESCUE if u.bar is None else u.bar) else u
            for u, pred, p in zip(units, predictions, probs, strict=True)]
