"""``pai-memory publish``: JSONL lines -> events, mixed valid/invalid files, real delivery."""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer

from cli.main import main as cli_main
from cli.publish_cmd import open_input, sample_names
from core.config import Settings, load_settings
from core.types import MessageRole
from localstack.topics import ensure_topics
from producers.kafka_config import client_config
from producers.publish import InputKind, InvalidLine, conversation_message_id, events_from_line, publish_lines
from schemas import (
    ID_PATTERN,
    MAX_CONTENT_CHARS,
    ChatMessageData,
    ChatMessageEvent,
    MemoryCommandEvent,
    MemorySaveData,
    make_dead_letter,
    make_event,
    parse_event,
    to_bytes,
)

T0 = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
ENVELOPE = make_event(ChatMessageData(message_id="env-1", user_id="u-env", conversation_id="c-env",
                                      role=MessageRole.USER, content="I prefer dark mode", created_at=T0),
                      source="upstream", time=T0)
CONVERSATION = {"user_id": "u-conv", "conversation_id": "conv-9", "conversation_summary": "about tea",
                "messages": [{"role": "user", "content": "我最喜欢喝普洱茶"},
                             {"role": "assistant", "content": "普洱很香！"},
                             {"role": "user", "content": "每天早上都喝一杯"}]}


def line(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode("utf-8")


# --- line parsing (no services) -------------------------------------------------------------------
def test_conversation_message_ids_never_collide_across_users() -> None:
    """Issue 26: two users whose conversations share an id (``x``) get distinct message ids, and a
    user id holding ``:`` cannot forge another user's ids."""
    two = [events_from_line(line({"user_id": u, "conversation_id": "x",
                                  "messages": [{"role": "user", "content": "hello"}]}), now=T0)[0]
           for u in ("u1", "u2")]
    assert two[0].data.message_id != two[1].data.message_id  # type: ignore[union-attr]
    assert conversation_message_id("a:b", "c", 0) != conversation_message_id("a", "b:c", 0)
    long_id = conversation_message_id("u" * 128, "c" * 128, 10**6)
    assert len(long_id) <= 128 and re.fullmatch(ID_PATTERN, long_id)


def test_conversation_expands_to_messages_with_stable_ids_in_order() -> None:
    events = events_from_line(line(CONVERSATION), now=T0)
    assert [type(e) for e in events] == [ChatMessageEvent] * 3
    ids = [conversation_message_id("u-conv", "conv-9", i) for i in range(3)]
    assert [e.data.message_id for e in events] == ids  # type: ignore[union-attr]
    assert ids[0].startswith("conv-9:0:")
    assert [e.data.role for e in events] == ["user", "assistant", "user"]  # type: ignore[union-attr]
    times = [e.data.created_at for e in events]  # type: ignore[union-attr]
    assert times == sorted(times) and times[-1] == T0
    assert all(e.subject == "u-conv" and e.data.conversation_summary == "about tea" for e in events)  # type: ignore[union-attr]
    again = events_from_line(line(CONVERSATION), now=T0 + timedelta(hours=1))
    assert [e.id for e in again] == [e.id for e in events]  # re-publishing yields the same event ids


def test_envelopes_bare_messages_and_commands_are_accepted() -> None:
    [env] = events_from_line(to_bytes(ENVELOPE))
    assert env == ENVELOPE
    bare = {"message_id": "b-1", "user_id": "u1", "conversation_id": "c1", "role": "user", "content": "hi",
            "created_at": "2025-01-02T11:04:05+08:00"}
    [msg] = events_from_line(line(bare), InputKind.MESSAGES, source="me")
    assert isinstance(msg, ChatMessageEvent) and msg.source == "me" and msg.data.created_at == T0
    cmd = {"tool": "memory_save", "command_id": "k-1", "user_id": "u1", "key": "tea", "content": "普洱",
           "memory_type": "preference", "importance": 4}
    [command] = events_from_line(line(cmd), InputKind.COMMANDS)
    assert isinstance(command, MemoryCommandEvent) and isinstance(command.data, MemorySaveData)


@pytest.mark.parametrize(("raw", "kind", "needle"), [
    (b"{nope", InputKind.AUTO, "invalid JSON"),
    (b"\xff\xfe{}", InputKind.AUTO, "UTF-8"),
    (b"[1, 2]", InputKind.AUTO, "JSON object"),
    (line({"hello": "world"}), InputKind.AUTO, "cannot tell"),
    (line({"role": "user", "content": "x"}), InputKind.AUTO, "user_id"),
    (line({**CONVERSATION, "messages": []}), InputKind.AUTO, "messages"),
    (line({**CONVERSATION, "messages": [{"role": "user", "content": "x" * (MAX_CONTENT_CHARS + 1)}]}),
     InputKind.AUTO, "content"),
    (line({"tool": "memory_save", "command_id": "k", "user_id": "u", "key": "k"}), InputKind.AUTO, "content"),
    (line({"tool": "memory_save", "command_id": "k", "user_id": "u", "key": "k", "content": "c"}),
     InputKind.MESSAGES, "not a chat message"),
    (line(CONVERSATION), InputKind.COMMANDS, "not a memory command"),
    (to_bytes(ENVELOPE).replace(b"pai.chat.message.v1", b"pai.chat.message.v7"), InputKind.AUTO, "v7"),
])
def test_invalid_lines_say_why(raw: bytes, kind: InputKind, needle: str) -> None:
    with pytest.raises(InvalidLine) as info:
        events_from_line(raw, kind)
    assert needle in str(info.value)


def test_bundled_samples_are_valid_bilingual_and_cover_several_users() -> None:
    assert {"demo_conversations", "demo_commands"} <= set(sample_names())
    settings = load_settings()
    users: set[str] = set()
    contents: list[str] = []
    for name in ("demo_conversations", "demo_commands"):
        with open_input(f"sample:{name}") as handle:
            lines = handle.read().splitlines()
        summary = publish_lines(lines, None, settings=settings)
        assert summary.invalid == 0 and summary.events > 0, summary.errors
        for raw in lines:
            for event in events_from_line(raw):
                users.add(event.subject or "")
                contents.append(getattr(event.data, "content", ""))
    assert len(users) >= 6
    assert any(re.search(r"[\u4e00-\u9fff]", c) for c in contents)
    assert any(re.fullmatch(r"[\x20-\x7e]+", c) for c in contents)


def test_dry_run_needs_no_broker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:1")
    path = tmp_path / "in.jsonl"
    path.write_bytes(line(CONVERSATION) + b"\n" + b"oops\n")
    started = time.monotonic()
    assert cli_main(["publish", str(path), "--dry-run"]) == 1
    assert time.monotonic() - started < 5
    out = json.loads(capsys.readouterr().out)
    assert out["dry_run"] is True and out["events"] == 3 and out["invalid"] == 1 and out["published"] == 0
    assert cli_main(["publish", str(path), "--dry-run", "--skip-invalid"]) == 0
    assert cli_main(["publish", str(tmp_path / "absent.jsonl")]) == 2
    assert cli_main(["publish", "sample:no_such_sample", "--dry-run"]) == 2


# --- real delivery ------------------------------------------------------------------------------------
def _read_all(settings: Settings, topic: str, n: int, timeout: float = 30.0) -> list[Any]:
    consumer = Consumer({**client_config(settings), "group.id": f"r-{topic}-{time.time_ns()}",
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    consumer.subscribe([topic])
    out = []
    deadline = time.monotonic() + timeout
    try:
        while len(out) < n and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is not None and msg.error() is None:
                out.append(msg)
        assert consumer.poll(1.0) is None
    finally:
        consumer.close()
    assert len(out) == n, f"read {len(out)} of {n}"
    return out


@pytest.fixture
def cli_env(settings: Settings, unique_name: Callable[[str], str],
            monkeypatch: pytest.MonkeyPatch) -> Settings:
    """Environment for the CLI: the test broker and private topics."""
    chat, commands = unique_name("pub_chat"), unique_name("pub_cmd")
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", settings.KAFKA_BOOTSTRAP_SERVERS)
    monkeypatch.setenv("TOPIC_CHAT_MESSAGES", chat)
    monkeypatch.setenv("TOPIC_MEMORY_COMMANDS", commands)
    own = load_settings()
    ensure_topics(own, {chat: 2, commands: 2})
    return own


@pytest.mark.services
def test_mixed_file_publishes_valid_lines_and_reports_invalid_ones(
        cli_env: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dlq = make_dead_letter(reason="r", error_type="E", topic="t", partition=0, offset=0, key=b"u", value=b"",
                           consumer_group="g")
    rows: list[bytes] = [
        line(CONVERSATION),                                                                  # 1: 3 messages
        b"",                                                                                 # 2: blank
        line({"message_id": "bare-1", "user_id": "u-bare", "conversation_id": "c", "role": "user",
              "content": "I work as a nurse in Leeds", "created_at": "2025-01-01T00:00:00Z"}),  # 3
        b'{"message_id": "x", ',                                                             # 4: bad JSON
        to_bytes(ENVELOPE),                                                                  # 5
        "{\"role\": \"user\", \"content\": \"caf\xe9\"}".encode("latin-1"),                  # 6: bad UTF-8
        line({"message_id": "m", "conversation_id": "c", "role": "user", "content": "x",
              "created_at": "2025-01-01T00:00:00Z"}),                                        # 7: no user
        line({"tool": "memory_delete", "command_id": "del-1", "user_id": "u-conv", "key": "tea"}),  # 8
        to_bytes(ENVELOPE).replace(b'"pai.chat.message.v1"', b'"pai.chat.poll.v1"'),         # 9: unknown
        to_bytes(dlq),                                                                       # 10: no topic
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(rows) + b"\n")

    assert cli_main(["publish", str(path)]) == 1
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["published"] == 6 and summary["failed"] == 0 and summary["invalid"] == 5
    assert summary["topics"] == {cli_env.TOPIC_CHAT_MESSAGES: 5, cli_env.TOPIC_MEMORY_COMMANDS: 1}
    assert [e["line"] for e in summary["errors"]] == [4, 6, 7, 9, 10]
    reported = [int(m) for m in re.findall(r"^line (\d+): ", captured.err, flags=re.M)]
    assert reported == [4, 6, 7, 9, 10]
    assert "unknown event type" in captured.err and "UTF-8" in captured.err

    chats = [parse_event(r.value()) for r in _read_all(cli_env, cli_env.TOPIC_CHAT_MESSAGES, 5)]
    assert sorted(e.data.message_id for e in chats) == sorted(  # type: ignore[union-attr]
        ["bare-1", "env-1"] + [conversation_message_id("u-conv", "conv-9", i) for i in range(3)])
    assert ENVELOPE in chats  # envelopes are published as given
    [cmd] = [parse_event(r.value()) for r in _read_all(cli_env, cli_env.TOPIC_MEMORY_COMMANDS, 1)]
    assert isinstance(cmd, MemoryCommandEvent) and cmd.data.command_id == "del-1"

    # --skip-invalid: same outcome, exit 0; re-publishing yields the same event ids (idempotent downstream)
    assert cli_main(["publish", str(path), "--skip-invalid", "--kind", "auto"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["published"] == 6
    records = _read_all(cli_env, cli_env.TOPIC_CHAT_MESSAGES, 10)
    ids = [parse_event(r.value()).id for r in records]
    assert len(set(ids)) == 5 and all(ids.count(i) == 2 for i in ids)


@pytest.mark.services
def test_stdin_and_topic_override(cli_env: Settings, unique_name: Callable[[str], str],
                                  monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    target = unique_name("pub_override")
    data = line(CONVERSATION) + b"\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert cli_main(["publish", "-", "--topic", target, "--kind", "messages", "--create-topics"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["published"] == 3 and summary["topics"] == {target: 3}
    keys = {r.key() for r in _read_all(cli_env, target, 3)}
    assert keys == {b"u-conv"}


@pytest.mark.services
def test_delivery_failures_are_counted_and_fail_the_run(
        cli_env: Settings, tmp_path: Path, unique_name: Callable[[str], str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KAFKA_CLIENT_OPTIONS", json.dumps({"topic.metadata.propagation.max.ms": 1000,
                                                           "message.timeout.ms": 10000}))
    path = tmp_path / "c.jsonl"
    path.write_bytes(line(CONVERSATION) + b"\n")
    assert cli_main(["publish", str(path), "--topic", unique_name("nonexistent")]) == 1
    summary = json.loads(capsys.readouterr().out)
    assert summary["published"] == 0 and summary["failed"] == 3 and summary["invalid"] == 0
    assert all("delivery failed" in e["error"] for e in summary["errors"])
