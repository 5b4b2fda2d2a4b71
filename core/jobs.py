"""Asynchronous jobs of the API, kept in PostgreSQL (``jobs``): today one kind, user erasure.

``JobStore`` creates, claims and finishes jobs; ``JobWorker`` is a thread that runs them. A job is
claimed with ``FOR UPDATE SKIP LOCKED`` (several API processes may run workers); a job ``running``
past ``lease_seconds`` (its process died) is claimed again, so a restart never loses a job. A failed
attempt goes back to ``pending`` with its error until ``MAX_ATTEMPTS``, then the job is ``failed``.

An erasure job (``kind = "erase_user"``) does what ``pai-memory forget-user`` does
(``core.erasure.UserEraser``) and stores the proof as its result: rows removed per table, vectors
removed per collection, what is left (all zero), the Kafka topics whose past events are left to
expire by retention, and a search for the erased user that must return nothing (the user's own
memory texts, taken before the erasure and never stored, asked again through retrieval in every
mode). The erased user's external id is cleared from the job when it ends; its hash stays. The request
and the end of an erasure go to the audit log (``core.keys.audit``), the user named by hash only.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, sessionmaker

from core.config import KafkaSettings, RetrieveMode
from core.erasure import UnknownUser, UserEraser
from core.keys import audit
from core.memory.store import find_user, user_hash
from core.storage.models import ErasedUser, Job, LongTermMemory

log = logging.getLogger(__name__)

ERASE_USER = "erase_user"
MAX_ATTEMPTS = 5
SEARCH_PROBES = 3  # memory texts of the user asked again after the erasure


class JobNotFound(LookupError):
    """No job with that id."""


@dataclass(frozen=True)
class JobView:
    """A job as the API shows it (the subject is not shown: it is the user being erased)."""

    id: str
    kind: str
    status: str
    requested_by: str
    attempts: int
    result: dict[str, Any] | None
    error: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None

    @classmethod
    def of(cls, job: Job) -> JobView:
        return cls(job.id, job.kind, job.status, job.requested_by, job.attempts, job.result, job.error,
                   job.created_at, job.started_at, job.finished_at)

    def as_dict(self) -> dict[str, Any]:
        def iso(value: datetime | None) -> str | None:
            return value.isoformat() if value is not None else None

        return {"id": self.id, "kind": self.kind, "status": self.status, "requested_by": self.requested_by,
                "attempts": self.attempts, "result": self.result, "error": self.error,
                "created_at": iso(self.created_at), "started_at": iso(self.started_at),
                "finished_at": iso(self.finished_at)}


def erasable(session: Session, external_id: str) -> bool:
    """True when the user exists or was erased before (a repeat erasure re-checks the proof)."""
    return (find_user(session, external_id) is not None
            or session.get(ErasedUser, user_hash(external_id)) is not None)


class JobStore:
    """The ``jobs`` table."""

    def __init__(self, sessions: sessionmaker[Session], lease_seconds: float = 300.0) -> None:
        self.sessions = sessions
        self.lease = timedelta(seconds=lease_seconds)

    def request_erasure(self, external_id: str, requested_by: str) -> tuple[JobView, bool]:
        """The open erasure job of this user, or a new one; ``(job, created)``."""
        digest = user_hash(external_id)
        with self.sessions() as session, session.begin():
            open_job = session.scalars(
                select(Job).where(Job.kind == ERASE_USER, Job.subject_hash == digest,
                                  Job.status.in_(("pending", "running"))).limit(1)).first()
            if open_job is not None:
                return JobView.of(open_job), False
            job = Job(id=str(uuid.uuid4()), kind=ERASE_USER, status="pending", subject=external_id,
                      subject_hash=digest, requested_by=requested_by[:200], attempts=0,
                      created_at=datetime.now(UTC))
            session.add(job)
            session.flush()
            audit(session, requested_by, "user.erase.requested", "accepted", target=f"user#{digest[:16]}",
                  detail={"job_id": job.id})
            return JobView.of(job), True

    def get(self, job_id: str) -> JobView:
        with self.sessions() as session:
            job = session.get(Job, job_id)
            if job is None:
                raise JobNotFound(f"no job {job_id!r}")
            return JobView.of(job)

    def claim(self) -> tuple[str, str, str] | None:
        """Mark the oldest runnable job running; ``(id, kind, subject)`` or ``None``."""
        now = datetime.now(UTC)
        with self.sessions() as session, session.begin():
            job = session.scalars(
                select(Job).where(Job.subject.is_not(None), or_(
                    Job.status == "pending",
                    (Job.status == "running") & (Job.started_at < now - self.lease)))
                .order_by(Job.created_at).limit(1).with_for_update(skip_locked=True)).first()
            if job is None or job.subject is None:
                return None
            job.status, job.started_at, job.attempts = "running", now, job.attempts + 1
            return job.id, job.kind, job.subject

    def finish(self, job_id: str, result: dict[str, Any], ok: bool) -> None:
        """The job's end with its result; audited as ``user.erase`` (the user named by hash only)."""
        with self.sessions() as session, session.begin():
            job = session.get(Job, job_id, with_for_update=True)
            if job is None:
                return
            job.status, job.result = ("done" if ok else "failed"), result
            job.error = None if ok else "proof not ok"
            job.subject, job.finished_at = None, datetime.now(UTC)
            audit(session, job.requested_by, "user.erase", "ok" if ok else "failed",
                  target=f"user#{job.subject_hash[:16]}", detail={"job_id": job_id})

    def failed_attempt(self, job_id: str, error: str) -> None:
        """Back to ``pending`` with the error, or ``failed`` after ``MAX_ATTEMPTS``."""
        with self.sessions() as session, session.begin():
            job = session.get(Job, job_id, with_for_update=True)
            if job is None:
                return
            job.error = error[:2000]
            if job.attempts >= MAX_ATTEMPTS:
                job.status, job.subject, job.finished_at = "failed", None, datetime.now(UTC)
            else:
                job.status = "pending"


Search = Callable[[str, str, RetrieveMode], int]  # (user, question, mode) -> items returned


def kafka_retention_topics(settings: KafkaSettings, groups: Sequence[str] = ()) -> list[str]:
    """Topics that keep an erased user's past events until retention expires them."""
    names = [settings.TOPIC_CHAT_MESSAGES, settings.TOPIC_MEMORY_COMMANDS, settings.TOPIC_MEMORY_DIRTY]
    names += [settings.dlq_topic(g) for g in (settings.GROUP_EXTRACTOR, settings.GROUP_COMMANDS,
                                              settings.GROUP_INDEXER, *groups)]
    return sorted(set(names))


class ErasureRunner:
    """Runs one erasure job: ``UserEraser.erase`` plus the search proof."""

    def __init__(self, sessions: sessionmaker[Session], eraser: UserEraser, search: Search,
                 retention_topics: list[str]) -> None:
        self.sessions = sessions
        self.eraser = eraser
        self.search = search
        self.retention_topics = retention_topics

    def __call__(self, external_id: str) -> tuple[dict[str, Any], bool]:
        probes = self._probes(external_id)
        proof = self.eraser.erase(external_id)
        counts = [self.search(external_id, question, mode) for mode in RetrieveMode
                  for question in probes or ["*"]]
        found = sum(counts)
        result = proof.as_dict()
        result.pop("user", None)  # the erased id is not kept
        result["kafka_topics_left_to_retention"] = self.retention_topics
        result["search"] = {"probes": len(probes), "queries": len(counts),
                            "modes": [m.value for m in RetrieveMode], "items_found": found}
        return result, proof.ok and found == 0

    def _probes(self, external_id: str) -> list[str]:
        with self.sessions() as session:
            pk = find_user(session, external_id)
            if pk is None:
                return []
            return [str(c) for c in session.scalars(
                select(LongTermMemory.content).where(LongTermMemory.user_id == pk,
                                                     LongTermMemory.content.is_not(None))
                .order_by(LongTermMemory.id).limit(SEARCH_PROBES)) if c]


class JobWorker:
    """A daemon thread running jobs from ``store``; ``wake()`` after a new job, ``stop()`` at shutdown."""

    def __init__(self, store: JobStore, runners: dict[str, Callable[[str], tuple[dict[str, Any], bool]]],
                 poll_seconds: float = 2.0) -> None:
        self.store = store
        self.runners = runners
        self.poll_seconds = poll_seconds
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="pai-jobs", daemon=True)
            self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def run_once(self) -> bool:
        """Run one runnable job; False when there was none."""
        claimed = self.store.claim()
        if claimed is None:
            return False
        job_id, kind, subject = claimed
        try:
            runner = self.runners[kind]
            result, ok = runner(subject)
        except UnknownUser as exc:
            self.store.finish(job_id, {"error": "unknown_user", "message": str(exc)}, ok=False)
        except Exception as exc:  # the job stays and is retried; the worker keeps running
            log.warning("job %s (%s) failed: %s", job_id, kind, type(exc).__name__)
            self.store.failed_attempt(job_id, f"{type(exc).__name__}: {exc}")
        else:
            self.store.finish(job_id, result, ok)
        return True

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                while not self._stop.is_set() and self.run_once():
                    pass
            except Exception:  # PostgreSQL away: try again at the next tick
                log.exception("job worker tick failed")
            self._wake.wait(self.poll_seconds)
            self._wake.clear()
