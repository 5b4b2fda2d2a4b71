"""The checked-in JSON Schema files agree with the models, and accept/reject what the models do."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from cli.main import main as cli_main
from core.types import MemoryOperation, MessageRole
from schemas import (
    EVENT_TYPES,
    ChatMessageData,
    MemoryAppendData,
    MemoryDeleteData,
    MemoryDirtyData,
    MemorySaveData,
    make_dead_letter,
    make_event,
    to_bytes,
)
from schemas.generate import JSON_DIR, render, stale_files, write_files

NOW = datetime(2025, 5, 4, 3, 2, 1, tzinfo=UTC)


def samples() -> list[Any]:
    return [
        make_event(ChatMessageData(message_id="m", user_id="u", conversation_id="c",
                                   role=MessageRole.ASSISTANT, content="好的", created_at=NOW,
                                   conversation_summary="s"), source="chat"),
        make_event(MemorySaveData(command_id="c1", user_id="u", key="k", content="v", importance=2,
                                  confidence=0.5, ttl_days=3), source="agent"),
        make_event(MemoryAppendData(command_id="c2", user_id="u", key="k", content="more"), source="agent"),
        make_event(MemoryDeleteData(command_id="c3", user_id="u", key="k"), source="agent"),
        make_event(MemoryDirtyData(memory_id=1, user_id="u", user_pk=1, memory_key="k",
                                   operation=MemoryOperation.DELETE, outbox_id=1, changed_at=NOW),
                   source="outbox"),
        make_dead_letter(reason="r", error_type="E", topic="t", partition=0, offset=0, key=b"u",
                         value=b"\x00", consumer_group="g", headers=[("a", b"b")]),
    ]


def validator(event_type: str) -> Draft202012Validator:
    schema = json.loads((JSON_DIR / f"{event_type}.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FormatChecker())


def test_checked_in_files_match_the_models() -> None:
    assert stale_files() == [], "run `python -m schemas.generate` and commit schemas/json/"
    assert sorted(p.stem for p in JSON_DIR.glob("*.json")) == sorted(EVENT_TYPES)
    assert cli_main(["schemas", "check"]) == 0


def test_check_detects_drift_missing_and_orphan_files(tmp_path: Path) -> None:
    write_files(tmp_path)
    assert stale_files(tmp_path) == []
    chat = tmp_path / "pai.chat.message.v1.json"
    schema = json.loads(chat.read_text(encoding="utf-8"))
    schema["$defs"]["ChatMessageData"]["properties"]["content"]["maxLength"] = 99
    chat.write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / "pai.memory.dirty.v1.json").unlink()
    (tmp_path / "pai.old.v0.json").write_text("{}", encoding="utf-8")
    assert stale_files(tmp_path) == ["pai.chat.message.v1.json: differs from the model",
                                     "pai.memory.dirty.v1.json: missing",
                                     "pai.old.v0.json: no such event type"]
    write_files(tmp_path)
    assert stale_files(tmp_path) == []


@pytest.mark.parametrize("event", samples(), ids=lambda e: f"{e.type}")
def test_serialised_events_validate_against_their_schema_file(event: Any) -> None:
    obj = json.loads(to_bytes(event))
    errors = list(validator(event.type).iter_errors(obj))
    assert errors == []


@pytest.mark.parametrize(("change", "field"), [
    (lambda o: o["data"].update(extra=1), "extra"),
    (lambda o: o["data"].pop("user_id"), "user_id"),
    (lambda o: o.pop("type"), "type"),
    (lambda o: o.pop("specversion"), "specversion"),
    (lambda o: o.update(type="pai.chat.message.v2"), "type"),
    (lambda o: o["data"].update(role="robot"), "role"),
    (lambda o: o["data"].update(content="x" * 32001), "content"),
    (lambda o: o["data"].update(user_id="has space"), "user_id"),
])
def test_schema_file_rejects_what_the_model_rejects(change: Any, field: str) -> None:
    obj = json.loads(to_bytes(samples()[0]))
    change(obj)
    errors = list(validator("pai.chat.message.v1").iter_errors(obj))
    assert errors, f"schema accepted an event without valid {field}"


def test_command_schema_is_a_union_on_tool() -> None:
    obj = json.loads(to_bytes(samples()[1]))
    obj["data"]["tool"] = "memory_forget"
    assert list(validator("pai.memory.command.v1").iter_errors(obj))
    schema_id = json.loads(render("pai.memory.command.v1"))["$id"]
    assert schema_id == "urn:pai-memory:schemas:pai.memory.command.v1"
