"""Kafka side of the outbox relay: produce a batch of outbox rows and report each row's delivery.

``KafkaBatchPublisher.publish(rows)`` produces every row (key = ``row.message_key``, value = the
compact UTF-8 JSON of ``row.payload``, headers ``pai-outbox-id`` and the CloudEvents content type; a
stored trace context moves from the payload to headers, ``producers.tracing``) on
an idempotent ``acks=all`` producer (``producers.kafka_config``), flushes, and returns per outbox id
``None`` (the broker confirmed it) or the error. A row not confirmed within ``flush_timeout`` is
reported as failed and purged from the local queue, so it is never counted as delivered.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from confluent_kafka import KafkaError, KafkaException, Producer
from opentelemetry.trace import Span

from core.config import KafkaSettings
from producers.kafka_config import producer_config
from producers.tracing import end_publish_spans, outbox_publish

log = logging.getLogger(__name__)

OUTBOX_ID_HEADER = "pai-outbox-id"
CONTENT_TYPE = b"application/cloudevents+json; charset=utf-8"

RELAY_PRODUCER_DEFAULTS: dict[str, Any] = {
    "client.id": "pai-memory-outbox-relay",
    "message.timeout.ms": 30_000,  # bounds how long a batch (and its transaction) waits for Kafka
}


@dataclass(frozen=True)
class OutboxRow:
    id: int
    topic: str
    message_key: str
    payload: dict[str, Any]


def encode_payload(payload: dict[str, Any]) -> bytes:
    """The Kafka value of an outbox row: compact UTF-8 JSON of its payload."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class KafkaBatchPublisher:
    """Publishes batches of outbox rows; recreates its producer after a fatal producer error."""

    def __init__(self, settings: KafkaSettings, *, producer_overrides: dict[str, Any] | None = None,
                 flush_timeout: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.producer_conf = producer_config(settings,
                                             {**RELAY_PRODUCER_DEFAULTS, **(producer_overrides or {})})
        self.flush_timeout = (
            flush_timeout if flush_timeout is not None
            else float(self.producer_conf["message.timeout.ms"]) / 1000 + 5
        )
        self.clock = clock
        self._producer: Producer | None = None
        self._fatal: KafkaError | None = None

    def open(self) -> None:
        """Create the producer now (it connects in the background)."""
        self._producer_or_new()

    def publish(self, rows: Sequence[OutboxRow]) -> dict[int, str | None]:
        """Produce every row and flush; outbox id -> None (delivered) or the error."""
        producer = self._producer_or_new()
        outcome: dict[int, str | None] = {}

        def reporter(oid: int) -> Callable[[KafkaError | None, Any], None]:
            def on_delivery(err: KafkaError | None, _msg: Any) -> None:
                outcome[oid] = None if err is None else f"{err.name()}: {err.str()}"

            return on_delivery

        spans: dict[int, Span | None] = {}
        for row in rows:
            # the row's trace context (if any) leaves the value and continues in a span and headers
            payload, trace_headers, spans[row.id] = outbox_publish(row.payload, row.topic)
            try:
                value = encode_payload(payload)
            except (TypeError, ValueError) as exc:
                outcome[row.id] = f"payload not serialisable: {exc}"
                continue
            headers: list[tuple[str, str | bytes | None]] = [
                (OUTBOX_ID_HEADER, str(row.id).encode()),
                ("content-type", CONTENT_TYPE),
                *trace_headers,
            ]
            deadline = self.clock() + self.flush_timeout
            while True:
                try:
                    producer.produce(
                        row.topic,
                        value=value,
                        key=row.message_key.encode("utf-8"),
                        headers=headers,
                        on_delivery=reporter(row.id),
                    )
                    break
                except BufferError:  # local queue full: serve delivery reports, then retry
                    if self.clock() >= deadline:
                        outcome[row.id] = "local producer queue full"
                        break
                    producer.poll(0.05)
                except KafkaException as exc:
                    outcome[row.id] = f"produce failed: {exc}"
                    break
        remaining = producer.flush(self.flush_timeout)
        if remaining:
            producer.purge(in_queue=True, in_flight=False)
            producer.poll(0)
        for row in rows:
            outcome.setdefault(row.id, f"delivery not confirmed within {self.flush_timeout:g}s")
        end_publish_spans(spans, outcome)
        return outcome

    def close(self, timeout: float = 10.0) -> None:
        """Flush what is in flight and release the producer."""
        if self._producer is not None:
            self._producer.flush(timeout)
            self._producer = None

    def _producer_or_new(self) -> Producer:
        if self._fatal is not None and self._producer is not None:
            log.error("recreating the relay producer after a fatal error: %s", self._fatal)
            self._producer.purge()
            self._producer = None
            self._fatal = None
        if self._producer is None:
            conf = dict(self.producer_conf)
            conf["error_cb"] = self._on_error
            self._producer = Producer(conf)
        return self._producer

    def _on_error(self, err: KafkaError) -> None:
        if err.fatal():
            self._fatal = err
        log.debug("Kafka producer error: %s", err)
