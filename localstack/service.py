"""The whole service on the local stack: services up, schema, topics, the five processes, settling.

Used by ``pai-memory demo``, ``pai-memory eval``, the benchmarks and the reliability tests.
Processes started here are recorded in ``<PAI_MEMORY_HOME>/services.json`` so a later command
reuses them instead of starting a second set; ``stop_processes`` (and ``pai-memory stack down``,
through ``localstack.supervisor.stop_recorded_processes``) stops only those.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from core.config import Settings, load_settings
from core.storage import db
from localstack.manager import LocalStack
from localstack.settle import PipelineProgress, pipeline_progress, wait_healthy, wait_settled
from localstack.supervisor import (
    PROCESS_NAMES,
    SERVICES_FILE,
    Child,
    PortAllocator,
    ServiceSupervisor,
    fixed_metrics_port,
    running_recorded_processes,
    stop_recorded_processes,
)
from localstack.topics import ensure_topics

# What the demo and eval run with on top of the user's configuration: the index side on, and a
# short debounce so a demo does not sit idle for the default 12 s after each conversation.
SERVICE_ENV = {
    "MEMORY_MILVUS_ENABLED": "true",
    "MEMORY_INDEX_WORKER_ENABLED": "true",
}
DEMO_ENV = {"LONG_TERM_MEMORY_DEBOUNCE_SEC": "2"}


class SettleTimeout(TimeoutError):
    """The pipeline did not settle in time; the message says what is still pending."""


@dataclass
class LocalService:
    """Brings the service up on the local stack (idempotently) and observes it.

    ``metrics_port`` chooses each process's metrics port (the demo's fixed ports by default)."""

    settings: Settings
    env: dict[str, str] = field(default_factory=dict)
    metrics_port: PortAllocator = fixed_metrics_port
    supervisor: ServiceSupervisor = field(init=False)

    def __post_init__(self) -> None:
        self.supervisor = ServiceSupervisor(
            self.settings, {**SERVICE_ENV, **self.env}, metrics_port=self.metrics_port
        )

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> LocalService:
        merged = {**SERVICE_ENV, **(env or {})}
        for k, v in merged.items():
            os.environ.setdefault(k, v)
        return cls(load_settings(), env or {})

    @property
    def state_file(self) -> Path:
        return Path(self.settings.PAI_MEMORY_HOME) / SERVICES_FILE

    # --- bring up -----------------------------------------------------------------------------
    def up_stack(self) -> None:
        LocalStack(self.settings).up()
        db.upgrade(self.settings.database_url)
        ensure_topics(self.settings)

    def running_processes(self) -> dict[str, int]:
        """Recorded service processes that are still alive (name -> pid)."""
        return running_recorded_processes(self.state_file.parent)

    def start_processes(self, processes: Sequence[str] = PROCESS_NAMES) -> dict[str, int]:
        """Start the processes not already running; returns what runs now (name -> pid)."""
        alive = self.running_processes()
        for process in processes:
            if f"{process}-0" not in alive:
                child: Child = self.supervisor.start(process)
                alive[child.name] = child.pid
        self.state_file.parent.mkdir(parents=True, exist_ok=True)
        self.state_file.write_text(json.dumps(alive))
        return alive

    def stop_processes(self) -> None:
        stop_recorded_processes(Path(self.settings.PAI_MEMORY_HOME))

    def wait_api(self, timeout: float = 60.0) -> str:
        """The API's base URL once ``/healthz`` answers; ``SettleTimeout`` after ``timeout`` s."""
        url = f"http://{self.settings.API_HOST}:{self.settings.API_PORT}"
        if not wait_healthy(url, timeout):
            raise SettleTimeout(f"API did not answer on {url} within {timeout:.0f}s")
        return url

    # --- observe ------------------------------------------------------------------------------
    def sessions(self) -> sessionmaker[Session]:
        return db.session_factory(db.engine_for(self.settings.database_url))

    def pipeline_state(
        self, message_ids: Iterable[str] | None = None, user_ids: Iterable[str] | None = None
    ) -> PipelineProgress:
        return pipeline_progress(self.sessions(), message_ids, user_ids)

    def wait_settled(
        self,
        message_ids: Sequence[str],
        user_ids: Sequence[str],
        timeout: float = 300.0,
        on_progress: Callable[[PipelineProgress], None] | None = None,
    ) -> PipelineProgress:
        """Wait until the messages are all stored and final, the users' memories all SYNCED and
        the outbox drained (``localstack.settle``). Raises ``SettleTimeout`` naming what is left."""
        result = wait_settled(self.sessions(), message_ids, user_ids, timeout, on_progress=on_progress)
        if result.ok:
            return result.progress
        state = result.progress
        raise SettleTimeout(
            f"not settled after {timeout:.0f}s: {state.stored}/{state.messages} messages stored, "
            f"{state.final} final, {state.unsynced} memories not synced, "
            f"{state.outbox_backlog} outbox rows unpublished (see {self.supervisor.log_dir})\n"
            f"{self.supervisor.log_tails()}"
        )
