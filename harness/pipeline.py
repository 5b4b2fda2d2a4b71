"""The one pipeline harness: the service processes on private topics, groups and collection, observed.

``Pipeline`` runs the real ``pai-memory run NAME`` processes (extractor, indexer, relay, commands, api)
through ``localstack``'s ``ServiceSupervisor`` with the environment ``env`` (the caller's stack, database
and private names: ``bench/stack.py`` for the benchmarks, ``fault_env`` of ``harness/private_stack.py``
for the fault suite and the soak). It starts and stops processes, raises when one died, waits for the
API and for the pipeline to settle (``localstack.settle``), reads the database, and on ``close`` stops
everything it started (and, with ``drop_data``, drops the collection and the database).

A driven pipeline (the fault suite, the soak, the unit costs) also has a ``traffic`` stream of chat
messages with known outcomes and a retrieval ``probe``, both made on first use, and runs fault
``scenario``s (``harness/scenario.py``) that check every invariant afterwards.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, make_url, text
from sqlalchemy.orm import Session, sessionmaker

from core.config import load_settings
from core.storage import db
from harness.private_stack import PrivateStack, fault_env
from harness.probe import Probe, RetrievalProbe
from harness.scenario import ScenarioContext, ScenarioResult, run_scenario, warm_up
from harness.traffic import Sent, Traffic
from localstack.process import wait_until
from localstack.service import LocalService
from localstack.settle import PipelineProgress, pipeline_progress, wait_healthy, wait_settled
from localstack.supervisor import Child, FreePorts, PortAllocator
from localstack.topics import ensure_topics, service_topics


class Pipeline:
    """The service processes on ``env``'s stack and private names (see module docstring).

    ``metrics_port`` allocates each replica's metrics port (free ports by default); ``stack`` is the
    private stack a fault scenario stops and crashes (``None`` for the benchmark stack); ``users``,
    ``rate``, ``seed`` and ``max_per_scenario`` shape the ``traffic`` and the ``probe``; ``extractors``
    and ``indexers`` are the replicas ``start_all`` starts. Use as a context manager (``close`` on exit).
    """

    def __init__(self, env: dict[str, str], tag: str, *, metrics_port: PortAllocator | None = None,
                 stack: PrivateStack | None = None, users: int = 6, rate: float = 1.0, seed: int = 0,
                 max_per_scenario: int | None = 25, extractors: int = 1, indexers: int = 1,
                 pool_size: int = 2, drop_data: bool = False) -> None:
        self.env = env
        self.tag = tag
        self.seed = seed
        self.settings = load_settings(**env)
        self._stack = stack
        # metrics on free ports by default, kept per replica across restarts (the demo's may be taken)
        self.service = LocalService(self.settings, env, metrics_port=metrics_port or FreePorts())
        self.supervisor = self.service.supervisor
        self.extractors = extractors
        self.indexers = indexers
        self.extra_env: dict[str, dict[str, str]] = {}  # per child name, kept across restarts
        self.users = [f"{tag}-u{i}" for i in range(users)]
        self.rate = rate
        self.max_per_scenario = max_per_scenario
        self.pool_size = pool_size
        self.drop_data_on_close = drop_data
        self.api_url = f"http://127.0.0.1:{self.settings.API_PORT}"
        self.results: list[ScenarioResult] = []
        self.checked_upto = 0  # index into traffic.sent already covered by a scenario
        # one history change per statement holds until a scenario re-drives FAILED messages after newer
        # ones: those statements are superseded (no change); from then on history must be an in-order
        # subsequence of the statements ending with the last one
        self.strict_history = True

    @classmethod
    def on_private_stack(cls, stack: PrivateStack, tag: str, *, env: dict[str, str] | None = None,
                         **options: Any) -> Pipeline:
        """A pipeline on ``stack`` with the fault suite's short intervals (``fault_env``) plus ``env``."""
        return cls(fault_env(stack, tag, **(env or {})), tag, stack=stack, **options)

    @property
    def stack(self) -> PrivateStack:
        """The private stack under this pipeline (only a fault pipeline has one)."""
        if self._stack is None:
            raise RuntimeError("this pipeline runs on a stack it does not own (no PrivateStack)")
        return self._stack

    @cached_property
    def engine(self) -> Engine:
        return db.make_engine(self.settings.database_url, pool_size=self.pool_size)

    @cached_property
    def sessions(self) -> sessionmaker[Session]:
        return db.session_factory(self.engine)

    @cached_property
    def traffic(self) -> Traffic:
        return Traffic(self.settings, self.users, self.rate, self.tag, self.max_per_scenario)

    @cached_property
    def probe(self) -> RetrievalProbe:
        return RetrievalProbe(self.api_url, self.env["API_TOKEN"], self._users_with_data, seed=self.seed)

    def _users_with_data(self) -> list[str]:
        return sorted({s.user for s in self.traffic.sent})

    @property
    def database_name(self) -> str:
        return str(make_url(self.settings.database_url).database)

    @property
    def partitions(self) -> int:
        """Partitions of each topic the pipeline creates."""
        return self.settings.KAFKA_TOPIC_PARTITIONS

    @property
    def metrics_ports(self) -> dict[str, int]:
        """Child name -> the metrics port it was started with."""
        return {name: child.metrics_port for name, child in self.supervisor.children.items()}

    # --- processes ----------------------------------------------------------------------------------------
    def ensure_topics(self) -> None:
        ensure_topics(self.settings, service_topics(self.settings))

    def start(self, process: str, index: int = 0, extra: dict[str, str] | None = None) -> Child:
        """Start one replica (``extra``: its own environment on top of ``env``)."""
        return self.supervisor.start(process, index, extra)

    def start_all(self, others: Sequence[str] = ("relay", "commands", "api")) -> float:
        """Topics, the extractor and indexer replicas, ``others``, the API answering, the probe
        running; returns the seconds it took."""
        t0 = time.monotonic()
        self.ensure_topics()
        for i in range(self.extractors):
            self.supervisor.start("extractor", i)
        for i in range(self.indexers):
            self.supervisor.start("indexer", i)
        for name in others:
            self.supervisor.start(name)
        self.wait_api(180)
        self.probe.start()
        return time.monotonic() - t0

    def stop(self, name: str) -> None:
        """Stop one child (``extractor-0``) and forget it."""
        self.supervisor.stop(name, timeout=30)
        self.supervisor.children.pop(name, None)

    def crashed(self) -> list[str]:
        return self.supervisor.dead()

    def check(self) -> None:
        """Raise if a started service process died (instead of waiting for a timeout)."""
        dead = self.crashed()
        if dead:
            logs = ", ".join(str(self.supervisor.children[n].log) for n in dead)
            raise RuntimeError(f"service process(es) {', '.join(dead)} died; see {logs}")

    def rss(self) -> dict[str, float | None]:
        """Resident set size (MiB) of each child."""
        return {name: rss_mb(c.pid) for name, c in self.supervisor.children.items()}

    def metrics_text(self, name: str, wait: float = 90.0) -> str:
        """The child's Prometheus text (waits up to ``wait`` s for its metrics server to come up)."""
        import httpx

        port = self.metrics_ports[name]
        deadline = time.monotonic() + wait
        while True:
            try:
                return httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
            except httpx.HTTPError:
                if time.monotonic() > deadline or not self.supervisor.alive(name):
                    raise
                time.sleep(0.5)

    # --- waiting ------------------------------------------------------------------------------------------
    def wait_api(self, timeout: float = 90.0) -> str:
        """The API's base URL once it answers; ``AssertionError`` naming the logs otherwise."""
        if not wait_healthy(self.api_url, timeout, interval=0.2):
            raise AssertionError(
                f"API did not answer within {timeout:.0f}s (logs: {self.supervisor.log_dir})")
        return self.api_url

    def wait_indexed(self, timeout: float) -> float:
        """Wait until every memory is SYNCED and the outbox drained (``localstack.settle``), raising if a
        service process dies meanwhile; returns the seconds it took."""
        t0 = time.monotonic()

        def indexed() -> bool:
            self.check()
            return pipeline_progress(self.sessions).indexed

        wait_until(indexed, timeout, interval=0.5, what="every memory SYNCED and the outbox drained")
        return time.monotonic() - t0

    def wait_settled(self, sent: Sequence[Sent], timeout: float
                     ) -> tuple[bool, PipelineProgress, dict[str, int]]:
        """Poll until every message in ``sent`` is PROCESSED, every memory SYNCED, the outbox empty
        (``localstack.settle``; a database down mid-scenario counts as "not yet").
        Returns (settled, last progress, peaks seen while waiting)."""
        result = wait_settled(self.sessions, [s.message_id for s in sent], sorted({s.user for s in sent}),
                              timeout, done=lambda p: p.all_processed, interval=0.25, tolerate_errors=True)
        return result.ok, result.progress, result.peaks

    # --- the database -------------------------------------------------------------------------------------
    def scalar(self, sql: str, **params: Any) -> Any:
        with self.engine.connect() as conn:
            return conn.execute(text(sql), params).scalar()

    def extraction_outcomes(self) -> tuple[dict[str, int], list[int]]:
        """(count of user messages per status, user messages per extraction): an extraction is the set of
        one conversation's user messages finalised by the same transaction (same ``processed_at``)."""
        with self.engine.connect() as conn:
            statuses = {str(status): int(n) for status, n in conn.execute(
                text("SELECT memory_status, count(*) FROM messages WHERE role = 'user' GROUP BY 1")).all()}
            bursts = conn.execute(text(
                "SELECT count(*) FROM messages WHERE role = 'user' AND processed_at IS NOT NULL "
                "GROUP BY conversation_id, processed_at")).scalars().all()
        return statuses, [int(b) for b in bursts]

    # --- driven runs ----------------------------------------------------------------------------------------
    def warm_up(self, timeout: float = 240.0) -> float:
        """Every user states job and allergy; wait until processed (the consumers have joined)."""
        return warm_up(self, timeout)

    def scenario(self, name: str, fault: Callable[[ScenarioContext], None], *, seed: int,
                 description: str = "", lead: tuple[float, float] = (1.0, 3.0), tail: float = 0.0,
                 settle_timeout: float = 180.0, strict_history: bool = True, drift_timeout: float = 60.0,
                 check_retrieval: Callable[[ScenarioContext, list[Probe]], list[str]] | None = None
                 ) -> ScenarioResult:
        """Traffic on; after a random lead inflict ``fault`` (it marks begin/end); ``tail`` more seconds of
        traffic; traffic off; measure recovery; check every invariant. Never raises for a failed
        invariant: the result lists the problems (the test asserts on them)."""
        return run_scenario(self, name, fault, seed=seed, description=description, lead=lead, tail=tail,
                            settle_timeout=settle_timeout, strict_history=strict_history,
                            drift_timeout=drift_timeout, check_retrieval=check_retrieval)

    # --- the end --------------------------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the probe, the traffic and every child; with ``drop_data`` drop the collection and the
        database too."""
        if "probe" in self.__dict__:
            with contextlib.suppress(Exception):
                self.probe.stop()
        if "traffic" in self.__dict__:
            with contextlib.suppress(Exception):
                self.traffic.close()
        with contextlib.suppress(Exception):
            self.supervisor.stop_all(timeout=20)
        if "engine" in self.__dict__:
            self.engine.dispose()
        if self.drop_data_on_close:
            self.drop_data()

    def drop_data(self) -> None:
        """Drop the pipeline's Milvus collections (memories and episodes) and its database (best effort)."""
        with contextlib.suppress(Exception):
            from core.vectorstore import MilvusMemoryIndex

            index = MilvusMemoryIndex.from_settings(self.settings)
            try:
                cfg = self.settings
                names = {index.collection, cfg.MEMORY_MILVUS_COLLECTION, cfg.episode_collection}
                for name in names:
                    if index.has_collection(name):
                        index.drop_collection(name)
            finally:
                index.close()
        with contextlib.suppress(Exception):
            drop_database(self.settings.database_url)

    def __enter__(self) -> Pipeline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def rss_mb(pid: int) -> float | None:
    """Resident set size of a process in MiB (``/proc/PID/status`` VmRSS), or None."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError):
        return None
    return None


def create_database(server_url: str, name: str) -> str:
    """CREATE DATABASE ``name`` on the server of ``server_url``, migrate it; returns its URL."""
    admin = db.make_engine(server_url)
    with admin.execution_options(isolation_level="AUTOCOMMIT").connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
    db.upgrade(url)
    return url


def drop_database(url: str) -> None:
    """DROP DATABASE (``WITH (FORCE)``: the children's connections go too) of ``url``."""
    db.engine_for.cache_clear()
    server = make_url(url)
    admin = db.make_engine(server.set(database="postgres").render_as_string(hide_password=False))
    with admin.execution_options(isolation_level="AUTOCOMMIT").connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{server.database}" WITH (FORCE)'))
    admin.dispose()
