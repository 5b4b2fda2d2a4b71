"""``consumers.ops`` and ``pai-memory dlq`` on the real Kafka: lag, dead letters, re-drive, its refusals."""

from __future__ import annotations

import json
import time

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from cli.main import main
from consumers import ops
from consumers.dlq import DeadLetterPublisher
from consumers.runtime import Record
from core.config import Settings
from producers.kafka_config import client_config
from schemas.codec import MAX_DLQ_VALUE_BYTES
from tests.support.env import service_env

pytestmark = pytest.mark.services


def plant(settings: Settings, value: bytes, topic: str | None = None,
          reason: str = "planted") -> ops.DeadLetter:
    """Dead-letter a record of the commands group as the consumer would; the dead letter as read back."""
    record = Record(topic or settings.TOPIC_MEMORY_COMMANDS, 1, 42, b"user-k", value, (("h", b"v"),), None)
    DeadLetterPublisher(settings, settings.GROUP_COMMANDS).send(record, reason=reason,
                                                                error_type="InvalidEvent")
    letters = ops.read_dead_letters(settings, settings.GROUP_COMMANDS, 1000)
    return next(d for d in letters if d.event is not None and d.event.data.reason == reason)


def read_at(settings: Settings, topic: str, partition: int,
            offset: int) -> tuple[bytes, bytes, dict[str, bytes]]:
    consumer = Consumer({**client_config(settings), "group.id": f"t-ops-{time.time_ns()}",
                         "enable.auto.commit": False})
    try:
        consumer.assign([TopicPartition(topic, partition, offset)])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is not None and msg.error() is None:
                return msg.key(), msg.value(), dict(msg.headers() or [])
        raise AssertionError("record not found")
    finally:
        consumer.close()


def test_redrive_republishes_the_original_record(settings: Settings) -> None:
    letter = plant(settings, b'{"broken": true}', reason=f"planted-{time.time_ns()}")
    assert letter.redrivable and letter.topic == settings.dlq_topic(settings.GROUP_COMMANDS)
    done = ops.redrive_dead_letter(settings, settings.GROUP_COMMANDS, letter.partition, letter.offset)
    assert done.topic == settings.TOPIC_MEMORY_COMMANDS
    key, value, headers = read_at(settings, done.topic, done.partition, done.offset)
    assert (key, value, headers["h"]) == (b"user-k", b'{"broken": true}', b"v")
    assert headers[ops.REDRIVE_HEADER] == f"{letter.topic}:{letter.partition}:{letter.offset}".encode()


def test_refusals_publish_nothing(settings: Settings) -> None:
    group = settings.GROUP_COMMANDS
    truncated = plant(settings, b"x" * (MAX_DLQ_VALUE_BYTES + 10), reason=f"big-{time.time_ns()}")
    assert not truncated.redrivable
    elsewhere = plant(settings, b"{}", topic="some.other.topic", reason=f"other-{time.time_ns()}")
    producer = Producer(client_config(settings))
    producer.produce(settings.dlq_topic(group), key=b"k", value=b"not json", partition=0)
    producer.flush(30)
    consumer = Consumer({**client_config(settings), "group.id": "t-ops-probe"})
    high_before = {p: consumer.get_watermark_offsets(TopicPartition(settings.TOPIC_MEMORY_COMMANDS, p), 10)[1]
                   for p in range(settings.KAFKA_TOPIC_PARTITIONS)}
    garbage = next(d for d in ops.read_dead_letters(settings, group, 1000) if d.event is None)
    assert garbage.invalid_reason and not garbage.redrivable
    for args, words in (
        ((group, truncated.partition, truncated.offset), "truncated"),
        ((group, elsewhere.partition, elsewhere.offset), "came from 'some.other.topic'"),
        ((group, garbage.partition, garbage.offset), "not a valid dead-letter envelope"),
        ((group, 0, 10**9), "holds offsets"),
        ((group, 999, 0), "has no partition 999"),
        ((group, -1, 0), ">= 0"),
        (("no-such-group", 0, 0), "unknown consumer group"),
    ):
        with pytest.raises(ops.RedriveRefused, match=words):
            ops.redrive_dead_letter(settings, *args)
    high_after = {p: consumer.get_watermark_offsets(TopicPartition(settings.TOPIC_MEMORY_COMMANDS, p), 10)[1]
                  for p in range(settings.KAFKA_TOPIC_PARTITIONS)}
    consumer.close()
    assert high_after == high_before


def test_lag_counts_uncommitted_records(settings: Settings) -> None:
    before = {g.group: g for g in ops.consumer_lag(settings)}
    producer = Producer(client_config(settings))
    for i in range(3):
        producer.produce(settings.TOPIC_MEMORY_DIRTY, key=f"k{i}".encode(), value=b"{}")
    producer.flush(30)
    after = {g.group: g for g in ops.consumer_lag(settings)}
    assert set(after) == {settings.GROUP_EXTRACTOR, settings.GROUP_COMMANDS, settings.GROUP_INDEXER}
    assert all(g.error is None for g in after.values())
    assert after[settings.GROUP_INDEXER].lag == before[settings.GROUP_INDEXER].lag + 3
    assert after[settings.GROUP_INDEXER].topic == settings.TOPIC_MEMORY_DIRTY


def test_cli_lists_and_redrives(settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: object,
                                capsys: pytest.CaptureFixture[str]) -> None:
    for name, value in service_env(settings, tmp_path).items():  # type: ignore[arg-type]
        monkeypatch.setenv(name, value)
    letter = plant(settings, b'{"cli": 1}', reason=f"cli-{time.time_ns()}")
    capsys.readouterr()
    assert main(["dlq", "list", "--group", settings.GROUP_COMMANDS, "--json", "--limit", "1000"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert any(r["offset"] == letter.offset and r["partition"] == letter.partition and r["redrivable"]
               for r in rows)
    assert main(["dlq", "redrive", "--group", settings.GROUP_COMMANDS, "--partition", str(letter.partition),
                 "--offset", str(letter.offset)]) == 0
    assert f"to {settings.TOPIC_MEMORY_COMMANDS} partition" in capsys.readouterr().out
    assert main(["dlq", "redrive", "--group", "nope", "--partition", "0", "--offset", "0"]) == 2
    assert "unknown consumer group" in capsys.readouterr().out
