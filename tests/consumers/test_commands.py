"""The memory-command group end to end: Kafka tool commands -> PostgreSQL truth + outbox."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from confluent_kafka import Producer
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from consumers.processes import commands_loop
from core.config import Settings
from core.storage.models import LongTermMemory, MemoryHistory, OutboxEvent, ProcessedCommand
from localstack.process import wait_until
from producers.client import MemoryEventProducer
from producers.kafka_config import client_config
from schemas import MemoryAppendData, MemoryDeleteData, MemorySaveData, parse_dead_letter
from tests.support.pipeline import group_caught_up, isolated_settings, read_topic, running

pytestmark = pytest.mark.services


def test_commands_apply_through_the_tool_service(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1)
    commands = [
        MemorySaveData(
            command_id="c1",
            user_id="cmd-u",
            key="diet",
            memory_type="constraint",  # type: ignore[arg-type]
            content="Vegetarian: never suggest meat dishes",
            importance=5,
        ),
        MemoryAppendData(command_id="c2", user_id="cmd-u", key="diet", content="also avoids eggs"),
        MemorySaveData(command_id="c3", user_id="cmd-u", key="city", content="Lives in Hangzhou"),
        MemoryDeleteData(command_id="c4", user_id="cmd-u", key="city"),
        MemoryDeleteData(command_id="c5", user_id="cmd-u", key="never-existed"),
        MemorySaveData(
            command_id="c6", user_id="cmd-u", key="tool-list", content="search, calendar"
        ),  # noise
    ]
    sent_at = datetime.now(UTC)
    with MemoryEventProducer(cfg) as producer:
        for cmd in commands:
            producer.publish_command(cmd)
        producer.publish_command(commands[0])  # a redelivered command
        producer.flush(30)
    raw = Producer(client_config(cfg))
    raw.produce(cfg.TOPIC_MEMORY_COMMANDS, key=b"cmd-u", value=b'{"type": "pai.memory.command.v1"}')
    raw.flush(10)

    with running(commands_loop(cfg)):
        wait_until(
            lambda: group_caught_up(cfg, cfg.GROUP_COMMANDS, cfg.TOPIC_MEMORY_COMMANDS),
            60,
            what="commands consumed",
        )

    with Session(clean_db) as s:
        rows = {m.memory_key: m for m in s.scalars(select(LongTermMemory))}
        assert rows["diet"].is_active and rows["diet"].content == (
            "Vegetarian: never suggest meat dishes; also avoids eggs"
        )
        assert rows["diet"].memory_type == "constraint" and rows["diet"].importance == 5
        assert rows["city"].is_active is False
        assert "tool-list" not in rows
        ops = s.scalars(select(MemoryHistory.operation).order_by(MemoryHistory.id)).all()
        assert ops == ["create", "append", "create", "delete"]
        assert s.scalar(select(func.count()).select_from(OutboxEvent)) == 4
        assert set(s.scalars(select(ProcessedCommand.command_id)).all()) == {"c1", "c2", "c3", "c4"}
        # each change carries the command event's time (freshness origin)
        for data in s.scalars(select(OutboxEvent.payload["data"])).all():
            assert sent_at <= datetime.fromisoformat(data["origin_at"]) <= datetime.fromisoformat(
                data["changed_at"])

    dead = [parse_dead_letter(m.value()) for m in read_topic(cfg, cfg.dlq_topic(cfg.GROUP_COMMANDS), 2)]
    assert len(dead) == 2
    assert "noise" in dead[0].data.reason and dead[0].data.error_type == "InvalidMemoryInput"
    assert dead[1].data.error_type != "InvalidMemoryInput"
