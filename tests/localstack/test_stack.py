"""The local stack reports services truthfully: answering, stopped, crashed; up is idempotent."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import LOCAL_KAFKA_PORT, Settings, load_settings
from core.storage import db
from localstack.base import LocalPorts, ServiceStatus, StackPaths, StackState
from localstack.manager import LocalStack
from localstack.milvus import milvus_lite_command
from localstack.process import free_ports, is_alive, wait_ready, wait_until


def _stack_env(settings: Settings) -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = settings.database_url
    env["KAFKA_BOOTSTRAP_SERVERS"] = settings.KAFKA_BOOTSTRAP_SERVERS
    env["MEMORY_MILVUS_URI"] = settings.milvus_uri
    return env


@pytest.mark.services
def test_status_reports_every_service_answering(settings: Settings) -> None:
    result = subprocess.run([sys.executable, "-m", "cli.main", "stack", "status"], env=_stack_env(settings),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if line.strip()}
    assert set(lines) == {"kafka", "postgres", "milvus"}
    for line in lines.values():
        assert line.split()[1] == "answering", line


def _unused_ports(tmp_path: Path) -> LocalPorts:
    kafka, controller, postgres, milvus = free_ports(4)
    return LocalPorts(kafka=kafka, kafka_controller=controller, postgres=postgres, milvus=milvus)


def _all_local() -> Settings:
    return load_settings(
        DATABASE_URL=None, KAFKA_BOOTSTRAP_SERVERS=f"127.0.0.1:{LOCAL_KAFKA_PORT}", MEMORY_MILVUS_URI=None
    )


def test_status_reports_a_crashed_service(tmp_path: Path) -> None:
    """A pid recorded by `up` that no longer runs is reported as crashed, not as merely stopped."""
    ports = _unused_ports(tmp_path)
    paths = StackPaths(home=tmp_path / "home", cache=tmp_path / "cache")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    paths.home.mkdir()
    paths.state_file.write_text(json.dumps({"services": {"milvus": {"pid": dead.pid, "address": "x"}}}))
    statuses = {s.name: s for s in LocalStack(_all_local(), ports, paths).status()}
    assert statuses["milvus"].state == "crashed"
    assert str(dead.pid) in statuses["milvus"].detail
    assert not statuses["milvus"].ok
    assert statuses["kafka"].state == "stopped"
    assert statuses["postgres"].state == "stopped"


@pytest.fixture
def scratch_stack() -> Iterator[LocalStack]:
    """An all-local stack on free ports in its own home (shares the jar cache); torn down after."""
    home = Path(tempfile.mkdtemp(prefix="pai-stack-test-"))
    settings = _all_local()
    paths = StackPaths(home=home, cache=StackPaths.from_settings(settings).cache)
    stack = LocalStack(settings, _unused_ports(home), paths)
    try:
        yield stack
    finally:
        stack.down(timeout=10)
        shutil.rmtree(home, ignore_errors=True)


def _by_name(statuses: list[ServiceStatus]) -> dict[str, ServiceStatus]:
    return {s.name: s for s in statuses}


@pytest.mark.services
def test_up_is_idempotent_crash_is_reported_and_down_stops_only_its_own(scratch_stack: LocalStack) -> None:
    stack = scratch_stack
    milvus = stack.services["milvus"]
    # a Milvus Lite already answering on the port, started by someone else
    foreign = subprocess.Popen([*milvus_lite_command(), "server", "--data-dir",
                                str(stack.paths.home / "foreign"), "--host", "127.0.0.1",
                                "--port", str(stack.ports.milvus)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(lambda: milvus.probe(2.0), 60, "foreign milvus")
        first = _by_name(stack.up())
        assert first["kafka"].started and first["postgres"].started
        assert not first["milvus"].started and "not started by this stack" in first["milvus"].detail
        assert all(s.ok for s in first.values())
        assert set(StackState.load(stack.paths.state_file).services) == {"kafka", "postgres"}

        again = _by_name(stack.up())
        assert not any(s.started for s in again.values())
        assert again["kafka"].pid == first["kafka"].pid and again["postgres"].pid == first["postgres"].pid

        # the local database exists and is migrated
        url = stack.services["postgres"].url  # type: ignore[attr-defined]
        assert db.current_revision(url) is not None

        # a crash of a process `up` started is reported, and the next `up` starts it again
        pg_pid = first["postgres"].pid
        assert pg_pid is not None
        os.kill(pg_pid, signal.SIGKILL)
        wait_until(lambda: not is_alive(pg_pid), 10, what="postgres to die")
        crashed = _by_name(stack.status())
        assert crashed["postgres"].state == "crashed" and str(pg_pid) in crashed["postgres"].detail
        assert crashed["kafka"].ok and crashed["milvus"].ok
        restarted = _by_name(stack.up(["postgres"]))
        assert restarted["postgres"].started and restarted["postgres"].pid != pg_pid
        assert "crashed" in restarted["postgres"].detail
        assert db.current_revision(url) is not None  # data survived the crash

        pids = {"kafka": first["kafka"].pid, "postgres": restarted["postgres"].pid}
        stopped = _by_name(stack.down())
        assert {n for n, s in stopped.items() if s.detail.startswith("stopped pid")} == {"kafka", "postgres"}
        for name, pid in pids.items():
            assert not is_alive(pid), name
        assert foreign.poll() is None, "down stopped a process it did not start"
        after = _by_name(stack.status())
        assert after["kafka"].state == "stopped" and after["postgres"].state == "stopped"
        assert after["milvus"].ok  # the foreign one still answers
    finally:
        foreign.terminate()
        foreign.wait(20)


def test_cli_names_match_the_manager() -> None:
    from cli.stack_cmd import SERVICE_NAMES as CLI_NAMES
    from localstack.manager import SERVICE_NAMES

    assert CLI_NAMES == SERVICE_NAMES



def test_milvus_probe_reports_a_deadline_instead_of_raising(monkeypatch: pytest.MonkeyPatch) -> None:
    """pymilvus 3 lets a gRPC deadline out of ``list_collections`` as a raw ``grpc.RpcError`` (seen with
    Milvus Lite still loading its data): the probe reports it as a reason to wait, so ``stack up`` keeps
    waiting instead of aborting."""
    import socket

    import grpc
    import pymilvus

    from localstack.milvus import milvus_probe

    class DeadlineExceeded(grpc.RpcError):
        def __str__(self) -> str:
            return "StatusCode.DEADLINE_EXCEEDED: Deadline Exceeded"

    class SlowClient:
        def __init__(self, **_: object) -> None:
            pass

        def list_collections(self, timeout: float | None = None) -> list[str]:
            raise DeadlineExceeded()

        def close(self) -> None:
            pass

    monkeypatch.setattr(pymilvus, "MilvusClient", SlowClient)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        reason = milvus_probe(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=0.5)
    assert reason is not None and "DEADLINE_EXCEEDED" in reason
