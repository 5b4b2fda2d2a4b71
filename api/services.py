"""What the HTTP handlers, the console and the MCP server call, wired from the settings.

- ``ApiServices``: the memory tools (one engine), the retriever (one embedder) and the readiness check;
  ``build_services`` wires them, with no network I/O (clients connect on first use).
- ``JobServices``: the job store and its worker (a pending erasure is taken up again after a restart),
  erasures running ``core.erasure`` (``LazyErasure``: the Milvus client is built on the first job).
- ``IngestProducer``: the API process's one idempotent producer for ``POST /v1/messages``.

``wire_jobs`` and ``IngestProducer`` register their start and close on the ``ApiServices`` they serve,
so ``ApiServices.close`` releases everything in the reverse order of wiring.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

from api.health import Readiness
from core.config import RetrieveMode, Settings
from core.jobs import ERASE_USER, ErasureRunner, JobStore, JobWorker, kafka_retention_topics
from core.memory.tools import MemoryTools
from core.retrieval import Retriever
from producers.client import DeliveryFuture, MemoryEventProducer, ProducerError
from schemas import ChatMessageData, make_event

log = logging.getLogger(__name__)

INGEST_SOURCE = "pai-memory-http"


@dataclass
class ApiServices:
    """What the endpoints call; ``close`` releases them at shutdown."""

    tools: MemoryTools
    retriever: Retriever
    readiness: Readiness
    warm_up: Callable[[], None] | None = None
    closers: list[Callable[[], None]] = field(default_factory=list)
    starters: list[Callable[[], None]] = field(default_factory=list)  # run when the app starts

    def close(self) -> None:
        for closer in (*reversed(self.closers), self.retriever.close, self.readiness.close):
            try:
                closer()
            except Exception:  # shutdown must release every service even if one fails
                log.exception("error while closing an API service")


def build_services(settings: Settings) -> ApiServices:
    """Services wired from the settings, sharing one engine and one embedder. No network I/O."""
    from core.embedding.factory import build_embedder
    from core.extraction.factory import named_slots
    from core.memory.dedup import SemanticDeduper
    from core.memory.writer import MemoryWriter
    from core.retrieval import build_retriever
    from core.storage.db import engine_for, session_factory

    engine = engine_for(settings.database_url, settings.DATABASE_POOL_SIZE)
    sessions = session_factory(engine)
    embedder = build_embedder(settings)
    # the tool writes dedup as the extraction does (core.memory.tools), on the retriever's embedder
    deduper = SemanticDeduper.for_settings(settings, embedder)
    writer = MemoryWriter.from_settings(settings)  # no write vectors: tool writes never wait on the embedder
    retriever = build_retriever(settings, sessions, embedder)
    warm = getattr(embedder, "warm_up", None)
    dense = settings.MEMORY_MILVUS_ENABLED and settings.LONG_TERM_MEMORY_RETRIEVE_MODE is RetrieveMode.DENSE
    return ApiServices(MemoryTools(sessions, writer, deduper, named_slots(settings)), retriever,
                       Readiness(settings, engine), warm_up=warm if dense and callable(warm) else None)


@dataclass(frozen=True)
class JobServices:
    """The asynchronous jobs of the API (user erasure): where they are stored and who runs them."""

    store: JobStore
    worker: JobWorker


def wire_jobs(settings: Settings, svc: ApiServices) -> JobServices:
    """The job store and worker over ``svc``'s database; the worker starts with the app and stops with
    ``svc.close``."""
    store = JobStore(svc.tools.sessions, settings.API_JOBS_LEASE_SEC)
    runners: dict[str, Callable[[str], tuple[dict[str, Any], bool]]] = {
        ERASE_USER: LazyErasure(settings, svc)}
    worker = JobWorker(store, runners, settings.API_JOBS_POLL_SEC)
    svc.starters.append(worker.start)
    svc.closers.append(worker.stop)
    return JobServices(store, worker)


class LazyErasure:
    """The erasure runner, built (Milvus client included) on the first job."""

    def __init__(self, settings: Settings, svc: ApiServices) -> None:
        self.settings = settings
        self.svc = svc
        self._runner: ErasureRunner | None = None

    def __call__(self, external_id: str) -> tuple[dict[str, Any], bool]:
        if self._runner is None:
            from core.erasure import UserEraser
            from core.vectorstore import MilvusMemoryIndex

            index = MilvusMemoryIndex.from_settings(self.settings)
            self.svc.closers.append(index.close)
            retriever = self.svc.retriever

            def search(user: str, question: str, mode: RetrieveMode) -> int:
                return len(retriever.retrieve(user, question, None, mode).items)

            self._runner = ErasureRunner(self.svc.tools.sessions, UserEraser(self.svc.tools.sessions, index),
                                         search, kafka_retention_topics(self.settings))
        return self._runner(external_id)


class IngestProducer:
    """The API process's one producer, opened on first use (no network I/O before a request needs it)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.timeout = settings.API_INGEST_TIMEOUT_SEC
        self._producer: MemoryEventProducer | None = None
        self._lock = threading.Lock()

    def producer(self) -> MemoryEventProducer:
        with self._lock:
            if self._producer is None:
                ms = max(1000, int(self.timeout * 1000))
                self._producer = MemoryEventProducer(self.settings, source=INGEST_SOURCE, config={
                    "message.timeout.ms": ms, "request.timeout.ms": min(ms, 30_000),
                    "client.id": "pai-memory-api-ingest"}, queue_full_timeout=min(self.timeout, 5.0)).open()
            return self._producer

    def close(self) -> None:
        with self._lock:
            if self._producer is not None:
                self._producer.close(timeout=5.0, raise_on_pending=False)
                self._producer = None

    def publish(self, messages: list[ChatMessageData]) -> list[dict[str, Any]] | str:
        """Publish in order and wait for every confirmation: the accepted list, or the reason of failure."""
        producer = self.producer()
        futures: list[tuple[ChatMessageData, str, DeliveryFuture]] = []
        for message in messages:
            event = make_event(message, source=INGEST_SOURCE)
            futures.append((message, event.id, producer.publish(event)))
        deadline = time.monotonic() + self.timeout + 1.0
        accepted = []
        for message, event_id, future in futures:
            try:
                report = future.result(timeout=max(0.0, deadline - time.monotonic()))
            except FutureTimeout:
                return "the broker did not confirm the message in time"
            except ProducerError as exc:
                log.warning("HTTP ingestion: delivery failed: %s", getattr(exc, "name", type(exc).__name__))
                return f"delivery failed: {getattr(exc, 'name', None) or type(exc).__name__}"
            accepted.append({"message_id": message.message_id, "event_id": event_id, "topic": report.topic,
                             "partition": report.partition, "offset": report.offset})
        return accepted


def wire_ingest(settings: Settings, svc: ApiServices) -> IngestProducer:
    """The ingestion producer, closed with ``svc``."""
    producer = IngestProducer(settings)
    svc.closers.append(producer.close)
    return producer
