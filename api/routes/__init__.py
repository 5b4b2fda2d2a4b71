"""Route modules of the HTTP API beyond the retrieval and tool endpoints of ``api.app`` (issue 27):
memories by id (``memories``), a user's data and jobs (``users``), ingestion over HTTP (``ingest``).

``install_routes`` adds them to the app with what they need on ``app.state``: the job store and its
worker (started with the app, so a pending erasure is taken up again after a restart) and the ingestion
producer (opened on first use). Importing or installing does no network I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI

from api.routes import ingest, memories, users
from core.config import RetrieveMode, Settings
from core.jobs import ERASE_USER, ErasureRunner, JobStore, JobWorker, kafka_retention_topics

if TYPE_CHECKING:
    from api.app import ApiServices


def install_routes(app: FastAPI, settings: Settings, svc: ApiServices) -> None:
    app.state.settings = settings
    for module in (memories, users, ingest):
        app.include_router(module.router)

    store = JobStore(svc.tools.sessions, settings.API_JOBS_LEASE_SEC)
    runners: dict[str, Callable[[str], tuple[dict[str, Any], bool]]] = {
        ERASE_USER: _LazyErasure(settings, svc)}
    worker = JobWorker(store, runners, settings.API_JOBS_POLL_SEC)
    app.state.jobs, app.state.job_worker = store, worker
    svc.starters.append(worker.start)
    svc.closers.append(worker.stop)

    app.state.ingest = producer = ingest.IngestProducer(settings)
    svc.closers.append(producer.close)


class _LazyErasure:
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


def openapi_components() -> dict[str, Any]:
    return ingest.openapi_components()
