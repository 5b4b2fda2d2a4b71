"""The record of the service processes the demo and eval start, and stopping them later."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from core.config import Settings
from localstack.process import is_alive
from localstack.supervisor import SERVICES_FILE, stop_recorded_processes
from tests.support.env import private_service
from tests.support.pipeline import isolated_settings


@pytest.mark.services
def test_recorded_processes_are_reused_then_stopped_by_a_later_command(
    settings: Settings, unique_name: Callable[[str], str], tmp_path: Path
) -> None:
    cfg = isolated_settings(settings, unique_name, PAI_MEMORY_HOME=str(tmp_path))
    first = private_service(cfg, tmp_path)
    started = first.start_processes(["relay"])
    # a pid recorded by an earlier run and since reused by an unrelated process
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        assert json.loads((tmp_path / SERVICES_FILE).read_text()) == started
        relay = started["relay-0"]
        # `demo --no-wait` exits without stopping; the next demo/eval reuses what runs
        again = private_service(cfg, tmp_path).start_processes(["relay"])
        assert again == {"relay-0": relay}
        (tmp_path / SERVICES_FILE).write_text(json.dumps({**again, "extractor-0": bystander.pid}))

        # `pai-memory stack down` (or `demo --stop`) stops them
        stopped = stop_recorded_processes(tmp_path, timeout=20)

        assert stopped == [("extractor-0", bystander.pid, False), ("relay-0", relay, True)]
        assert not is_alive(relay)
        assert bystander.poll() is None, "a pid that is no longer a service process was signalled"
        assert not (tmp_path / SERVICES_FILE).exists()
        assert stop_recorded_processes(tmp_path) == []
    finally:
        first.supervisor.stop_all(timeout=10)
        bystander.kill()
        bystander.wait(10)
