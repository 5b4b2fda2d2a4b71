"""Reading episodes for retrieval: the vector search in their collection and the truth from PostgreSQL.

Contracts: every search is scoped to one user (``MilvusMemoryIndex.search``); ``load`` returns only
rows of that user, unexpired at ``now``, inside ``[since, until)`` when given, with the external id of
their conversation; ids the index returned that are gone are dropped. ``for_user`` lists a user's
episodes newest first (the console and the API's list door).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime

import numpy as np
import numpy.typing as npt
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from core.episodes.search import EpisodeView
from core.storage.models import Conversation, Episode
from core.vectorstore import MilvusMemoryIndex, VectorStoreError

SCAN_FACTOR = 8
"""Hits asked of Milvus per episode served (a time filter and one passage per message drop some)."""


def scan_size(limit: int) -> int:
    """Hits asked of Milvus for ``limit`` episodes served: ``limit x SCAN_FACTOR``, at most 400."""
    return max(1, min(limit * SCAN_FACTOR, 400))


class EpisodeSearch:
    """The episodes' collection as retrieval searches it. Until the indexer has created the collection
    a search finds nothing (checked again every ``recheck_sec``) instead of failing."""

    def __init__(self, index: MilvusMemoryIndex, recheck_sec: float = 30.0) -> None:
        self.index = index
        self.recheck_sec = recheck_sec
        self._absent_until = 0.0

    def search(self, user_pk: int, vector: npt.NDArray[np.float32], limit: int) -> list[tuple[int, float]]:
        """Top ``limit x SCAN_FACTOR`` (at most 400) ``(episode id, cosine)`` of this user."""
        if time.monotonic() < self._absent_until:
            return []
        if self._absent_until:
            if not self.index.has_collection():
                self._absent_until = time.monotonic() + self.recheck_sec
                return []
            self._absent_until = 0.0
        try:
            return self.index.search(user_pk, vector, scan_size(limit))
        except VectorStoreError:
            if self.index.has_collection():
                raise
            self._absent_until = time.monotonic() + self.recheck_sec
            return []

    def close(self) -> None:
        self.index.close()


def _views(session: Session, query: object) -> list[EpisodeView]:
    rows = session.execute(query).all()  # type: ignore[call-overload]
    return [EpisodeView(r.id, r.message_id, r.passage_index, r.content, r.sent_at, r.external_id)
            for r in rows]


def _base(user_pk: int, now: datetime, since: datetime | None, until: datetime | None):  # type: ignore[no-untyped-def]
    query = (select(Episode.id, Episode.message_id, Episode.passage_index, Episode.content, Episode.sent_at,
                    Conversation.external_id)
             .join(Conversation, Conversation.id == Episode.conversation_id)
             .where(Episode.user_id == user_pk, or_(Episode.expires_at.is_(None), Episode.expires_at > now)))
    if since is not None:
        query = query.where(Episode.sent_at >= since)
    if until is not None:
        query = query.where(Episode.sent_at < until)
    return query


def load(session: Session, user_pk: int, ids: Sequence[int], now: datetime, since: datetime | None = None,
         until: datetime | None = None) -> list[EpisodeView]:
    """The live episodes of ``user_pk`` among ``ids`` (see the module docstring)."""
    if not ids:
        return []
    return _views(session, _base(user_pk, now, since, until).where(Episode.id.in_(list(ids))))


def for_user(session: Session, user_pk: int, now: datetime, limit: int = 100, since: datetime | None = None,
             until: datetime | None = None) -> list[EpisodeView]:
    """The user's live episodes, newest first, at most ``limit``."""
    query = _base(user_pk, now, since, until).order_by(Episode.sent_at.desc(), Episode.id.desc()).limit(limit)
    return _views(session, query)
