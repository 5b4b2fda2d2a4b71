"""The embedding port shared by semantic dedup, the indexer and retrieval."""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


class EmbeddingError(RuntimeError):
    """The embedder could not produce vectors (endpoint down, timeout, bad reply)."""


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension.

    ``embed_passages`` is for stored memory texts, ``embed_queries`` for search queries (e5-style
    models embed them with different prefixes). Both return shape ``(len(texts), dim)`` and raise
    ``EmbeddingError`` on failure; an empty input returns shape ``(0, dim)``.
    """

    model: str
    dim: int

    def embed_passages(self, texts: list[str]) -> Vectors: ...

    def embed_queries(self, texts: list[str]) -> Vectors: ...
