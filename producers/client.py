"""``MemoryEventProducer``: the client library an upstream service uses to publish pai-memory events.

A thin typed wrapper over ``confluent_kafka.Producer``:

- idempotent producer with ``acks=all`` (see ``producers.kafka_config``); key = the user id, so one
  user's events stay ordered on one partition;
- events are validated models, serialised with ``schemas.to_bytes`` (CloudEvents structured mode,
  header ``content-type: application/cloudevents+json``);
- every publish returns a ``DeliveryFuture`` (a ``concurrent.futures.Future``) that resolves to
  ``DeliveryReport(topic, partition, offset)`` once the broker acknowledged the write, or fails
  with ``DeliveryError``. Kafka errors never raise from ``publish``; caller errors (not an event,
  closed producer, no topic for the event type) do;
- with ``OTEL_ENABLED`` every publish is a PRODUCER span (child of the caller's current span) whose
  W3C trace context goes in the ``traceparent``/``tracestate`` headers (``producers.tracing``); off,
  no span and no header;
- no network activity in the constructor: the Kafka client and its background poll thread are
  created by ``open()`` / ``__enter__`` / the first publish; ``close()`` flushes and stops them.

Usage::

    with MemoryEventProducer(settings, source="pai-chat") as producer:
        future = producer.publish_message(ChatMessageData(...))
        topic, partition, offset = future.result(timeout=10)
"""

from __future__ import annotations

import concurrent.futures
import logging
import threading
from collections.abc import Mapping
from datetime import datetime
from time import monotonic
from types import TracebackType
from typing import Any, NamedTuple, Self

from confluent_kafka import KafkaError, KafkaException, Message, Producer
from opentelemetry.trace import StatusCode

from core import tracing
from core.config import KafkaSettings, Settings, get_settings
from producers.kafka_config import producer_config
from producers.tracing import kafka_headers, setup_tracing
from schemas import (
    ChatMessageData,
    ChatMessageEvent,
    DeadLetterEvent,
    EventBase,
    MemoryAppendData,
    MemoryCommandEvent,
    MemoryDeleteData,
    MemoryDirtyEvent,
    MemorySaveData,
    event_key,
    make_event,
    to_bytes,
)

log = logging.getLogger(__name__)

CLOUDEVENTS_CONTENT_TYPE = b"application/cloudevents+json; charset=utf-8"


class ProducerError(Exception):
    """Base class of producer failures."""


class DeliveryError(ProducerError):
    """Kafka did not accept one event. ``code``/``name`` come from librdkafka when known."""

    def __init__(self, message: str, *, topic: str, key: bytes | None, code: int | None = None,
                 name: str | None = None, retriable: bool = False, fatal: bool = False) -> None:
        super().__init__(message)
        self.topic = topic
        self.key = key
        self.code = code
        self.name = name
        self.retriable = retriable
        self.fatal = fatal

    @classmethod
    def from_kafka(cls, err: KafkaError, topic: str, key: bytes | None) -> DeliveryError:
        return cls(f"delivery to {topic} failed: {err.name()}: {err.str()}", topic=topic, key=key,
                   code=err.code(), name=err.name(), retriable=bool(err.retriable()), fatal=bool(err.fatal()))


class FlushTimeout(ProducerError):
    """``flush``/``close`` returned with events still undelivered."""

    def __init__(self, pending: int, timeout: float) -> None:
        super().__init__(f"{pending} event(s) still undelivered after {timeout:g}s")
        self.pending = pending


class ProducerClosed(ProducerError):
    """``publish`` was called after ``close``."""


class DeliveryReport(NamedTuple):
    topic: str
    partition: int
    offset: int


class DeliveryFuture(concurrent.futures.Future[DeliveryReport]):
    """Resolves to ``DeliveryReport`` or fails with ``DeliveryError``. Cannot be cancelled."""

    def __init__(self, event_id: str) -> None:
        super().__init__()
        self.event_id = event_id
        self.set_running_or_notify_cancel()  # RUNNING: cancel() returns False


_COMMAND_DATA = (MemorySaveData, MemoryAppendData, MemoryDeleteData)


def default_topic(settings: KafkaSettings, event: EventBase) -> str:
    """The configured topic of an event type. Dead letters have none (``ValueError``): their topic
    depends on the consumer group (``settings.dlq_topic(group)``)."""
    if isinstance(event, ChatMessageEvent):
        return settings.TOPIC_CHAT_MESSAGES
    if isinstance(event, MemoryCommandEvent):
        return settings.TOPIC_MEMORY_COMMANDS
    if isinstance(event, MemoryDirtyEvent):
        return settings.TOPIC_MEMORY_DIRTY
    if isinstance(event, DeadLetterEvent):
        raise ValueError("dead-letter events need an explicit topic (settings.dlq_topic(group))")
    raise TypeError(f"not a pai-memory event: {type(event).__name__}")


class MemoryEventProducer:
    """Publishes pai-memory events to Kafka with delivery confirmation per event.

    Thread-safe: ``publish`` may be called from several threads. ``source`` is the CloudEvents
    ``source`` used when a bare payload is wrapped.
    """

    def __init__(self, settings: Settings | None = None, *, source: str = "pai-chat",
                 config: Mapping[str, Any] | None = None, poll_interval: float = 0.1,
                 queue_full_timeout: float = 30.0) -> None:
        self.settings = settings or get_settings()
        self.source = source
        self.config = producer_config(self.settings, config)
        self.poll_interval = poll_interval
        self.queue_full_timeout = queue_full_timeout
        self._producer: Producer | None = None
        self._poller: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._closed = False
        self._fatal: KafkaError | None = None

    # --- lifecycle ----------------------------------------------------------------------------
    def open(self) -> Self:
        """Create the Kafka client and start the delivery-report poll thread (idempotent)."""
        with self._lock:
            if self._closed:
                raise ProducerClosed("producer is closed")
            if self._producer is None:
                setup_tracing(self.settings, "client")
                conf = dict(self.config)
                conf["error_cb"] = self._on_error
                self._producer = Producer(conf)
                self._stop.clear()
                self._poller = threading.Thread(target=self._poll_loop, name="pai-producer-poll", daemon=True)
                self._poller.start()
        return self

    def __enter__(self) -> Self:
        return self.open()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        # On an exception in the block, don't mask it with a FlushTimeout.
        self.close(raise_on_pending=exc is None)

    def close(self, timeout: float = 30.0, *, raise_on_pending: bool = True) -> None:
        """Flush, stop the poll thread and release the client (idempotent).

        Events still undelivered after ``timeout`` are purged: their futures fail with
        ``DeliveryError`` (no future is left pending), and ``FlushTimeout`` is raised.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            producer = self._producer
        if producer is None:
            return
        try:
            remaining = producer.flush(timeout)
            if remaining:
                producer.purge()
        finally:
            self._stop.set()
            if self._poller is not None:
                self._poller.join(timeout=max(1.0, self.poll_interval * 10))
            producer.flush(1.0)  # serve the purged events' delivery reports
            # release the librdkafka client now: a closed wrapper that is still referenced must not
            # keep its broker connections (and reconnect attempts) alive until garbage collection
            self._producer = None
        if remaining and raise_on_pending:
            raise FlushTimeout(remaining, timeout)

    @property
    def closed(self) -> bool:
        return self._closed

    def __len__(self) -> int:
        """Events handed to the client and not yet acknowledged or failed."""
        return 0 if self._producer is None else len(self._producer)

    # --- publishing ---------------------------------------------------------------------------
    def default_topic(self, event: EventBase) -> str:
        """The configured topic of ``event``'s type (see ``default_topic``)."""
        return default_topic(self.settings, event)

    def publish(self, event: EventBase, topic: str | None = None) -> DeliveryFuture:
        """Hand ``event`` to Kafka (key = ``schemas.event_key(event)``); return its delivery future.

        Raises ``ProducerClosed``, ``TypeError``/``ValueError`` for caller errors and
        ``schemas.EventTooLarge`` for an oversized event; every Kafka-side failure is reported
        through the future as ``DeliveryError``.
        """
        if not isinstance(event, EventBase):
            raise TypeError(f"not a pai-memory event: {type(event).__name__}")
        target = topic or self.default_topic(event)
        value = to_bytes(event)
        key = event_key(event)
        future = DeliveryFuture(event.id)
        if self._closed:
            raise ProducerClosed("producer is closed")
        producer = self._producer or self.open()._producer
        assert producer is not None
        if self._fatal is not None:
            future.set_exception(DeliveryError.from_kafka(self._fatal, target, key))
            return future

        headers: list[tuple[str, str | bytes | None]] = [("content-type", CLOUDEVENTS_CONTENT_TYPE)]
        span = None
        if tracing.enabled():
            span = tracing.produce_span(f"{target} publish", attributes={
                "messaging.system": "kafka", "messaging.destination.name": target,
                "messaging.operation.type": "publish", "messaging.message.id": event.id})
            headers += kafka_headers(tracing.carrier_of(span))

        def on_delivery(err: KafkaError | None, msg: Message) -> None:
            if span is not None:  # ended before the future resolves: a caller's result() sees it finished
                if err is not None:
                    span.set_status(StatusCode.ERROR, f"{err.name()}: {err.str()}")
                span.end()
            if err is not None:
                future.set_exception(DeliveryError.from_kafka(err, target, key))
            else:
                future.set_result(DeliveryReport(msg.topic() or target, msg.partition() or 0,
                                                 msg.offset() or 0))

        deadline = monotonic() + self.queue_full_timeout
        while True:
            try:
                producer.produce(target, value=value, key=key, on_delivery=on_delivery, headers=headers)
                return future
            except BufferError:
                if monotonic() >= deadline:
                    future.set_exception(DeliveryError(
                        f"local producer queue still full after {self.queue_full_timeout:g}s",
                        topic=target, key=key, name="_QUEUE_FULL", retriable=True))
                    if span is not None:
                        span.end()
                    return future
                producer.poll(0.05)
            except KafkaException as exc:
                err = exc.args[0] if exc.args and isinstance(exc.args[0], KafkaError) else None
                if err is not None:
                    future.set_exception(DeliveryError.from_kafka(err, target, key))
                else:
                    future.set_exception(DeliveryError(f"produce to {target} failed: {exc}", topic=target,
                                                       key=key))
                if span is not None:
                    span.end()
                return future

    def publish_message(self, message: ChatMessageData | ChatMessageEvent, topic: str | None = None, *,
                        event_id: str | None = None, time: datetime | None = None) -> DeliveryFuture:
        """Publish a chat message (a bare payload is wrapped with ``make_event``)."""
        event = message if isinstance(message, ChatMessageEvent) else make_event(
            message, source=self.source, event_id=event_id, time=time)
        return self.publish(event, topic)

    def publish_command(self,
                        command: MemorySaveData | MemoryAppendData | MemoryDeleteData | MemoryCommandEvent,
                        topic: str | None = None, *, event_id: str | None = None,
                        time: datetime | None = None) -> DeliveryFuture:
        """Publish a memory command (``memory_save`` / ``memory_append`` / ``memory_delete``)."""
        if isinstance(command, MemoryCommandEvent):
            return self.publish(command, topic)
        if not isinstance(command, _COMMAND_DATA):
            raise TypeError(f"not a memory command: {type(command).__name__}")
        return self.publish(make_event(command, source=self.source, event_id=event_id, time=time), topic)

    def flush(self, timeout: float = 30.0) -> None:
        """Wait until every published event is acknowledged or failed; ``FlushTimeout`` otherwise.

        After a successful flush every future returned so far is done.
        """
        if self._producer is None:
            return
        remaining = self._producer.flush(timeout)
        if remaining:
            raise FlushTimeout(remaining, timeout)

    # --- internals ----------------------------------------------------------------------------
    def _poll_loop(self) -> None:
        while not self._stop.is_set():
            producer = self._producer
            if producer is None:
                return
            try:
                producer.poll(self.poll_interval)
            except Exception:  # a failing callback must not kill delivery reporting
                log.exception("producer poll failed")

    def _on_error(self, err: KafkaError) -> None:
        if err.fatal():
            self._fatal = err
            log.error("fatal Kafka producer error: %s", err)
        else:
            log.debug("Kafka producer error (librdkafka retries): %s", err)
