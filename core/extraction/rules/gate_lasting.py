"""The classifier gate's say for the lasting-statement head: a lasting statement of the user's own life that
the memory classifier keeps, but under its rescue bar, is rescued (issue 24, session 22).

Contract: ``lasting_units(lasting, units, predictions, vectors)`` returns ``units`` with the threshold of
each unit lowered to its own p(keep) where the unit is ``eligible`` (the user's own, at the plain rescue bar
``RESCUE_KEEP``: not a clause the rules dropped as a request or a question, not a list item, no marker of
the day), the classifier (with the precision model's second opinion, as the gate reads it) keeps it from
``LASTING_FLOOR`` and under that bar, types it as a fact or a taste, and the head reads it as lasting at
``LASTING_KEEP`` or more (``core.extraction.lasting``); every other unit is returned as it is. Without the
head or units, or in a list-style message (a unit is a list item), ``units`` itself; a unit of a run the
classifier already rescues from (a unit of the run passes its own bar) is returned as it is. Pure.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import Prediction
from core.extraction.lasting import LASTING_FLOOR, LASTING_KEEP, Lasting
from core.extraction.rules.gate_units import RESCUE_KEEP, Unit
from core.types import MemoryType

# a project is not among them: the next turn's news of a project ("现在已经有三百人在用了") reads as a lasting
# project of its own and would replace the project it is news of (``progress.told_next`` files it)
_TYPES = (MemoryType.FACT, MemoryType.PREFERENCE)


def eligible(unit: Unit) -> bool:
    """A unit the head may read: the user's own, at the plain rescue bar, not asked, not a list item."""
    return unit.owner is None and unit.threshold == RESCUE_KEEP and not unit.asked and not unit.item


def lasting_units(lasting: Lasting | None, units: list[Unit], predictions: list[Prediction],
                  vectors: npt.NDArray[np.float32]) -> list[Unit]:
    """``units``, an ``eligible`` one the classifier keeps from ``LASTING_FLOOR`` and under its bar as a fact
    or a taste that the head reads as lasting (``LASTING_KEEP``) needing only the p(keep) it has:
    "been on a standing desk since spring", which the classifier alone keeps too rarely."""
    if lasting is None or not units or any(u.item for u in units):
        return units  # a list-style message: its items are the list fragment model's, its other units too
    # a run the classifier already rescues from (a unit of it passes its own bar) is left as the classifier
    # reads it: the head rescues what would be lost, it never reshapes a rescue (a clause preferred to its
    # run)
    rescued = {u.run for u, pred in zip(units, predictions, strict=True) if pred.p_keep >= u.threshold}
    band = [j for j, (u, pred) in enumerate(zip(units, predictions, strict=True))
            if eligible(u) and u.run not in rescued and LASTING_FLOOR <= pred.p_keep < u.threshold
            and pred.memory_type in _TYPES]
    if not band:
        return units
    probs = lasting.predict_proba(vectors[band])
    out = [*units]
    for j, p in zip(band, probs, strict=True):
        if p >= LASTING_KEEP:
            out[j] = replace(out[j], threshold=predictions[j].p_keep)
    return out
