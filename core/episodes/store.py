"""Writing episodes: the passages of a burst's user messages, with their outbox rows, in the caller's
transaction (the extractor's commit that makes the messages final).

Contract of ``write_episodes``:
- one row per passage (``passages.cut_passages``) of every message that is not noise
  (``passages.is_episode_noise``); ``expires_at = sent_at + EPISODE_TTL_DAYS``;
- idempotent: a passage already stored (``UNIQUE(message_id, passage_index)``) is left as it is and
  announced no second time, so redelivery and replay write nothing twice;
- every new row gets one ``pai.episode.dirty.v1`` outbox row in the same statement (one round trip
  for the whole burst), ids drawn from the outbox sequence while the caller holds the user's advisory
  lock, as every other writer of the user's outbox rows does;
- ``known_vector(text)``: the passage vector the extractor already computed for exactly this text
  (the classifier/dedup cache), asked for the passage's ``index_text`` and stored as ``write_vector``
  with ``model`` so the indexer need not call the model again; ``None``: the indexer embeds it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np
from sqlalchemy import TextClause, text
from sqlalchemy.orm import Session

from core import tracing
from core.episodes.passages import cut_passages, index_text, is_episode_noise
from schemas.events import EpisodeDirtyData, EpisodeDirtyEvent

OUTBOX_SOURCE = "pai-memory/outbox"


@dataclass(frozen=True)
class SaidMessage:
    """A user message of the burst: its row id, its text and when it was sent."""

    message_pk: int
    content: str
    sent_at: datetime


@dataclass(frozen=True)
class EpisodeWrite:
    """What ``write_episodes`` did: new episode ids, passages whose vector came along, passages seen."""

    episode_ids: list[int]
    reused_vectors: int
    passages: int


_INSERT_CTES = """src AS (
    SELECT * FROM unnest(CAST(:message_ids AS integer[]), CAST(:indexes AS integer[]),
                         CAST(:contents AS text[]), CAST(:sent AS timestamptz[]),
                         CAST(:expires AS timestamptz[]), CAST(:vectors AS bytea[]),
                         CAST(:models AS text[]))
        AS s(message_id, passage_index, content, sent_at, expires_at, write_vector, write_vector_model)
), ins AS (
    INSERT INTO episodes (user_id, conversation_id, message_id, passage_index, content, sent_at, expires_at,
                          vector_status, write_vector, write_vector_model, created_at, updated_at)
    SELECT :user_pk, :conversation_pk, message_id, passage_index, content, sent_at, expires_at, 'DIRTY',
           write_vector, write_vector_model, :now, :now
    FROM src
    ON CONFLICT ON CONSTRAINT uq_episodes_message_passage DO NOTHING
    RETURNING id
), seq AS (
    SELECT id AS episode_id, nextval(pg_get_serial_sequence('outbox', 'id')) AS outbox_id
    FROM (SELECT id FROM ins ORDER BY id) AS ordered
)
INSERT INTO outbox (id, topic, message_key, event_type, aggregate_id, payload, created_at)
SELECT outbox_id, :topic, :message_key, :event_type, episode_id,
       jsonb_set(jsonb_set(jsonb_set(CAST(:payload AS jsonb), '{id}', to_jsonb('outbox-' || outbox_id)),
                           '{data,outbox_id}', to_jsonb(outbox_id)),
                 '{data,episode_id}', to_jsonb(episode_id)),
       :now
FROM seq
RETURNING aggregate_id
"""
_INSERT = text("WITH " + _INSERT_CTES)
_WITH_LEADING: dict[str, TextClause] = {}  # a leading statement's SQL -> the combined statement, built once


def _insert_after(leading: str | None) -> TextClause:
    """``_INSERT``, or ``_INSERT`` preceded by the data-modifying CTE ``lead_stmt AS (<leading>)``."""
    if leading is None:
        return _INSERT
    stmt = _WITH_LEADING.get(leading)
    if stmt is None:
        stmt = _WITH_LEADING[leading] = text(f"WITH lead_stmt AS ({leading}), {_INSERT_CTES}")
    return stmt


_ALONE: dict[str, TextClause] = {}


def _alone(leading: str) -> TextClause:
    """The leading statement by itself, built once."""
    stmt = _ALONE.get(leading)
    if stmt is None:
        stmt = _ALONE[leading] = text(leading)
    return stmt


def episode_dirty_payload(user_external_id: str, user_pk: int, now: datetime,
                          origin_at: datetime | None) -> str:
    """The JSON of a ``pai.episode.dirty.v1`` outbox payload whose ids (event id, ``outbox_id``,
    ``episode_id``) the INSERT replaces, with the write's trace context when traced."""
    event = EpisodeDirtyEvent(id="outbox-0", source=OUTBOX_SOURCE, time=now, subject=user_external_id,
                              data=EpisodeDirtyData(episode_id=1, user_id=user_external_id, user_pk=user_pk,
                                                    outbox_id=1, changed_at=now, origin_at=origin_at))
    return json.dumps({**event.model_dump(mode="json"), **tracing.carrier()}, ensure_ascii=False,
                      separators=(",", ":"))


def write_episodes(session: Session, *, user_pk: int, conversation_pk: int, user_external_id: str,
                   messages: Sequence[SaidMessage], topic: str, ttl_days: int, max_chars: int,
                   model: str | None = None,
                   known_vector: Callable[[str], np.ndarray | None] | None = None,
                   leading: tuple[str, dict[str, object]] | None = None) -> EpisodeWrite:
    """Store the passages of ``messages`` and their outbox rows (see the module docstring).

    ``leading``: the SQL and parameters of a data-modifying statement of the caller's (an UPDATE, say)
    run in the same round trip, as a CTE ahead of the insert (PostgreSQL runs a data-modifying CTE
    whether or not it is referenced); it runs alone when there is no passage to store. Its parameter
    names must not be those of this insert."""
    cols: dict[str, list[object]] = {k: [] for k in
                                     ("message_ids", "indexes", "contents", "sent", "expires", "vectors",
                                      "models")}
    reused = 0
    for msg in messages:
        if is_episode_noise(msg.content):
            continue
        for index, passage in enumerate(cut_passages(msg.content, max_chars)):
            vector = known_vector(index_text(passage)) if known_vector is not None and model else None
            cols["message_ids"].append(msg.message_pk)
            cols["indexes"].append(index)
            cols["contents"].append(passage.replace("\x00", ""))
            cols["sent"].append(msg.sent_at)
            cols["expires"].append(msg.sent_at + timedelta(days=ttl_days))
            cols["vectors"].append(None if vector is None else np.asarray(vector, dtype=np.float32).tobytes())
            cols["models"].append(None if vector is None else model)
            reused += vector is not None
    if not cols["message_ids"]:
        if leading is not None:
            session.connection().execute(_alone(leading[0]), leading[1])
        return EpisodeWrite([], 0, 0)
    now = datetime.now(UTC)
    origin = min(m.sent_at for m in messages)
    ids = session.connection().execute(_insert_after(leading[0] if leading else None), {
        **(leading[1] if leading else {}), **cols, "user_pk": user_pk, "conversation_pk": conversation_pk,
        "now": now, "topic": topic,
        "message_key": user_external_id, "event_type": EpisodeDirtyEvent.EVENT_TYPE,
        "payload": episode_dirty_payload(user_external_id, user_pk, now, origin),
    }).scalars().all()
    return EpisodeWrite(sorted(int(i) for i in ids), reused, len(cols["message_ids"]))


def _announcing(name: str, statement: str) -> TextClause:
    """``statement`` (a data-modifying CTE ``name`` returning episode ids) followed by one
    ``pai.episode.dirty.v1`` outbox row per id (outbox id, envelope id and episode id filled in SQL);
    returns the episode ids."""
    return text(f"""
WITH {name} AS (
    {statement}
), seq AS (
    SELECT id AS episode_id, nextval(pg_get_serial_sequence('outbox', 'id')) AS outbox_id
    FROM (SELECT id FROM {name} ORDER BY id) AS ordered
)
INSERT INTO outbox (id, topic, message_key, event_type, aggregate_id, payload, created_at)
SELECT outbox_id, :topic, :message_key, :event_type, episode_id,
       jsonb_set(jsonb_set(jsonb_set(CAST(:payload AS jsonb), '{{id}}', to_jsonb('outbox-' || outbox_id)),
                           '{{data,outbox_id}}', to_jsonb(outbox_id)),
                 '{{data,episode_id}}', to_jsonb(episode_id)),
       :now
FROM seq
RETURNING aggregate_id
""")


_EXPIRE = _announcing(
    "gone", "DELETE FROM episodes WHERE user_id = :user_pk AND expires_at <= :now RETURNING id")


def delete_expired(session: Session, *, user_pk: int, user_external_id: str, topic: str,
                   now: datetime) -> list[int]:
    """Delete the user's episodes whose ``expires_at`` <= ``now``, each with a ``pai.episode.dirty.v1``
    outbox row (the indexer then removes the vector of the missing row); returns their ids. The caller
    holds the user's advisory lock."""
    ids = session.connection().execute(_EXPIRE, {
        "user_pk": user_pk, "now": now, "topic": topic, "message_key": user_external_id,
        "event_type": EpisodeDirtyEvent.EVENT_TYPE,
        "payload": episode_dirty_payload(user_external_id, user_pk, now, None),
    }).scalars().all()
    return sorted(int(i) for i in ids)


_STUCK = text("""
SELECT e.id, e.user_id, u.external_id
FROM episodes e JOIN users u ON u.id = e.user_id
WHERE e.vector_status IN ('DIRTY', 'FAILED')
  AND e.updated_at < CASE WHEN e.vector_status = 'FAILED' THEN :failed_before ELSE :grace_before END
  AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.aggregate_id = e.id AND o.event_type = :event_type
                  AND (o.published_at IS NULL OR o.created_at >= :grace_before))
ORDER BY e.updated_at, e.id
LIMIT :limit
""")
_ANNOUNCE = _announcing(
    "touched", "UPDATE episodes SET updated_at = :now WHERE id = ANY(CAST(:ids AS integer[])) RETURNING id")


def redrive_episodes(session: Session, *, topic: str, grace_sec: float, failed_backoff_sec: float,
                     limit: int, now: datetime | None = None) -> list[int]:
    """Announce again (a ``pai.episode.dirty.v1`` outbox row each, ``updated_at`` set to now so the next
    scan waits another grace period) up to ``limit`` episodes left DIRTY (for ``grace_sec``) or FAILED
    (for ``failed_backoff_sec``) with no unpublished or recent announcement: what the indexer gave up on
    or never received. Returns their ids; in the caller's transaction."""
    now = now or datetime.now(UTC)
    rows = session.execute(_STUCK, {
        "grace_before": now - timedelta(seconds=grace_sec),
        "failed_before": now - timedelta(seconds=max(grace_sec, failed_backoff_sec)),
        "event_type": EpisodeDirtyEvent.EVENT_TYPE, "limit": limit}).all()
    by_user: dict[tuple[int, str], list[int]] = {}
    for episode_id, user_pk, external_id in rows:
        by_user.setdefault((int(user_pk), str(external_id)), []).append(int(episode_id))
    out: list[int] = []
    for (user_pk, external_id), ids in by_user.items():
        out.extend(announce(session, ids, user_pk=user_pk, user_external_id=external_id, topic=topic,
                            now=now))
    return sorted(out)


def announce(session: Session, ids: Sequence[int], *, user_pk: int, user_external_id: str, topic: str,
             now: datetime) -> list[int]:
    """One ``pai.episode.dirty.v1`` outbox row for each of the user's episodes ``ids`` (``updated_at``
    set to ``now``); returns the ids announced (those that still exist)."""
    return [int(i) for i in session.execute(_ANNOUNCE, {
        "ids": list(ids), "now": now, "topic": topic, "message_key": user_external_id,
        "event_type": EpisodeDirtyEvent.EVENT_TYPE,
        "payload": episode_dirty_payload(user_external_id, user_pk, now, None)}).scalars()]
