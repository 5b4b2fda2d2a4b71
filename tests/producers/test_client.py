"""MemoryEventProducer against the real broker: delivery confirmation, keys, ordering, failures."""

from __future__ import annotations

import random
import string
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from confluent_kafka import Consumer, Message
from confluent_kafka.admin import NewTopic

from core.config import Settings
from core.types import MessageRole
from localstack.topics import admin_client, ensure_topics
from producers.client import (
    DeliveryError,
    DeliveryFuture,
    DeliveryReport,
    FlushTimeout,
    MemoryEventProducer,
    ProducerClosed,
)
from producers.kafka_config import client_config, producer_config
from schemas import (
    ChatMessageData,
    ChatMessageEvent,
    MemoryCommandEvent,
    MemoryDeleteData,
    MemorySaveData,
    make_dead_letter,
    make_event,
    parse_chat_message,
    parse_event,
    parse_memory_command,
)

pytestmark = pytest.mark.services

T0 = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def message(user: str, i: int, content: str = "") -> ChatMessageData:
    return ChatMessageData(message_id=f"{user}-m{i}", user_id=user, conversation_id=f"{user}-c",
                           role=MessageRole.USER, content=content or f"message {i} from {user}",
                           created_at=T0 + timedelta(seconds=i))


def consume(settings: Settings, topic: str, n: int, timeout: float = 30.0) -> list[Message]:
    consumer = Consumer({**client_config(settings), "group.id": f"reader-{topic}",
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    consumer.subscribe([topic])
    out: list[Message] = []
    deadline = time.monotonic() + timeout
    try:
        while len(out) < n and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            out.append(msg)
        # nothing beyond the n expected
        extra = consumer.poll(1.0)
        assert extra is None, f"unexpected extra record {extra.value()!r}"
    finally:
        consumer.close()
    assert len(out) == n, f"read {len(out)} of {n}"
    return out


@pytest.fixture
def topic(settings: Settings, unique_name: Callable[[str], str]) -> str:
    name = unique_name("prod_t")
    ensure_topics(settings, {name: 3})
    return name


def test_config_is_idempotent_acks_all_whatever_the_options(settings: Settings) -> None:
    loose = settings.model_copy(update={"KAFKA_CLIENT_OPTIONS": {"acks": "1", "enable.idempotence": False,
                                                                   "linger.ms": 50}})
    conf = producer_config(loose, {"acks": 0})
    assert conf["enable.idempotence"] is True and conf["acks"] == "all"
    assert conf["linger.ms"] == 50  # other options do apply
    assert conf["bootstrap.servers"] == settings.KAFKA_BOOTSTRAP_SERVERS


def test_published_messages_are_confirmed_keyed_by_user_and_ordered(settings: Settings, topic: str) -> None:
    users = ["alice", "bob", "carol@example.com"]
    sent: list[tuple[ChatMessageEvent, DeliveryFuture]] = []
    with MemoryEventProducer(settings, source="pai-chat-test") as producer:
        for i in range(30):
            user = users[i % 3]
            event = make_event(message(user, i), source="pai-chat-test")
            sent.append((event, producer.publish_message(event, topic)))
        reports = [f.result(timeout=30) for _, f in sent]
    assert all(isinstance(r, DeliveryReport) and r.topic == topic for r in reports)
    by_position = {(r.partition, r.offset): e for (e, _), r in zip(sent, reports, strict=True)}
    assert len(by_position) == 30

    records = consume(settings, topic, 30)
    partitions_of: dict[bytes, set[int]] = {}
    for rec in records:
        event = parse_chat_message(rec.value())
        # what the future reported is exactly where the record is
        assert by_position[(rec.partition(), rec.offset())] == event
        assert rec.key() == event.data.user_id.encode() == event.subject.encode()
        assert dict(rec.headers() or [])["content-type"].startswith(b"application/cloudevents+json")
        partitions_of.setdefault(rec.key(), set()).add(rec.partition())
    assert all(len(p) == 1 for p in partitions_of.values()), partitions_of  # one user -> one partition
    for user in users:  # per-user order preserved
        seq = [parse_chat_message(r.value()).data.message_id for r in records if r.key() == user.encode()]
        assert seq == [f"{user}-m{i}" for i in range(30) if users[i % 3] == user]


def test_bare_payloads_are_wrapped_and_routed_to_default_topics(
        settings: Settings, unique_name: Callable[[str], str]) -> None:
    own = settings.model_copy(update={"TOPIC_CHAT_MESSAGES": unique_name("chat"),
                                      "TOPIC_MEMORY_COMMANDS": unique_name("cmd")})
    ensure_topics(own, {own.TOPIC_CHAT_MESSAGES: 1, own.TOPIC_MEMORY_COMMANDS: 1})
    with MemoryEventProducer(own, source="svc") as producer:
        m = producer.publish_message(message("dora", 1))
        c1 = producer.publish_command(MemorySaveData(command_id="cmd-1", user_id="dora", key="drink",
                                                     memory_type="preference", content="green tea"))
        c2 = producer.publish_command(MemoryDeleteData(command_id="cmd-2", user_id="dora", key="drink"))
        assert m.result(30).topic == own.TOPIC_CHAT_MESSAGES
        assert c1.result(30).topic == c2.result(30).topic == own.TOPIC_MEMORY_COMMANDS
        with pytest.raises(ValueError, match="explicit topic"):
            producer.publish(make_dead_letter(reason="r", error_type="E", topic="t", partition=0, offset=0,
                                              key=None, value=b"", consumer_group="g"))
        with pytest.raises(TypeError):
            producer.publish({"not": "an event"})  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            producer.publish_command(message("dora", 2))  # type: ignore[arg-type]
    [msg] = consume(own, own.TOPIC_CHAT_MESSAGES, 1)
    event = parse_event(msg.value())
    assert isinstance(event, ChatMessageEvent) and event.source == "svc" and event.data == message("dora", 1)
    commands = [parse_memory_command(r.value()) for r in consume(own, own.TOPIC_MEMORY_COMMANDS, 2)]
    assert [c.data.command_id for c in commands] == ["cmd-1", "cmd-2"]
    assert all(isinstance(c, MemoryCommandEvent) and c.subject == "dora" for c in commands)


def test_broker_rejection_fails_the_future_with_delivery_error(
        settings: Settings, unique_name: Callable[[str], str]) -> None:
    small = unique_name("small")
    admin = admin_client(settings)
    admin.create_topics([NewTopic(small, 1, settings.KAFKA_TOPIC_REPLICATION,
                                  config={"max.message.bytes": "2048"})])[small].result(30)
    noise = "".join(random.choices(string.ascii_letters + string.digits, k=20000))  # incompressible enough
    with MemoryEventProducer(settings) as producer:
        # (settle the small one first: the broker rejects a whole batch, batch-mates included)
        assert producer.publish_message(message("erin", 1), small).result(30).offset == 0
        too_big = producer.publish_message(message("erin", 2, content=noise), small)
        producer.flush(30)  # settled: flush does not raise for a failed event
        assert too_big.done()
        err = too_big.exception()
    assert isinstance(err, DeliveryError)
    assert err.name == "MSG_SIZE_TOO_LARGE" and err.topic == small and err.key == b"erin"
    assert not err.retriable


def test_unknown_topic_fails_the_future_instead_of_creating_it(
        settings: Settings, unique_name: Callable[[str], str]) -> None:
    missing = unique_name("missing")
    with MemoryEventProducer(settings, config={"topic.metadata.propagation.max.ms": 1000,
                                               "message.timeout.ms": 10000}) as producer:
        future = producer.publish_message(message("finn", 1), missing)
        with pytest.raises(DeliveryError) as info:
            future.result(timeout=30)
    assert info.value.name in {"UNKNOWN_TOPIC_OR_PART", "_UNKNOWN_TOPIC", "_MSG_TIMED_OUT"}
    assert missing not in admin_client(settings).list_topics(timeout=10).topics


def test_constructor_does_no_io_and_close_fails_undelivered_futures(settings: Settings) -> None:
    nowhere = settings.model_copy(update={"KAFKA_BOOTSTRAP_SERVERS": "127.0.0.1:1"})
    started = time.monotonic()
    producer = MemoryEventProducer(nowhere, config={"message.timeout.ms": 60000, "log_level": 0})
    assert time.monotonic() - started < 0.5 and len(producer) == 0
    future = producer.publish_message(message("gus", 1), "any-topic")
    assert not future.done() and not future.cancel()  # in flight, not cancellable
    with pytest.raises(FlushTimeout) as info:
        producer.flush(0.5)
    # librdkafka's queue length counts the message plus any queued event (a connection-refused error
    # report can be waiting beside it on a loaded machine)
    assert info.value.pending >= 1
    with pytest.raises(FlushTimeout):
        producer.close(timeout=0.5)
    # close purged the undelivered event: its future is failed, not left hanging
    with pytest.raises(DeliveryError) as err:
        future.result(timeout=5)
    assert err.value.name is not None and err.value.name.startswith("_PURGE")
    with pytest.raises(ProducerClosed):
        producer.publish_message(message("gus", 2), "any-topic")
    producer.close()  # idempotent


def test_context_exit_flushes_so_every_future_is_settled(settings: Settings, topic: str) -> None:
    with MemoryEventProducer(settings) as producer:
        futures = [producer.publish_message(message("hana", i), topic) for i in range(200)]
    assert all(f.done() for f in futures)
    offsets = [f.result().offset for f in futures]
    assert offsets == sorted(offsets) and len(set(offsets)) == 200  # one user: one partition, in order
