"""A member left outside its group rejoins; a member idle by design stays put (consumers/liveness.py).

The timing rule and the ownership rule are tested alone; the whole path runs on real Kafka: a member
is pushed out of its group (its client unsubscribes behind the loop's back, as a client does that
never finishes rejoining after a coordinator outage) and must consume again; a second member of a
one-partition group, idle because the first owns the partition, must not rejoin.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from confluent_kafka import Producer

from consumers.liveness import AssignmentWatchdog, unowned
from consumers.runtime import ConsumerLoop, DoneCallback, Record, TopicPartitionKey
from core.config import Settings
from localstack.process import wait_until
from producers.kafka_config import client_config
from tests.support.pipeline import isolated_settings, running


# --- the timing rule ---------------------------------------------------------------------------------
def test_watchdog_is_due_only_after_a_whole_period_without_partitions() -> None:
    dog = AssignmentWatchdog(after_sec=10)
    assert not dog.due(assigned=False, now=0)
    assert not dog.due(assigned=False, now=9.9)
    assert dog.due(assigned=False, now=10)
    dog.checked(10)
    assert not dog.due(assigned=False, now=19)
    assert dog.due(assigned=False, now=20)


def test_watchdog_forgets_the_idle_time_when_partitions_come_back() -> None:
    dog = AssignmentWatchdog(after_sec=10)
    assert not dog.due(assigned=False, now=0)
    assert not dog.due(assigned=True, now=8)
    assert not dog.due(assigned=False, now=12)
    assert not dog.due(assigned=False, now=21)
    assert dog.due(assigned=False, now=22)


def test_a_rejoin_gets_a_whole_period_before_the_next_check() -> None:
    dog = AssignmentWatchdog(after_sec=10)
    dog.due(assigned=False, now=0)
    assert dog.due(assigned=False, now=10)
    dog.checked(10)
    dog.rejoined(11)
    assert not dog.due(assigned=False, now=20)
    assert dog.due(assigned=False, now=21)


def test_watchdog_off_at_zero() -> None:
    dog = AssignmentWatchdog(after_sec=0)
    assert not any(dog.due(assigned=False, now=t) for t in range(0, 1000, 50))


def test_unowned_partitions() -> None:
    parts = [("t", 0), ("t", 1), ("u", 0)]
    assert unowned(parts, [("t", 0), ("u", 0)]) == {("t", 1)}
    assert unowned(parts, parts) == set()
    assert unowned(parts, []) == set(parts)


# --- the whole path on Kafka -------------------------------------------------------------------------
class Collect:
    """A processing step that acknowledges every record at once and remembers its value. When told
    to, it unsubscribes its loop's client on the loop thread: the member leaves the group while the
    loop still believes it is subscribed."""

    def __init__(self) -> None:
        self.values: list[bytes] = []
        self.loop: ConsumerLoop | None = None
        self.leave = threading.Event()
        self._done: DoneCallback | None = None

    def bind(self, done: DoneCallback) -> None:
        self._done = done

    def submit(self, record: Record) -> None:
        self.values.append(record.value or b"")
        assert self._done is not None
        self._done(record)

    def poll(self) -> None:
        if self.leave.is_set() and self.loop is not None and self.loop._consumer is not None:
            self.leave.clear()
            self.loop._consumer.unsubscribe()

    def revoke(self, partitions: list[TopicPartitionKey], lost: bool = False) -> None:
        return None

    def backpressure(self) -> bool:
        return False

    def join(self, timeout: float) -> None:
        return None

    def close(self) -> None:
        return None


def produce(cfg: Settings, topic: str, values: list[bytes]) -> None:
    producer = Producer(client_config(cfg))
    for i, value in enumerate(values):
        producer.produce(topic, key=f"k{i}".encode(), value=value)
    producer.flush(30)


@pytest.mark.services
def test_a_member_outside_its_group_rejoins_and_consumes_again(
    settings: Settings, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=2, CONSUMER_REJOIN_AFTER_SEC=3)
    topic = cfg.TOPIC_MEMORY_DIRTY
    step = Collect()
    loop = ConsumerLoop(cfg, cfg.GROUP_INDEXER, [topic], step)
    step.loop = loop
    with running(loop):
        produce(cfg, topic, [b"before-0", b"before-1"])
        wait_until(lambda: len(step.values) >= 2, 60, what="records before the fault")
        step.leave.set()
        wait_until(lambda: not loop.assignment and not step.leave.is_set(), 30, what="the member left")
        produce(cfg, topic, [b"after-0", b"after-1", b"after-2"])
        wait_until(lambda: {b"after-0", b"after-1", b"after-2"} <= set(step.values), 90,
                   what="records after the member was pushed out")
    assert loop.rejoins >= 1


@pytest.mark.services
def test_a_member_idle_by_design_does_not_rejoin(
    settings: Settings, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1, CONSUMER_REJOIN_AFTER_SEC=2)
    topic = cfg.TOPIC_MEMORY_DIRTY
    first, second = Collect(), Collect()
    owner = ConsumerLoop(cfg, cfg.GROUP_INDEXER, [topic], first)
    with running(owner):
        wait_until(lambda: bool(owner.assignment), 60, what="the first member owns the partition")
        idle = ConsumerLoop(cfg, cfg.GROUP_INDEXER, [topic], second)
        with running(idle):
            produce(cfg, topic, [b"one", b"two"])
            wait_until(lambda: len(first.values) + len(second.values) >= 2, 60, what="records consumed")
            wait_until(lambda: len(owner.assignment) + len(idle.assignment) == 1, 60,
                       what="one member holds the partition")
            time.sleep(8)  # four check periods of the idle member: each finds the partition owned
            assert len(owner.assignment) + len(idle.assignment) == 1
        assert owner.rejoins == 0 and idle.rejoins == 0
