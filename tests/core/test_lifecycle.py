"""Lifecycle jobs on real PostgreSQL (+ relay, indexer, Milvus for the index side): TTL expiry and
per-user consolidation, every change with history, reason and an outbox row."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, delete, func, insert, select, update
from sqlalchemy.orm import Session

from consumers.processes import build_tools
from core.config import Settings
from core.embedding.factory import build_embedder
from core.lifecycle import LifecycleJobs, normalise_content
from core.memory.dedup import SemanticDeduper
from core.memory.store import get_or_create_user
from core.memory.tools import ToolWrite
from core.memory.writer import MemoryWriter
from core.storage.db import session_factory
from core.storage.models import AuditLog, ConsoleSessionRow, LongTermMemory, MemoryHistory, OutboxEvent
from core.vectorstore import MilvusMemoryIndex, active_collection
from core.verify import TruthIndexVerifier
from localstack.process import wait_until
from tests.support.ops import drop_collections, index_pipeline, wait_settled
from tests.support.pipeline import isolated_settings

pytestmark = pytest.mark.services


@pytest.fixture
def cfg(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Settings]:
    isolated = isolated_settings(settings, unique_name, MEMORY_MILVUS_COLLECTION=unique_name("t_life"),
                                 MEMORY_INDEX_WORKER_ENABLED=True, MEMORY_MILVUS_ENABLED=True)
    try:
        yield isolated
    finally:
        drop_collections(isolated, clean_db)


def jobs_for(cfg: Settings, engine: Engine, semantic: bool = True) -> LifecycleJobs:
    writer = MemoryWriter(dirty_topic=cfg.TOPIC_MEMORY_DIRTY,
                          default_ttl_days=cfg.LONG_TERM_MEMORY_DEFAULT_TTL_DAYS)
    deduper = SemanticDeduper(build_embedder(cfg), *cfg.dedup_thresholds) if semantic else None
    return LifecycleJobs(session_factory(engine), writer, deduper)


def snapshot(engine: Engine) -> dict[str, Any]:
    with Session(engine) as s:
        return {
            "rows": sorted((m.id, m.memory_key, m.content, m.is_active, m.expires_at, m.updated_at)
                           for m in s.scalars(select(LongTermMemory))),
            "history": s.scalar(select(func.count()).select_from(MemoryHistory)),
            "outbox": s.scalar(select(func.count()).select_from(OutboxEvent)),
        }


def live_keys(engine: Engine) -> dict[str, str]:
    with Session(engine) as s:
        rows = s.execute(select(LongTermMemory.memory_key, LongTermMemory.content)
                         .where(LongTermMemory.is_active.is_(True))).all()
        return {key: content or "" for key, content in rows}


def insert_raw(engine: Engine, user: str, key: str, content: str, *, mtype: str = "fact",
               expires_in: timedelta | None = timedelta(days=100), age: timedelta = timedelta(0)) -> int:
    """A row as an old writer (or a hand edit) might have left it: no filters, any key."""
    now = datetime.now(UTC)
    with Session(engine) as s, s.begin():
        user_pk = get_or_create_user(s, user)
        return int(s.execute(insert(LongTermMemory).values(
            user_id=user_pk, memory_key=key, memory_type=mtype, content=content, importance=3,
            confidence=0.8, is_active=True, expires_at=(now + expires_in) if expires_in else None,
            vector_status="DIRTY", created_at=now - age, updated_at=now - age,
        ).returning(LongTermMemory.id)).scalar_one())


def active_exists(engine: Engine) -> bool:
    with Session(engine) as s:
        return active_collection(s) is not None


def test_normalise_content_rules() -> None:
    assert normalise_content("  I like   tea,,  a lot!!! ") == "I like tea, a lot!"
    assert normalise_content("我喜欢乌龙茶。。。真的！！") == "我喜欢乌龙茶。真的！"
    assert normalise_content("Wait for it... ok ?") == "Wait for it... ok?"


def test_expire_deactivates_through_the_writer_and_the_indexer_removes_the_entries(
        cfg: Settings, clean_db: Engine) -> None:
    tools = build_tools(cfg)
    keep = tools.memory_save(ToolWrite("life-exp", "city", "Lives in Xiamen"))
    old = tools.memory_save(ToolWrite("life-exp", "gym", "Goes to the gym on Mondays", ttl_days=30))
    other = tools.memory_save(ToolWrite("life-exp2", "book", "Reading The Three-Body Problem", ttl_days=30))
    with index_pipeline(cfg):
        wait_settled(clean_db)
    past = datetime.now(UTC) - timedelta(minutes=1)
    with Session(clean_db) as s, s.begin():
        s.execute(update(LongTermMemory).where(LongTermMemory.id.in_([old.memory_id, other.memory_id]))
                  .values(expires_at=past))
    jobs = jobs_for(cfg, clean_db, semantic=False)

    before = snapshot(clean_db)
    dry = jobs.expire(dry_run=True)
    assert sorted(c.memory_id for c in dry.expired) == sorted([old.memory_id, other.memory_id])
    assert snapshot(clean_db) == before  # nothing committed

    only = jobs.expire(user="life-exp2")
    assert [c.memory_id for c in only.expired] == [other.memory_id]
    report = jobs.expire()
    assert [(c.user, c.key, c.operation) for c in report.expired] == [("life-exp", "gym", "expire")]
    assert jobs.expire().expired == []  # idempotent

    with Session(clean_db) as s:
        hist = s.execute(select(MemoryHistory.memory_id, MemoryHistory.operation, MemoryHistory.source,
                                MemoryHistory.reason).where(MemoryHistory.operation == "expire")).all()
        assert {h.memory_id for h in hist} == {old.memory_id, other.memory_id}
        assert all(h.source == "lifecycle" and h.reason.startswith("ttl expired at") for h in hist)
        ops = s.scalars(select(OutboxEvent.payload["data"]["operation"].astext)
                        .where(OutboxEvent.aggregate_id == old.memory_id)).all()
        assert ops[-1] == "expire"
    with index_pipeline(cfg):
        wait_settled(clean_db)
    with Session(clean_db) as s:
        coll = active_collection(s)
        assert coll is not None
    view = MilvusMemoryIndex.from_settings(cfg).for_collection(coll.name, coll.dim)
    assert view.get_user_ids([keep.memory_id, old.memory_id, other.memory_id]).keys() == {keep.memory_id}


def test_consolidation_deletes_normalises_merges_and_keeps_with_reasons(cfg: Settings,
                                                                        clean_db: Engine) -> None:
    user = "life-cons"
    ids = {
        "noise": insert_raw(clean_db, user, "weather-date_0512", "Sunny, 25 degrees"),
        "profile": insert_raw(clean_db, user, "user_nickname", "Call me Captain"),
        "noise_content": insert_raw(clean_db, user, "assistant_tools",
                                    "Available tools: web search, calculator"),
        "expired": insert_raw(clean_db, user, "old_plan", "Planning a trip to Japan",
                              expires_in=timedelta(days=-1)),
        "legacy": insert_raw(clean_db, user, "Home City", "Lives in   Wuhan!!",
                             expires_in=timedelta(days=42)),
        "legacy_dup_target": insert_raw(clean_db, user, "favourite_drink", "Oolong tea", mtype="preference"),
        "legacy_dup": insert_raw(clean_db, user, "Favourite Drink", "oolong tea", mtype="preference"),
        "punct": insert_raw(clean_db, user, "hobby", "Likes hiking,,  and climbing!!!"),
        "badtype": insert_raw(clean_db, user, "diet", "Vegetarian", mtype="habit"),
        "exact_old": insert_raw(clean_db, user, "coffee", "Drinks no coffee at all", mtype="preference",
                                age=timedelta(days=3)),
        "exact_new": insert_raw(clean_db, user, "coffee_pref", "drinks no coffee at all",
                                mtype="preference"),
        "sem_old": insert_raw(clean_db, user, "hometown", "Grew up in Chengdu", age=timedelta(days=2)),
        "sem_new": insert_raw(clean_db, user, "hometown_city", "Grew up in Chengdu."),
        "keep": insert_raw(clean_db, user, "job", "Works as a nurse in Leeds"),
    }
    jobs = jobs_for(cfg, clean_db)

    before = snapshot(clean_db)
    dry = jobs.consolidate(user, dry_run=True)
    assert snapshot(clean_db) == before
    assert dry.dry_run and len(dry.changes) > 0

    report = jobs.consolidate(user)
    assert [c.as_dict() for c in report.changes] == [c.as_dict() for c in dry.changes]  # dry run was exact
    by_id = {c.memory_id: c for c in report.changes}
    assert by_id[ids["noise"]].action == "delete" and by_id[ids["noise"]].reason == "consolidate: noise key"
    assert by_id[ids["profile"]].reason == "consolidate: profile field, not a memory"
    assert by_id[ids["noise_content"]].reason == "consolidate: noise content"
    assert by_id[ids["expired"]].action == "expire"
    assert by_id[ids["legacy"]].action == "normalise" and by_id[ids["legacy"]].new_key == "home_city"
    assert by_id[ids["legacy_dup"]].action == "merge"
    assert by_id[ids["exact_old"]].action == "merge" and "exact duplicate of coffee_pref" in by_id[
        ids["exact_old"]].reason
    assert by_id[ids["sem_old"]].action == "merge" and "cosine" in by_id[ids["sem_old"]].reason
    assert ids["keep"] not in by_id and ids["exact_new"] not in by_id and ids["sem_new"] not in by_id

    live = live_keys(clean_db)
    assert live == {
        "home_city": "Lives in Wuhan!",
        "favourite_drink": "Oolong tea",
        "hobby": "Likes hiking, and climbing!",
        "diet": "Vegetarian",
        "coffee_pref": "drinks no coffee at all",
        "hometown_city": "Grew up in Chengdu.",
        "job": "Works as a nurse in Leeds",
    }
    assert report.kept == 4  # favourite_drink, coffee_pref, hometown_city, job untouched
    with Session(clean_db) as s:
        moved = s.scalars(select(LongTermMemory).where(LongTermMemory.memory_key == "home_city")).one()
        assert moved.expires_at is not None
        assert timedelta(days=41) < moved.expires_at - datetime.now(UTC) <= timedelta(days=43)  # TTL kept
        diet = s.scalars(select(LongTermMemory).where(LongTermMemory.memory_key == "diet")).one()
        assert diet.memory_type == "fact"
        hist = s.execute(select(MemoryHistory.memory_id, MemoryHistory.operation, MemoryHistory.source,
                                MemoryHistory.reason)).all()
        assert all(h.source == "lifecycle" and h.reason for h in hist)
        assert {h.memory_id for h in hist} >= set(by_id)
        outbox = s.scalar(select(func.count()).select_from(OutboxEvent))
        assert outbox == len(hist)  # one memory.dirty per change

    again = jobs.consolidate(user)
    assert again.changes == [] and again.kept == len(live)

    # the raw rows never had an outbox row: let verify --repair re-drive them, then index everything
    verifier = TruthIndexVerifier(session_factory(clean_db), MilvusMemoryIndex.from_settings(cfg))
    with index_pipeline(cfg):
        wait_until(lambda: active_exists(clean_db), 30, what="the indexer registered its collection")
        verifier.repair(verifier.verify(user, confirm=False), dirty_topic=cfg.TOPIC_MEMORY_DIRTY)
        wait_settled(clean_db)
    after = verifier.verify(user)
    assert after.clean and after.entries == len(live)


def test_cli_expire_and_consolidate(cfg: Settings, clean_db: Engine, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from cli.main import main as cli_main
    from tests.support.ops import export_settings

    export_settings(cfg, monkeypatch)
    insert_raw(clean_db, "life-cli", "Old Key", "Something  stable!!", expires_in=timedelta(days=-2))
    insert_raw(clean_db, "life-cli", "Loud Key", "Something   stable!!")
    assert cli_main(["expire", "--dry-run", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["expired"] == 1
    assert cli_main(["expire", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["expired"] == 1
    assert cli_main(["consolidate", "--user", "life-cli", "--json", "--no-semantic"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["normalised"], data["kept"]) == (1, 0)
    assert live_keys(clean_db) == {"loud_key": "Something stable!"}
    assert cli_main(["consolidate", "--user", "nobody", "--no-semantic"]) == 2


def test_the_expiry_pass_prunes_the_audit_log_past_its_retention(
        cfg: Settings, clean_db: Engine, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``pai-memory expire`` deletes audit rows older than AUDIT_LOG_RETENTION_DAYS (default 365), keeps
    the rest, counts them in pai_memory_retention_pruned_total; a dry run reports and keeps them; a pass
    for one user leaves the audit log alone."""
    from cli.main import main as cli_main
    from core import metrics
    from tests.support.ops import export_settings

    export_settings(cfg, monkeypatch)
    now = datetime.now(UTC)
    with session_factory(clean_db).begin() as session:
        for days in (400, 366, 10):
            session.add(AuditLog(at=now - timedelta(days=days), actor="test", action="key.create",
                                 target=f"{days} days ago", outcome="ok"))

    def kept() -> list[str]:
        with session_factory(clean_db)() as session:
            return sorted(t or "" for t in session.scalars(select(AuditLog.target)).all())

    counter = metrics.RETENTION_PRUNED.labels("audit_log")
    before = counter._value.get()
    assert cli_main(["expire", "--dry-run", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["audit_pruned"] == 2
    assert len(kept()) == 3 and counter._value.get() == before
    assert cli_main(["expire", "--user", "somebody", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["audit_pruned"] == 0 and len(kept()) == 3
    assert cli_main(["expire", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["audit_pruned"] == 2
    assert kept() == ["10 days ago"] and counter._value.get() == before + 2
    monkeypatch.setenv("AUDIT_LOG_RETENTION_DAYS", "7")
    assert cli_main(["expire", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["audit_pruned"] == 1 and kept() == []


def test_the_expiry_pass_deletes_ended_console_sessions_and_keeps_live_ones(
        cfg: Settings, clean_db: Engine, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Expired and revoked console logins are deleted by a pass over everyone (counted in
    pai_memory_retention_pruned_total{table="console_sessions"}); a live one stays and still opens the
    console; a dry run and a pass for one user delete nothing."""
    from cli.main import main as cli_main
    from core import metrics
    from core.keys import BOOTSTRAP_KEY_ID, console_session_key, open_console_session, revoke_console_session
    from tests.support.ops import export_settings

    export_settings(cfg, monkeypatch)
    now = datetime.now(UTC)
    with session_factory(clean_db).begin() as session:
        session.execute(delete(ConsoleSessionRow))
        open_console_session(session, "live", BOOTSTRAP_KEY_ID, now + timedelta(hours=8))
        open_console_session(session, "expired", BOOTSTRAP_KEY_ID, now - timedelta(minutes=1))
        open_console_session(session, "logged-out", BOOTSTRAP_KEY_ID, now + timedelta(hours=8))
        assert revoke_console_session(session, "logged-out")

    def ids() -> list[str]:
        with session_factory(clean_db)() as session:
            return sorted(session.scalars(select(ConsoleSessionRow.id)).all())

    counter = metrics.RETENTION_PRUNED.labels("console_sessions")
    before = counter._value.get()
    assert cli_main(["expire", "--dry-run", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["console_sessions_pruned"] == 2
    assert cli_main(["expire", "--user", "somebody", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["console_sessions_pruned"] == 0
    assert ids() == ["expired", "live", "logged-out"] and counter._value.get() == before
    assert cli_main(["expire", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["console_sessions_pruned"] == 2
    assert ids() == ["live"] and counter._value.get() == before + 2
    with session_factory(clean_db)() as session:
        assert console_session_key(session, "live") == BOOTSTRAP_KEY_ID


def test_scheduled_consolidation_runs_passes_until_sigterm(cfg: Settings, clean_db: Engine,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from tests.support.ops import export_settings

    export_settings(cfg, monkeypatch)
    insert_raw(clean_db, "life-sched", "gym", "Goes climbing", expires_in=timedelta(days=-1))
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "consolidate", "--schedule", "0.5", "--json",
                             "--no-semantic"], cwd=repo, env=dict(os.environ), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        passes = [json.loads(proc.stdout.readline()) for _ in range(2)]
        assert passes[0]["expired"] == 1 and passes[1]["expired"] == 0
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert live_keys(clean_db) == {}

