"""The local stack's PostgreSQL needs a password: scram-sha-256, a generated password in
``<PAI_MEMORY_HOME>/postgres.password`` (0600), no ``trust`` in pg_hba; an old trust data folder is
migrated at start. Each test runs its own PostgreSQL in a temporary home on a free port (never the
shared stack)."""

from __future__ import annotations

import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from core.config import LOCAL_KAFKA_PORT, load_settings
from localstack.base import LocalPorts, StackPaths
from localstack.manager import LocalStack
from localstack.postgres import PostgresService, libpq_url, postgres_bin, without_trust
from localstack.process import free_ports


@pytest.fixture
def pg_stack() -> Iterator[LocalStack]:
    home = Path(tempfile.mkdtemp(prefix="pai-pg-cred-"))
    settings = load_settings(DATABASE_URL=None, KAFKA_BOOTSTRAP_SERVERS=f"127.0.0.1:{LOCAL_KAFKA_PORT}",
                             MEMORY_MILVUS_URI=None, PAI_MEMORY_HOME=str(home))
    kafka, controller, postgres, milvus = free_ports(4)
    paths = StackPaths(home=home, cache=StackPaths.from_settings(settings).cache)
    stack = LocalStack(settings, LocalPorts(kafka=kafka, kafka_controller=controller, postgres=postgres,
                                            milvus=milvus), paths)
    try:
        yield stack
    finally:
        stack.down(["postgres"], timeout=10)
        shutil.rmtree(home, ignore_errors=True)


def service(stack: LocalStack) -> PostgresService:
    pg = stack.services["postgres"]
    assert isinstance(pg, PostgresService)
    return pg


def refused_without_password(pg: PostgresService) -> str:
    bare = f"postgresql://postgres@127.0.0.1:{pg.ports.postgres}/postgres"
    with pytest.raises(psycopg.OperationalError) as raised:
        psycopg.connect(bare, connect_timeout=5).close()
    wrong = f"postgresql://postgres:wrong@127.0.0.1:{pg.ports.postgres}/postgres"
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(wrong, connect_timeout=5).close()
    return str(raised.value)


def hba_methods(pg: PostgresService) -> set[str]:
    text = pg.hba_path.read_text()
    lines = [ln.split() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    return {parts[-1] for parts in lines}


def test_a_fresh_stack_uses_a_generated_password(pg_stack: LocalStack) -> None:
    statuses = {s.name: s for s in pg_stack.up(["postgres"])}
    assert statuses["postgres"].ok, statuses["postgres"].detail
    pg = service(pg_stack)
    secret = pg_stack.paths.home / "postgres.password"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    password = secret.read_text().strip()
    assert len(password) >= 40
    assert hba_methods(pg) == {"scram-sha-256"}
    assert "password" in refused_without_password(pg)
    with psycopg.connect(libpq_url(pg.url), connect_timeout=5) as conn:  # the URL every process uses
        assert conn.execute("SELECT current_setting('password_encryption')").fetchone() == ("scram-sha-256",)
        assert conn.execute("SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid "
                            "WHERE rolname = 'postgres'").fetchone() == (True,)
    # the settings of every process read the same password; it is masked where settings are shown
    settings = load_settings(DATABASE_URL=None, PAI_MEMORY_HOME=str(pg_stack.paths.home))
    assert f"postgres:{password}@" in settings.database_url
    assert password not in str(settings.masked())
    assert password not in pg.address
    assert not list(pg.dir.glob(".initdb-pw*"))  # initdb's password file is gone
    # a restart keeps working (the password is reused, not regenerated)
    pg_stack.down(["postgres"], timeout=10)
    assert {s.name: s for s in pg_stack.up(["postgres"])}["postgres"].ok
    assert secret.read_text().strip() == password


def test_a_trust_data_folder_is_migrated(pg_stack: LocalStack) -> None:
    pg = service(pg_stack)
    pg.dir.mkdir(parents=True)
    pg._prepare_user()  # as root the server's own user must own the folder, as `stack up` arranges
    init = pg._run([str(postgres_bin() / "initdb"), "-D", str(pg.data), "-U", "postgres", "--auth=trust",
                    "-E", "UTF8", "--locale=C.UTF-8"])  # how the stack initialised it before
    assert init.returncode == 0, init.stderr
    assert "trust" in hba_methods(pg)
    statuses = {s.name: s for s in pg_stack.up(["postgres"])}
    assert statuses["postgres"].ok, statuses["postgres"].detail
    assert hba_methods(pg) == {"scram-sha-256"}
    refused_without_password(pg)
    with psycopg.connect(libpq_url(pg.url), connect_timeout=5) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_a_lost_password_is_reported_with_the_way_out(pg_stack: LocalStack) -> None:
    assert {s.name: s for s in pg_stack.up(["postgres"])}["postgres"].ok
    pg = service(pg_stack)
    (pg_stack.paths.home / "postgres.password").write_text("not-the-password\n")
    problem = pg.probe(5.0)
    assert problem is not None and "start over" in problem and "does not open this data folder" in problem


def test_without_trust_rewrites_only_methods() -> None:
    hba = ("# TYPE DATABASE USER ADDRESS METHOD\n# trust is the default\nlocal all all trust\n"
           "host all all 127.0.0.1/32 trust  # loopback\nhost all all ::1/128 md5\n"
           "host replication all 127.0.0.1/32 trust")
    assert without_trust(hba) == (
        "# TYPE DATABASE USER ADDRESS METHOD\n# trust is the default\nlocal all all scram-sha-256\n"
        "host all all 127.0.0.1/32 scram-sha-256  # loopback\nhost all all ::1/128 md5\n"
        "host replication all 127.0.0.1/32 scram-sha-256")
