"""Query vectors of the dense path: a bounded LRU, and one in-flight embedding per identical query.

Identical concurrent queries share one model call (single flight); a failed call is shared only by
the queries already waiting for it, never cached.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future

import numpy as np
import numpy.typing as npt

from core import metrics
from core.embedding.base import Embedder

QUERY_CACHE_SIZE = 1024


class QueryVectors:
    """Query vectors cached by model and query text. Thread-safe."""

    def __init__(self, size: int = QUERY_CACHE_SIZE) -> None:
        self._size = size
        self._lock = threading.Lock()
        self.cached: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self.in_flight: dict[str, Future[npt.NDArray[np.float32]]] = {}  # by cache key

    def vector(self, embedder: Embedder, query: str) -> npt.NDArray[np.float32]:
        """The query's vector: from the LRU, from an identical query's in-flight embedding, or a
        new model call whose result the identical queries arriving meanwhile share.

        A wait for another query's call is unbounded here: the caller's time budget bounds it."""
        cache_key = f"{embedder.model}\x00{query}"
        with self._lock:
            cached = self.cached.get(cache_key)
            if cached is not None:
                self.cached.move_to_end(cache_key)
                return cached
            pending = self.in_flight.get(cache_key)
            if pending is None:
                mine: Future[npt.NDArray[np.float32]] = Future()
                self.in_flight[cache_key] = mine
        if pending is not None:
            metrics.RETRIEVAL_EMBED_COALESCED.inc()
            return pending.result()
        try:
            vector = np.asarray(embedder.embed_queries([query])[0], dtype=np.float32)
        except BaseException as exc:
            with self._lock:
                del self.in_flight[cache_key]
            mine.set_exception(exc)
            raise
        with self._lock:
            del self.in_flight[cache_key]
            self.cached[cache_key] = vector
            while len(self.cached) > self._size:
                self.cached.popitem(last=False)
        mine.set_result(vector)
        return vector
