"""Alembic migrations: upgrade/downgrade on empty and populated databases; they match the models."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, inspect, make_url, text

from core.config import Settings
from core.storage import db
from core.storage.models import Base

pytestmark = pytest.mark.services

APP_TABLES = {t.name for t in Base.metadata.sorted_tables}


@pytest.fixture
def scratch_url(settings: Settings) -> Iterator[str]:
    """URL of a new, empty database on the session's server (dropped afterwards)."""
    server = make_url(settings.database_url)
    name = f"pai_memory_mig_{uuid.uuid4().hex[:8]}"
    admin = db.make_engine(server.set(database="postgres").render_as_string(hide_password=False))
    admin = admin.execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names()) - {"alembic_version"}


def _populate(engine: Engine) -> None:
    now = datetime.now(UTC)
    with engine.begin() as conn:
        user_id = conn.execute(text(
            "INSERT INTO users (external_id) VALUES ('u-1') RETURNING id")).scalar_one()
        conv_id = conn.execute(text(
            "INSERT INTO conversations (user_id, external_id, summary) VALUES (:u, 'c-1', 's') RETURNING id"),
            {"u": user_id}).scalar_one()
        msg_id = conn.execute(text(
            "INSERT INTO messages (upstream_message_id, user_id, conversation_id, role, content, created_at) "
            "VALUES ('m-1', :u, :c, 'user', 'I live in Hangzhou', :t) RETURNING id"),
            {"u": user_id, "c": conv_id, "t": now}).scalar_one()
        conn.execute(text(
            "INSERT INTO long_term_memories (user_id, conversation_id, source_message_id, memory_key, "
            "memory_type, content, created_at, updated_at) VALUES (:u, :c, :m, 'fact-city', 'fact', "
            "'lives in Hangzhou', :t, :t)"), {"u": user_id, "c": conv_id, "m": msg_id, "t": now})
        conn.execute(text(
            "INSERT INTO outbox (topic, message_key, event_type, aggregate_id, payload) "
            "VALUES ('memory.dirty', :k, 'memory.dirty', 1, CAST(:p AS jsonb))"),
            {"k": str(user_id), "p": '{"memory_id": 1}'})


def test_upgrade_downgrade_upgrade_on_empty_database(scratch_url: str) -> None:
    engine = db.make_engine(scratch_url)
    try:
        db.upgrade(scratch_url)
        assert _tables(engine) == APP_TABLES
        assert db.current_revision(scratch_url) is not None
        db.downgrade(scratch_url, "base")
        assert _tables(engine) == set()
        assert db.current_revision(scratch_url) is None
        db.upgrade(scratch_url)
        assert _tables(engine) == APP_TABLES
    finally:
        engine.dispose()


def test_downgrade_and_upgrade_on_populated_database(scratch_url: str) -> None:
    engine = db.make_engine(scratch_url)
    try:
        db.upgrade(scratch_url)
        _populate(engine)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM long_term_memories")).scalar_one() == 1
        db.downgrade(scratch_url, "base")
        assert _tables(engine) == set()
        db.upgrade(scratch_url)
        assert _tables(engine) == APP_TABLES
        _populate(engine)  # the schema is fully usable again, constraints included
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM users")).scalar_one() == 1
    finally:
        engine.dispose()


def test_unique_user_memory_key_is_enforced(scratch_url: str) -> None:
    from sqlalchemy.exc import IntegrityError

    engine = db.make_engine(scratch_url)
    try:
        db.upgrade(scratch_url)
        _populate(engine)
        now = datetime.now(UTC)
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO long_term_memories (user_id, memory_key, content, created_at, updated_at) "
                "VALUES (1, 'fact-city', 'dup', :t, :t)"), {"t": now})
    finally:
        engine.dispose()


def test_migrations_match_the_models(settings: Settings, engine: Engine) -> None:
    """Autogenerate against the migrated session database finds nothing to change."""
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(context, Base.metadata)
    assert diff == []


def test_db_cli_upgrade_downgrade_current(scratch_url: str, settings: Settings) -> None:
    env = {"DATABASE_URL": scratch_url, "PATH": "/usr/bin:/bin"}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cli.main", "db", *args], env=env, capture_output=True,
                              text=True, timeout=120)

    up = cli("upgrade")
    assert up.returncode == 0, up.stderr
    assert db.current_revision(scratch_url) is not None
    down = cli("downgrade")
    assert down.returncode == 0, down.stderr
    assert db.current_revision(scratch_url) is None
