"""Helpers to drive real consumer loops in tests: unique topics, threads, waiting."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from confluent_kafka import Consumer

from consumers.runtime import ConsumerLoop
from core.config import Settings
from localstack.settle import private_names
from localstack.topics import ensure_topics, service_topics
from producers.kafka_config import client_config
from producers.kafka_retry import call_with_retry
from schemas import ChatMessageData


def isolated_settings(settings: Settings, unique_name: Callable[[str], str], **extra: Any) -> Settings:
    """Settings with private topics and groups (created on the broker) for one test."""
    update: dict[str, Any] = {
        **private_names(unique_name("t"), collection=False),
        "KAFKA_TOPIC_PARTITIONS": 3,
        "LONG_TERM_MEMORY_DEBOUNCE_SEC": 0.3,
    }
    update.update(extra)
    isolated = settings.model_copy(update=update)
    ensure_topics(isolated, service_topics(isolated))
    return isolated


@contextmanager
def running(loop: ConsumerLoop) -> Iterator[ConsumerLoop]:
    """Run ``loop`` in a thread for the duration of the block; stop, drain and join after."""
    errors: list[BaseException] = []

    def target() -> None:
        try:
            loop.run()
        except BaseException as exc:  # surfaced to the test below
            errors.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.stop()
        thread.join(60)
        if errors:
            raise errors[0]


def conversation(
    user_id: str, conversation_id: str, turns: list[tuple[str, str]], start: datetime | None = None
) -> list[ChatMessageData]:
    """Chat messages with stable ids ``{conversation_id}:{i}``, one second apart."""
    t0 = start or datetime.now(UTC) - timedelta(minutes=5)
    return [
        ChatMessageData(
            message_id=f"{conversation_id}:{i}",
            user_id=user_id,
            conversation_id=conversation_id,
            role=role,
            content=content,
            created_at=t0 + timedelta(seconds=i),
        )  # type: ignore[arg-type]
        for i, (role, content) in enumerate(turns)
    ]


def read_topic(settings: Settings, topic: str, expected: int, timeout: float = 20.0) -> list[Any]:
    """Read ``expected`` records from the start of ``topic`` (fresh group)."""
    import uuid

    consumer = Consumer(
        {
            **client_config(settings),
            "group.id": f"reader-{uuid.uuid4().hex[:8]}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    consumer.subscribe([topic])
    out: list[Any] = []
    deadline = time.monotonic() + timeout
    try:
        while len(out) < expected and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is not None and msg.error() is None:
                out.append(msg)
    finally:
        consumer.close()
    return out


def group_caught_up(settings: Settings, group: str, topic: str) -> bool:
    """True when ``group`` has committed every partition of ``topic`` up to its high watermark."""
    from confluent_kafka import TopicPartition

    consumer = Consumer({**client_config(settings), "group.id": group, "enable.auto.commit": False})
    try:
        meta = consumer.list_topics(topic, timeout=10)
        parts = [TopicPartition(topic, p) for p in meta.topics[topic].partitions]
        committed = {tp.partition: tp.offset
                     for tp in call_with_retry(lambda: consumer.committed(parts, timeout=10))}
        for tp in parts:
            _, high = consumer.get_watermark_offsets(tp, timeout=10)
            if high > 0 and committed.get(tp.partition, -1) < high:
                return False
        return True
    finally:
        consumer.close()
