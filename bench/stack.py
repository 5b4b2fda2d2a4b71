"""The benchmark stack and the isolated pipeline every benchmark runs on.

Every benchmark runs on a private local stack (``LocalStack``: Kafka, PostgreSQL, Milvus Lite, started
idempotently) with its own scratch PostgreSQL database, private Kafka topics and consumer groups and a
private Milvus collection (``localstack.settle.private_names``), so it starts from a clean slate and never
touches the demo's or another run's data. Service processes are the real ``pai-memory run NAME`` processes
started by ``localstack``'s ``ServiceSupervisor`` with environment overrides; they are stopped (by pid)
when the benchmark ends. Waiting for the pipeline uses ``localstack.settle``, like the demo and the tests.
"""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from bench.common import BENCH_API_PORT, BENCH_METRICS_BASE, WORK
from bench.machine import rss_mb
from localstack.postgres import PostgresService
from localstack.process import port_bindable, wait_until
from localstack.settle import pipeline_progress, private_names, wait_healthy

# A private local stack (same code as ``pai-memory stack up``: Kafka KRaft, embedded PostgreSQL,
# Milvus Lite) on its own ports and data directory, so benchmarks neither disturb nor depend on the
# demo's or the test suite's stack, which other processes may start and stop at any time.
# ``BENCH_USE_LOCAL_STACK=1`` runs on the standard local stack (``core.config`` LOCAL_* ports) instead.
BENCH_STACK_HOME = WORK / "stack"
BENCH_KAFKA_PORT, BENCH_KAFKA_CONTROLLER_PORT, BENCH_POSTGRES_PORT, BENCH_MILVUS_PORT = (
    39692,
    39693,
    39635,
    39630,
)


def _stack() -> Any:
    from core.config import LOCAL_KAFKA_PORT, load_settings
    from localstack.base import LocalPorts
    from localstack.manager import LocalStack

    if os.environ.get("BENCH_USE_LOCAL_STACK") == "1":
        return LocalStack(load_settings())
    settings = load_settings(
        PAI_MEMORY_HOME=str(BENCH_STACK_HOME),
        DATABASE_URL=None,
        MEMORY_MILVUS_URI=None,
        KAFKA_BOOTSTRAP_SERVERS=f"127.0.0.1:{LOCAL_KAFKA_PORT}",
    )
    ports = LocalPorts(
        kafka=BENCH_KAFKA_PORT,
        kafka_controller=BENCH_KAFKA_CONTROLLER_PORT,
        postgres=BENCH_POSTGRES_PORT,
        milvus=BENCH_MILVUS_PORT,
    )
    return LocalStack(settings, ports=ports)


def stack_up() -> dict[str, str]:
    """Bring the benchmark stack up (idempotent); returns the connection environment
    (``KAFKA_BOOTSTRAP_SERVERS``, ``DATABASE_URL`` of the server's ``postgres`` db, ``MEMORY_MILVUS_URI``)."""
    from localstack.manager import StackUpError

    stack = _stack()
    try:
        stack.up()
    except StackUpError:
        stack_down()  # the services that did start would otherwise outlive the failed run
        raise
    if os.environ.get("BENCH_USE_LOCAL_STACK") == "1":
        from sqlalchemy import make_url

        from core.config import load_settings

        s = load_settings()
        server = make_url(s.database_url).set(database="postgres").render_as_string(hide_password=False)
        return {
            "KAFKA_BOOTSTRAP_SERVERS": s.KAFKA_BOOTSTRAP_SERVERS,
            "DATABASE_URL": server,
            "MEMORY_MILVUS_URI": s.milvus_uri,
        }
    postgres = stack.services["postgres"]
    assert isinstance(postgres, PostgresService)
    return {
        "KAFKA_BOOTSTRAP_SERVERS": f"127.0.0.1:{BENCH_KAFKA_PORT}",
        "DATABASE_URL": postgres.admin_url,  # with the stack's generated password
        "MEMORY_MILVUS_URI": f"http://127.0.0.1:{BENCH_MILVUS_PORT}",
    }


def stack_down() -> None:
    """Stop the private benchmark stack (never the standard local stack)."""
    if os.environ.get("BENCH_USE_LOCAL_STACK") != "1":
        _stack().down()


def stack_pids() -> dict[str, int]:
    """Pids of the benchmark stack's services (for RSS)."""
    from localstack.base import StackState

    stack = _stack()
    state = StackState.load(stack.paths.state_file)
    return {name: pid for name in ("kafka", "postgres", "milvus") if (pid := state.pid(name)) is not None}


def create_database(server_url: str, name: str) -> str:
    """CREATE DATABASE ``name`` on the server of ``server_url``, migrate it; returns its URL."""
    from sqlalchemy import make_url, text

    from core.storage import db

    admin = db.make_engine(server_url)
    with admin.execution_options(isolation_level="AUTOCOMMIT").connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
    db.upgrade(url)
    return url


def drop_database(url: str) -> None:
    from sqlalchemy import make_url, text

    from core.storage import db

    db.engine_for.cache_clear()
    server = make_url(url)
    admin = db.make_engine(server.set(database="postgres").render_as_string(hide_password=False))
    with admin.execution_options(isolation_level="AUTOCOMMIT").connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{server.database}" WITH (FORCE)'))
    admin.dispose()


@dataclass
class Pipeline:
    """Scratch database + private topics/groups/collection + the service processes on them.

    ``settings`` is the in-process view of the same configuration the children get through
    ``env``. Use as a context manager: processes are stopped, the collection and the database
    dropped on exit (``keep=True`` keeps the data for inspection).
    """

    tag: str
    overrides: dict[str, str] = field(default_factory=dict)
    partitions: int = 6
    keep: bool = False
    env: dict[str, str] = field(init=False, default_factory=dict)
    db_name: str = field(init=False, default="")
    settings: Any = field(init=False, default=None)
    supervisor: Any = field(init=False, default=None)
    _metrics_next: int = field(init=False, default=0)
    metrics_ports: dict[str, int] = field(init=False, default_factory=dict)
    api_port: int = field(init=False, default=BENCH_API_PORT)

    def __enter__(self) -> Pipeline:
        from core.config import load_settings
        from localstack.service import LocalService
        from localstack.topics import ensure_topics, service_topics

        conn = stack_up()
        while not port_bindable("127.0.0.1", self.api_port):
            self.api_port += 1
        suffix = f"{self.tag}_{uuid.uuid4().hex[:6]}"
        self.db_name = f"pai_bench_{suffix}"
        url = create_database(conn["DATABASE_URL"], self.db_name)
        home = WORK / "home" / suffix
        home.mkdir(parents=True, exist_ok=True)
        dash = suffix.replace("_", "-")
        self.env = {
            **conn,
            "DATABASE_URL": url,
            **private_names(f"bench-{dash}"),
            "MEMORY_MILVUS_ENABLED": "true",
            "MEMORY_INDEX_WORKER_ENABLED": "true",
            "KAFKA_TOPIC_PARTITIONS": str(self.partitions),
            "API_HOST": "127.0.0.1",
            "API_PORT": str(self.api_port),
            # benchmarks measure latency and throughput: the per-process HTTP rate limits would
            # answer 429 to a client that sends back-to-back queries for the same users
            "API_RATE_LIMIT_PER_USER": "0",
            "API_RATE_LIMIT_PER_TOKEN": "0",
            "PAI_MEMORY_HOME": str(home),
            # the sweeper's re-drive of "stuck" rows is a backstop; a benchmark backlog older than
            # the default grace would be re-published on top of the real work
            "MEMORY_MESSAGE_REDRIVE_GRACE_SEC": "1800",
            "MEMORY_INDEX_REDRIVE_GRACE_SEC": "1800",
            **self.overrides,
        }
        self.settings = load_settings(**self.env)
        ensure_topics(self.settings, service_topics(self.settings))
        self.supervisor = LocalService(self.settings, self.env).supervisor
        return self

    def start(self, process: str, index: int = 0, extra: dict[str, str] | None = None) -> Any:
        port = BENCH_METRICS_BASE + self._metrics_next
        while not port_bindable("127.0.0.1", port):  # held by another benchmark (or anything): next one
            port += 1
        self._metrics_next = port - BENCH_METRICS_BASE + 1
        child = self.supervisor.start(process, index, {"METRICS_PORT": str(port), **(extra or {})})
        self.metrics_ports[child.name] = port
        return child

    def check(self) -> None:
        """Raise if a started service process died (instead of waiting for a timeout)."""
        dead = self.supervisor.dead()
        if dead:
            logs = ", ".join(str(self.supervisor.children[n].log) for n in dead)
            raise RuntimeError(f"service process(es) {', '.join(dead)} died; see {logs}")

    def stop(self, name: str) -> None:
        self.supervisor.stop(name, timeout=30)
        self.supervisor.children.pop(name, None)

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

    def rss(self) -> dict[str, float | None]:
        return {name: rss_mb(c.pid) for name, c in self.supervisor.children.items()}

    def wait_api(self, timeout: float = 90.0) -> str:
        url = f"http://127.0.0.1:{self.api_port}"
        if not wait_healthy(url, timeout):
            raise TimeoutError(f"bench API did not answer on {url}")
        return url

    def wait_indexed(self, timeout: float) -> float:
        """Wait until every memory is SYNCED and the outbox drained (``localstack.settle``), raising if a
        service process dies meanwhile; returns the seconds it took."""
        t0 = time.monotonic()

        def indexed() -> bool:
            self.check()
            return pipeline_progress(self.sessions()).indexed

        wait_until(indexed, timeout, interval=0.5, what="every memory SYNCED and the outbox drained")
        return time.monotonic() - t0

    def engine(self) -> Any:
        from core.storage import db

        return db.engine_for(self.settings.database_url, 5)

    def sessions(self) -> Any:
        from core.storage import db

        return db.session_factory(self.engine())

    def scalar(self, sql: str, **params: Any) -> Any:
        from sqlalchemy import text

        with self.engine().connect() as conn:
            return conn.execute(text(sql), params).scalar()

    def extraction_outcomes(self) -> tuple[dict[str, int], list[int]]:
        """(count of user messages per status, user messages per extraction): an extraction is the set of
        one conversation's user messages finalised by the same transaction (same ``processed_at``)."""
        from sqlalchemy import text

        with self.engine().connect() as conn:
            statuses = dict(
                conn.execute(
                    text("SELECT memory_status, count(*) FROM messages WHERE role = 'user' GROUP BY 1")
                ).all()
            )
            bursts = (
                conn.execute(
                    text(
                        "SELECT count(*) FROM messages WHERE role = 'user' AND processed_at IS NOT NULL "
                        "GROUP BY conversation_id, processed_at"
                    )
                )
                .scalars()
                .all()
            )
        return statuses, list(bursts)

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            self.supervisor.stop_all(timeout=20)
        if self.keep:
            return
        with contextlib.suppress(Exception):
            from core.vectorstore import MilvusMemoryIndex

            index = MilvusMemoryIndex.from_settings(self.settings)
            if index.has_collection():
                index.drop_collection()
            index.close()
        with contextlib.suppress(Exception):
            drop_database(self.settings.database_url)


def install_sigterm() -> None:
    """Turn SIGTERM into ``SystemExit`` so ``Pipeline.__exit__`` stops the children and drops the data."""
    import signal

    def _raise(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _raise)
