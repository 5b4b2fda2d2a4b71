"""Shared fixtures: real services for the whole session, a fresh migrated database, helpers.

Services come from, in this order:
1. the environment: ``DATABASE_URL``, ``KAFKA_BOOTSTRAP_SERVERS``, ``MEMORY_MILVUS_URI`` (each one
   given is used as is and only probed);
2. testcontainers, for the services not given, when a Docker engine answers;
3. the local stack (``localstack.LocalStack``, the code behind ``pai-memory stack up``).
With ``--stack-down`` the session stops at its end what it started itself, unless a demo started
meanwhile uses it (service processes recorded in ``<PAI_MEMORY_HOME>/services.json`` still run); by
default the local stack is left running so the next session starts warm.

Fixtures (contract used by every test module):
- ``settings`` (session): Settings pointing at the services, with ``DATABASE_URL`` set to a fresh
  database ``pai_memory_test_<random>`` migrated to head (dropped at the end of the session), and
  nothing a demo or a deployment on the same services uses: session-private topics, consumer
  groups and Milvus collection, ``PAI_MEMORY_HOME`` in a temporary directory, a free ``API_PORT``
  (``session_names``). Every port a test binds comes from ``localstack.process.free_ports``.
- ``engine`` (session): SQLAlchemy engine for ``settings.database_url``.
- ``clean_db`` (function): truncates all application tables (RESTART IDENTITY CASCADE) first.
- ``unique_name`` (function): ``unique_name(prefix) -> f"{prefix}_{uuid8}"``.
- marker ``services``: the test needs real services (they are brought up even if it does not ask
  for ``settings``); marker ``slow``: skipped unless ``--run-slow``.
"""

from __future__ import annotations

import contextlib
import os
import socket
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import Engine, make_url, text

from core.config import Settings, load_settings

EXTERNAL_VARS = ("DATABASE_URL", "KAFKA_BOOTSTRAP_SERVERS", "MEMORY_MILVUS_URI")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", default=False, help="also run tests marked slow")
    parser.addoption("--stack-down", action="store_true", default=False,
                     help="at the end, stop the local services this session started")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)


@dataclass
class Services:
    """Where the session's services are, and how to stop what the session started."""

    overrides: dict[str, Any] = field(default_factory=dict)  # settings fields pointing at services
    started: list[str] = field(default_factory=list)  # local stack services started by this session
    containers: list[Any] = field(default_factory=list)
    source: dict[str, str] = field(default_factory=dict)  # service -> "environment"/"testcontainers"/"local"


def docker_answers(timeout: float = 1.0) -> bool:
    """Cheap check for a Docker engine: a socket that answers ``/_ping``."""
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    if not host.startswith("unix://"):
        return bool(os.environ.get("DOCKER_HOST"))
    path = host.removeprefix("unix://")
    if not os.path.exists(path):
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(path)
            sock.sendall(b"GET /_ping HTTP/1.0\r\n\r\n")
            return b"OK" in sock.recv(256)
    except OSError:
        return False


def _start_containers(missing: list[str], services: Services) -> None:
    """Start the ``missing`` services with testcontainers (only called when Docker answers)."""
    if "postgres" in missing:
        from testcontainers.community.postgres import PostgresContainer

        pg = PostgresContainer("postgres:16", driver="psycopg").start()
        services.containers.append(pg)
        services.overrides["DATABASE_URL"] = pg.get_connection_url()
        services.source["postgres"] = "testcontainers"
    if "kafka" in missing:
        from testcontainers.community.kafka import KafkaContainer

        kafka = KafkaContainer().with_kraft().start()
        services.containers.append(kafka)
        services.overrides["KAFKA_BOOTSTRAP_SERVERS"] = kafka.get_bootstrap_server()
        services.source["kafka"] = "testcontainers"
    if "milvus" in missing:
        from testcontainers.community.milvus import MilvusContainer

        milvus = MilvusContainer().start()
        services.containers.append(milvus)
        services.overrides["MEMORY_MILVUS_URI"] = milvus.get_connection_url()
        services.source["milvus"] = "testcontainers"


@pytest.fixture(scope="session")
def stack(request: pytest.FixtureRequest) -> Iterator[Services]:
    """Bring the real services up once per session (see module docstring for the order)."""
    from localstack.manager import LocalStack

    services = Services()
    given = {"postgres": "DATABASE_URL", "kafka": "KAFKA_BOOTSTRAP_SERVERS", "milvus": "MEMORY_MILVUS_URI"}
    missing = [name for name, var in given.items() if not os.environ.get(var)]
    for name in given:
        if name not in missing:
            services.source[name] = "environment"
    if missing and docker_answers():
        _start_containers(missing, services)
        missing = []
    local = LocalStack(load_settings(**services.overrides))
    if missing:
        from localstack.process import StackError

        try:
            statuses = local.up(missing)
        except StackError as exc:
            pytest.exit(f"the local stack could not start (or set DATABASE_URL, KAFKA_BOOTSTRAP_SERVERS, "
                        f"MEMORY_MILVUS_URI to use running services): {exc}", returncode=3)
        services.started = [s.name for s in statuses if s.started]
        for name in missing:
            services.source[name] = "local"
    # services given by the environment (or containers) must answer too
    external = [name for name in given if name not in missing]
    problems = {s.name: s.detail for s in local.status(external) if not s.ok}
    if problems:
        pytest.exit(f"services do not answer: {problems}", returncode=3)
    if "kafka" in external:
        from localstack.topics import ensure_topics

        ensure_topics(load_settings(**services.overrides))
    try:
        yield services
    finally:
        for container in reversed(services.containers):
            with contextlib.suppress(Exception):
                container.stop()
        if services.started and request.config.getoption("--stack-down"):
            from localstack.supervisor import running_recorded_processes

            users = sorted(running_recorded_processes(local.paths.home))
            if users:  # a demo started meanwhile runs on these services: stopping them would break it
                reporter = request.config.pluginmanager.get_plugin("terminalreporter")
                if reporter is not None:
                    reporter.write_line(f"--stack-down: left {', '.join(services.started)} running: "
                                        f"service processes {', '.join(users)} use them")
            else:
                local.down(services.started)


@pytest.fixture(autouse=True)
def _services_marker(request: pytest.FixtureRequest) -> None:
    """Tests marked ``services`` get the session's services even without asking for ``settings``."""
    if request.node.get_closest_marker("services") is not None:
        request.getfixturevalue("settings")


def session_names(tag: str, home: str) -> dict[str, Any]:
    """Settings of a test session that keep it apart from a demo or deployment on the same services:
    its own topics, consumer groups (no other group's consumer takes its records, and its consumers
    take no one else's), Milvus collection, home directory and API port."""
    from localstack.process import free_port

    return {
        "TOPIC_CHAT_MESSAGES": f"test.{tag}.chat",
        "TOPIC_MEMORY_COMMANDS": f"test.{tag}.commands",
        "TOPIC_MEMORY_DIRTY": f"test.{tag}.dirty",
        "GROUP_EXTRACTOR": f"test-{tag}-extractor",
        "GROUP_COMMANDS": f"test-{tag}-commands",
        "GROUP_INDEXER": f"test-{tag}-indexer",
        "MEMORY_MILVUS_COLLECTION": f"test_{tag}_memories",
        "PAI_MEMORY_HOME": home,
        "API_PORT": free_port(),
        "METRICS_PORT": None,
    }


def _drop_collection(settings: Settings, name: str) -> None:
    """Drop the session's Milvus collection if a test created it (best effort: Milvus may be down)."""
    from core.vectorstore import MilvusMemoryIndex

    with contextlib.suppress(Exception):
        index = MilvusMemoryIndex.from_settings(settings, collection=name, dim=8)
        try:
            if index.has_collection(name):
                index.drop_collection(name)
        finally:
            index.close()


@pytest.fixture(scope="session")
def settings(stack: Services, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    """Settings pointing at the session's services, a fresh migrated database and private names."""
    from core.storage import db
    from localstack.topics import ensure_topics, service_topics

    base = load_settings(**stack.overrides)
    server_url = make_url(base.database_url)
    tag = uuid.uuid4().hex[:8]
    name = f"pai_memory_test_{tag}"
    private = session_names(tag, str(tmp_path_factory.mktemp("pai_memory_home")))
    admin = db.make_engine(server_url.set(database="postgres").render_as_string(hide_password=False))
    admin = admin.execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    test_url = server_url.set(database=name).render_as_string(hide_password=False)
    try:
        db.upgrade(test_url)
        session_settings = load_settings(**{**stack.overrides, **private, "DATABASE_URL": test_url})
        ensure_topics(session_settings, service_topics(session_settings))
        yield session_settings
    finally:
        _delete_session_topics(base, tag)
        _drop_collection(base, private["MEMORY_MILVUS_COLLECTION"])
        db.engine_for.cache_clear()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def engine(settings: Settings) -> Iterator[Engine]:
    from core.storage import db

    eng = db.make_engine(settings.database_url)
    try:
        yield eng
    finally:
        eng.dispose()


@pytest.fixture
def clean_db(engine: Engine) -> Engine:
    """Empty every application table (keeps ``alembic_version``) before the test."""
    with engine.begin() as conn:
        tables = conn.execute(text(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename <> 'alembic_version'")).scalars().all()
        if tables:
            names = ", ".join(f'"{t}"' for t in tables)
            conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    return engine


_UNIQUE_NAMES: set[str] = set()
"""Every name ``unique_name`` handed out in this session: the session deletes those that became topics."""


@pytest.fixture
def unique_name() -> Callable[[str], str]:
    """``unique_name(prefix)`` -> ``f"{prefix}_{uuid8}"`` for topics, groups, collections."""

    def make(prefix: str) -> str:
        name = f"{prefix}_{uuid.uuid4().hex[:8]}"
        _UNIQUE_NAMES.add(name)
        return name

    return make


def _delete_session_topics(settings: Settings, tag: str) -> None:
    """Delete the topics this session created (its ``test.<tag>.*`` names and the ``unique_name`` ones).

    Without it every run leaves its topics on a long-lived broker (a demo's, a developer's), and a
    few thousand runs' worth of partitions exhaust the local broker's heap. Only this session's own
    names are touched: other sessions on the same broker keep theirs. Best effort: a broker that is
    down is not a test failure.
    """
    from localstack.topics import admin_client

    with contextlib.suppress(Exception):
        admin = admin_client(settings, 10.0)
        existing = set(admin.list_topics(timeout=10).topics)
        prefixes = (f"test.{tag}.", f"test-{tag}-", *(f"{n}{sep}" for n in _UNIQUE_NAMES for sep in ".-"))
        # the session's topics, names built on a unique name (private_names) and their groups' DLQs
        ours = sorted(t for t in existing if t in _UNIQUE_NAMES or t.startswith(prefixes))
        for start in range(0, len(ours), 200):
            futures = admin.delete_topics(ours[start:start + 200], operation_timeout=30)
            for future in futures.values():
                with contextlib.suppress(Exception):
                    future.result(timeout=30)
