"""The sweeper: the consistency backstop in place of polling workers (``docs/design.md#sweep``).

Scheduling and switches only; the queries live in ``core.memory.redrive`` and every re-drive is an
outbox row, published by the relay like any other (``producers.relay_service.RelayService`` runs
both in one process):

- ``memory_worker``: when ``LONG_TERM_MEMORY_SCAN_ENABLED``, every
  ``LONG_TERM_MEMORY_SCAN_INTERVAL_SEC``, user messages stuck ``PENDING``/``FAILED`` are re-published
  to the chat topic;
- ``memory_index_worker``: when ``MEMORY_INDEX_SWEEP_ENABLED`` (unset: ``MEMORY_INDEX_WORKER_ENABLED``), every
  ``MEMORY_INDEX_WORKER_INTERVAL_SEC`` (the interval of the polling worker it replaces), memories left
  ``DIRTY``/``FAILED`` without a pending ``memory.dirty`` row get one.

Both scans run at start-up, then on their interval; each scan enqueues at most
``batches_per_scan * batch_size`` rows.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from core import metrics
from core.config import Settings
from core.memory.redrive import Redriver
from core.storage.db import session_factory

log = logging.getLogger(__name__)


class Sweeper:
    """Runs the due scans. Counters for metrics: ``messages_redriven``, ``memories_redriven``,
    ``messages_invalid``, ``message_scans``, ``memory_scans``, ``scans_skipped`` (another sweeper
    held the leader lock)."""

    def __init__(
        self,
        settings: Settings,
        sessions: sessionmaker[Session],
        *,
        batch_size: int = 500,
        batches_per_scan: int = 20,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.redriver = Redriver(settings, sessions, batch_size=batch_size)
        self.batch_size = batch_size
        self.batches_per_scan = batches_per_scan
        self.clock = clock
        self.messages_enabled = settings.LONG_TERM_MEMORY_SCAN_ENABLED
        self.memories_enabled = settings.index_sweep_enabled
        self._next_messages = 0.0
        self._next_memories = 0.0
        self.messages_redriven = 0
        self.memories_redriven = 0
        self.messages_invalid = 0
        self.message_scans = 0
        self.memory_scans = 0
        self.scans_skipped = 0

    @classmethod
    def from_engine(cls, settings: Settings, engine: Engine) -> Sweeper:
        return cls(settings, session_factory(engine))

    def next_due(self) -> float:
        """Clock time of the next due scan (``inf`` when both switches are off)."""
        due = [
            t
            for t, on in (
                (self._next_messages, self.messages_enabled),
                (self._next_memories, self.memories_enabled),
            )
            if on
        ]
        return min(due) if due else float("inf")

    def run_due(self) -> int:
        """Run the scans that are due; returns the number of outbox rows enqueued."""
        now = self.clock()
        enqueued = 0
        if self.messages_enabled and now >= self._next_messages:
            self._next_messages = now + self.settings.LONG_TERM_MEMORY_SCAN_INTERVAL_SEC
            enqueued += self.scan_messages()
        if self.memories_enabled and now >= self._next_memories:
            self._next_memories = now + self.settings.MEMORY_INDEX_WORKER_INTERVAL_SEC
            enqueued += self.scan_memories()
        return enqueued

    def _batches(self, scan_once: Callable[[], tuple[int, int] | None]) -> int:
        """Call ``scan_once`` (one batch in one transaction: (re-driven, rows handled), or None when another
        sweeper leads) until a batch comes back short or ``batches_per_scan`` ran; returns re-driven rows."""
        total = 0
        for _ in range(self.batches_per_scan):
            batch = scan_once()
            if batch is None:
                self.scans_skipped += 1
                break
            redriven, handled = batch
            total += redriven
            if handled < self.batch_size:
                break
        return total

    def scan_messages(self) -> int:
        """One message scan now (ignores the switch); returns re-driven messages."""
        self.message_scans += 1

        def once() -> tuple[int, int] | None:
            scan = self.redriver.scan_messages()
            if scan is None:
                return None
            self.messages_invalid += len(scan.invalid)
            return len(scan.redriven), len(scan.redriven) + len(scan.invalid)

        total = self._batches(once)
        if total:
            log.info("sweeper re-drove %d stuck message(s) to %s", total, self.settings.TOPIC_CHAT_MESSAGES)
        self.messages_redriven += total
        metrics.REDRIVES.labels("message").inc(total)
        return total

    def scan_memories(self) -> int:
        """One memory scan now (ignores the switch); returns re-enqueued memories."""
        self.memory_scans += 1

        def once() -> tuple[int, int] | None:
            redriven = self.redriver.scan_memories()
            return None if redriven is None else (len(redriven), len(redriven))

        total = self._batches(once)
        if total:
            log.info(
                "sweeper re-enqueued %d unindexed memories to %s", total, self.settings.TOPIC_MEMORY_DIRTY
            )
        self.memories_redriven += total
        metrics.REDRIVES.labels("memory").inc(total)
        return total
