"""The extractor group end to end: Kafka chat events -> PostgreSQL memories, history, outbox."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from consumers.processes import extractor_loop
from core.config import Settings
from core.storage.models import Episode, LongTermMemory, MemoryHistory, Message, OutboxEvent, User
from localstack.process import wait_until
from producers.client import MemoryEventProducer
from producers.kafka_config import client_config
from schemas import ChatMessageData, parse_dead_letter
from tests.support.pipeline import (
    conversation,
    group_caught_up,
    isolated_settings,
    read_topic,
    running,
)

pytestmark = pytest.mark.services


def publish(settings: Settings, messages: list[ChatMessageData]) -> None:
    with MemoryEventProducer(settings) as producer:
        for m in messages:
            producer.publish_message(m)
        producer.flush(30)


def all_final(engine: Engine, n: int) -> bool:
    with Session(engine) as s:
        rows = s.scalars(select(Message.memory_status)).all()
        return len(rows) >= n and all(st in ("PROCESSED", "SKIPPED", "FAILED") for st in rows)


def live(engine: Engine, user: str) -> dict[str, tuple[str, str]]:
    with Session(engine) as s:
        rows = s.execute(
            select(LongTermMemory.memory_key, LongTermMemory.memory_type, LongTermMemory.content)
            .join_from(LongTermMemory, User, LongTermMemory.user_id == User.id)
            .where(LongTermMemory.is_active.is_(True), User.external_id == user)
        ).all()
        return {k: (t or "", c or "") for k, t, c in rows}


def snapshot(engine: Engine) -> dict[str, Any]:
    with Session(engine) as s:
        return {
            "memories": sorted(
                (m.id, m.memory_key, m.content, m.is_active, m.updated_at.isoformat())
                for m in s.scalars(select(LongTermMemory))
            ),
            "history": s.scalar(select(func.count()).select_from(MemoryHistory)),
            "outbox": s.scalar(select(func.count()).select_from(OutboxEvent)),
            "messages": sorted(
                (m.upstream_message_id, m.memory_status, m.memory_attempts)
                for m in s.scalars(select(Message))
            ),
        }


def contains(memories: dict[str, tuple[str, str]], mtype: str, *terms: str) -> bool:
    return any(
        t == mtype and any(term.lower() in (k + " " + c).lower() for term in terms)
        for k, (t, c) in memories.items()
    )


EN_TURNS = [
    ("user", "I live in Wuhan and I work as a backend engineer at a logistics company."),
    ("assistant", "Nice! Wuhan is a great city. Anything I can help you with today?"),
    ("user", "I'm allergic to peanuts, so please never suggest recipes with peanuts."),
]
ZH_TURNS = [
    ("user", "我平时特别喜欢喝乌龙茶，咖啡基本不碰"),
    ("assistant", "乌龙茶很香！需要推荐几款吗？"),
    ("user", "不用啦。另外我在准备日语N1考试，目标是今年年底前考过"),
]
NOISE_TURNS = [
    ("user", "What's the weather like today?"),
    ("assistant", "It's sunny, 25 degrees."),
    ("user", "Remind me to buy milk tomorrow morning."),
]


def test_conversations_become_memories_in_one_transaction(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name)
    msgs = (
        conversation("e2e-en", "c-en", EN_TURNS)
        + conversation("e2e-zh", "c-zh", ZH_TURNS)
        + conversation("e2e-noise", "c-noise", NOISE_TURNS)
    )
    publish(cfg, msgs)
    with running(extractor_loop(cfg)):
        wait_until(lambda: all_final(clean_db, len(msgs)), 90, what="all messages final")
        wait_until(
            lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES),
            30,
            what="offsets committed",
        )

    en, zh, noise = live(clean_db, "e2e-en"), live(clean_db, "e2e-zh"), live(clean_db, "e2e-noise")
    assert contains(en, "fact", "wuhan"), en
    assert contains(en, "constraint", "peanut") or contains(en, "fact", "peanut"), en
    assert contains(zh, "preference", "乌龙茶"), zh
    assert contains(zh, "goal", "N1"), zh
    assert noise == {}, noise
    assert not any("sunny" in c.lower() or "milk" in c.lower() for _, c in [*en.values(), *zh.values()])

    with Session(clean_db) as s:
        statuses = dict(s.execute(select(Message.upstream_message_id, Message.memory_status)).all())
        assert statuses["c-en:1"] == "SKIPPED" and statuses["c-zh:1"] == "SKIPPED"  # assistant: context only
        assert statuses["c-en:0"] == statuses["c-en:2"] == "PROCESSED"
        assert statuses["c-noise:0"] == statuses["c-noise:2"] == "SKIPPED"
        # every change left one history row and one memory.dirty outbox row, all memories await indexing;
        # every episode (what the user said, core.episodes) one pai.episode.dirty.v1 row
        memory_dirty = OutboxEvent.event_type == "pai.memory.dirty.v1"
        n_hist = s.scalar(select(func.count()).select_from(MemoryHistory))
        n_outbox = s.scalar(select(func.count()).select_from(OutboxEvent).where(memory_dirty))
        assert n_hist == n_outbox and n_hist >= 4
        n_episodes = s.scalar(select(func.count()).select_from(Episode))
        assert n_episodes and n_episodes == s.scalar(select(func.count()).select_from(OutboxEvent).where(
            OutboxEvent.event_type == "pai.episode.dirty.v1"))
        assert set(s.scalars(select(LongTermMemory.vector_status)).all()) == {"DIRTY"}
        payload = s.scalars(select(OutboxEvent.payload).where(memory_dirty)).first()
        assert payload is not None and payload["type"] == "pai.memory.dirty.v1"
        # each change carries the creation time of the message that caused it (freshness origin)
        created = {m.id: m.created_at for m in s.scalars(select(Message))}
        for memory_source, data in s.execute(
                select(LongTermMemory.source_message_id, OutboxEvent.payload["data"])
                .join(OutboxEvent, OutboxEvent.aggregate_id == LongTermMemory.id).where(memory_dirty)).all():
            origin = datetime.fromisoformat(data["origin_at"])
            assert origin in created.values() and origin <= created[memory_source]
            assert origin <= datetime.fromisoformat(data["changed_at"])


def test_later_statement_supersedes_and_replay_changes_nothing(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name)
    first = conversation("e2e-move", "c-move-1", [("user", "I live in Wuhan.")])
    with running(extractor_loop(cfg)):
        publish(cfg, first)
        wait_until(lambda: all_final(clean_db, 1), 60, what="first message")
        second = conversation(
            "e2e-move", "c-move-2", [("user", "I just moved to Shanghai, I live there now.")]
        )
        publish(cfg, second)
        wait_until(lambda: all_final(clean_db, 2), 60, what="second message")
        wait_until(
            lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES),
            30,
            what="offsets committed",
        )
    mems = live(clean_db, "e2e-move")
    cities = [c for k, (t, c) in mems.items() if "shanghai" in c.lower() or "wuhan" in c.lower()]
    assert len(cities) == 1 and "shanghai" in cities[0].lower(), mems
    with Session(clean_db) as s:
        assert (
            "overwrite" in s.scalars(select(MemoryHistory.operation)).all()
            or "dedupe" in s.scalars(select(MemoryHistory.operation)).all()
        )

    # redelivery: a new group replays the topic from the start -> nothing changes
    before = snapshot(clean_db)
    replay = cfg.model_copy(update={"GROUP_EXTRACTOR": unique_name("replay")})
    with running(extractor_loop(replay)):
        wait_until(
            lambda: group_caught_up(replay, replay.GROUP_EXTRACTOR, replay.TOPIC_CHAT_MESSAGES),
            60,
            what="replay consumed",
        )
    assert snapshot(clean_db) == before

    # the same messages published again (duplicates upstream) -> nothing changes either
    publish(cfg, first + second)
    with running(extractor_loop(cfg)):
        wait_until(
            lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES),
            60,
            what="duplicates consumed",
        )
    assert snapshot(clean_db) == before


def test_new_extractor_version_re_extracts_on_purpose(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name)
    publish(cfg, conversation("e2e-ver", "c-ver", [("user", "I am vegetarian and never eat meat.")]))
    with running(extractor_loop(cfg)):
        wait_until(lambda: all_final(clean_db, 1), 60)
    v2 = cfg.model_copy(update={"MEMORY_EXTRACTOR_VERSION": "rules-2", "GROUP_EXTRACTOR": unique_name("v2")})
    with running(extractor_loop(v2)):
        wait_until(lambda: group_caught_up(v2, v2.GROUP_EXTRACTOR, v2.TOPIC_CHAT_MESSAGES), 60)
        wait_until(lambda: all_final(clean_db, 1), 30)
    with Session(clean_db) as s:
        msg = s.scalars(select(Message)).one()
        assert msg.extractor_version == "rules:rules-2" and msg.memory_attempts == 2


def test_malformed_events_go_to_dead_letter_topic_and_the_partition_keeps_flowing(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    from confluent_kafka import Producer

    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1)
    good = conversation(
        "e2e-dlq", "c-dlq", [("user", "I live in Chengdu."), ("user", "My dog is called Lucky.")]
    )
    bad_values = [
        b"not json",
        b'{"specversion":"1.0"}',
        b"\xff\xfe invalid utf-8",
        json.dumps({"type": "pai.chat.message.v9"}).encode(),
    ]
    with MemoryEventProducer(cfg) as producer:
        producer.publish_message(good[0])
        producer.flush(30)
    raw = Producer(client_config(cfg))
    for value in bad_values:
        raw.produce(cfg.TOPIC_CHAT_MESSAGES, key=b"e2e-dlq", value=value)
    raw.flush(30)
    publish(cfg, good[1:])
    with running(extractor_loop(cfg)):
        wait_until(lambda: all_final(clean_db, 2), 60, what="valid messages processed")
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 30)
    dead = read_topic(cfg, cfg.dlq_topic(cfg.GROUP_EXTRACTOR), len(bad_values))
    assert len(dead) == len(bad_values)
    letters = [parse_dead_letter(m.value()) for m in dead]
    assert [d.data.source_offset for d in letters] == [1, 2, 3, 4]
    assert all(d.data.source_topic == cfg.TOPIC_CHAT_MESSAGES and d.data.reason for d in letters)
    assert letters[0].data.original_value() == b"not json"
    assert contains(live(clean_db, "e2e-dlq"), "fact", "chengdu")


def test_same_message_id_for_two_users_keeps_both_and_a_conflict_is_dead_lettered(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    """Issue 26 point 1, on the real stack: two users whose conversations share the id ``x`` (so
    their messages share ``x:0``) both keep their memory; redelivering either changes nothing; the
    same id for the same user with other content is not a redelivery: it lands in the DLQ with
    reason ``message_id_conflict`` and counts in the metric, and the valid message after it flows."""
    from prometheus_client import REGISTRY

    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1)
    u1 = conversation("dup-u1", "x", [("user", "I am allergic to penicillin.")])
    u2 = conversation("dup-u2", "x", [("user", "I am a vegan.")])
    assert u1[0].message_id == u2[0].message_id == "x:0"

    def conflicts() -> float:
        return REGISTRY.get_sample_value("pai_memory_message_id_conflicts_total",
                                         {"group": cfg.GROUP_EXTRACTOR}) or 0.0

    publish(cfg, u1 + u2)
    with running(extractor_loop(cfg)):
        wait_until(lambda: all_final(clean_db, 2), 60, what="both users' messages final")
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 30)
    assert contains(live(clean_db, "dup-u1"), "constraint", "penicillin") or contains(
        live(clean_db, "dup-u1"), "fact", "penicillin"), live(clean_db, "dup-u1")
    assert any("vegan" in c.lower() for _, c in live(clean_db, "dup-u2").values()), live(clean_db, "dup-u2")

    # redelivery of either (the same records again): nothing changes, nothing is dead-lettered
    before, conflicts_before = snapshot(clean_db), conflicts()
    publish(cfg, u2 + u1)
    with running(extractor_loop(cfg)):
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 60)
    assert snapshot(clean_db) == before and conflicts() == conflicts_before

    # same user, same id, other content (forged or a producer reusing ids): dead-lettered with the
    # reason and counted; the stored message is kept; the valid message behind it is processed
    forged = ChatMessageData.model_validate({**u1[0].model_dump(), "content": "I love penicillin."})
    after = conversation("dup-u1", "y", [("user", "I live in Chengdu.")])
    publish(cfg, [forged, *after])
    with running(extractor_loop(cfg)):
        wait_until(lambda: all_final(clean_db, 3), 60, what="the message after the conflict")
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 30)
    [dead] = read_topic(cfg, cfg.dlq_topic(cfg.GROUP_EXTRACTOR), 1)
    letter = parse_dead_letter(dead.value())
    assert letter.data.reason.startswith("message_id_conflict") and "content" in letter.data.reason
    assert letter.data.error_type == "MessageIdConflict"
    assert letter.data.source_offset == 4  # u1, u2, u2, u1, then the forged record
    assert conflicts() == conflicts_before + 1
    with Session(clean_db) as s:
        kept = s.scalars(select(Message.content).join(User, User.id == Message.user_id)
                         .where(User.external_id == "dup-u1", Message.upstream_message_id == "x:0")).one()
    assert kept == "I am allergic to penicillin."
    assert contains(live(clean_db, "dup-u1"), "fact", "chengdu")
