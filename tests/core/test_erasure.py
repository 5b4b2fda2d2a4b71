"""User erasure end to end: Kafka -> extractor -> PostgreSQL -> relay -> indexer -> Milvus, then
forget-user, its proof, other users untouched, and a replay that must not bring the user back."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from cli.main import main as cli_main
from consumers.processes import build_tools, extractor_loop
from core.config import Settings
from core.erasure import UnknownUser, UserEraser, user_hash
from core.memory.store import find_user
from core.memory.tools import ToolWrite
from core.storage.db import session_factory
from core.storage.models import ErasedUser, LongTermMemory, Message
from core.vectorstore import IndexRow, MilvusMemoryIndex, register_collection
from core.verify import TruthIndexVerifier
from localstack.process import wait_until
from producers.client import MemoryEventProducer
from schemas import ChatMessageData
from tests.support.ops import drop_collections, export_settings, index_pipeline, wait_settled
from tests.support.pipeline import conversation, group_caught_up, isolated_settings, running

pytestmark = pytest.mark.services

ERASE = [("user", "I live in Wuhan and I work as a backend engineer at a logistics company."),
         ("assistant", "Nice to meet you!"),
         ("user", "I'm allergic to peanuts, so never suggest recipes with peanuts.")]
KEEP = [("user", "I live in Chengdu and I am a primary school teacher."),
        ("user", "I love playing the guitar in my free time.")]


@pytest.fixture
def cfg(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Settings]:
    isolated = isolated_settings(settings, unique_name, MEMORY_MILVUS_COLLECTION=unique_name("t_erase"),
                                 MEMORY_INDEX_WORKER_ENABLED=True, MEMORY_MILVUS_ENABLED=True)
    try:
        yield isolated
    finally:
        drop_collections(isolated, clean_db)


def publish(cfg: Settings, messages: list[ChatMessageData]) -> None:
    with MemoryEventProducer(cfg) as producer:
        for m in messages:
            producer.publish_message(m)
        producer.flush(30)


def extract(cfg: Settings, engine: Engine) -> None:
    with running(extractor_loop(cfg)):
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 90,
                   what="extractor caught up")
        wait_until(lambda: pending(engine) == 0, 60, what="messages final")


def pending(engine: Engine) -> int:
    with Session(engine) as s:
        return int(s.scalar(select(func.count()).select_from(Message)
                            .where(Message.memory_status == "PENDING")) or 0)


def memories_of(engine: Engine, user: str) -> int:
    with Session(engine) as s:
        pk = find_user(s, user)
        if pk is None:
            return 0
        return int(s.scalar(select(func.count()).select_from(LongTermMemory)
                            .where(LongTermMemory.user_id == pk)) or 0)


def test_forget_user_erases_everywhere_proves_it_and_survives_a_replay(cfg: Settings,
                                                                       clean_db: Engine) -> None:
    old = conversation("erase-me", "c-erase", ERASE) + conversation("keep-me", "c-keep", KEEP)
    publish(cfg, old)
    extract(cfg, clean_db)
    tools = build_tools(cfg)
    tools.memory_save(ToolWrite("erase-me", "pet", "Has a cat called Mochi", command_id="erase-cmd-1"))
    with index_pipeline(cfg):
        wait_settled(clean_db)
    assert memories_of(clean_db, "erase-me") >= 2 and memories_of(clean_db, "keep-me") >= 1
    keep_before = memories_of(clean_db, "keep-me")

    # a second registered collection (e.g. left by an earlier reindex) also holds a vector of the user
    index = MilvusMemoryIndex.from_settings(cfg)
    other = index.for_collection(cfg.MEMORY_MILVUS_COLLECTION + "_old")
    with Session(clean_db) as s, s.begin():
        register_collection(s, other.collection, "some-older-model", other.dim, activate=False)
        erase_pk = find_user(s, "erase-me")
        assert erase_pk is not None
    other.ensure_collection()
    other.upsert([IndexRow(id=424242, user_id=erase_pk, memory_type="fact",
                           vector=np.ones(other.dim, dtype=np.float32) / np.sqrt(other.dim))])

    eraser = UserEraser(session_factory(clean_db), index)
    proof = eraser.erase("erase-me")
    assert proof.ok, proof.render()
    assert proof.deleted["users"] == 1 and proof.deleted["messages"] == 3
    assert proof.deleted["long_term_memories"] >= 3 and proof.deleted["memory_history"] >= 3
    assert proof.deleted["processed_commands"] == 1 and proof.deleted["conversations"] == 1
    assert proof.deleted["outbox"] >= 3
    assert proof.milvus_deleted[other.collection] == 1
    assert sum(proof.milvus_deleted.values()) >= 4
    assert set(proof.remaining.values()) == {0} and set(proof.milvus_remaining.values()) == {0}
    # what the user said (episodes) is gone from PostgreSQL and from the episodes' collection too
    assert proof.deleted["episodes"] == 2 and proof.milvus_deleted[cfg.episode_collection] == 2
    assert len(proof.milvus_remaining) == 3

    with Session(clean_db) as s:
        record = s.get(ErasedUser, user_hash("erase-me"))
        assert record is not None and record.user_pk == erase_pk
        assert "erase-me" not in json.dumps([r.user_hash for r in s.scalars(select(ErasedUser))])
    assert memories_of(clean_db, "keep-me") == keep_before
    verifier = TruthIndexVerifier(session_factory(clean_db), index)
    assert verifier.verify("keep-me").clean
    assert verifier.verify().clean

    # the same events again (a replay, a late redelivery): the user must not come back ...
    publish(cfg, conversation("erase-me", "c-erase", ERASE))
    extract(cfg, clean_db)
    with Session(clean_db) as s:
        assert find_user(s, "erase-me") is None
    # ... but a message written after the erasure is a new relationship and is accepted
    later = datetime.now(UTC) + timedelta(seconds=1)
    publish(cfg, conversation("erase-me", "c-new", [("user", "I moved to Shenzhen last year.")], start=later))
    extract(cfg, clean_db)
    with Session(clean_db) as s:
        new_pk = find_user(s, "erase-me")
        assert new_pk is not None and new_pk != erase_pk
    assert eraser.prove("erase-me").ok  # the proof concerns the erased identity only
    with pytest.raises(UnknownUser):
        eraser.erase("never-existed")


def test_cli_forget_user(cfg: Settings, clean_db: Engine, monkeypatch: pytest.MonkeyPatch,
                         capsys: pytest.CaptureFixture[str]) -> None:
    export_settings(cfg, monkeypatch)
    tools = build_tools(cfg)
    tools.memory_save(ToolWrite("cli-erase", "city", "Lives in Nanjing"))
    tools.memory_save(ToolWrite("cli-stay", "city", "Lives in Suzhou"))
    with index_pipeline(cfg):
        wait_settled(clean_db)

    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert cli_main(["forget-user", "cli-erase"]) == 2  # no --yes, no terminal: refuses
    assert memories_of(clean_db, "cli-erase") == 1
    capsys.readouterr()

    assert cli_main(["forget-user", "cli-erase", "--yes", "--json"]) == 0
    proof = json.loads(capsys.readouterr().out)
    assert proof["ok"] and proof["deleted"]["long_term_memories"] == 1
    assert sum(proof["milvus_deleted"].values()) == 1 and set(proof["milvus_remaining"].values()) == {0}
    assert cli_main(["forget-user", "cli-erase", "--check"]) == 0
    assert "OK: nothing of this user is left" in capsys.readouterr().out
    assert cli_main(["forget-user", "cli-erase", "--yes"]) == 0  # again: re-checks, still clean
    assert "already erased" in capsys.readouterr().out
    assert cli_main(["forget-user", "nobody-here", "--yes"]) == 2
    assert memories_of(clean_db, "cli-stay") == 1
    from sqlalchemy import text as sql

    with clean_db.connect() as conn:  # audited, naming the user by hash only
        audited = conn.execute(sql("SELECT action, outcome, target, actor FROM audit_log ORDER BY id")).all()
    assert [(a, o) for a, o, _t, _w in audited] == [("user.erase", "ok"), ("user.erase", "ok")]
    assert all("cli-erase" not in t and t.startswith("user#") and w.startswith("cli")
               for _a, _o, t, w in audited)
