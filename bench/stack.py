"""The benchmark stack and the isolated pipeline every benchmark runs on (``bench_pipeline``).

Every benchmark runs on a private local stack (``LocalStack``: Kafka, PostgreSQL, Milvus Lite, started
idempotently) with its own scratch PostgreSQL database, private Kafka topics and consumer groups and a
private Milvus collection (``localstack.settle.private_names``), so it starts from a clean slate and never
touches the demo's or another run's data. Service processes are the real ``pai-memory run NAME`` processes
run by the one pipeline harness (``harness.pipeline.Pipeline``, also the fault suite's); they are
stopped (by pid) when the benchmark ends. Waiting for the pipeline uses ``localstack.settle``, like the
demo and the tests.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from typing import Any

from bench.common import BENCH_API_PORT, BENCH_METRICS_BASE, WORK
from harness.pipeline import Pipeline, create_database
from localstack.postgres import PostgresService
from localstack.process import port_bindable
from localstack.settle import private_names

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


@dataclass
class BenchMetricsPorts:
    """Metrics ports from ``BENCH_METRICS_BASE`` up, one new port per started replica, skipping ports
    another benchmark (or anything) holds."""

    next: int = 0

    def __call__(self, process: str, index: int) -> int:
        port = BENCH_METRICS_BASE + self.next
        while not port_bindable("127.0.0.1", port):
            port += 1
        self.next = port - BENCH_METRICS_BASE + 1
        return port


def bench_pipeline(tag: str, overrides: dict[str, str] | None = None, partitions: int = 6,
                   keep: bool = False) -> Pipeline:
    """A ``harness.pipeline.Pipeline`` on the benchmark stack: a scratch database, private
    topics/groups/collection, the benchmark ports. Use as a context manager: processes are stopped,
    the collection and the database dropped on exit (``keep=True`` keeps the data for inspection)."""
    conn = stack_up()
    api_port = BENCH_API_PORT
    while not port_bindable("127.0.0.1", api_port):
        api_port += 1
    suffix = f"{tag}_{uuid.uuid4().hex[:6]}"
    url = create_database(conn["DATABASE_URL"], f"pai_bench_{suffix}")
    home = WORK / "home" / suffix
    home.mkdir(parents=True, exist_ok=True)
    dash = suffix.replace("_", "-")
    env = {
        **conn,
        "DATABASE_URL": url,
        **private_names(f"bench-{dash}"),
        "MEMORY_MILVUS_ENABLED": "true",
        "MEMORY_INDEX_WORKER_ENABLED": "true",
        "KAFKA_TOPIC_PARTITIONS": str(partitions),
        "API_HOST": "127.0.0.1",
        "API_PORT": str(api_port),
        # benchmarks measure latency and throughput: the per-process HTTP rate limits would
        # answer 429 to a client that sends back-to-back queries for the same users
        "API_RATE_LIMIT_PER_USER": "0",
        "API_RATE_LIMIT_PER_TOKEN": "0",
        "PAI_MEMORY_HOME": str(home),
        # the sweeper's re-drive of "stuck" rows is a backstop; a benchmark backlog older than
        # the default grace would be re-published on top of the real work
        "MEMORY_MESSAGE_REDRIVE_GRACE_SEC": "1800",
        "MEMORY_INDEX_REDRIVE_GRACE_SEC": "1800",
        **(overrides or {}),
    }
    pipe = Pipeline(env, tag, metrics_port=BenchMetricsPorts(), pool_size=5, drop_data=not keep)
    pipe.ensure_topics()
    return pipe


def install_sigterm() -> None:
    """Turn SIGTERM into ``SystemExit`` so ``Pipeline.__exit__`` stops the children and drops the data."""
    import signal

    def _raise(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _raise)
