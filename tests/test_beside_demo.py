"""The test suite runs beside the demo (README commands 1 and 2 at once, issue 11 item 8).

``bash scripts/run.sh`` keeps the demo's processes running on fixed ports (metrics 24100-24140, API
8080) with the default topics, consumer groups and Milvus collection. A test never uses any of them:
its service processes get free ports (``localstack.process.free_ports``) and the session's settings
private names (``tests/conftest.py``). The slow test runs that exact situation: ``pai-memory demo --no-wait``
on the session's services, then the tests that start service processes in a nested pytest session.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

import pytest
from sqlalchemy import make_url, select, text

from core.config import (
    LOCAL_KAFKA_CONTROLLER_PORT,
    LOCAL_KAFKA_PORT,
    LOCAL_MILVUS_PORT,
    LOCAL_POSTGRES_PORT,
    Settings,
)
from core.storage import db
from core.storage.models import User
from core.vectorstore import MilvusMemoryIndex
from localstack.process import is_alive, port_bindable, wait_until
from localstack.supervisor import (
    OPTIONAL_PROCESSES,
    PROCESS_MARKER,
    PROCESS_NAMES,
    SERVICES_FILE,
    fixed_metrics_port,
    recorded_processes,
    running_recorded_processes,
    stop_recorded_processes,
)
from producers.publish import read_events
from schemas import ChatMessageEvent
from tests.support.env import clean_env, private_service
from tests.support.pipeline import isolated_settings

REPO = Path(__file__).resolve().parents[1]
DEFAULTS = Settings.model_construct()
DEMO_METRICS_PORTS = [fixed_metrics_port(p, 0) for p in (*PROCESS_NAMES, *OPTIONAL_PROCESSES)]
DEMO_PORTS = {*DEMO_METRICS_PORTS, DEFAULTS.API_PORT, DEFAULTS.MCP_PORT}
"""What ``pai-memory demo`` binds: a metrics port per process, the API and the MCP endpoint."""
STACK_PORTS = {LOCAL_KAFKA_PORT, LOCAL_KAFKA_CONTROLLER_PORT, LOCAL_POSTGRES_PORT, LOCAL_MILVUS_PORT}
NAMES = ("TOPIC_CHAT_MESSAGES", "TOPIC_MEMORY_COMMANDS", "TOPIC_MEMORY_DIRTY", "GROUP_EXTRACTOR",
         "GROUP_COMMANDS", "GROUP_INDEXER", "MEMORY_MILVUS_COLLECTION", "PAI_MEMORY_HOME")
"""Settings naming what a demo shares on the same services and machine."""

PROCESS_TESTS = [
    "tests/consumers/test_scaling.py",
    "tests/test_end_to_end.py",
    "tests/localstack/test_service.py",
    "tests/consumers/test_metrics_scrape.py",
    "tests/api/test_api.py::test_pai_memory_run_api_serves_and_stops",
    "tests/test_beside_demo.py",  # the fast tests below (the slow one is skipped without --run-slow)
]
"""Tests that start service processes; each failed with 'Address already in use' or took the demo's
records before their ports and names were private."""


def test_session_settings_share_no_name_or_port_with_a_demo(settings: Settings) -> None:
    for name in NAMES:
        assert getattr(settings, name) != getattr(DEFAULTS, name), f"{name} is the default a demo uses"
    assert settings.API_PORT not in DEMO_PORTS | STACK_PORTS
    assert settings.METRICS_PORT is None


def test_service_env_gives_each_child_its_own_free_api_port(settings: Settings, tmp_path: Path) -> None:
    ports = {int(private_service(settings, tmp_path).env["API_PORT"]) for _ in range(20)}
    assert len(ports) == 20 and not ports & (DEMO_PORTS | STACK_PORTS)


@contextlib.contextmanager
def holding(ports: set[int]) -> Iterator[None]:
    """Listen on each of ``ports`` that is free (one that is not is held by someone already)."""
    with contextlib.ExitStack() as stack:
        for port in sorted(ports):
            sock = stack.enter_context(socket.socket())
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            sock.listen()
        yield


def serves_metrics(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
            return resp.status == 200 and b"pai_memory_" in resp.read()
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


@pytest.mark.services
def test_a_service_process_started_by_a_test_runs_while_the_demo_ports_are_taken(
    settings: Settings, unique_name: Callable[[str], str], tmp_path: Path
) -> None:
    cfg = isolated_settings(settings, unique_name, PAI_MEMORY_HOME=str(tmp_path))
    with holding(DEMO_PORTS):
        service = private_service(cfg, tmp_path)
        try:
            relay = service.supervisor.start("relay")
            assert relay.metrics_port not in DEMO_PORTS | STACK_PORTS

            def up() -> bool:
                assert service.supervisor.alive("relay-0"), service.supervisor.log_tails()
                return serves_metrics(relay.metrics_port)

            wait_until(up, 90, 0.5, "the relay to serve /metrics on its own port")
        finally:
            service.supervisor.stop_all(timeout=20)


def test_a_stack_a_demo_uses_is_recognised_so_stack_down_leaves_it_running(tmp_path: Path) -> None:
    """``--stack-down`` asks ``running_recorded_processes`` whether a demo's processes still run."""
    # a process whose command line carries the service marker, recorded the way the demo records
    demo_like = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", PROCESS_MARKER])
    try:
        (tmp_path / SERVICES_FILE).write_text(json.dumps({"relay-0": demo_like.pid, "api-0": 2**22 + 1}))
        wait_until(lambda: running_recorded_processes(tmp_path) == {"relay-0": demo_like.pid}, 10,
                   what="the demo-like process to be seen")
    finally:
        demo_like.kill()
        demo_like.wait(10)
    assert running_recorded_processes(tmp_path) == {}


# --- the real situation: the demo running, the tests that start processes beside it ---------------------
def sample_users() -> set[str]:
    blob = resources.files("cli").joinpath("samples", "demo_conversations.jsonl").read_bytes()
    users = set()
    for _, events in read_events(blob.splitlines()):
        for event in events if isinstance(events, list) else []:
            if isinstance(event, ChatMessageEvent):
                users.add(event.data.user_id)
    return users


def port_taken(port: int) -> bool:
    return not port_bindable("127.0.0.1", port)


@pytest.mark.slow
@pytest.mark.services
def test_process_tests_pass_while_the_demo_runs(settings: Settings, tmp_path: Path) -> None:
    """``pai-memory demo --no-wait`` on the session's services with its fixed ports, default topics and
    groups (its own database and collection, so no real demo's data is touched), then the tests that
    start service processes; they pass, the demo's processes survive, and its data holds only its own."""
    taken = sorted(p for p in DEMO_PORTS if port_taken(p))
    if taken:
        pytest.skip(f"the demo's ports {taken} are in use (a demo already runs): run the tests beside it")
    tag = uuid.uuid4().hex[:8]
    server = make_url(settings.database_url)
    demo_db = f"pai_memory_demo_{tag}"
    admin = db.make_engine(server.set(database="postgres").render_as_string(hide_password=False))
    admin = admin.execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{demo_db}"'))
    demo_url = server.set(database=demo_db).render_as_string(hide_password=False)
    services = {"KAFKA_BOOTSTRAP_SERVERS": settings.KAFKA_BOOTSTRAP_SERVERS,
                "MEMORY_MILVUS_URI": settings.milvus_uri}
    home, collection = tmp_path / "demo-home", f"demo_{tag}"
    demo_env = clean_env({**services, "DATABASE_URL": demo_url, "PAI_MEMORY_HOME": str(home),
                          "MEMORY_MILVUS_COLLECTION": collection, "PYTHONUNBUFFERED": "1"})
    try:
        demo = subprocess.run([sys.executable, "-m", "cli.main", "demo", "--no-wait", "--timeout", "600"],
                              cwd=REPO, env=demo_env, capture_output=True, text=True, timeout=900)
        assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
        recorded = recorded_processes(home / SERVICES_FILE)
        running = {n: pid for n, pid in recorded.items() if is_alive(pid, PROCESS_MARKER)}
        assert set(running) == {f"{p}-0" for p in (*PROCESS_NAMES, "mcp")}, running
        assert all(port_taken(p) for p in DEMO_PORTS), "the demo does not hold its ports"

        # the nested session gets the same services and picks its own database, names and ports
        nested_env = clean_env({**services, "DATABASE_URL": settings.database_url})
        nested_env.pop("PYTEST_ADDOPTS", None)
        nested = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *PROCESS_TESTS],
            cwd=REPO, env=nested_env, capture_output=True, text=True, timeout=1800)
        assert nested.returncode == 0, nested.stdout[-6000:] + nested.stderr[-3000:]
        summary = nested.stdout.splitlines()[-1]
        assert " passed" in summary, nested.stdout[-3000:]
        print(f"beside the demo: {summary}")  # shown with -s

        assert all(is_alive(pid, PROCESS_MARKER) for pid in running.values()), "a demo process died"
        demo_engine = db.make_engine(demo_url)
        with db.session_factory(demo_engine)() as s:
            users = set(s.scalars(select(User.external_id)).all())
        demo_engine.dispose()
        assert users and users <= sample_users(), f"test data reached the demo: {users - sample_users()}"
    finally:
        stop_recorded_processes(home, timeout=20)
        db.engine_for.cache_clear()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{demo_db}" WITH (FORCE)'))
        admin.dispose()
        index = MilvusMemoryIndex.from_settings(settings, collection=collection, dim=8)
        try:
            if index.has_collection(collection):
                index.drop_collection(collection)
        finally:
            index.close()

