"""Dead-lettering: a record that cannot be processed goes to the group's DLQ topic with the reason.

Contract: ``send`` returns only after the broker confirmed the dead letter (idempotent producer,
``acks=all``), so the caller may then mark the source record done and let its offset be committed.
A failure to dead-letter raises ``DeadLetterError`` and the source record must stay uncommitted.
"""

from __future__ import annotations

import threading
from typing import Any

from confluent_kafka import KafkaError, Producer

from consumers.runtime import Record
from core.config import Settings
from producers.kafka_config import client_config
from schemas import DeadLetterEvent, make_dead_letter

DLQ_SOURCE = "pai-memory/dlq"


class DeadLetterError(RuntimeError):
    """The dead letter could not be delivered."""


def dead_letter_event(
    record: Record, *, reason: str, error_type: str, group: str, attempts: int = 1
) -> DeadLetterEvent:
    """The DLQ envelope for ``record``: origin, reason and the original bytes (base64)."""
    return make_dead_letter(
        reason=reason,
        error_type=error_type,
        topic=record.topic,
        partition=record.partition,
        offset=record.offset,
        key=record.key,
        value=record.value,
        consumer_group=group,
        headers=record.headers,
        timestamp_ms=record.timestamp_ms,
        attempts=attempts,
        source=DLQ_SOURCE,
    )


class DeadLetterPublisher:
    """Publishes dead letters of one consumer group to its DLQ topic."""

    def __init__(self, settings: Settings, group: str, timeout_sec: float = 30.0) -> None:
        self.settings = settings
        self.group = group
        self.topic = settings.dlq_topic(group)
        self.timeout_sec = timeout_sec
        self._producer: Producer | None = None
        self._lock = threading.Lock()
        self.sent = 0

    def _get(self) -> Producer:
        if self._producer is None:
            conf: dict[str, Any] = client_config(self.settings)
            conf.update(
                {
                    "enable.idempotence": True,
                    "acks": "all",
                    "linger.ms": 0,
                    "message.max.bytes": 2 * 1024 * 1024,
                }
            )
            self._producer = Producer(conf)
        return self._producer

    def send(self, record: Record, *, reason: str, error_type: str, attempts: int = 1) -> None:
        event = dead_letter_event(
            record, reason=reason, error_type=error_type, group=self.group, attempts=attempts
        )
        errors: list[KafkaError] = []

        def _cb(err: KafkaError | None, msg: Any) -> None:
            if err is not None:
                errors.append(err)

        with self._lock:
            producer = self._get()
            producer.produce(
                self.topic, key=record.key, value=event.model_dump_json().encode("utf-8"), on_delivery=_cb
            )
            remaining = producer.flush(self.timeout_sec)
        if remaining or errors:
            raise DeadLetterError(f"dead letter to {self.topic} not confirmed: {errors or 'timeout'}")
        self.sent += 1

    def close(self) -> None:
        if self._producer is not None:
            self._producer.flush(self.timeout_sec)
            self._producer = None
