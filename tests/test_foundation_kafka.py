"""Kafka wiring: produce/consume round trip with manual offset commits on the real broker."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Message, Producer, TopicPartition

from core.config import Settings
from localstack.topics import ensure_topics, fewer_partitions, service_topics
from producers.kafka_config import client_config
from producers.kafka_retry import call_with_retry

pytestmark = pytest.mark.services


def _consumer(settings: Settings, group: str) -> Consumer:
    return Consumer({**client_config(settings), "group.id": group, "enable.auto.commit": False,
                     "auto.offset.reset": "earliest", "session.timeout.ms": 6000})


def _take(consumer: Consumer, n: int, timeout: float = 30.0) -> list[Message]:
    out: list[Message] = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        msg = consumer.poll(0.5)
        if msg is None:
            continue
        assert msg.error() is None, msg.error()
        out.append(msg)
    assert len(out) == n, f"got {len(out)} of {n} messages"
    return out


def test_service_topics_exist_with_configured_partitions(settings: Settings) -> None:
    from localstack.topics import admin_client

    metadata = admin_client(settings).list_topics(timeout=10)
    for name, partitions in service_topics(settings).items():
        assert name in metadata.topics, name
        assert len(metadata.topics[name].partitions) == partitions, name
    assert ensure_topics(settings) == []  # idempotent
    assert fewer_partitions(settings) == {}


def _wait_listed(settings: Settings, names: list[str], timeout: float = 30.0) -> None:
    """A new topic reaches the brokers' metadata a moment after it is created."""
    from localstack.topics import admin_client

    deadline = time.monotonic() + timeout
    while not set(names) <= set(admin_client(settings).list_topics(timeout=10).topics):
        assert time.monotonic() < deadline, f"{names} not in the metadata after {timeout} s"
        time.sleep(0.2)


def test_existing_topics_are_never_altered_and_fewer_partitions_are_named(
        settings: Settings, unique_name: Callable[[str], str]) -> None:
    from localstack.topics import admin_client

    topic, missing = unique_name("found_short"), unique_name("found_missing")
    assert ensure_topics(settings, {topic: 1}) == [topic]
    _wait_listed(settings, [topic])
    assert ensure_topics(settings, {topic: 3}) == []  # present: left as it is
    assert len(admin_client(settings).list_topics(timeout=10).topics[topic].partitions) == 1
    assert fewer_partitions(settings, {topic: 3, missing: 2}) == {topic: (1, 3)}
    assert fewer_partitions(settings, {topic: 1}) == {}


def test_stack_up_names_topics_with_fewer_partitions_than_configured(
        settings: Settings, unique_name: Callable[[str], str], tmp_path: Path) -> None:
    """KAFKA_TOPIC_PARTITIONS raised over existing topics (deploy/k8s went from 6 to 16): the init Job's
    `stack up` leaves them as they are and says which have fewer."""
    from localstack.base import LocalPorts, StackPaths
    from localstack.kafka import KafkaService
    from tests.support.pipeline import isolated_settings

    before = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1)
    after = before.model_copy(update={"KAFKA_TOPIC_PARTITIONS": 2})
    _wait_listed(before, list(service_topics(before)))
    paths = StackPaths(home=tmp_path, cache=tmp_path)
    note = KafkaService(after, paths, LocalPorts()).after_up()
    assert note.startswith("topics present; fewer partitions than KAFKA_TOPIC_PARTITIONS=2"), note
    for name in service_topics(after):
        assert f"{name} 1" in note, name
    assert KafkaService(before, paths, LocalPorts()).after_up() == "topics present"


def test_round_trip_with_manual_commits_resumes_from_committed_offset(
        settings: Settings, unique_name: Callable[[str], str]) -> None:
    topic, group = unique_name("found_rt"), unique_name("found_grp")
    assert ensure_topics(settings, {topic: 1}) == [topic]
    producer = Producer({**client_config(settings), "enable.idempotence": True, "acks": "all"})
    for i in range(10):
        producer.produce(topic, key=b"user-1", value=f"m{i}".encode())
    assert producer.flush(30) == 0

    first = _consumer(settings, group)
    first.subscribe([topic])
    got = _take(first, 6)
    assert [m.value() for m in got] == [f"m{i}".encode() for i in range(6)]
    first.commit(message=got[3], asynchronous=False)  # commits offset 4: m0..m3 are done, m4/m5 are not
    committed = call_with_retry(lambda: first.committed([TopicPartition(topic, 0)], timeout=10))
    assert committed[0].offset == 4
    first.close()

    second = _consumer(settings, group)
    second.subscribe([topic])
    rest = _take(second, 6)
    assert [m.value() for m in rest] == [f"m{i}".encode() for i in range(4, 10)]
    assert all(m.key() == b"user-1" for m in rest)
    second.commit(message=rest[-1], asynchronous=False)
    assert call_with_retry(lambda: second.committed([TopicPartition(topic, 0)], timeout=10))[0].offset == 10
    assert second.poll(1.0) is None
    second.close()
