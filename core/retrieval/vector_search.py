"""The vector-search port of retrieval and its Milvus adapter over the active collection."""

from __future__ import annotations

import math
import threading
import time
from typing import Protocol

import numpy as np
import numpy.typing as npt
from sqlalchemy.orm import Session, sessionmaker

from core.vectorstore import MilvusMemoryIndex, VectorStoreError, active_collection, check_collection_matches


class VectorSearch(Protocol):
    """The vector-search port of retrieval: top ``limit`` ``(memory_id, cosine)`` of ONE user.

    ``user_id`` is the internal (INT64) user id and must scope the search; implementations raise
    ``VectorStoreError`` (or ``VectorStoreUnavailable``) when they cannot answer.
    """

    def search(self, user_id: int, vector: npt.NDArray[np.float32],
               limit: int) -> list[tuple[int, float]]: ...


class NoActiveCollection(VectorStoreError):
    """No vector collection is registered yet (nothing has been indexed)."""


class ActiveCollectionSearch:
    """``VectorSearch`` over the collection the registry marks active (``vector_collections``).

    The active collection is looked up in PostgreSQL at most every ``refresh_sec`` seconds, so a
    reindex switch is picked up without a restart; a collection built for another model or
    dimension than the configured embedder raises ``IndexModelMismatch`` instead of mixing spaces.
    """

    def __init__(self, index: MilvusMemoryIndex, sessions: sessionmaker[Session], model: str, dim: int,
                 refresh_sec: float = 10.0) -> None:
        self.index = index
        self._sessions = sessions
        self._model = model
        self._dim = dim
        self._refresh_sec = refresh_sec
        self._lock = threading.Lock()
        self._view: MilvusMemoryIndex | None = None
        self._checked_at = -math.inf

    def search(self, user_id: int, vector: npt.NDArray[np.float32], limit: int) -> list[tuple[int, float]]:
        return self._active_view().search(user_id, vector, limit)

    def _active_view(self) -> MilvusMemoryIndex:
        with self._lock:
            now = time.monotonic()
            if self._view is not None and now - self._checked_at < self._refresh_sec:
                return self._view
        with self._sessions() as session:
            row = active_collection(session)
            if row is None:
                raise NoActiveCollection("no active vector collection is registered (nothing indexed yet)")
            check_collection_matches(row, self._model, self._dim)
            name = row.name
        view = self.index if name == self.index.collection else self.index.for_collection(name, self._dim)
        with self._lock:
            self._view, self._checked_at = view, time.monotonic()
        return view

    def close(self) -> None:
        self.index.close()
