"""The local stack: bring Kafka, PostgreSQL and Milvus up, down, and report their status.

Contract:
- ``up`` is idempotent: a service that already answers is left alone; a local service whose
  recorded pid died is started again (and that is said in the result). External services
  (configured by ``KAFKA_BOOTSTRAP_SERVERS`` / ``DATABASE_URL`` / ``MEMORY_MILVUS_URI``) are never
  started, only probed. After each service answers, its idempotent preparation runs (Kafka
  topics; local database ``pai_memory`` migrated to head).
- ``down`` stops only the processes whose pids ``up`` recorded in the state file.
- ``status`` never changes anything; a recorded pid that is not running is reported as crashed.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

from core.config import Settings
from localstack.base import LOOPBACK, LocalPorts, Service, ServiceStatus, StackPaths, StackState, stack_lock
from localstack.kafka import KafkaService
from localstack.milvus import MilvusService
from localstack.postgres import PostgresService
from localstack.process import StackError, port_open, wait_ready

SERVICE_NAMES = ("kafka", "postgres", "milvus")  # also in cli/stack_cmd.py (kept import-light)


def recorded_brokers(paths: StackPaths) -> int | None:
    """Kafka nodes of the cluster ``up`` recorded in the state file (``kafka-<i>`` entries), or None."""
    nodes = [n for n in StackState.load(paths.state_file).services if re.fullmatch(r"kafka-\d+", n)]
    return len(nodes) or None


class StackUpError(StackError):
    """One or more services could not be brought up; ``statuses`` holds every service's outcome."""

    def __init__(self, message: str, statuses: list[ServiceStatus]) -> None:
        super().__init__(message)
        self.statuses = statuses


class LocalStack:
    """Python API of ``pai-memory stack``; also used by the test fixtures and the demo."""

    def __init__(self, settings: Settings, ports: LocalPorts | None = None,
                 paths: StackPaths | None = None, brokers: int | None = None) -> None:
        """``brokers``: Kafka nodes of the local stack; None: as many as ``up`` recorded in the state
        file (so ``status``/``down`` of a cluster need no option), else ``KAFKA_LOCAL_BROKERS``."""
        self.settings = settings
        self.ports = ports or LocalPorts()
        self.paths = paths or StackPaths.from_settings(settings)
        self.brokers = brokers or recorded_brokers(self.paths) or settings.KAFKA_LOCAL_BROKERS
        self.kafka_nodes: list[KafkaService] = [
            KafkaService(settings, self.paths, self.ports, node_id=i, nodes=self.brokers)
            for i in range(1, self.brokers + 1)]
        self.services: dict[str, Service] = {node.name: node for node in self.kafka_nodes}
        self.services["postgres"] = PostgresService(settings, self.paths, self.ports)
        self.services["milvus"] = MilvusService(settings, self.paths, self.ports)

    @property
    def kafka_bootstrap(self) -> str:
        """The bootstrap list of the local Kafka (every node)."""
        return self.kafka_nodes[0].bootstrap

    def _select(self, names: Iterable[str] | None) -> list[Service]:
        """The services named (default: all); ``kafka`` means every Kafka node."""
        chosen: list[str] = []
        for name in (SERVICE_NAMES if names is None else names):
            expanded = [n.name for n in self.kafka_nodes] if name == "kafka" else [name]
            chosen.extend(n for n in expanded if n not in chosen)
        unknown = [n for n in chosen if n not in self.services]
        if unknown:
            raise ValueError(f"unknown service(s): {', '.join(unknown)}; known: {', '.join(self.services)}")
        return [self.services[n] for n in chosen]

    # -- up ------------------------------------------------------------------------------------
    def up(self, names: Iterable[str] | None = None) -> list[ServiceStatus]:
        """Bring the services up (in parallel); raise ``StackUpError`` if any does not answer."""
        services = self._select(names)
        with stack_lock(self.paths):
            state = StackState.load(self.paths.state_file)
            guard = threading.Lock()
            with ThreadPoolExecutor(max_workers=max(1, len(services))) as pool:
                futures = [pool.submit(self._up_one, svc, state, guard) for svc in services]
                statuses = [f.result() for f in futures]
        failed = [s for s in statuses if not s.ok]
        if failed:
            raise StackUpError("; ".join(f"{s.name}: {s.detail}" for s in failed), statuses)
        return statuses

    def _up_one(self, svc: Service, state: StackState, guard: threading.Lock) -> ServiceStatus:
        t0 = time.monotonic()
        mode = "external" if svc.external else "local"
        status = ServiceStatus(svc.name, svc.address, mode, "not answering",
                               log=str(svc.log_path) if svc.log_path and mode == "local" else None)
        try:
            notes = self._bring_up(svc, state, guard, status)
            after = svc.after_up()
            status.state = "answering"
            status.detail = "; ".join(n for n in (notes, after) if n)
        except StackError as exc:
            status.detail = str(exc)
        except Exception as exc:  # surfaced per service so one failure does not hide the others
            status.detail = f"{type(exc).__name__}: {exc}"
        status.seconds = time.monotonic() - t0
        return status

    def _bring_up(self, svc: Service, state: StackState, guard: threading.Lock, status: ServiceStatus) -> str:
        if svc.external:
            reason = svc.probe()
            if reason is not None:
                raise StackError(f"external {svc.name} at {svc.address} does not answer: {reason}")
            return "external, not started by this stack"
        pid = state.pid(svc.name)
        if pid is not None and svc.alive(pid):
            status.pid = pid
            wait_ready(lambda: svc.probe(2.0), 30, f"{svc.name} (pid {pid})", log_path=svc.log_path)
            return "already running"
        note = ""
        if pid is not None:
            note = f"recorded pid {pid} was not running (crashed); started again"
            with guard:
                state.services.pop(svc.name, None)
                state.save()
        if port_open(LOOPBACK, svc.local_port) and svc.probe(2.0) is None:
            return "answering on its port but not started by this stack: left alone"
        new_pid = svc.start()
        status.pid = new_pid
        status.started = True
        with guard:
            state.record(svc.name, new_pid, svc.address, svc.log_path)
            state.save()
        return note or "started"

    # -- down ----------------------------------------------------------------------------------
    def down(self, names: Iterable[str] | None = None, timeout: float = 30.0) -> list[ServiceStatus]:
        """Stop the processes ``up`` started (by recorded pid); leave everything else alone."""
        services = self._select(names)
        with stack_lock(self.paths):
            state = StackState.load(self.paths.state_file)
            guard = threading.Lock()

            def stop_one(svc: Service) -> ServiceStatus:
                t0 = time.monotonic()
                mode = "external" if svc.external else "local"
                pid = state.pid(svc.name)
                status = ServiceStatus(svc.name, svc.address, mode, "stopped", pid=pid)
                if pid is None:
                    status.detail = "external: left alone" if svc.external else "not started by this stack"
                elif not svc.alive(pid):
                    status.detail = f"recorded pid {pid} was not running (crashed)"
                else:
                    svc.stop(pid, timeout)
                    status.detail = f"stopped pid {pid}"
                if pid is not None:
                    with guard:
                        state.services.pop(svc.name, None)
                        state.save()
                status.seconds = time.monotonic() - t0
                return status

            with ThreadPoolExecutor(max_workers=max(1, len(services))) as pool:
                return list(pool.map(stop_one, services))

    # -- status --------------------------------------------------------------------------------
    def status(self, names: Iterable[str] | None = None) -> list[ServiceStatus]:
        """Each service's address and whether it answers; never starts or stops anything."""
        services = self._select(names)
        state = StackState.load(self.paths.state_file)

        def one(svc: Service) -> ServiceStatus:
            mode = "external" if svc.external else "local"
            log = str(svc.log_path) if svc.log_path and mode == "local" else None
            pid = None if svc.external else state.pid(svc.name)
            status = ServiceStatus(svc.name, svc.address, mode, "not answering", pid=pid, log=log)
            if pid is not None and not svc.alive(pid):
                status.state = "crashed"
                status.detail = f"pid {pid} recorded by `stack up` is not running"
                if log:
                    status.detail += f"; see {log}"
                return status
            if not svc.external and pid is None and not port_open(LOOPBACK, svc.local_port):
                status.state = "stopped"
                status.detail = f"nothing listens on port {svc.local_port}"
                return status
            reason = svc.probe()
            if reason is None:
                status.state = "answering"
                if svc.external:
                    status.detail = "external"
                elif pid is None:
                    status.detail = "not started by this stack"
            elif pid is None and not svc.external:
                status.state = "stopped"
                status.detail = reason
            else:
                status.detail = reason
            return status

        with ThreadPoolExecutor(max_workers=max(1, len(services))) as pool:
            return list(pool.map(one, services))
