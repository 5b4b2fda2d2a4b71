"""The event contract: round trips, strict rejections, keys, deterministic ids, dead letters."""

from __future__ import annotations

import base64
import contextlib
import json
import string
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.types import MemoryOperation, MemoryType, MessageRole
from schemas import (
    ID_PATTERN,
    MAX_CONTENT_CHARS,
    MAX_DLQ_VALUE_BYTES,
    MAX_EVENT_BYTES,
    ChatMessageData,
    ChatMessageEvent,
    DeadLetterEvent,
    EventTooLarge,
    InvalidEvent,
    MemoryAppendData,
    MemoryCommandEvent,
    MemoryDeleteData,
    MemoryDirtyData,
    MemoryDirtyEvent,
    MemorySaveData,
    SchemaError,
    UnexpectedEventType,
    UnknownEventType,
    UnsupportedSchemaVersion,
    event_key,
    make_dead_letter,
    make_event,
    parse_chat_message,
    parse_event,
    parse_memory_command,
    parse_memory_dirty,
    to_bytes,
)

T0 = datetime(2025, 3, 1, 8, 30, tzinfo=timezone(timedelta(hours=8)))


def chat(**over: Any) -> ChatMessageData:
    fields: dict[str, Any] = {"message_id": "m-1", "user_id": "user-1", "conversation_id": "conv-1",
                              "role": MessageRole.USER, "content": "我喜欢喝乌龙茶 and hiking",
                              "created_at": T0}
    fields.update(over)
    return ChatMessageData(**fields)


def chat_bytes(**over: Any) -> bytes:
    return to_bytes(make_event(chat(**over), source="pai-chat"))


def mutate(raw: bytes, fn: Any) -> bytes:
    obj = json.loads(raw)
    fn(obj)
    return json.dumps(obj, ensure_ascii=False).encode("utf-8")


def all_events() -> list[Any]:
    cmd_common = {"user_id": "user-1", "key": "food-favorite_tea"}
    return [
        make_event(chat(conversation_summary="用户在聊饮食偏好"), source="pai-chat"),
        make_event(MemorySaveData(command_id="c-1", memory_type=MemoryType.PREFERENCE, content="乌龙茶",
                                  importance=4, confidence=0.9, ttl_days=365, conversation_id="conv-1",
                                  **cmd_common), source="agent"),
        make_event(MemoryAppendData(command_id="c-2", content="also jasmine", **cmd_common), source="agent"),
        make_event(MemoryDeleteData(command_id="c-3", reason="user asked", **cmd_common), source="agent"),
        make_event(MemoryDirtyData(memory_id=7, user_id="user-1", user_pk=3, memory_key="food-favorite_tea",
                                   operation=MemoryOperation.OVERWRITE, outbox_id=11, changed_at=T0),
                   source="pai-memory/outbox"),
        make_dead_letter(reason="invalid_event: bad JSON", error_type="InvalidEvent",
                         topic="pai.chat.messages", partition=2, offset=41, key=b"user-1",
                         value=b"{not json", consumer_group="g",
                         headers=[("content-type", b"application/json"), ("empty", None)]),
    ]


@pytest.mark.parametrize("event", all_events(), ids=lambda e: f"{e.type}")
def test_every_event_type_round_trips(event: Any) -> None:
    raw = to_bytes(event)
    assert parse_event(raw) == event
    assert parse_event(raw.decode("utf-8")) == event  # str input too
    assert type(parse_event(raw)) is type(event)
    assert event_key(event) == b"user-1"
    assert event.subject == "user-1"


def test_typed_parsers_return_their_type_and_reject_others() -> None:
    msg, save, *_ = all_events()
    dirty = all_events()[4]
    assert isinstance(parse_chat_message(to_bytes(msg)), ChatMessageEvent)
    cmd = parse_memory_command(to_bytes(save))
    assert isinstance(cmd, MemoryCommandEvent) and isinstance(cmd.data, MemorySaveData)
    assert isinstance(parse_memory_dirty(to_bytes(dirty)), MemoryDirtyEvent)
    expected = r"expected pai\.chat\.message\.v1, got pai\.memory\.command\.v1"
    with pytest.raises(UnexpectedEventType, match=expected):
        parse_chat_message(to_bytes(save))
    with pytest.raises(UnexpectedEventType):
        parse_memory_command(to_bytes(msg))
    # a broken command is still reported as invalid, not as "unexpected"
    broken = mutate(to_bytes(save), lambda o: o["data"].pop("content"))
    with pytest.raises(InvalidEvent, match=r"data.content"):
        parse_memory_command(broken)


def test_serialisation_is_compact_utf8_without_nulls_and_timestamps_in_utc() -> None:
    raw = chat_bytes()
    text = raw.decode("utf-8")
    assert "乌龙茶" in text and "\\u" not in text
    assert ": " not in text and ", " not in text.replace("乌龙茶 and", "")
    assert "null" not in text and "conversation_summary" not in text
    obj = json.loads(raw)
    assert obj["specversion"] == "1.0" and obj["type"] == "pai.chat.message.v1"
    assert obj["schemaversion"] == 1 and obj["datacontenttype"] == "application/json"
    assert obj["dataschema"] == "urn:pai-memory:schemas:pai.chat.message.v1"
    assert obj["subject"] == "user-1"
    assert obj["data"]["created_at"] == "2025-03-01T00:30:00Z"  # +08:00 normalised to UTC
    assert obj["time"].endswith("Z")


def test_default_event_ids_are_deterministic_per_natural_key() -> None:
    a = make_event(chat(), source="x")
    b = make_event(chat(content="edited"), source="y", time=T0)
    c = make_event(chat(message_id="m-2"), source="x")
    assert a.id == b.id != c.id
    assert make_event(chat(), source="x", event_id="explicit-1").id == "explicit-1"
    save = MemorySaveData(command_id="c-9", user_id="u", key="k", content="v")
    assert make_event(save, source="a").id == make_event(save, source="b").id


def set_data(**kw: Any) -> Any:
    return lambda r: mutate(r, lambda o: o["data"].update(kw))


def pop_data(name: str) -> Any:
    return lambda r: mutate(r, lambda o: o["data"].pop(name))


def set_env(**kw: Any) -> Any:
    return lambda r: mutate(r, lambda o: o.update(kw))


def pop_env(name: str) -> Any:
    return lambda r: mutate(r, lambda o: o.pop(name))


BAD_CASES: list[tuple[str, Any, type[SchemaError], str]] = [
    ("invalid JSON", lambda r: r[:-1], InvalidEvent, "invalid JSON"),
    ("invalid UTF-8", lambda r: r.replace("乌".encode(), b"\xff\xfe"), InvalidEvent, "UTF-8"),
    ("JSON array", lambda r: b"[" + r + b"]", InvalidEvent, "JSON object"),
    ("JSON scalar", lambda r: b'"hello"', InvalidEvent, "JSON object"),
    ("empty", lambda r: b"", InvalidEvent, "invalid JSON"),
    ("NUL in content", set_data(content="a\u0000b"), InvalidEvent, "NUL"),
    ("lone surrogate", lambda r: r.replace("乌".encode(), b"\\ud800"), InvalidEvent, "JSON"),
    ("oversized content", set_data(content="x" * (MAX_CONTENT_CHARS + 1)), InvalidEvent, "data.content"),
    ("oversized summary", set_data(conversation_summary="x" * (MAX_CONTENT_CHARS + 1)), InvalidEvent,
     "data.conversation_summary"),
    ("oversized event", lambda r: r + b" " * MAX_EVENT_BYTES, EventTooLarge, "limit"),
    ("missing user_id", pop_data("user_id"), InvalidEvent, "data.user_id"),
    ("missing created_at", pop_data("created_at"), InvalidEvent, "data.created_at"),
    ("missing id", pop_env("id"), InvalidEvent, "id"),
    ("missing time", pop_env("time"), InvalidEvent, "time"),
    ("missing subject", pop_env("subject"), InvalidEvent, "subject"),
    ("missing specversion", pop_env("specversion"), InvalidEvent, "specversion"),
    ("missing type", pop_env("type"), InvalidEvent, "type"),
    ("missing data", pop_env("data"), InvalidEvent, "data"),
    ("content is a number", set_data(content=5), InvalidEvent, "data.content"),
    ("user_id is a number", set_data(user_id=5), InvalidEvent, "data.user_id"),
    ("created_at is epoch", set_data(created_at=1700000000), InvalidEvent, "created_at"),
    ("naive created_at", set_data(created_at="2025-03-01T08:00:00"), InvalidEvent, "created_at"),
    ("time out of UTC range", set_env(time="0001-01-01T00:00:00+05:00"), InvalidEvent, "time"),
    ("unknown role", set_data(role="robot"), InvalidEvent, "data.role"),
    ("bad user id", lambda r: set_env(subject="a b")(set_data(user_id="a b")(r)), InvalidEvent, "user_id"),
    ("subject differs from user", set_env(subject="user-2"), InvalidEvent, "subject"),
    ("extra data field", set_data(mood="happy"), InvalidEvent, "data.mood"),
    ("extra envelope field", set_env(partitionkey="x"), InvalidEvent, "partitionkey"),
    ("wrong specversion", set_env(specversion="0.3"), InvalidEvent, "specversion"),
    ("wrong datacontenttype", set_env(datacontenttype="text/plain"), InvalidEvent, "datacontenttype"),
    ("unknown type", set_env(type="pai.chat.reaction.v1"), UnknownEventType, "pai.chat.reaction.v1"),
    ("unknown family no version", set_env(type="whatever"), UnknownEventType, "whatever"),
    ("unsupported version in type", set_env(type="pai.chat.message.v2"), UnsupportedSchemaVersion, "v2"),
    ("unsupported schemaversion", set_env(schemaversion=2), UnsupportedSchemaVersion, "schemaversion 2"),
]


@pytest.mark.parametrize(("name", "corrupt", "error", "needle"), BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_parse_rejects_with_specific_error(name: str, corrupt: Any, error: type[SchemaError],
                                           needle: str) -> None:
    raw = corrupt(chat_bytes())
    with pytest.raises(error, match=None) as info:
        parse_event(raw)
    assert type(info.value) is error, f"{name}: {type(info.value).__name__}: {info.value}"
    assert needle in str(info.value), str(info.value)
    assert info.value.reason  # a short code for metrics / DLQ
    with pytest.raises(error):
        parse_chat_message(raw)


def test_null_value_is_invalid() -> None:
    with pytest.raises(InvalidEvent, match="null"):
        parse_event(None)


@pytest.mark.parametrize(("data", "needle"), [
    ({"tool": "memory_forget"}, "tool"),
    ({"tool": "memory_save", "content": ""}, "content"),
    ({"tool": "memory_save", "content": "x" * 1001}, "content"),
    ({"tool": "memory_save", "content": "x", "importance": 6}, "importance"),
    ({"tool": "memory_save", "content": "x", "importance": "5"}, "importance"),
    ({"tool": "memory_save", "content": "x", "importance": True}, "importance"),
    ({"tool": "memory_save", "content": "x", "confidence": 1.5}, "confidence"),
    ({"tool": "memory_save", "content": "x", "ttl_days": 0}, "ttl_days"),
    ({"tool": "memory_save", "content": "x", "memory_type": "profile"}, "memory_type"),
    ({"tool": "memory_save", "content": "x", "key": " padded"}, "key"),
    ({"tool": "memory_save", "content": "x", "key": "k" * 161}, "key"),
    ({"tool": "memory_delete", "content": "x"}, "content"),  # delete takes no content
])
def test_command_payload_rejections(data: dict[str, Any], needle: str) -> None:
    base = to_bytes(make_event(MemorySaveData(command_id="c-1", user_id="user-1", key="k", content="v"),
                               source="agent"))
    payload = {"command_id": "c-1", "user_id": "user-1", "key": "k", **data}
    raw = mutate(base, lambda o: o.update(data=payload))
    with pytest.raises(InvalidEvent) as info:
        parse_memory_command(raw)
    assert needle in str(info.value)


def test_make_event_rejects_non_payloads_and_bad_envelopes() -> None:
    with pytest.raises(TypeError):
        make_event({"message_id": "x"}, source="x")  # type: ignore[call-overload]
    with pytest.raises(InvalidEvent, match="source"):
        make_event(chat(), source="has space")


def test_dead_letter_keeps_undecodable_bytes_and_truncates_large_values() -> None:
    key = b"\xffnot-utf8"
    value = bytes(range(256)) * ((MAX_DLQ_VALUE_BYTES // 256) + 10)
    dlq = make_dead_letter(reason="boom\x00" + "r" * 10000, error_type="InvalidEvent", topic="t.in",
                           partition=0, offset=9, key=key, value=value, consumer_group="grp",
                           headers=[("h", "text"), ("b", b"\xff")], timestamp_ms=123)
    back = parse_event(to_bytes(dlq))
    assert isinstance(back, DeadLetterEvent) and back == dlq
    assert dlq.subject is None and dlq.data.source_key is None
    assert dlq.data.original_key() == key and event_key(dlq) == key
    assert dlq.data.value_truncated and dlq.data.value_size == len(value)
    assert dlq.data.original_value() == value[:MAX_DLQ_VALUE_BYTES]
    assert [base64.b64decode(h.value_b64 or "") for h in dlq.data.headers] == [b"text", b"\xff"]
    assert "\x00" not in dlq.data.reason and len(dlq.data.reason) <= 4000
    # a tombstone (null value) stays distinguishable from an empty value
    tomb = make_dead_letter(reason="r", error_type="E", topic="t", partition=0, offset=1, key=None,
                            value=None, consumer_group="g")
    assert tomb.data.original_value() is None and tomb.data.value_size == 0
    assert event_key(tomb) == tomb.id.encode()
    # same source position -> same event id (a re-sent dead letter is recognisably the same)
    again = make_dead_letter(reason="other", error_type="E", topic="t.in", partition=0, offset=9, key=key,
                             value=b"", consumer_group="grp")
    assert again.id == dlq.id


# --- property tests ---------------------------------------------------------------------------
ids = st.from_regex(ID_PATTERN, fullmatch=True)
texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                max_size=300)
offsets = st.integers(min_value=-(24 * 60 - 1), max_value=24 * 60 - 1).map(
    lambda m: timezone(timedelta(minutes=m)))
aware = st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1), timezones=offsets)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(message_id=ids, user_id=ids, conversation_id=ids, role=st.sampled_from(MessageRole), content=texts,
       created_at=aware, summary=st.none() | texts, time=aware)
def test_any_valid_chat_message_round_trips(message_id: str, user_id: str, conversation_id: str,
                                            role: MessageRole, content: str, created_at: datetime,
                                            summary: str | None, time: datetime) -> None:
    data = ChatMessageData(message_id=message_id, user_id=user_id, conversation_id=conversation_id, role=role,
                           content=content, created_at=created_at, conversation_summary=summary)
    event = make_event(data, source="pai-chat", time=time)
    raw = to_bytes(event)
    back = parse_chat_message(raw)
    assert back == event
    assert back.data.created_at == created_at and back.data.created_at.tzinfo == UTC
    assert back.data.content == content
    assert event_key(back) == user_id.encode()
    assert to_bytes(back) == raw  # canonical


@settings(max_examples=300)
@given(st.binary(max_size=400) | st.text(alphabet=string.printable + "{}[]\":,乌", max_size=200)
       .map(lambda s: s.encode()))
def test_parse_event_only_ever_raises_schema_errors(raw: bytes) -> None:
    with contextlib.suppress(SchemaError):
        parse_event(raw)


@settings(max_examples=200)
@given(field=st.sampled_from(["message_id", "user_id", "conversation_id", "role", "content", "created_at"]),
       value=st.none() | st.integers() | st.floats(allow_nan=False) | st.booleans() | st.lists(st.integers(),
                                                                                                max_size=2))
def test_wrong_typed_fields_are_invalid_events(field: str, value: Any) -> None:
    raw = mutate(chat_bytes(), lambda o: o["data"].update({field: value}))
    with pytest.raises(InvalidEvent):
        parse_event(raw)
