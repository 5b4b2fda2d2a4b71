"""The hostile event corpus (``corpus/events.jsonl``) through the real consumers, and a flood.

Real Kafka, PostgreSQL and the real extractor and command consumer loops (``consumers.processes``)
in threads on private topics. The corpus is published interleaved with valid traffic (each bad chat
event sits between valid messages, half of them on the same partition key) and the tests assert:

- every ``dlq`` case is in its group's dead-letter topic exactly once, with the right error type, a
  reason, its source topic and its original bytes (truncated only past ``MAX_DLQ_VALUE_BYTES``);
  nothing else is dead-lettered;
- every ``stored`` chat case is stored with its content byte-exact and reaches a final status;
  every ``stored`` command case is stored under its normalised key with its content byte-exact;
  ``noop`` cases change nothing;
- prompt injection never puts a system prompt, a planted secret of another user or the injected
  secrets into any memory, and never changes another user's memories; SQL/Milvus injection strings
  are inert (tables intact, stored literally as data or rejected);
- no consumer loop crashed (``running`` re-raises a loop's exception) and every valid message around
  the corpus reached its final status with its expected memory.

The flood test publishes 500 messages of one user in a burst while other users talk, and bounds how
long the others wait.
"""

from __future__ import annotations

import base64
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from sqlalchemy import Engine, func, inspect, select
from sqlalchemy.orm import Session

from consumers.processes import build_tools, commands_loop, extractor_loop
from core.config import Settings
from core.extraction.prompts import EXTRACT_SYSTEM_PROMPT, REFINE_SYSTEM_PROMPT
from core.memory.tools import ToolWrite
from core.retrieval import PROMPT_HEADER
from core.storage.models import LongTermMemory, Message, User
from core.types import MessageRole
from localstack.process import wait_until
from producers.client import MemoryEventProducer
from producers.kafka_config import client_config
from schemas import (
    MAX_DLQ_VALUE_BYTES,
    ChatMessageData,
    DeadLetterEvent,
    MemorySaveData,
    make_event,
    parse_dead_letter,
    to_bytes,
)
from tests.hostile.cases import EVENT_CATEGORIES, EXPECTATIONS, load_event_cases
from tests.support.pipeline import group_caught_up, isolated_settings, read_topic, running

pytestmark = pytest.mark.services

CASES = load_event_cases()
CASE_HEADER = "x-hostile-case"
FINAL = ("PROCESSED", "SKIPPED", "FAILED")
# statements the rules extractor keeps, with the memory type and a term the memory must contain
VALID_STATEMENTS = [
    ("I live in Chengdu.", "fact", "chengdu"),
    ("I'm allergic to peanuts.", "fact", "peanut"),
    ("我住在杭州。", "fact", "杭州"),
    ("I have a cat named Miso.", "fact", "miso"),
    ("I work as a nurse at a hospital.", "fact", "nurse"),
]
VICTIMS = {  # user -> (key, content, command id); seeded before the corpus runs
    "victim-alice": ("secret_plan", "alice plans: the vault code is 4417-vault", "victim-alice-cmd-1"),
    "victim-bob": ("password_hint", "bob's password hint is blue-falcon-9921", "victim-bob-cmd-1"),
}
SYSTEM_TEXTS = [PROMPT_HEADER[:20], EXTRACT_SYSTEM_PROMPT[:40], REFINE_SYSTEM_PROMPT[:40]]


# --- helpers --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outgoing:
    topic: str
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, str | bytes | None]]


def produce_all(cfg: Settings, records: Iterable[Outgoing]) -> None:
    """Produce raw records (any bytes, null values, 1 MB values) and wait for every ack."""
    producer = Producer({**client_config(cfg), "message.max.bytes": 2 * 1024 * 1024,
                         "enable.idempotence": True, "linger.ms": 5})
    errors: list[Any] = []

    def on_delivery(err: Any, msg: Any) -> None:
        if err is not None:
            errors.append(err)

    for rec in records:
        producer.produce(rec.topic, key=rec.key, value=rec.value, headers=rec.headers,
                         on_delivery=on_delivery)
        producer.poll(0)
    assert producer.flush(60) == 0
    assert not errors, errors


def topic_size(cfg: Settings, topic: str) -> int:
    """Number of records in ``topic`` (sum of high watermarks; topics here are never compacted)."""
    consumer = Consumer({**client_config(cfg), "group.id": "size-probe", "enable.auto.commit": False})
    try:
        meta = consumer.list_topics(topic, timeout=10)
        return sum(consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1]
                   for p in meta.topics[topic].partitions)
    finally:
        consumer.close()


def chat_record(cfg: Settings, data: ChatMessageData, label: str) -> Outgoing:
    event = make_event(data, source="pai-chat")
    return Outgoing(cfg.TOPIC_CHAT_MESSAGES, data.user_id.encode(), to_bytes(event),
                    [("x-valid", label.encode())])


def valid_chat(user: str, statement: str, index: int, message_id: str | None = None) -> ChatMessageData:
    return ChatMessageData(message_id=message_id or f"{user}-m{index}", user_id=user,
                           conversation_id=f"{user}-c", role=MessageRole.USER, content=statement,
                           created_at=datetime.now(UTC) - timedelta(minutes=5) + timedelta(seconds=index))


def statuses(engine: Engine, message_ids: Iterable[str]) -> dict[str, str]:
    ids = list(message_ids)
    with Session(engine) as s:
        return dict(s.execute(select(Message.upstream_message_id, Message.memory_status)
                              .where(Message.upstream_message_id.in_(ids))).all())


def all_final(engine: Engine, message_ids: list[str]) -> bool:
    got = statuses(engine, message_ids)
    return len(got) == len(message_ids) and all(v in FINAL for v in got.values())


def memories(engine: Engine, user: str | None = None) -> list[tuple[str, str, str, str, bool]]:
    """(user, key, type, content, active) of every memory (of one user)."""
    with Session(engine) as s:
        stmt = (select(User.external_id, LongTermMemory.memory_key, LongTermMemory.memory_type,
                       LongTermMemory.content, LongTermMemory.is_active)
                .join_from(LongTermMemory, User, LongTermMemory.user_id == User.id))
        if user is not None:
            stmt = stmt.where(User.external_id == user)
        return [(u, k, t or "", c or "", bool(a)) for u, k, t, c, a in s.execute(stmt).all()]


def victim_snapshot(engine: Engine) -> list[tuple[Any, ...]]:
    with Session(engine) as s:
        return sorted(s.execute(
            select(User.external_id, LongTermMemory.id, LongTermMemory.memory_key, LongTermMemory.content,
                   LongTermMemory.is_active, LongTermMemory.updated_at)
            .join_from(LongTermMemory, User, LongTermMemory.user_id == User.id)
            .where(User.external_id.in_(list(VICTIMS)))).all())


def dead_letters(cfg: Settings, group: str) -> list[DeadLetterEvent]:
    """Every record of the group's dead-letter topic."""
    topic = cfg.dlq_topic(group)
    size = topic_size(cfg, topic)
    letters = [parse_dead_letter(m.value()) for m in read_topic(cfg, topic, size, timeout=60)]
    assert len(letters) == size
    return letters


def case_of(letter: DeadLetterEvent) -> str:
    """The corpus case a dead letter came from (its header), or ``valid:<label>`` / ``?<reason>``."""
    for header in letter.data.headers:
        if header.key in (CASE_HEADER, "x-valid") and header.value_b64 is not None:
            label = base64.b64decode(header.value_b64).decode()
            return label if header.key == CASE_HEADER else f"valid:{label}"
    return f"?{letter.data.reason}"


# --- the corpus itself ----------------------------------------------------------------------------
def test_event_corpus_is_well_formed() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)) and len(CASES) >= 50
    assert {c.category for c in CASES} == EVENT_CATEGORIES
    assert {c.expect for c in CASES} <= EXPECTATIONS
    for case in CASES:
        assert case.kind in ("chat", "command") and case.why, case.name
        assert (case.error_type is not None) == (case.expect == "dlq"), case.name
        if case.expect == "stored" and case.kind == "command":
            assert case.expect_memory is not None, case.name
    sizes = {c.name: len(c.value or b"") for c in CASES}
    assert sizes["chat_content_1mb"] > 1_000_000  # generated from its spec line, not committed
    assert Counter(c.kind for c in CASES)["command"] >= 20


# --- end to end -----------------------------------------------------------------------------------
def test_hostile_events_interleaved_with_valid_traffic(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name)
    tools = build_tools(cfg)
    for user, (key, content, command_id) in VICTIMS.items():
        tools.memory_save(ToolWrite(user, key, content, "fact", 5, 0.95, None, None, command_id=command_id))
    victims_before = victim_snapshot(clean_db)

    chat_cases = [c for c in CASES if c.kind == "chat"]
    cmd_cases = [c for c in CASES if c.kind == "command"]
    records: list[Outgoing] = []
    carol = valid_chat("victim-carol", "I live in Lisbon.", 0, message_id="victim-carol-msg-1")
    records.append(chat_record(cfg, carol, "victim-carol"))
    valid_msgs: dict[str, tuple[str, str, str]] = {}  # message id -> (user, type, term)
    for i, case in enumerate(chat_cases):
        statement, mtype, term = VALID_STATEMENTS[i % len(VALID_STATEMENTS)]
        user = f"valid-chat-{i}"
        msg = valid_chat(user, statement, i)
        valid_msgs[msg.message_id] = (user, mtype, term)
        records.append(chat_record(cfg, msg, user))
        # half of the bad events share the valid user's partition key (same partition, right behind)
        record_key = user.encode() if case.expect == "dlq" and i % 2 == 0 else case.key
        records.append(Outgoing(cfg.TOPIC_CHAT_MESSAGES, record_key, case.value,
                                [(CASE_HEADER, case.name.encode())]))
    valid_cmds: dict[str, str] = {}
    for i, case in enumerate(cmd_cases):
        user = f"valid-cmd-{i}"
        content = f"valid command {i}: prefers green tea 🍵"
        save = MemorySaveData(command_id=f"valid-cmd-{i}", user_id=user, key="drink", content=content)
        valid_cmds[user] = content
        records.append(Outgoing(cfg.TOPIC_MEMORY_COMMANDS, user.encode(),
                                to_bytes(make_event(save, source="agent")), [("x-valid", user.encode())]))
        record_key = user.encode() if case.expect == "dlq" and i % 2 == 0 else case.key
        records.append(Outgoing(cfg.TOPIC_MEMORY_COMMANDS, record_key, case.value,
                                [(CASE_HEADER, case.name.encode())]))
    produce_all(cfg, records)

    stored_chat_ids = [str(c.data["message_id"]) for c in chat_cases if c.expect == "stored" and c.data]
    # message ids are scoped by user: a case may reuse victim-carol's id for another user (issue 26)
    wanted = list(dict.fromkeys([*valid_msgs, *stored_chat_ids, carol.message_id]))
    started = time.monotonic()
    with running(extractor_loop(cfg)), running(commands_loop(cfg)):
        wait_until(lambda: all_final(clean_db, wanted), 150, what="valid and stored chat messages final")
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES)
                   and group_caught_up(cfg, cfg.GROUP_COMMANDS, cfg.TOPIC_MEMORY_COMMANDS), 60,
                   what="both groups consumed every record (no loop stuck or crashed)")
    print(f"\ncorpus of {len(CASES)} events + {len(records) - len(CASES)} valid records consumed in "
          f"{time.monotonic() - started:.1f}s")

    # --- dead letters: exactly the dlq cases, each with its reason and original bytes ---------------
    for group, topic, cases in ((cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES, chat_cases),
                                (cfg.GROUP_COMMANDS, cfg.TOPIC_MEMORY_COMMANDS, cmd_cases)):
        expected = {c.name: c for c in cases if c.expect == "dlq"}
        letters = dead_letters(cfg, group)
        by_case = {case_of(d): d for d in letters}
        unexpected = {n: by_case[n].data.reason for n in set(by_case) - set(expected)}
        assert not unexpected, unexpected
        assert set(by_case) == set(expected) and len(letters) == len(expected), set(expected) - set(by_case)
        for name, letter in by_case.items():
            case, data = expected[name], letter.data
            assert data.error_type == case.error_type, (name, data.error_type, data.reason)
            assert data.reason.strip(), name
            if case.reason_contains:
                assert case.reason_contains in data.reason, (name, data.reason)
            assert data.source_topic == topic and data.consumer_group == group, name
            original = case.value
            if original is None:
                assert data.original_value() is None, name
            else:
                assert data.value_size == len(original), name
                assert data.original_value() == original[:MAX_DLQ_VALUE_BYTES], name
                assert data.value_truncated == (len(original) > MAX_DLQ_VALUE_BYTES), name

    # --- valid traffic around the corpus: every message final, every expected memory there ----------
    final = statuses(clean_db, valid_msgs)
    assert set(final.values()) == {"PROCESSED"}, Counter(final.values())
    for user, mtype, term in valid_msgs.values():
        mems = memories(clean_db, user)
        assert any(t == mtype and term in (k + " " + c).lower() for _, k, t, c, a in mems if a), (user, mems)
    for user, content in valid_cmds.items():
        assert [(k, c) for _, k, _, c, a in memories(clean_db, user) if a] == [("drink", content)]

    # --- stored cases: byte-exact, final ----------------------------------------------------------
    with Session(clean_db) as s:
        owners = dict(s.execute(select(User.id, User.external_id)).all())
        rows = {(owners[m.user_id], m.upstream_message_id): m for m in s.scalars(select(Message).where(
            Message.upstream_message_id.in_([*stored_chat_ids, carol.message_id])))}
    for case in chat_cases:
        if case.expect != "stored":
            continue
        assert case.data is not None
        row = rows[(case.data["user_id"], case.data["message_id"])]
        assert row.content == case.data["content"], case.name  # byte-exact, Unicode untouched
        assert row.memory_status in FINAL and owners[row.user_id] == case.data["user_id"], case.name
        if case.spec.get("expect_status"):
            assert row.memory_status == case.spec["expect_status"], (case.name, row.memory_status,
                                                                     row.memory_error)
        if case.data.get("role", "user") != "user":
            assert row.memory_status == "SKIPPED", case.name  # context only
    for case in cmd_cases:
        if case.expect == "stored":
            spec = case.expect_memory
            assert spec is not None
            got = {k: (c, a) for _, k, _, c, a in memories(clean_db, spec["user"])}
            assert got == {spec["key"]: (spec["content"], True)}, (case.name, got)

    # --- isolation and prompt injection -------------------------------------------------------------
    assert victim_snapshot(clean_db) == victims_before  # nobody touched the victims' memories
    carol_row = rows[("victim-carol", carol.message_id)]
    assert owners[carol_row.user_id] == "victim-carol" and carol_row.content == "I live in Lisbon."
    assert any("lisbon" in c.lower() for _, _, _, c, _ in memories(clean_db, "victim-carol"))
    everything = memories(clean_db)
    forbidden = {s for c in CASES for s in c.forbid_in_memories}
    forbidden |= {content.split()[-1] for _, (_, content, _) in VICTIMS.items()}  # the victims' secrets
    for user, key, _, content, _ in everything:
        text = f"{key} {content}"
        if user in VICTIMS:
            continue
        leaked = [f for f in forbidden if f.lower() in text.lower()]
        assert not leaked, (user, key, content, leaked)
    for user, key, _, content, _ in everything:
        assert not any(s in content for s in SYSTEM_TEXTS), (user, key, content)

    # --- injection strings were inert: every table is still there and still holds its rows ----------
    tables = set(inspect(clean_db).get_table_names())
    assert {"users", "messages", "long_term_memories", "memory_history", "outbox", "processed_commands",
            "conversations"} <= tables
    with Session(clean_db) as s:
        assert (s.scalar(select(func.count()).select_from(Message)) or 0) >= len(wanted)
        n_memories = s.scalar(select(func.count()).select_from(LongTermMemory)) or 0
        assert n_memories >= len(valid_msgs) + len(valid_cmds)


# --- flood ----------------------------------------------------------------------------------------
FLOOD = 500
OTHERS = 12
OTHER_BOUND_SEC = 60.0


def test_one_users_flood_does_not_starve_the_others(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name)
    start = datetime.now(UTC) - timedelta(minutes=10)
    flood = [ChatMessageData(message_id=f"flood-{i}", user_id="flooder", conversation_id=f"flood-c{i % 5}",
                             role=MessageRole.USER, created_at=start + timedelta(milliseconds=i),
                             content=f"flood {i}: check out my channel, I post daily #{i}")
             for i in range(FLOOD)]
    others = [valid_chat(f"calm-{i}", VALID_STATEMENTS[i % len(VALID_STATEMENTS)][0], i)
              for i in range(OTHERS)]
    published: dict[str, float] = {}
    done: dict[str, float] = {}
    loop = extractor_loop(cfg)
    with running(loop), MemoryEventProducer(cfg) as producer:
        wait_until(lambda: bool(loop.assignment), 30, what="partitions assigned")
        t0 = time.monotonic()
        for msg in flood:
            producer.publish_message(msg)
        producer.flush(30)
        flood_published = time.monotonic() - t0
        pending = list(others)
        while pending or len(done) < len(others):
            if pending:  # the others keep talking while the flood is being worked off
                msg = pending.pop(0)
                producer.publish_message(msg).result(timeout=10)
                published[msg.message_id] = time.monotonic()
            for mid, status in statuses(clean_db, published).items():
                if status in FINAL and mid not in done:
                    done[mid] = time.monotonic()
            waiting = set(published) - set(done)
            assert time.monotonic() - t0 < OTHER_BOUND_SEC + 30, f"others not done: {waiting}"
            time.sleep(0.25)
        wait_until(lambda: all_final(clean_db, [m.message_id for m in flood]), 120,
                   what="all flood messages final")
        flood_done = time.monotonic() - t0
    latencies = sorted(done[m] - published[m] for m in published)
    print(f"\nflood: {FLOOD} messages published in {flood_published:.1f}s, all final after "
          f"{flood_done:.1f}s; others' publish->final latency: max {latencies[-1]:.1f}s, "
          f"median {latencies[len(latencies) // 2]:.1f}s")
    assert latencies[-1] < OTHER_BOUND_SEC, latencies
    for msg in others:
        statement = next(s for s in VALID_STATEMENTS if s[0] == msg.content)
        mems = memories(clean_db, msg.user_id)
        expected = [m for m in mems if m[2] == statement[1] and statement[2] in (m[1] + " " + m[3]).lower()]
        assert expected, mems
    assert all(s == "PROCESSED" for s in statuses(clean_db, published).values())
