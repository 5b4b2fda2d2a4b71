"""When the pipeline has settled: the one observer used by the demo, eval, the tests and the benchmarks.

"Settled" for a set of chat messages means: every message is stored and final (``PROCESSED``,
``SKIPPED`` or ``FAILED``), every memory of the users concerned is ``SYNCED`` in Milvus and no outbox
row waits to be published. ``core.memory.stats.pipeline_progress`` reads where the pipeline stands
from PostgreSQL (the truth); ``wait_settled`` polls it. ``private_names`` gives a run its own topics,
consumer groups and Milvus collection, so a test or benchmark never shares state with the demo or another run.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import httpx
from sqlalchemy.orm import Session, sessionmaker

from core.memory.stats import FINAL_STATUSES, PipelineProgress, pipeline_progress

__all__ = ["FINAL_STATUSES", "PipelineProgress", "Settling", "pipeline_progress", "private_names",
           "wait_healthy", "wait_settled"]

@dataclass
class Settling:
    """The outcome of ``wait_settled``: whether it settled, the last progress, the peaks seen."""

    ok: bool
    progress: PipelineProgress
    peaks: dict[str, int] = field(default_factory=dict)


def wait_settled(sessions: sessionmaker[Session], message_ids: Iterable[str] | None,
                 user_ids: Iterable[str] | None, timeout: float, *,
                 done: Callable[[PipelineProgress], bool] = lambda p: p.settled,
                 interval: float = 0.5, tolerate_errors: bool = False,
                 on_progress: Callable[[PipelineProgress], None] | None = None) -> Settling:
    """Poll ``pipeline_progress`` until ``done`` (default: ``settled``) or ``timeout`` s; never raises for
    a timeout (the caller decides). ``tolerate_errors``: a failed read (the database is down in the middle
    of a fault) counts as "not yet" instead of raising. ``peaks`` holds the largest unsynced, failed and
    outbox counts seen while waiting."""
    ids = None if message_ids is None else list(message_ids)
    users = None if user_ids is None else list(user_ids)
    deadline = time.monotonic() + timeout
    peaks = {"unsynced": 0, "failed_messages": 0, "outbox_backlog": 0}
    last = PipelineProgress()
    while True:
        state: PipelineProgress | None = None
        try:
            state = pipeline_progress(sessions, ids, users)
        except Exception:
            if not tolerate_errors:
                raise
        if state is not None:
            last = state
            peaks["unsynced"] = max(peaks["unsynced"], state.unsynced)
            peaks["failed_messages"] = max(peaks["failed_messages"], state.failed)
            peaks["outbox_backlog"] = max(peaks["outbox_backlog"], state.outbox_backlog)
            if done(state):
                return Settling(True, state, peaks)
            if on_progress is not None:
                on_progress(state)
        if time.monotonic() > deadline:
            return Settling(False, last, peaks)
        time.sleep(interval)


def wait_healthy(base_url: str, timeout: float, interval: float = 0.3) -> bool:
    """Poll ``GET {base_url}/healthz`` until it answers 200 (True) or ``timeout`` s pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base_url}/healthz", timeout=2).status_code == 200:
                return True
        time.sleep(interval)
    return False


def private_names(tag: str, collection: bool = True) -> dict[str, str]:
    """Settings that give a run named ``tag`` its own topics, consumer groups and (``collection``)
    Milvus collection. ``tag`` must be a valid Kafka topic name part (letters, digits, ``._-``)."""
    names = {
        "TOPIC_CHAT_MESSAGES": f"{tag}.chat",
        "TOPIC_MEMORY_COMMANDS": f"{tag}.commands",
        "TOPIC_MEMORY_DIRTY": f"{tag}.dirty",
        "GROUP_EXTRACTOR": f"{tag}-extractor",
        "GROUP_COMMANDS": f"{tag}-commands",
        "GROUP_INDEXER": f"{tag}-indexer",
    }
    if collection:
        names["MEMORY_MILVUS_COLLECTION"] = f"{tag.replace('-', '_').replace('.', '_')}_memories"
    return names
