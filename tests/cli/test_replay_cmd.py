"""``pai-memory replay`` end to end: messages extracted by the rules extractor, then a provider change
(the OpenAI-compatible provider against the TEST DOUBLE server): the dry run predicts the change
without writing anything, the real replay resets the extractor group and produces exactly that."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from confluent_kafka import Consumer, TopicPartition
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from cli.main import main as cli_main
from consumers.processes import build_tools, extractor_loop
from core.config import ExtractorProvider, Settings
from core.memory.tools import ToolWrite
from core.storage.models import LongTermMemory, MemoryHistory, Message, OutboxEvent, User
from localstack.process import wait_until
from producers.client import MemoryEventProducer
from producers.kafka_config import client_config
from producers.kafka_retry import call_with_retry
from tests.support.fake_openai import FakeOpenAIServer, fake_openai
from tests.support.ops import export_settings
from tests.support.pipeline import conversation, group_caught_up, isolated_settings, running

pytestmark = pytest.mark.services
__all__ = ["fake_openai"]

TURNS_A = [("user", "I live in Wuhan and work as a backend engineer."), ("assistant", "Cool!"),
           ("user", "I have a dog called Lucky.")]
TURNS_B = [("user", "I prefer green tea to coffee.")]
LLM_REPLY = {"candidates": [
    {"op": "upsert", "memory_type": "fact", "key": "home_city", "content": "Lives in Wuhan, Hubei province",
     "importance": 4, "confidence": 0.95},
    {"op": "upsert", "memory_type": "fact", "key": "stamp_collection",
     "content": "Collects vintage postage stamps from the 1950s", "importance": 3, "confidence": 0.9},
    {"op": "delete", "memory_type": "fact", "key": "old_phone", "content": "", "confidence": 0.9},
]}


def snapshot(engine: Engine) -> dict[str, Any]:
    with Session(engine) as s:
        return {
            "memories": sorted((m.id, m.memory_key, m.content, m.is_active, m.updated_at)
                               for m in s.scalars(select(LongTermMemory))),
            "history": s.scalar(select(func.count()).select_from(MemoryHistory)),
            "outbox": s.scalar(select(func.count()).select_from(OutboxEvent)),
            "messages": sorted((m.id, m.memory_status, m.extractor_version, m.memory_attempts)
                               for m in s.scalars(select(Message))),
        }


def live(engine: Engine, user: str) -> dict[str, str]:
    with Session(engine) as s:
        rows = s.execute(select(LongTermMemory.memory_key, LongTermMemory.content)
                         .join(User, User.id == LongTermMemory.user_id)
                         .where(User.external_id == user, LongTermMemory.is_active.is_(True))).all()
        return {k: c or "" for k, c in rows}


def out_json(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_dry_run_predicts_the_real_replay_after_a_provider_change(
        settings: Settings, clean_db: Engine, unique_name: Callable[[str], str],
        fake_openai: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    cfg = isolated_settings(settings, unique_name)
    before_publish = datetime.now(UTC) - timedelta(seconds=5)
    msgs = conversation("rp-a", "c-a", TURNS_A) + conversation("rp-b", "c-b", TURNS_B)
    with MemoryEventProducer(cfg) as producer:
        for m in msgs:
            producer.publish_message(m)
        producer.flush(30)
    with running(extractor_loop(cfg)):
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 90)
    tools = build_tools(cfg)
    tools.memory_save(ToolWrite("rp-a", "home_city", "Lives in Wuhan"))
    tools.memory_save(ToolWrite("rp-a", "old_phone", "Uses an old Nokia phone"))
    rules_a = live(clean_db, "rp-a")

    # same extractor version: a replay would extract nothing again
    export_settings(cfg, monkeypatch)
    assert cli_main(["replay", "--from-offset", "0", "--dry-run", "--json"]) == 0
    same = out_json(capsys)
    assert same["totals"]["messages"] == 3 and same["totals"]["reprocessed"] == 0
    assert same["records_in_range"] == 4

    # the provider changes: OpenAI-compatible endpoint (TEST DOUBLE) with a new extractor version
    fake_openai.default_chat = None
    fake_openai.chat_json(LLM_REPLY, repeat=100)
    v2 = cfg.model_copy(update={"LLM_BASE_URL": fake_openai.base_url,
                                "MEMORY_EXTRACTOR_PROVIDER": ExtractorProvider.OPENAI,
                                "MEMORY_EXTRACTOR_VERSION": "llm-1", "LLM_MAX_RETRIES": 0})
    export_settings(v2, monkeypatch)
    before = snapshot(clean_db)
    assert cli_main(["replay", "--from-offset", "0", "--dry-run", "--json"]) == 0
    dry = out_json(capsys)
    assert snapshot(clean_db) == before  # nothing written
    assert dry["extractor_version"] == "openai:llm-1"
    assert dry["totals"]["reprocessed"] == 3
    by_user = {u["user"]: u for u in dry["users"]}
    a = by_user["rp-a"]
    assert [c["key"] for c in a["added"]] == ["stamp_collection"]
    assert [(c["key"], c["old_content"], c["new_content"]) for c in a["changed"]] == [
        ("home_city", "Lives in Wuhan", "Lives in Wuhan, Hubei province")]
    assert [c["key"] for c in a["removed"]] == ["old_phone"]
    assert [c["key"] for c in by_user["rp-b"]["added"]] == ["home_city", "stamp_collection"]
    assert cli_main(["replay", "--from-offset", "0", "--dry-run", "--user", "rp-b"]) == 0
    assert "user rp-b" in capsys.readouterr().out

    # the real replay refuses while the group has a live member ...
    with running(extractor_loop(cfg)) as loop:
        wait_until(lambda: bool(loop.assignment), 30, what="extractor assigned")
        assert cli_main(["replay", "--from-offset", "0"]) == 2
        assert "active member" in capsys.readouterr().err
    # ... and resets the stopped group's offsets to the start
    assert cli_main(["replay", "--from-timestamp", before_publish.isoformat(), "--json"]) == 0
    reset = out_json(capsys)
    assert reset["group"] == cfg.GROUP_EXTRACTOR and reset["records_to_replay"] == 4
    assert all(p["start"] == 0 for p in reset["partitions"])
    with running(extractor_loop(v2)):
        wait_until(lambda: group_caught_up(v2, v2.GROUP_EXTRACTOR, v2.TOPIC_CHAT_MESSAGES), 90)
        wait_until(lambda: snapshot_versions(clean_db) == {"openai:llm-1"}, 60, what="messages re-extracted")

    after_a = live(clean_db, "rp-a")
    expected_a = {k: v for k, v in rules_a.items() if k != "old_phone"}
    expected_a.update({"home_city": "Lives in Wuhan, Hubei province",
                       "stamp_collection": "Collects vintage postage stamps from the 1950s"})
    assert after_a == expected_a  # exactly what the dry run predicted
    assert {"home_city", "stamp_collection"} <= live(clean_db, "rp-b").keys()

    # a replay under the same version again: nothing left to change
    assert cli_main(["replay", "--from-offset", "0", "--dry-run", "--json"]) == 0
    assert out_json(capsys)["totals"]["reprocessed"] == 0


def snapshot_versions(engine: Engine) -> set[str | None]:
    with Session(engine) as s:
        return set(s.scalars(select(Message.extractor_version).where(Message.role == "user")).all())


def test_timestamps_new_group_and_errors(settings: Settings, clean_db: Engine,
                                         unique_name: Callable[[str], str], monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=2)
    with MemoryEventProducer(cfg) as producer:
        for m in conversation("rp-t", "c-t", [("user", f"Message number {i}") for i in range(5)]):
            producer.publish_message(m)
        producer.flush(30)
    export_settings(cfg, monkeypatch)
    future = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert cli_main(["replay", "--from-timestamp", future, "--new-group", "--json"]) == 0
    out = out_json(capsys)
    assert out["new_group"] and out["group"].startswith(cfg.GROUP_EXTRACTOR + "-replay-")
    assert out["records_to_replay"] == 0
    assert cli_main(["replay", "--from-offset", "1", "--new-group", "--json"]) == 0
    out = out_json(capsys)
    ends = {p["partition"]: p["end"] for p in out["partitions"]}
    assert out["records_to_replay"] == sum(max(0, e - 1) for e in ends.values())
    consumer = Consumer({**client_config(cfg), "group.id": out["group"]})
    try:
        committed = call_with_retry(lambda: consumer.committed(
            [TopicPartition(cfg.TOPIC_CHAT_MESSAGES, p) for p in ends], timeout=10))
    finally:
        consumer.close()
    assert {tp.partition: tp.offset for tp in committed} == {p: min(1, e) for p, e in ends.items()}

    assert cli_main(["replay", "--from-timestamp", "yesterday"]) == 2
    assert cli_main(["replay", "--from-offset", "0", "--topic", unique_name("absent")]) == 2
    assert cli_main(["replay", "--from-offset", "0", "--user", "x"]) == 2
