"""The supervisor's record of its service processes, and ``stack down`` stopping what it left."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from core.config import Settings
from localstack.process import is_alive
from localstack.supervisor import SERVICES_FILE, ServiceSupervisor, stop_recorded_services
from tests.support.env import service_env
from tests.support.pipeline import isolated_settings


@pytest.mark.services
def test_processes_left_running_are_recorded_and_stopped(
    settings: Settings, unique_name: Callable[[str], str], tmp_path: Path
) -> None:
    cfg = isolated_settings(settings, unique_name, PAI_MEMORY_HOME=str(tmp_path))
    left_running = ServiceSupervisor(cfg, service_env(cfg, tmp_path))
    relay = left_running.start("relay")
    # a pid recorded by an earlier run and since reused by an unrelated process is not signalled
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        records = json.loads((tmp_path / SERVICES_FILE).read_text())
        assert records == {str(relay.pid): "relay-0"}
        (tmp_path / SERVICES_FILE).write_text(json.dumps({**records, str(bystander.pid): "extractor-0"}))

        # `demo --no-wait` returns without stopping its supervisor's children; `stack down` runs later
        stopped = stop_recorded_services(tmp_path, timeout=20)

        assert sorted(stopped) == [("extractor-0", bystander.pid, False), ("relay-0", relay.pid, True)]
        assert not is_alive(relay.pid)
        assert bystander.poll() is None, "a pid that is no longer a service process was signalled"
        assert not (tmp_path / SERVICES_FILE).exists()
        assert stop_recorded_services(tmp_path) == []
    finally:
        left_running.stop_all(timeout=10)
        bystander.kill()
        bystander.wait(10)


@pytest.mark.services
def test_stop_all_forgets_its_children(settings: Settings, unique_name: Callable[[str], str],
                                       tmp_path: Path) -> None:
    cfg = isolated_settings(settings, unique_name, PAI_MEMORY_HOME=str(tmp_path))
    supervisor = ServiceSupervisor(cfg, service_env(cfg, tmp_path))
    supervisor.start("relay")
    assert (tmp_path / SERVICES_FILE).exists()
    supervisor.stop_all(timeout=20)
    assert not (tmp_path / SERVICES_FILE).exists()
