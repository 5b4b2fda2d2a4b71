"""``pai-memory keys``: create (token shown once, only its hash stored), list, rotate, revoke, audit."""

from __future__ import annotations

import json

import pytest
from pydantic import SecretStr
from sqlalchemy import Engine, select

from cli.keys_cmd import run
from cli.main import build_parser
from core import keys
from core.config import Settings
from core.storage.db import session_factory
from core.storage.models import ApiKey, AuditLog

pytestmark = pytest.mark.services


def keys_cmd(settings: Settings, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(build_parser().parse_args(["keys", *argv]), settings)
    out, err = capsys.readouterr()
    return code, out, err


def test_create_list_rotate_revoke(settings: Settings, clean_db: Engine,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = keys_cmd(settings, capsys, "create", "alice agent", "--scope", "read,write",
                            "--user", "alice", "--rate-limit", "5", "--json")
    assert code == 0
    created = json.loads(out)
    token = created["token"]
    assert created["scopes"] == ["read", "write"] and created["user_id"] == "alice"
    assert created["rate_limit"] == 5 and created["state"] == "active"
    assert token.startswith(created["prefix"] + "_")
    with clean_db.connect() as conn:  # only the hash is stored
        row = conn.execute(select(ApiKey)).one()
        assert row.token_hash == keys.token_hash(token) and token not in str(tuple(row))

    code, out, _ = keys_cmd(settings, capsys, "list")
    assert code == 0 and created["prefix"] in out and "alice agent" in out and token not in out

    code, out, _ = keys_cmd(settings, capsys, "rotate", created["prefix"], "--json")
    rotated = json.loads(out)
    assert code == 0 and rotated["token"] != token and rotated["id"] == created["id"]
    with session_factory(clean_db)() as session:
        assert keys.lookup(session, token) is None
        assert keys.lookup(session, rotated["token"]) is not None

    code, out, _ = keys_cmd(settings, capsys, "revoke", rotated["token"])
    assert code == 0 and "revoked" in out and rotated["token"] not in out
    with session_factory(clean_db)() as session:
        assert keys.lookup(session, rotated["token"]) is None
    code, out, _ = keys_cmd(settings, capsys, "list", "--json", "--active")
    assert json.loads(out) == []

    with clean_db.connect() as conn:
        actions = conn.execute(select(AuditLog.action, AuditLog.target, AuditLog.outcome)
                               .order_by(AuditLog.id)).all()
    assert [a for a, _t, _o in actions] == ["key.create", "key.rotate", "key.revoke"]
    assert all(t == created["prefix"] and o == "ok" for _a, t, o in actions)


@pytest.mark.parametrize("argv", [
    ("create", "k", "--scope", "root"),
    ("create", "k", "--scope", "read", "--user", "bad user"),
    ("create", "k", "--scope", "read", "--rate-limit", "0"),
    ("create", "k", "--scope", "read", "--expires-days", "-1"),
    ("create", " ", "--scope", "read"),
    ("revoke", "pmk_000000000000"),
    ("rotate", "nope"),
])
def test_refusals_exit_2_and_store_nothing(settings: Settings, clean_db: Engine,
                                           capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    code, _out, err = keys_cmd(settings, capsys, *argv)
    assert code == 2 and err.startswith("pai-memory keys: ")
    with clean_db.connect() as conn:
        assert conn.execute(select(ApiKey)).all() == [] and conn.execute(select(AuditLog)).all() == []


def test_an_unmigrated_database_is_reported(settings: Settings, engine: Engine,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A database below revision 0006 (no key tables): a clear message, exit 2, not a traceback."""
    from sqlalchemy import text

    from core.storage import db

    name = f"{settings.database_url.rsplit('/', 1)[1]}_old"
    admin = engine.execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = settings.database_url.rsplit("/", 1)[0] + f"/{name}"
    try:
        db.upgrade(url, "0004")
        old = settings.model_copy(update={"DATABASE_URL": SecretStr(url)})
        code, _out, err = keys_cmd(old, capsys, "list")
        assert code == 2 and "pai-memory db upgrade" in err
    finally:
        db.engine_for.cache_clear()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
