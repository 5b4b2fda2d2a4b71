"""The transactional outbox: a ``memory.dirty`` row written in the same transaction as the change.

The relay publishes rows in id order per user and marks them only on delivery confirmation; the
payload is the complete ``memory.dirty`` event (schemas.MemoryDirty), so the relay never has to
re-read or re-build anything. When tracing is on (``core.tracing``) the payload also holds the W3C
trace context of the write (``traceparent``/``tracestate``, the CloudEvents distributed-tracing
attribute names); the relay moves them from the value to Kafka headers (``producers.tracing``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlalchemy import text
from sqlalchemy.orm import Session

from core import tracing
from core.types import MemoryOperation
from schemas.events import MemoryDirtyData, MemoryDirtyEvent

OUTBOX_SOURCE = "pai-memory/outbox"


ENQUEUE_SQL = """
INSERT INTO outbox (id, topic, message_key, event_type, aggregate_id, payload, created_at)
SELECT s.id, :topic, :message_key, :event_type, :aggregate_id,
       jsonb_set(jsonb_set(CAST(:payload AS jsonb), '{id}', to_jsonb('outbox-' || s.id)),
                 '{data,outbox_id}', to_jsonb(s.id)),
       :created_at
FROM (SELECT nextval(pg_get_serial_sequence('outbox', 'id')) AS id) AS s
RETURNING id
"""
"""The outbox INSERT of ``enqueue_memory_dirty`` (parameters: ``memory_dirty_params``), for a caller
that sends it with other statements in one round trip."""
_ENQUEUE = text(ENQUEUE_SQL)


def memory_dirty_params(
    *,
    topic: str,
    user_external_id: str,
    user_pk: int,
    memory_id: int,
    memory_key: str,
    operation: MemoryOperation,
    origin_at: datetime | None = None,
) -> dict[str, object]:
    """The parameters of ``ENQUEUE_SQL`` for one ``memory.dirty`` row (see ``enqueue_memory_dirty``)."""
    now = datetime.now(UTC)
    event = MemoryDirtyEvent(
        id="outbox-0",  # both ids are replaced by the row's id in the INSERT
        source=OUTBOX_SOURCE,
        time=now,
        subject=user_external_id,
        data=MemoryDirtyData(
            memory_id=memory_id,
            user_id=user_external_id,
            user_pk=user_pk,
            memory_key=memory_key,
            operation=operation,
            outbox_id=1,
            changed_at=now,
            origin_at=origin_at,
        ),
    )
    # the W3C trace context of the write (when traced) goes along for the relay to continue
    payload = json.dumps({**event.model_dump(mode="json"), **tracing.carrier()}, ensure_ascii=False,
                         separators=(",", ":"))
    return {"topic": topic, "message_key": user_external_id, "event_type": event.type,
            "aggregate_id": memory_id, "payload": payload, "created_at": now}


def enqueue_memory_dirty(
    session: Session,
    *,
    topic: str,
    user_external_id: str,
    user_pk: int,
    memory_id: int,
    memory_key: str,
    operation: MemoryOperation,
    origin_at: datetime | None = None,
) -> int:
    """Add one unpublished ``memory.dirty`` row; returns its outbox id.

    The event id is derived from the outbox id (``outbox-<id>``, and ``data.outbox_id``), so a
    re-publish of the same row is recognisably the same event. One statement: the id is drawn from
    the sequence and written into the payload by the INSERT itself.
    """
    params = memory_dirty_params(topic=topic, user_external_id=user_external_id, user_pk=user_pk,
                                 memory_id=memory_id, memory_key=memory_key, operation=operation,
                                 origin_at=origin_at)
    return int(session.connection().execute(_ENQUEUE, params).scalar_one())
