"""The command group applies commands of many users in one transaction, and still handles each
command on its own when one of a batch is bad. Real Kafka and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from confluent_kafka import Producer
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from consumers.commands import CommandStrategy
from consumers.processes import build_tools, dead_letter_publisher
from consumers.runtime import ConsumerLoop
from core.config import Settings
from core.storage.models import LongTermMemory, OutboxEvent, ProcessedCommand
from localstack.process import wait_until
from producers.client import MemoryEventProducer
from producers.kafka_config import client_config
from schemas import MemorySaveData, parse_dead_letter
from tests.support.pipeline import group_caught_up, isolated_settings, read_topic, running

pytestmark = pytest.mark.services


def test_one_bad_command_in_a_batch_fails_only_itself(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1)
    users, rounds = 5, 6
    good = [MemorySaveData(command_id=f"b-{r}-{u}", user_id=f"batch-u{u}", key="fact-note",
                           content=f"note number {r} of user {u}")
            for r in range(rounds) for u in range(users)]
    noise = MemorySaveData(command_id="b-noise", user_id="batch-u1", key="tool-list",
                           content="search, calendar")
    with MemoryEventProducer(cfg) as producer:
        for i, cmd in enumerate(good):
            producer.publish_command(cmd)
            if i == len(good) // 2:
                producer.publish_command(noise)  # a rejected command in the middle of the backlog
        producer.flush(30)
    raw = Producer(client_config(cfg))
    raw.produce(cfg.TOPIC_MEMORY_COMMANDS, key=b"batch-u2", value=b"not json")  # and one that never parses
    raw.flush(10)

    strategy = CommandStrategy(build_tools(cfg), dead_letter_publisher(cfg, cfg.GROUP_COMMANDS),
                               group=cfg.GROUP_COMMANDS, max_batch=100)
    loop = ConsumerLoop(cfg, cfg.GROUP_COMMANDS, [cfg.TOPIC_MEMORY_COMMANDS], strategy)
    with running(loop):
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_COMMANDS, cfg.TOPIC_MEMORY_COMMANDS), 60,
                   what="commands consumed")
        batches = strategy.batches
        with MemoryEventProducer(cfg) as producer:  # later records of every user, all good
            for u in range(users):
                producer.publish_command(MemorySaveData(command_id=f"b-last-{u}", user_id=f"batch-u{u}",
                                                        key="fact-last", content=f"last word of user {u}"))
            producer.flush(30)
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_COMMANDS, cfg.TOPIC_MEMORY_COMMANDS), 60,
                   what="later commands consumed")

    with Session(clean_db) as s:
        notes = {c for c in s.scalars(select(LongTermMemory.content)
                                      .where(LongTermMemory.memory_key == "fact-note"))}
        assert notes == {f"note number {rounds - 1} of user {u}" for u in range(users)}  # per-user order kept
        assert s.scalar(select(func.count()).select_from(LongTermMemory)
                        .where(LongTermMemory.memory_key == "fact-last")) == users
        assert s.scalar(select(func.count()).select_from(ProcessedCommand)) == len(good) + users
        assert s.scalar(select(func.count()).select_from(OutboxEvent)) == len(good) + users
    dead = [parse_dead_letter(m.value()) for m in read_topic(cfg, cfg.dlq_topic(cfg.GROUP_COMMANDS), 2)]
    assert len(dead) == 2
    assert any("noise" in d.data.reason and d.data.error_type == "InvalidMemoryInput" for d in dead)
    assert strategy.dead_lettered == 2
    assert strategy.batches > batches  # the later records went in shared transactions


def test_max_batch_one_applies_each_command_on_its_own(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1)
    with MemoryEventProducer(cfg) as producer:
        for u in range(4):
            producer.publish_command(MemorySaveData(command_id=f"s-{u}", user_id=f"single-u{u}",
                                                    key="fact-x", content=f"x of {u}"))
        producer.flush(30)
    strategy = CommandStrategy(build_tools(cfg), dead_letter_publisher(cfg, cfg.GROUP_COMMANDS),
                               group=cfg.GROUP_COMMANDS, max_batch=1)
    with running(ConsumerLoop(cfg, cfg.GROUP_COMMANDS, [cfg.TOPIC_MEMORY_COMMANDS], strategy)):
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_COMMANDS, cfg.TOPIC_MEMORY_COMMANDS), 60,
                   what="commands consumed")
    assert strategy.batches == 0
    with Session(clean_db) as s:
        assert s.scalar(select(func.count()).select_from(LongTermMemory)) == 4
