"""The transactional outbox: a ``memory.dirty`` row written in the same transaction as the change.

The relay publishes rows in id order per user and marks them only on delivery confirmation; the
payload is the complete ``memory.dirty`` event (schemas.MemoryDirty), so the relay never has to
re-read or re-build anything. When tracing is on (``core.tracing``) the payload also holds the W3C
trace context of the write (``traceparent``/``tracestate``, the CloudEvents distributed-tracing
attribute names); the relay moves them from the value to Kafka headers (``producers.tracing``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import insert, text
from sqlalchemy.orm import Session

from core import tracing
from core.storage.models import OutboxEvent
from core.types import MemoryOperation
from schemas.events import MemoryDirtyData, MemoryDirtyEvent

OUTBOX_SOURCE = "pai-memory/outbox"


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

    The event id is derived from the outbox id, so a re-publish of the same row is recognisably
    the same event.
    """
    outbox_id = int(
        session.execute(text("SELECT nextval(pg_get_serial_sequence('outbox', 'id'))")).scalar_one()
    )
    now = datetime.now(UTC)
    event = MemoryDirtyEvent(
        id=f"outbox-{outbox_id}",
        source=OUTBOX_SOURCE,
        time=now,
        subject=user_external_id,
        data=MemoryDirtyData(
            memory_id=memory_id,
            user_id=user_external_id,
            user_pk=user_pk,
            memory_key=memory_key,
            operation=operation,
            outbox_id=outbox_id,
            changed_at=now,
            origin_at=origin_at,
        ),
    )
    session.execute(
        insert(OutboxEvent).values(
            id=outbox_id,
            topic=topic,
            message_key=user_external_id,
            event_type=event.type,
            aggregate_id=memory_id,
            # the W3C trace context of the write (when traced) goes along for the relay to continue
            payload={**event.model_dump(mode="json"), **tracing.carrier()},
            created_at=now,
        )
    )
    return outbox_id
