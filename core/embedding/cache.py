"""Process-wide cache of passage vectors by (model, text hash): one model call per text.

The memory classifier embeds each candidate's content with e5's ``passage: `` prefix, and a memory's
embedded text is its content (``core.memory.text.embedding_text``), so the classifier's vector of a kept
candidate is also the one semantic dedup compares and the write carries to the index. Both read and
fill this cache, so the text reaches the model once per process (until evicted).

Invariants: a vector is stored under the model name that produced it and served only for that model
(another embedder never gets it); entries are read-only copies; the cache is bounded (least recently
used first out) and thread-safe.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from core.embedding.base import Vectors

DEFAULT_SIZE = 20000  # 384-dim float32: ~31 MB when full


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class PassageVectorCache:
    """LRU of passage vectors keyed by ``(model, sha256(text))``."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if size < 1:
            raise ValueError("size must be >= 1")
        self._size = size
        self._data: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    def get(self, model: str, text: str) -> np.ndarray | None:
        key = (model, _digest(text))
        with self._lock:
            vec = self._data.get(key)
            if vec is not None:
                self._data.move_to_end(key)
            return vec

    def put_many(self, model: str, texts: Sequence[str], vectors: Vectors) -> None:
        if len(texts) != len(vectors):
            raise ValueError(f"{len(texts)} texts but {len(vectors)} vectors")
        with self._lock:
            for text, vec in zip(texts, vectors, strict=True):
                row = np.array(vec, dtype=np.float32)
                row.setflags(write=False)
                key = (model, _digest(text))
                self._data[key] = row
                self._data.move_to_end(key)
            while len(self._data) > self._size:
                self._data.popitem(last=False)

    def vectors(self, model: str, dim: int, texts: Sequence[str],
                embed: Callable[[list[str]], Vectors]) -> tuple[Vectors, int]:
        """The vectors of ``texts`` in order, embedding only the distinct texts not cached (one ``embed``
        call, none when all are cached); returns them with the number of texts sent to ``embed``."""
        found: dict[str, np.ndarray] = {}
        for text in texts:
            if text not in found:
                vec = self.get(model, text)
                if vec is not None:
                    found[text] = vec
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            new = embed(missing)
            self.put_many(model, missing, new)
            found.update(zip(missing, (np.asarray(v, dtype=np.float32) for v in new), strict=True))
        if not texts:
            return np.zeros((0, dim), dtype=np.float32), 0
        return np.stack([found[t] for t in texts]).astype(np.float32), len(missing)


_SHARED = PassageVectorCache()


def shared_passage_cache() -> PassageVectorCache:
    """The process-wide cache the classifier and semantic dedup share."""
    return _SHARED
