"""A running ``MemoryIndexer`` on a private Milvus collection, for tests driving the index path in process."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core.config import Settings
from core.embedding.base import Embedder
from core.indexing import MemoryIndexer
from core.storage.db import session_factory
from core.storage.models import VectorCollection
from core.vectorstore import MilvusMemoryIndex


@contextmanager
def running_indexer(settings: Settings, engine: Engine, collection: str,
                    embedder: Embedder) -> Iterator[tuple[Settings, MemoryIndexer]]:
    """Yield (settings naming ``collection``, a started indexer embedding with ``embedder``); on exit drop
    every collection the database registered and close the indexer."""
    cfg = settings.model_copy(update={"MEMORY_MILVUS_COLLECTION": collection})
    index = MilvusMemoryIndex.from_settings(cfg, dim=embedder.dim)
    indexer = MemoryIndexer(session_factory(engine), embedder, index)
    indexer.start()
    try:
        yield cfg, indexer
    finally:
        with Session(engine) as s:
            names = s.scalars(select(VectorCollection.name)).all()
        for name in names:
            index.drop_collection(name)
        indexer.close()
