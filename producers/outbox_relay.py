"""Outbox relay: publishes committed outbox rows to Kafka and marks them only on delivery confirmation.

Guarantees (at least once, per-user order):
- a row is published to ``row.topic`` with key = ``row.message_key`` (the external user id), value =
  the compact UTF-8 JSON of ``row.payload`` and header ``pai-outbox-id`` (a stored trace context moves
  to headers, ``producers.tracing``); the producer is idempotent
  with ``acks=all`` (``producers.kafka_config``);
- ``published_at`` is set only after the broker confirmed the delivery. A failed delivery increments
  ``attempts`` and records ``last_error``; the row is retried at the next sweep. A crash anywhere
  between commit and marking leaves the row unpublished, so it is published (again) later:
  consumers must be idempotent (they are);
- the claim, the publish, the flush and the marking run in ONE transaction that holds the row locks
  and the per-user locks, so several relays can run at once without publishing a user's rows
  concurrently.

Claiming and per-user order. A relay looks at the oldest ``claim_window`` unpublished rows of users
no other relay holds right now (their per-user advisory locks are visible in ``pg_locks``), tries a
transaction-scoped advisory lock ``pg_try_advisory_xact_lock(ns, hashtext(message_key))`` for each
of those users, and then locks (``FOR UPDATE``) the oldest ``batch_size`` unpublished rows of the
users it got, in id order. Users held by another relay are skipped (SKIP LOCKED at the level of
users), so relays share the backlog by user and a second relay looks past the first one's users.
Because a claimed user's rows are taken in id order under a global ``LIMIT``, every batch holds a
*prefix* of each claimed user's unpublished rows, and the batch is flushed before the transaction
commits and releases the user: a user's rows reach Kafka in id order (same key, same partition),
whichever relays run. Row-level ``SKIP LOCKED`` is deliberately not used: skipping a locked row
could publish a later row of the same user first. Writers allocate a user's outbox ids under that
user's lock (``core.memory.store.lock_user``), so id order is commit order per user. Weak spot: when
one row of a user fails delivery and a later row of the same batch succeeds, the failed row is
re-sent later, after it (consumers re-read the truth, so this is harmless).

Wake-ups: the relay LISTENs on ``pai_memory_outbox`` (a trigger NOTIFYs on every outbox insert) and
also sweeps every ``OUTBOX_SWEEP_INTERVAL_SEC``, so a lost notification only delays a row. Published
rows older than ``OUTBOX_RETENTION_HOURS`` are deleted periodically.

``RelayService`` runs the relay and the sweeper (``producers.sweeper``) in one loop until
``stop()`` (SIGTERM/SIGINT when installed).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import psycopg
from confluent_kafka import KafkaError, KafkaException, Producer
from opentelemetry.trace import Span
from psycopg import sql
from sqlalchemy import Connection, Engine, make_url, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from core import metrics
from core.config import Settings
from core.memory.stats import sample
from core.storage import db
from core.storage.locks import AdvisoryLock
from producers.kafka_config import producer_config
from producers.sweeper import Sweeper
from producers.tracing import end_publish_spans, outbox_publish

log = logging.getLogger(__name__)

NOTIFY_CHANNEL = "pai_memory_outbox"
GAUGE_INTERVAL_SEC = 5.0
USER_LOCK_NAMESPACE = int(AdvisoryLock.RELAY_USER_CLAIM)
"""Advisory-lock namespace of the relay's per-user claim locks (``core.storage.locks``)."""
OUTBOX_ID_HEADER = "pai-outbox-id"
CONTENT_TYPE = b"application/cloudevents+json; charset=utf-8"

TEST_CRASH_ENV = "PAI_MEMORY_TEST_RELAY_CRASH"
"""TEST-ONLY hook: ``after_claim`` or ``after_flush`` makes the relay ``os._exit(70)`` at that point
of a non-empty batch (rows claimed but not marked), to prove a crash never loses an event."""
TEST_CRASH_EXIT_CODE = 70

RELAY_PRODUCER_DEFAULTS: dict[str, Any] = {
    "client.id": "pai-memory-outbox-relay",
    "message.timeout.ms": 30_000,  # bounds how long a batch (and its transaction) waits for Kafka
}

_CLAIM = text("""
WITH busy AS MATERIALIZED (
    SELECT objid FROM pg_locks
    WHERE locktype = 'advisory' AND classid = CAST(:ns AS oid) AND objsubid = 2
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND pid <> pg_backend_pid()
), heads AS MATERIALIZED (
    SELECT DISTINCT w.message_key
    FROM (SELECT message_key FROM outbox
          WHERE published_at IS NULL AND NOT (message_key = ANY(:skip))
            AND CAST(hashtext(message_key) AS oid) NOT IN (SELECT objid FROM busy)
          ORDER BY id LIMIT :window) AS w
), mine AS MATERIALIZED (
    SELECT message_key FROM heads WHERE pg_try_advisory_xact_lock(:ns, hashtext(message_key))
)
SELECT o.id, o.topic, o.message_key, o.payload
FROM outbox o
WHERE o.published_at IS NULL AND o.message_key IN (SELECT message_key FROM mine)
ORDER BY o.id
LIMIT :batch
FOR UPDATE OF o
""")

_MARK_PUBLISHED = text("""
UPDATE outbox SET published_at = clock_timestamp(), attempts = attempts + 1, last_error = NULL
WHERE id = ANY(:ids)
""")

_MARK_FAILED = text("""
UPDATE outbox SET attempts = outbox.attempts + 1, last_error = f.err
FROM unnest(CAST(:ids AS bigint[]), CAST(:errs AS text[])) AS f(id, err)
WHERE outbox.id = f.id
""")

_DELETE_PUBLISHED = text("""
DELETE FROM outbox WHERE id IN (
    SELECT id FROM outbox
    WHERE published_at IS NOT NULL AND published_at < clock_timestamp() - make_interval(secs => :secs)
    ORDER BY published_at LIMIT :chunk)
""")


@dataclass(frozen=True)
class OutboxRow:
    id: int
    topic: str
    message_key: str
    payload: dict[str, Any]


@dataclass
class BatchResult:
    """What one claim/publish/mark transaction did."""

    claimed: int = 0
    published: list[int] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)  # outbox id -> error


def encode_payload(payload: dict[str, Any]) -> bytes:
    """The Kafka value of an outbox row: compact UTF-8 JSON of its payload."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def libpq_conninfo(database_url: str) -> str:
    """A libpq URI (for psycopg) from the SQLAlchemy URL ``postgresql+psycopg://...``."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


def _crash_point(name: str) -> None:
    if os.environ.get(TEST_CRASH_ENV) == name:
        log.critical("TEST HOOK %s=%s: exiting without marking the claimed rows", TEST_CRASH_ENV, name)
        logging.shutdown()
        os._exit(TEST_CRASH_EXIT_CODE)


class OutboxRelay:
    """Claims, publishes and marks outbox rows (see module docstring). Not thread-safe: one loop.

    Counters for metrics: ``published_total``, ``failed_total``, ``batches_total``,
    ``deleted_total``; gauges on demand: ``backlog()``, ``oldest_unpublished_age_seconds()``.
    """

    def __init__(
        self,
        settings: Settings,
        engine: Engine | None = None,
        *,
        batch_size: int | None = None,
        claim_window: int | None = None,
        producer_overrides: dict[str, Any] | None = None,
        flush_timeout: float | None = None,
        failure_backoff_sec: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.engine = engine or db.make_engine(settings.database_url, pool_size=2)
        self._own_engine = engine is None
        self.batch_size = batch_size or settings.OUTBOX_RELAY_BATCH_SIZE
        self.claim_window = claim_window or self.batch_size * 4
        self.producer_conf = producer_config(
            settings, {**RELAY_PRODUCER_DEFAULTS, **(producer_overrides or {})}
        )
        self.flush_timeout = (
            flush_timeout
            if flush_timeout is not None
            else float(self.producer_conf["message.timeout.ms"]) / 1000 + 5
        )
        self.failure_backoff_sec = (
            failure_backoff_sec if failure_backoff_sec is not None else settings.OUTBOX_SWEEP_INTERVAL_SEC
        )
        self.clock = clock
        self._producer: Producer | None = None
        self._fatal: KafkaError | None = None
        self._backoff: dict[str, float] = {}  # message_key -> clock() before which it is not claimed
        self.published_total = 0
        self.failed_total = 0
        self.batches_total = 0
        self.deleted_total = 0
        self.published_by_topic: dict[str, int] = {}

    # --- publishing ---------------------------------------------------------------------------
    def open(self) -> None:
        """Create the Kafka producer now (it connects in the background), so the first row after an
        idle start is not delayed by client start-up. Optional: publishing opens it on demand."""
        self._producer_or_new()

    def publish_batch(self) -> BatchResult:
        """One transaction: claim up to ``batch_size`` rows, publish, flush, mark, commit."""
        result = BatchResult()
        skip = self._backed_off_keys()
        with self.engine.connect() as conn, conn.begin():
            rows = self._claim(conn, skip)
            result.claimed = len(rows)
            if not rows:
                return result
            _crash_point("after_claim")
            outcome = self._publish(rows)
            _crash_point("after_flush")
            ok = [row.id for row in rows if outcome.get(row.id) is None]
            failed = {row.id: err for row in rows if (err := outcome.get(row.id)) is not None}
            if ok:
                conn.execute(_MARK_PUBLISHED, {"ids": ok})
            if failed:
                conn.execute(_MARK_FAILED, {"ids": list(failed), "errs": [e[:2000] for e in failed.values()]})
        # committed: count and back off the users whose rows failed
        result.published, result.failed = ok, failed
        self.batches_total += 1
        self.published_total += len(ok)
        self.failed_total += len(failed)
        by_id = {row.id: row for row in rows}
        for oid in ok:
            topic = by_id[oid].topic
            self.published_by_topic[topic] = self.published_by_topic.get(topic, 0) + 1
            metrics.OUTBOX_PUBLISHED.labels(topic).inc()
        if failed:
            metrics.OUTBOX_PUBLISH_FAILURES.inc(len(failed))
        until = self.clock() + self.failure_backoff_sec
        for oid, err in failed.items():
            self._backoff[by_id[oid].message_key] = until
            log.warning(
                "outbox row %s to %s not delivered (retry at next sweep): %s", oid, by_id[oid].topic, err
            )
        return result

    def drain(self, stop: threading.Event | None = None, max_batches: int | None = None) -> int:
        """Publish batches until one comes back short (nothing more claimable now); returns rows published."""
        published = 0
        batches = 0
        while stop is None or not stop.is_set():
            result = self.publish_batch()
            published += len(result.published)
            batches += 1
            if result.claimed < self.batch_size or (max_batches is not None and batches >= max_batches):
                break
        return published

    def _backed_off_keys(self) -> list[str]:
        now = self.clock()
        for key in [k for k, until in self._backoff.items() if until <= now]:
            del self._backoff[key]
        return list(self._backoff)

    def _claim(self, conn: Connection, skip: list[str]) -> list[OutboxRow]:
        rows = conn.execute(
            _CLAIM,
            {"skip": skip, "window": self.claim_window, "ns": USER_LOCK_NAMESPACE, "batch": self.batch_size},
        ).all()
        return [OutboxRow(int(r.id), r.topic, r.message_key, r.payload) for r in rows]

    def _producer_or_new(self) -> Producer:
        if self._fatal is not None and self._producer is not None:
            log.error("recreating the relay producer after a fatal error: %s", self._fatal)
            self._producer.purge()
            self._producer = None
            self._fatal = None
        if self._producer is None:
            conf = dict(self.producer_conf)
            conf["error_cb"] = self._on_error
            self._producer = Producer(conf)
        return self._producer

    def _on_error(self, err: KafkaError) -> None:
        if err.fatal():
            self._fatal = err
        log.debug("Kafka producer error: %s", err)

    def _publish(self, rows: Sequence[OutboxRow]) -> dict[int, str | None]:
        """Produce every row and flush; outbox id -> None (delivered) or the error."""
        producer = self._producer_or_new()
        outcome: dict[int, str | None] = {}

        def reporter(oid: int) -> Callable[[KafkaError | None, Any], None]:
            def on_delivery(err: KafkaError | None, _msg: Any) -> None:
                outcome[oid] = None if err is None else f"{err.name()}: {err.str()}"

            return on_delivery

        spans: dict[int, Span | None] = {}
        for row in rows:
            # the row's trace context (if any) leaves the value and continues in a span and headers
            payload, trace_headers, spans[row.id] = outbox_publish(row.payload, row.topic)
            try:
                value = encode_payload(payload)
            except (TypeError, ValueError) as exc:
                outcome[row.id] = f"payload not serialisable: {exc}"
                continue
            headers: list[tuple[str, str | bytes | None]] = [
                (OUTBOX_ID_HEADER, str(row.id).encode()),
                ("content-type", CONTENT_TYPE),
                *trace_headers,
            ]
            deadline = self.clock() + self.flush_timeout
            while True:
                try:
                    producer.produce(
                        row.topic,
                        value=value,
                        key=row.message_key.encode("utf-8"),
                        headers=headers,
                        on_delivery=reporter(row.id),
                    )
                    break
                except BufferError:  # local queue full: serve delivery reports, then retry
                    if self.clock() >= deadline:
                        outcome[row.id] = "local producer queue full"
                        break
                    producer.poll(0.05)
                except KafkaException as exc:
                    outcome[row.id] = f"produce failed: {exc}"
                    break
        remaining = producer.flush(self.flush_timeout)
        if remaining:
            producer.purge(in_queue=True, in_flight=False)
            producer.poll(0)
        for row in rows:
            outcome.setdefault(row.id, f"delivery not confirmed within {self.flush_timeout:g}s")
        end_publish_spans(spans, outcome)
        return outcome

    # --- maintenance and gauges ---------------------------------------------------------------
    def delete_published(self, older_than_hours: float | None = None, chunk: int = 10_000) -> int:
        """Delete rows published more than ``older_than_hours`` (default ``OUTBOX_RETENTION_HOURS``)
        ago, in chunks; unpublished rows are never deleted. Returns the number deleted."""
        hours = self.settings.OUTBOX_RETENTION_HOURS if older_than_hours is None else older_than_hours
        deleted = 0
        while True:
            with self.engine.begin() as conn:
                n = conn.execute(_DELETE_PUBLISHED, {"secs": hours * 3600.0, "chunk": chunk}).rowcount
            deleted += n
            if n < chunk:
                break
        self.deleted_total += deleted
        return deleted

    def backlog(self) -> int:
        """Unpublished rows now."""
        with self.engine.connect() as conn:
            count = conn.execute(text("SELECT count(*) FROM outbox WHERE published_at IS NULL")).scalar_one()
        return int(count)

    def oldest_unpublished_age_seconds(self) -> float:
        """Age of the oldest unpublished row (0 when there is none)."""
        with self.engine.connect() as conn:
            age = conn.execute(
                text(
                    "SELECT EXTRACT(EPOCH FROM clock_timestamp() - min(created_at)) FROM outbox "
                    "WHERE published_at IS NULL"
                )
            ).scalar_one()
        return max(0.0, float(age)) if age is not None else 0.0

    def close(self, timeout: float = 10.0) -> None:
        """Flush what is in flight and release the producer (and the engine when it was created here)."""
        if self._producer is not None:
            self._producer.flush(timeout)
            self._producer = None
        if self._own_engine:
            self.engine.dispose()


class NotificationListener:
    """LISTENs on the outbox channel on its own autocommit psycopg connection (opened lazily).

    ``wait(timeout)`` returns True when a notification arrived (pending ones are consumed too), or
    after (re)connecting, since notifications may have been missed meanwhile; False on timeout.
    """

    def __init__(self, conninfo: str, channel: str = NOTIFY_CHANNEL) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self._conn: psycopg.Connection[Any] | None = None
        self.notifications = 0

    def _connect(self) -> None:
        conn = psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5)
        conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
        self._conn = conn

    def wait(self, timeout: float) -> bool:
        try:
            if self._conn is None or self._conn.closed:
                self._connect()
                return True
            assert self._conn is not None
            got = sum(1 for _ in self._conn.notifies(timeout=max(timeout, 0.0), stop_after=1))
            if got:
                got += sum(1 for _ in self._conn.notifies(timeout=0.0))
            self.notifications += got
            return got > 0
        except psycopg.Error as exc:
            log.warning("LISTEN %s connection failed (sweeps continue): %s", self.channel, exc)
            self.close()
            time.sleep(min(max(timeout, 0.0), 1.0))
            return False

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None


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
    ) -> None:
        self.settings = settings
        self.relay = relay or OutboxRelay(settings)
        self.sweeper = sweeper if sweeper is not None else Sweeper.from_engine(settings, self.relay.engine)
        self.listener = listener or NotificationListener(libpq_conninfo(settings.database_url))
        self.retention_interval_sec = retention_interval_sec
        self.max_wait_sec = max_wait_sec
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

    @staticmethod
    def _guard(what: str, fn: Callable[[], object]) -> None:
        try:
            fn()
        except (SQLAlchemyError, psycopg.Error, KafkaException) as exc:
            log.warning("relay %s failed (retried at the next turn): %s", what, exc)


def main() -> int:
    """``python -m producers.outbox_relay``: same as ``pai-memory run relay``."""
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
