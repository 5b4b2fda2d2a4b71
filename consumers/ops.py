"""Operator reads and actions on the Kafka side: consumer lag per group, dead letters, re-drive.

One implementation for every door (``pai-memory dlq``, the operator console):

- ``consumer_lag``: per consumer group of the service, the records of its source topic not yet
  committed (high watermark minus the committed offset, or minus the low watermark when the group
  has committed nothing on a partition). Reading committed offsets does not join the group.
- ``read_dead_letters``: the newest dead letters of a group's DLQ topic (``<group>.dlq``), read with
  ``assign`` (no group membership, no commit), each with its DLQ partition and offset.
- ``redrive_dead_letter``: re-publish the original record of one dead letter (its key, value and
  headers, plus a ``pai-redriven-from`` header naming the dead letter) to its source topic, which
  must be the group's own source topic; the idempotent producer (``acks=all``) returns only after
  the broker confirmed it. A dead letter whose value was truncated, or that is not a valid
  ``pai.dlq.v1`` envelope, is refused (``RedriveRefused``) and nothing is published. Every consumer
  of the service is idempotent (message ids, command ids, memory versions), so a record re-driven
  twice is applied once.
"""

from __future__ import annotations

import base64
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from confluent_kafka import OFFSET_INVALID, Consumer, KafkaError, KafkaException, Producer, TopicPartition

from core.config import Settings
from producers.kafka_config import client_config
from producers.kafka_retry import call_with_retry
from schemas import DeadLetterEvent
from schemas.codec import parse_dead_letter
from schemas.errors import SchemaError

REDRIVE_HEADER = "pai-redriven-from"
DEFAULT_TIMEOUT_SEC = 10.0


class OpsError(RuntimeError):
    """The Kafka side could not answer (unknown group or topic, broker unavailable, timeout)."""


class RedriveRefused(ValueError):
    """This dead letter cannot be re-driven; the message says why. Nothing was published."""


def group_topics(settings: Settings) -> dict[str, str]:
    """The service's consumer groups and the source topic each consumes."""
    return {settings.GROUP_EXTRACTOR: settings.TOPIC_CHAT_MESSAGES,
            settings.GROUP_COMMANDS: settings.TOPIC_MEMORY_COMMANDS,
            settings.GROUP_INDEXER: settings.TOPIC_MEMORY_DIRTY}


def _source_topic(settings: Settings, group: str) -> str:
    topics = group_topics(settings)
    if group not in topics:
        raise RedriveRefused(f"unknown consumer group {group!r}; one of {', '.join(sorted(topics))}")
    return topics[group]


def _consumer(settings: Settings, group: str | None = None) -> Consumer:
    conf: dict[str, Any] = client_config(settings)
    conf.update({"group.id": group or f"pai-memory-ops-{uuid.uuid4().hex[:12]}", "enable.auto.commit": False,
                 "enable.partition.eof": True, "auto.offset.reset": "earliest"})
    return Consumer(conf)


def _partitions(consumer: Consumer, topic: str, timeout: float) -> list[int]:
    meta = consumer.list_topics(topic, timeout=timeout)
    info = meta.topics.get(topic)
    if info is None or info.error is not None:
        raise OpsError(f"topic {topic!r} does not exist or cannot be described")
    return sorted(info.partitions)


@dataclass(frozen=True)
class PartitionLag:
    partition: int
    committed: int | None  # None: the group committed nothing on this partition
    low: int
    high: int

    @property
    def lag(self) -> int:
        return self.high - (self.committed if self.committed is not None else self.low)


@dataclass(frozen=True)
class GroupLag:
    group: str
    topic: str
    partitions: list[PartitionLag]
    error: str | None = None

    @property
    def lag(self) -> int:
        return sum(p.lag for p in self.partitions)


def _committed(probe: Consumer, parts: list[TopicPartition], timeout: float) -> dict[int, int]:
    done = call_with_retry(lambda: probe.committed(parts, timeout=timeout), deadline_s=timeout)
    return {tp.partition: tp.offset for tp in done}


def consumer_lag(settings: Settings, timeout: float = DEFAULT_TIMEOUT_SEC) -> list[GroupLag]:
    """Lag of every consumer group of the service (an unreachable group reports its error instead)."""
    out: list[GroupLag] = []
    for group, topic in group_topics(settings).items():
        probe = _consumer(settings, group)
        try:
            parts = [TopicPartition(topic, p) for p in _partitions(probe, topic, timeout)]
            committed = _committed(probe, parts, timeout)
            rows = []
            for tp in parts:
                low, high = probe.get_watermark_offsets(tp, timeout=timeout)
                done = committed.get(tp.partition, OFFSET_INVALID)
                rows.append(PartitionLag(tp.partition, done if done >= 0 else None, int(low), int(high)))
            out.append(GroupLag(group, topic, rows))
        except (KafkaException, OpsError) as exc:
            out.append(GroupLag(group, topic, [], _describe(exc)))
        finally:
            probe.close()
    return out


@dataclass(frozen=True)
class DeadLetter:
    """One record of a DLQ topic: where it is, and its envelope (or why it is not a valid one)."""

    topic: str
    partition: int
    offset: int
    timestamp: datetime | None
    event: DeadLetterEvent | None
    invalid_reason: str | None = None

    @property
    def redrivable(self) -> bool:
        return self.event is not None and not self.event.data.value_truncated


def _dead_letter(msg: Any) -> DeadLetter:
    kind, ts = msg.timestamp()
    when = datetime.fromtimestamp(ts / 1000, UTC) if kind and ts and ts > 0 else None
    try:
        return DeadLetter(msg.topic(), msg.partition(), msg.offset(), when, parse_dead_letter(msg.value()))
    except SchemaError as exc:
        return DeadLetter(msg.topic(), msg.partition(), msg.offset(), when, None, str(exc)[:500])


def read_dead_letters(settings: Settings, group: str, limit: int = 50,
                      timeout: float = DEFAULT_TIMEOUT_SEC) -> list[DeadLetter]:
    """The newest ``limit`` dead letters of ``group`` (at most ``limit`` per partition read, newest first)."""
    _source_topic(settings, group)
    if not 1 <= limit <= 1000:
        raise ValueError("limit must be between 1 and 1000")
    topic = settings.dlq_topic(group)
    consumer = _consumer(settings)
    try:
        assignment = []
        ends: dict[int, int] = {}
        for p in _partitions(consumer, topic, timeout):
            low, high = consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=timeout)
            if high > low:
                assignment.append(TopicPartition(topic, p, max(low, high - limit)))
                ends[p] = high
        found: list[DeadLetter] = []
        if assignment:
            consumer.assign(assignment)
            deadline = datetime.now(UTC).timestamp() + timeout
            while ends and datetime.now(UTC).timestamp() < deadline:
                msg = consumer.poll(0.5)
                if msg is None:
                    continue
                part, err = int(msg.partition() or 0), msg.error()
                if err is not None:
                    if err.code() == KafkaError._PARTITION_EOF:
                        ends.pop(part, None)
                        continue
                    raise OpsError(f"reading {topic}: {err.str()}")
                found.append(_dead_letter(msg))
                if int(msg.offset() or 0) + 1 >= ends.get(part, 0):
                    ends.pop(part, None)
        found.sort(key=lambda d: (d.timestamp or datetime.min.replace(tzinfo=UTC), d.offset), reverse=True)
        return found[:limit]
    except KafkaException as exc:
        raise OpsError(f"reading {topic}: {_describe(exc)}") from exc
    finally:
        consumer.close()


def read_dead_letter(settings: Settings, group: str, partition: int, offset: int,
                     timeout: float = DEFAULT_TIMEOUT_SEC) -> DeadLetter:
    """The dead letter at ``partition``/``offset`` of ``group``'s DLQ topic (``RedriveRefused`` if absent)."""
    _source_topic(settings, group)
    if partition < 0 or offset < 0:
        raise RedriveRefused("partition and offset must be >= 0")
    topic = settings.dlq_topic(group)
    consumer = _consumer(settings)
    try:
        if partition not in _partitions(consumer, topic, timeout):
            raise RedriveRefused(f"{topic} has no partition {partition}")
        low, high = consumer.get_watermark_offsets(TopicPartition(topic, partition), timeout=timeout)
        if not low <= offset < high:
            raise RedriveRefused(
                f"{topic} partition {partition} holds offsets {low}..{high - 1}, not {offset}")
        consumer.assign([TopicPartition(topic, partition, offset)])
        deadline = datetime.now(UTC).timestamp() + timeout
        while datetime.now(UTC).timestamp() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            err = msg.error()
            if err is not None:
                if err.code() == KafkaError._PARTITION_EOF:
                    break
                raise OpsError(f"reading {topic}: {err.str()}")
            at = int(msg.offset() or 0)
            if at == offset:
                return _dead_letter(msg)
            if at > offset:  # compacted or deleted meanwhile
                break
        raise RedriveRefused(f"no dead letter at {topic} partition {partition} offset {offset}")
    except KafkaException as exc:
        raise OpsError(f"reading {topic}: {_describe(exc)}") from exc
    finally:
        consumer.close()


@dataclass(frozen=True)
class Redriven:
    """Where the re-driven record went."""

    dead_letter: DeadLetter
    topic: str
    partition: int
    offset: int


def redrive_dead_letter(settings: Settings, group: str, partition: int, offset: int,
                        timeout: float = DEFAULT_TIMEOUT_SEC) -> Redriven:
    """Re-publish the original record of one dead letter to its source topic (see module doc)."""
    source_topic = _source_topic(settings, group)
    letter = read_dead_letter(settings, group, partition, offset, timeout)
    if letter.event is None:
        raise RedriveRefused(f"not a valid dead-letter envelope: {letter.invalid_reason}")
    data = letter.event.data
    if data.value_truncated:
        raise RedriveRefused(f"the original value ({data.value_size} bytes) was truncated in the dead "
                             "letter; it cannot be re-driven from here")
    if data.source_topic != source_topic:
        raise RedriveRefused(f"the dead letter came from {data.source_topic!r}, not from {source_topic!r}, "
                             f"the topic of group {group}")
    headers: list[tuple[str, str | bytes | None]] = [
        (h.key, None if h.value_b64 is None else base64.b64decode(h.value_b64)) for h in data.headers
        if h.key != REDRIVE_HEADER]
    headers.append((REDRIVE_HEADER, f"{letter.topic}:{letter.partition}:{letter.offset}".encode()))
    conf: dict[str, Any] = client_config(settings)
    conf.update({"enable.idempotence": True, "acks": "all", "linger.ms": 0,
                 "message.max.bytes": 2 * 1024 * 1024})
    producer = Producer(conf)
    delivered: list[Any] = []
    errors: list[KafkaError] = []

    def _cb(err: KafkaError | None, msg: Any) -> None:
        (errors.append(err) if err is not None else delivered.append(msg))

    key = data.original_key()
    producer.produce(source_topic, key=key, value=data.original_value(), headers=headers, on_delivery=_cb)
    remaining = producer.flush(timeout)
    if remaining or errors or not delivered:
        why = errors[0].str() if errors else "timeout"
        raise OpsError(f"re-drive to {source_topic} not confirmed: {why}")
    msg = delivered[0]
    return Redriven(letter, source_topic, int(msg.partition()), int(msg.offset()))


def _describe(exc: BaseException) -> str:
    if isinstance(exc, KafkaException) and exc.args and isinstance(exc.args[0], KafkaError):
        return f"{exc.args[0].name()}: {exc.args[0].str()}"
    return str(exc)[:300]
