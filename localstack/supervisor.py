"""Runs the service's own processes (extractor, commands, relay, indexer, api) as children.

Used by ``pai-memory demo``/``eval``, the benchmarks and the scaling and fault-injection tests.
Each process is ``python -m cli.main run NAME`` with the supervisor's environment overrides, its
own metrics port and a log file under ``<PAI_MEMORY_HOME>/logs``. Several replicas of one process
are told apart by an index (``extractor-0``, ``extractor-1``...). Metrics ports come from the
supervisor's ``metrics_port`` allocator: by default the demo's fixed ports (``fixed_metrics_port``,
documented in the README); tests pass one that hands out free ports, so they run beside the demo.

Invariant: the supervisor only ever signals pids it started itself. ``LocalService`` records the
pids of the processes it keeps running in ``<PAI_MEMORY_HOME>/services.json``;
``stop_recorded_processes`` (``pai-memory stack down``, ``demo --stop``) stops them later.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from core.config import ObservabilitySettings
from localstack.process import free_port, is_alive, spawn_detached, stop_pid

PROCESS_NAMES = ("extractor", "commands", "relay", "indexer", "api")
OPTIONAL_PROCESSES = ("mcp",)
"""Processes a caller may start by name (the demo starts ``mcp``) but ``start_processes`` does not start."""
METRICS_BASE_PORT = 24100  # below the ephemeral port range, like the stack's ports
PROCESS_MARKER = "cli.main run"  # in the command line of every service process
SERVICES_FILE = "services.json"

PortAllocator = Callable[[str, int], int]
"""``(process, replica index) -> metrics port`` for the replica about to start."""


def fixed_metrics_port(process: str, index: int) -> int:
    """The demo's metrics port of a replica: ``METRICS_BASE_PORT + 10 * position + index``."""
    return METRICS_BASE_PORT + (*PROCESS_NAMES, *OPTIONAL_PROCESSES).index(process) * 10 + index


@dataclass
class FreePorts:
    """A ``PortAllocator`` for tests and benchmarks: a free port per replica name, kept for that name
    so a restarted replica serves where it served before (runs beside the demo's fixed ports)."""

    ports: dict[str, int] = field(default_factory=dict)

    def __call__(self, process: str, index: int) -> int:
        name = f"{process}-{index}"
        if name not in self.ports:
            self.ports[name] = free_port()
        return self.ports[name]


def recorded_processes(path: Path) -> dict[str, int]:
    """``{name: pid}`` recorded in ``path``; empty when missing or unreadable."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(n): pid for n, pid in data.items() if isinstance(pid, int) and not isinstance(pid, bool)}


def running_recorded_processes(home: Path) -> dict[str, int]:
    """The service processes recorded under ``home`` that still run (name -> pid)."""
    recorded = recorded_processes(home / SERVICES_FILE)
    return {name: pid for name, pid in recorded.items() if is_alive(pid, PROCESS_MARKER)}


def stop_recorded_processes(home: Path, timeout: float = 30.0) -> list[tuple[str, int, bool]]:
    """Stop the service processes recorded under ``home`` and forget them.

    Returns ``(name, pid, was_running)`` per record, by name. A pid whose command line is no
    longer a service process (it exited, or the pid was reused) is not signalled.
    """
    path = home / SERVICES_FILE
    out = []
    for name, pid in sorted(recorded_processes(path).items()):
        running = is_alive(pid, PROCESS_MARKER)
        if running:
            stop_pid(pid, PROCESS_MARKER, timeout)
        out.append((name, pid, running))
    path.unlink(missing_ok=True)
    return out


@dataclass
class Child:
    name: str  # e.g. "extractor-0"
    process: str  # e.g. "extractor"
    pid: int
    log: Path
    metrics_port: int  # the METRICS_PORT the child was started with


@dataclass
class ServiceSupervisor:
    """Starts, kills and restarts the service processes; stops them all on ``stop_all``."""

    settings: ObservabilitySettings
    env_overrides: dict[str, str] = field(default_factory=dict)
    children: dict[str, Child] = field(default_factory=dict)
    metrics_port: PortAllocator = fixed_metrics_port

    @property
    def log_dir(self) -> Path:
        return Path(self.settings.PAI_MEMORY_HOME) / "logs"

    def start(self, process: str, index: int = 0, extra_env: dict[str, str] | None = None) -> Child:
        """Start one replica (no-op when that replica already runs)."""
        if process not in (*PROCESS_NAMES, *OPTIONAL_PROCESSES):
            known = ", ".join(PROCESS_NAMES + OPTIONAL_PROCESSES)
            raise ValueError(f"unknown process {process!r}; one of {known}")
        name = f"{process}-{index}"
        current = self.children.get(name)
        if current is not None and self.alive(name):
            return current
        env = {**os.environ, **self.env_overrides, **(extra_env or {})}
        if "METRICS_PORT" not in (extra_env or {}):  # ``extra_env`` may choose the port itself
            env["METRICS_PORT"] = str(self.metrics_port(process, index))
        env.setdefault("PYTHONUNBUFFERED", "1")
        log = self.log_dir / f"{name}.log"
        pid = spawn_detached([sys.executable, "-m", "cli.main", "run", process], log, env=env)
        child = Child(name, process, pid, log, int(env["METRICS_PORT"]))
        self.children[name] = child
        return child

    def alive(self, name: str) -> bool:
        child = self.children.get(name)
        return child is not None and is_alive(child.pid, PROCESS_MARKER)

    def dead(self) -> list[str]:
        """Names of children that were started and are no longer running."""
        return [n for n in self.children if not self.alive(n)]

    def log_tails(self, lines: int = 15) -> str:
        """The last lines of every child's log, dead ones marked (for failure messages)."""
        out = []
        for name, child in self.children.items():
            try:
                tail = child.log.read_text(errors="replace").splitlines()[-lines:]
            except OSError:
                tail = ["(no log)"]
            state = "running" if self.alive(name) else "DEAD"
            out.append(f"--- {name} ({state}, pid {child.pid}) {child.log}\n" + "\n".join(tail))
        return "\n".join(out)

    def kill(self, name: str) -> None:
        """``kill -9`` a child (fault injection): no drain, no commit."""
        child = self.children[name]
        if is_alive(child.pid, PROCESS_MARKER):
            os.kill(child.pid, signal.SIGKILL)

    def stop(self, name: str, timeout: float = 30.0) -> None:
        """SIGTERM (graceful drain), then SIGKILL after ``timeout``."""
        child = self.children.get(name)
        if child is not None:
            stop_pid(child.pid, PROCESS_MARKER, timeout)

    def restart(self, name: str) -> Child:
        child = self.children[name]
        self.stop(name, timeout=5)
        index = int(name.rsplit("-", 1)[1])
        self.children.pop(name, None)
        return self.start(child.process, index)

    def stop_all(self, timeout: float = 30.0) -> None:
        for name in list(self.children):
            self.stop(name, timeout)
        self.children.clear()
