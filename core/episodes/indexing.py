"""Index side of the episodes: bring the episodes' Milvus collection in line with PostgreSQL.

``EpisodeIndexer.sync(episode_ids)`` is what the indexer consumer does for ``pai.episode.dirty.v1``:

1. read the rows of those ids (the event only says *that* an episode changed);
2. an id missing from PostgreSQL (erased, expired and deleted) is deleted from Milvus; a row past its
   ``expires_at`` is deleted from Milvus and marked ``SYNCED`` with ``vector_text_hash`` NULL; a row
   already ``SYNCED`` for this text and model is skipped; the others are embedded (``passage:``, their
   ``passages.index_text``),
   except those carrying the extractor's vector of exactly this text and model (``write_vector``),
   and upserted;
3. mark them in one transaction: ``SYNCED`` (``vector_model``, ``vector_text_hash``, ``write_vector``
   cleared) or ``FAILED`` with ``vector_error``.

An episode's text never changes, so there is no optimistic version check: a late or duplicate event
re-reads the same text. Failures of the embedder or Milvus mark the rows ``FAILED`` and raise
``core.indexing.IndexSyncFailed`` (the consumer retries the ids); a collection of another dimension
raises ``IndexModelMismatch``. Not thread-safe (one instance per consumer).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np
from sqlalchemy import select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from core.config import Settings
from core.embedding.base import Embedder, EmbeddingError
from core.episodes.passages import index_text
from core.storage.db import transaction
from core.storage.models import Episode
from core.types import VectorStatus
from core.vectorstore import IndexModelMismatch, IndexRow, MilvusMemoryIndex, VectorStoreError

log = logging.getLogger(__name__)

EPISODE_TYPE = "episode"
"""The ``memory_type`` field of every entity in the episodes' collection."""


class EpisodeSyncFailed(RuntimeError):
    """An episode sync did not complete (``stage``: embed, milvus or database); retry the ids."""

    def __init__(self, stage: str, episode_ids: list[int], failed_ids: list[int], message: str) -> None:
        super().__init__(f"indexing {len(episode_ids)} episodes failed at {stage}: {message}")
        self.stage = stage
        self.episode_ids = episode_ids
        self.failed_ids = failed_ids


def passage_hash(text: str) -> str:
    """SHA-256 hex of a passage (``vector_text_hash``)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class EpisodeSyncReport:
    """What one ``sync`` did, by episode id."""

    requested: int = 0
    upserted: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    deleted: list[int] = field(default_factory=list)  # expired: removed from Milvus
    erased: list[int] = field(default_factory=list)  # not in PostgreSQL: removed from Milvus
    embedded_texts: int = 0
    reused_vectors: int = 0
    embed_sec: float = 0.0
    milvus_sec: float = 0.0


class EpisodeIndexer:
    """Synchronises episode ids from PostgreSQL into the episodes' Milvus collection."""

    def __init__(self, sessions: sessionmaker[Session], embedder: Embedder, index: MilvusMemoryIndex, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.sessions = sessions
        self.embedder = embedder
        self.index = index
        self.clock = clock
        self._started = False

    def start(self) -> None:
        """Create the collection if absent; ``IndexModelMismatch`` if it holds another dimension."""
        if self.index.dim != self.embedder.dim:
            raise IndexModelMismatch(f"episode index has dimension {self.index.dim}, the embedder "
                                     f"{self.embedder.model!r} produces {self.embedder.dim}")
        self.index.ensure_collection()
        buckets = self.index.layout(refresh=True)
        if self.index.user_partitions and buckets != self.index.user_partitions:
            log.warning("the episodes' collection %s has %s user buckets, EPISODE_MILVUS_USER_PARTITIONS "
                        "says %d: searches scan %s; `pai-memory reindex` rebuilds it", self.index.collection,
                        buckets or "no", self.index.user_partitions,
                        "the whole collection" if not buckets else "its own buckets")
        self._started = True

    def sync(self, episode_ids: Iterable[int]) -> EpisodeSyncReport:
        """Make the index and the ``vector_*`` columns of ``episode_ids`` reflect the truth (idempotent)."""
        ids = sorted({int(i) for i in episode_ids if int(i) >= 1})
        report = EpisodeSyncReport(requested=len(ids))
        if not ids:
            return report
        try:
            if not self._started:
                self.start()
            with self.sessions() as session:
                rows = session.execute(select(
                    Episode.id, Episode.user_id, Episode.content, Episode.expires_at, Episode.vector_status,
                    Episode.vector_model, Episode.vector_text_hash, Episode.write_vector,
                    Episode.write_vector_model).where(Episode.id.in_(ids))).all()
        except DBAPIError as exc:
            raise EpisodeSyncFailed("database", ids, [], str(exc).splitlines()[0]) from exc
        except IndexModelMismatch:
            raise
        except VectorStoreError as exc:
            raise EpisodeSyncFailed("milvus", ids, [], str(exc)) from exc
        now = self.clock()
        found = {r.id for r in rows}
        report.erased = [i for i in ids if i not in found]
        expired = [r for r in rows if r.expires_at is not None and r.expires_at <= now]
        live = [r for r in rows if not (r.expires_at is not None and r.expires_at <= now)]
        model, size = self.embedder.model, self.embedder.dim * 4
        todo = []
        for r in live:
            digest = passage_hash(index_text(r.content))
            if (r.vector_status == VectorStatus.SYNCED and r.vector_model == model
                    and r.vector_text_hash == digest):
                report.skipped.append(r.id)
            else:
                todo.append((r, digest))
        vectors: dict[int, np.ndarray] = {}
        to_embed = []
        for r, _ in todo:
            if r.write_vector is not None and r.write_vector_model == model and len(r.write_vector) == size:
                vectors[r.id] = np.frombuffer(r.write_vector, dtype=np.float32)
                report.reused_vectors += 1
            else:
                to_embed.append(r)
        failure: tuple[str, Exception] | None = None
        if to_embed:
            t0 = time.perf_counter()
            try:
                embedded = np.asarray(self.embedder.embed_passages([index_text(r.content) for r in to_embed]),
                                      dtype=np.float32)
                if embedded.shape != (len(to_embed), self.embedder.dim):
                    raise EmbeddingError(f"embedder returned shape {embedded.shape}")
                vectors.update({r.id: embedded[i] for i, r in enumerate(to_embed)})
                report.embedded_texts += len(to_embed)
            except EmbeddingError as exc:
                failure = ("embed", exc)
            report.embed_sec += time.perf_counter() - t0
        t0 = time.perf_counter()
        written = [(r, d) for r, d in todo if r.id in vectors]
        if failure is None:
            try:
                self.index.upsert([IndexRow(r.id, r.user_id, EPISODE_TYPE, vectors[r.id])
                                   for r, _ in written])
                gone = report.erased + [r.id for r in expired]
                if gone:
                    self.index.delete(gone)
            except VectorStoreError as exc:
                failure = ("milvus", exc)
        report.milvus_sec += time.perf_counter() - t0
        try:
            with transaction(self.sessions) as session:
                if failure is not None:
                    failed = [r.id for r, _ in todo] + [r.id for r in expired]
                    if failed:
                        session.execute(update(Episode).where(Episode.id.in_(failed)).values(
                            vector_status=VectorStatus.FAILED.value, vector_text_hash=None,
                            vector_error=f"{failure[0]}: {type(failure[1]).__name__}: {failure[1]}"[:1000]))
                else:
                    for r, digest in written:
                        session.execute(update(Episode).where(Episode.id == r.id).values(
                            vector_status=VectorStatus.SYNCED.value, vector_synced_at=now, vector_model=model,
                            vector_text_hash=digest, vector_error=None, write_vector=None,
                            write_vector_model=None))
                    if expired:
                        session.execute(update(Episode).where(Episode.id.in_([r.id for r in expired])).values(
                            vector_status=VectorStatus.SYNCED.value, vector_synced_at=now,
                            vector_text_hash=None, vector_error=None, write_vector=None,
                            write_vector_model=None))
        except DBAPIError as exc:
            raise EpisodeSyncFailed("database", ids, [], str(exc).splitlines()[0]) from exc
        if failure is not None:
            stage, cause = failure
            raise EpisodeSyncFailed(stage, ids, [r.id for r, _ in todo], str(cause)) from cause
        report.upserted = [r.id for r, _ in written]
        report.deleted = [r.id for r in expired]
        return report

    def close(self) -> None:
        self.index.close()


def build_episode_indexer(settings: Settings, sessions: sessionmaker[Session],
                          embedder: Embedder) -> EpisodeIndexer:
    """An ``EpisodeIndexer`` on ``settings.episode_collection`` (no network until ``start``/``sync``)."""
    view = MilvusMemoryIndex.from_settings(settings, collection=settings.episode_collection, dim=embedder.dim)
    view.user_partitions = settings.EPISODE_MILVUS_USER_PARTITIONS
    return EpisodeIndexer(sessions, embedder, view)
