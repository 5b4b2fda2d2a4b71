"""The local stack reports services truthfully: answering, stopped, crashed; up is idempotent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.config import Settings, load_settings
from localstack.base import LocalPorts, StackPaths
from localstack.manager import LocalStack


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
    import socket

    ports = []
    socks = []
    for _ in range(4):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return LocalPorts(kafka=ports[0], kafka_controller=ports[1], postgres=ports[2], milvus=ports[3])


def _all_local() -> Settings:
    return load_settings(DATABASE_URL=None, KAFKA_BOOTSTRAP_SERVERS="127.0.0.1:39092", MEMORY_MILVUS_URI=None)


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
