"""Shared pieces of the local stack: paths, ports, the state file and the service interface.

The state file (``<PAI_MEMORY_HOME>/stack.json``) records the pid of every process that ``up``
started. ``down`` stops exactly those pids; a recorded pid that no longer runs is a crash and is
reported as such by ``status``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.config import (
    LOCAL_KAFKA_CONTROLLER_PORT,
    LOCAL_KAFKA_PORT,
    LOCAL_MILVUS_PORT,
    LOCAL_POSTGRES_PORT,
    ObservabilitySettings,
    Settings,
)
from localstack.process import is_alive

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class LocalPorts:
    """Loopback ports of the local processes (defaults from core.config)."""

    kafka: int = LOCAL_KAFKA_PORT
    kafka_controller: int = LOCAL_KAFKA_CONTROLLER_PORT
    postgres: int = LOCAL_POSTGRES_PORT
    milvus: int = LOCAL_MILVUS_PORT
    # (broker, controller) ports of the cluster's nodes 2..N; empty: derived from the first node's ports
    # (node i: ``kafka + 2(i-1)``, ``kafka_controller + 2(i-1)``)
    kafka_nodes: tuple[tuple[int, int], ...] = ()

    def kafka_node(self, node_id: int) -> tuple[int, int]:
        """(broker port, controller port) of Kafka node ``node_id`` (1-based)."""
        if node_id == 1:
            return self.kafka, self.kafka_controller
        if len(self.kafka_nodes) >= node_id - 1:
            return self.kafka_nodes[node_id - 2]
        step = 2 * (node_id - 1)
        return self.kafka + step, self.kafka_controller + step


@dataclass(frozen=True)
class StackPaths:
    """Where the stack keeps data (project-local ``home``) and downloaded jars (user ``cache``)."""

    home: Path
    cache: Path

    @classmethod
    def from_settings(cls, settings: ObservabilitySettings) -> StackPaths:
        home = Path(settings.PAI_MEMORY_HOME).expanduser().resolve()
        if settings.PAI_MEMORY_CACHE_DIR:
            cache = Path(settings.PAI_MEMORY_CACHE_DIR).expanduser().resolve()
        else:
            xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
            cache = Path(xdg).expanduser().resolve() / "pai-memory"
        return cls(home=home, cache=cache)

    @property
    def state_file(self) -> Path:
        return self.home / "stack.json"

    @property
    def lock_file(self) -> Path:
        return self.home / "stack.lock"


@dataclass
class ServiceStatus:
    """What ``status`` (and ``up``) knows about one service."""

    name: str
    address: str
    mode: str  # "local" (this stack's process) or "external" (configured by environment)
    state: str  # "answering" | "not answering" | "crashed" | "stopped"
    pid: int | None = None
    detail: str = ""
    started: bool = False  # this call started it
    seconds: float | None = None  # time spent in ``up`` for this service
    log: str | None = None

    @property
    def ok(self) -> bool:
        return self.state == "answering"


@dataclass
class StackState:
    """The persisted pids of processes started by ``up``."""

    path: Path
    services: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> StackState:
        try:
            data = json.loads(path.read_text())
        except FileNotFoundError:
            return cls(path)
        except (OSError, ValueError):
            return cls(path)  # unreadable state: treat as nothing recorded
        services = data.get("services", {}) if isinstance(data, dict) else {}
        return cls(path, {k: v for k, v in services.items() if isinstance(v, dict)})

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"services": self.services}, indent=2, sort_keys=True))
        tmp.replace(self.path)

    def record(self, name: str, pid: int, address: str, log: Path | None) -> None:
        self.services[name] = {"pid": pid, "address": address, "started_at": time.time(),
                               "log": str(log) if log else None}

    def pid(self, name: str) -> int | None:
        value = self.services.get(name, {}).get("pid")
        return value if isinstance(value, int) else None


@contextlib.contextmanager
def stack_lock(paths: StackPaths) -> Iterator[None]:
    """Serialise ``up``/``down`` of the same home between processes (e.g. parallel test sessions)."""
    paths.home.mkdir(parents=True, exist_ok=True)
    with open(paths.lock_file, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class Service(ABC):
    """One service of the stack. Local services run a process; external ones are only probed."""

    name: str
    marker: str  # substring of the process command line, guards against pid reuse

    def __init__(self, settings: Settings, paths: StackPaths, ports: LocalPorts) -> None:
        self.settings = settings
        self.paths = paths
        self.ports = ports

    @property
    @abstractmethod
    def external(self) -> bool:
        """True when the environment points at a service this stack must not start."""

    @property
    @abstractmethod
    def address(self) -> str:
        """Where clients reach the service (secrets masked)."""

    @property
    @abstractmethod
    def local_port(self) -> int:
        """The loopback port the local process listens on."""

    @property
    def dir(self) -> Path:
        """The local process's own directory under the stack's home (data, configuration, log)."""
        return self.paths.home / self.name

    @property
    def log_path(self) -> Path:
        return self.dir / f"{self.name}.log"

    @abstractmethod
    def probe(self, timeout: float = 3.0) -> str | None:
        """None when the service answers a real request, else a one-line reason."""

    @abstractmethod
    def start(self) -> int:
        """Start the local process, wait until it answers, return its pid."""

    def stop(self, pid: int, timeout: float = 30.0) -> None:
        """Stop the process ``pid`` that ``start`` returned."""
        from localstack.process import stop_pid

        stop_pid(pid, self.marker, timeout)

    def after_up(self) -> str:
        """Idempotent preparation once the service answers (topics, database). Returns a note."""
        return ""

    def alive(self, pid: int | None) -> bool:
        return is_alive(pid, self.marker)
