"""The ``relay`` process: the outbox relay (``producers.outbox_relay``) and the sweeper
(``producers.sweeper``) in one loop until ``stop()`` (SIGTERM/SIGINT when installed).

Wake-ups: the loop LISTENs on ``pai_memory_outbox`` (``producers.outbox_listener``; a trigger NOTIFYs
on every outbox insert) and also drains every ``OUTBOX_SWEEP_INTERVAL_SEC``, so a lost notification
only delays a row. After a notification it waits ``OUTBOX_RELAY_LINGER_SEC`` before claiming, so rows
committed close together are published in one claim/publish/mark transaction, and takes the
notifications of that wait with it (their rows were committed before the claim). Published rows older
than ``OUTBOX_RETENTION_HOURS`` are deleted every ``retention_interval_sec``; the outbox and memory
gauges are sampled every ``GAUGE_INTERVAL_SEC``.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType

import psycopg
from confluent_kafka import KafkaException
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from core import metrics
from core.config import Settings
from core.memory.stats import sample
from producers.outbox_listener import NotificationListener, libpq_conninfo
from producers.outbox_relay import OutboxRelay
from producers.sweeper import Sweeper

log = logging.getLogger(__name__)

GAUGE_INTERVAL_SEC = 5.0


class RelayService:
    """The ``relay`` process: outbox relay + sweeper in one loop (see module docstring)."""

    def __init__(
        self,
        settings: Settings,
        relay: OutboxRelay | None = None,
        sweeper: Sweeper | None = None,
        listener: NotificationListener | None = None,
        *,
        retention_interval_sec: float = 60.0,
        max_wait_sec: float = 1.0,
        linger_sec: float | None = None,
    ) -> None:
        self.settings = settings
        self.relay = relay or OutboxRelay(settings)
        self.sweeper = sweeper if sweeper is not None else Sweeper.from_engine(settings, self.relay.engine)
        self.listener = listener or NotificationListener(libpq_conninfo(settings.database_url))
        self.retention_interval_sec = retention_interval_sec
        self.max_wait_sec = max_wait_sec
        self.linger_sec = settings.OUTBOX_RELAY_LINGER_SEC if linger_sec is None else linger_sec
        self.wakeups = 0
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def install_signal_handlers(self) -> None:
        def _handler(signum: int, frame: FrameType | None) -> None:
            log.info("signal %s: stopping the relay", signum)
            self.stop()

        signal.signal(signal.SIGTERM, _handler)
        signal.signal(signal.SIGINT, _handler)

    def run(self) -> None:
        """Loop until ``stop()``: drain on every notification and every sweep interval; run the
        retention cleanup and the sweeper's scans when due. Errors of one turn are logged and the
        loop goes on (the next sweep retries)."""
        sweep_every = self.settings.OUTBOX_SWEEP_INTERVAL_SEC
        next_sweep = next_retention = next_gauges = 0.0
        woke = True
        log.info("outbox relay running (sweep every %gs, batch %d)", sweep_every, self.relay.batch_size)
        self.relay.open()
        try:
            while not self._stop.is_set():
                now = time.monotonic()
                if woke or now >= next_sweep:
                    if woke and self.linger_sec > 0 and not self._stop.wait(self.linger_sec):
                        # rows notified meanwhile were committed before this drain claims: it takes them
                        self.listener.wait(0.0)
                    self._guard("publish", lambda: self.relay.drain(stop=self._stop))
                    next_sweep = time.monotonic() + sweep_every
                if now >= next_retention:
                    self._guard("retention", self.relay.delete_published)
                    next_retention = now + self.retention_interval_sec
                if now >= next_gauges:
                    self._guard("gauges", self._sample_gauges)
                    next_gauges = now + GAUGE_INTERVAL_SEC
                due = [next_sweep, next_retention]
                if self.sweeper is not None:
                    self._guard("sweep", self.sweeper.run_due)
                    due.append(self.sweeper.next_due())
                wait = min(max(min(due) - time.monotonic(), 0.0), self.max_wait_sec)
                woke = self.listener.wait(wait)
                self.wakeups += int(woke)
        finally:
            self.listener.close()
            self.relay.close()
            log.info("outbox relay stopped")

    def _sample_gauges(self) -> None:
        """Backlog, oldest unpublished age, messages by status, memories by vector status."""
        with Session(self.relay.engine) as session:
            stats = sample(session)
        metrics.OUTBOX_BACKLOG.set(stats.outbox_backlog)
        metrics.OUTBOX_OLDEST_AGE.set(stats.outbox_oldest_age_seconds)
        for status in ("PENDING", "PROCESSED", "FAILED", "SKIPPED"):
            metrics.MESSAGES_BY_STATUS.labels(status).set(stats.messages_by_status.get(status, 0))
        for vstatus in ("DIRTY", "SYNCED", "FAILED"):
            for active in (True, False):
                metrics.MEMORIES_BY_VECTOR_STATUS.labels(vstatus, str(active).lower()).set(
                    stats.memories_by_vector_status.get((vstatus, active), 0))
            metrics.EPISODES_BY_VECTOR_STATUS.labels(vstatus).set(
                stats.episodes_by_vector_status.get(vstatus, 0))

    @staticmethod
    def _guard(what: str, fn: Callable[[], object]) -> None:
        try:
            fn()
        except (SQLAlchemyError, psycopg.Error, KafkaException) as exc:
            log.warning("relay %s failed (retried at the next turn): %s", what, exc)


def main() -> int:
    """``python -m producers.relay_service``: same as ``pai-memory run relay``."""
    from core.config import load_settings
    from core.redaction import install_log_redaction

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    install_log_redaction()
    service = RelayService(load_settings())
    service.install_signal_handlers()
    service.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
