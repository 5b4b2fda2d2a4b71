"""Outbox relay: publishes committed outbox rows to Kafka and marks them only on delivery confirmation.

Guarantees (at least once, per-user order):
- a row is published to ``row.topic`` with key = ``row.message_key`` (the external user id), value =
  the compact UTF-8 JSON of ``row.payload`` and header ``pai-outbox-id`` (a stored trace context moves
  to headers, ``producers.tracing``); the producer is idempotent with ``acks=all``
  (``producers.kafka_config``);
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
of those users, and then locks (``FOR UPDATE``) the oldest ``batch_size`` rows of that window that
belong to the users it got, in id order (a claimed user's rows in the window are all its unpublished
rows up to the window's end, so they are a prefix of them; the claim never reads past the window, so
a batch is at most ``claim_window`` rows). Users held by another relay are skipped (SKIP LOCKED at the
level of users), so relays share the backlog by user and a second relay looks past the first one's
users.
Because a claimed user's rows are taken in id order under a global ``LIMIT``, every batch holds a
*prefix* of each claimed user's unpublished rows, and the batch is flushed before the transaction
commits and releases the user: a user's rows reach Kafka in id order (same key, same partition),
whichever relays run. Row-level ``SKIP LOCKED`` is deliberately not used: skipping a locked row
could publish a later row of the same user first. Writers allocate a user's outbox ids under that
user's lock (``core.memory.store.lock_user``), so id order is commit order per user. Weak spot: when
one row of a user fails delivery and a later row of the same batch succeeds, the failed row is
re-sent later, after it (consumers re-read the truth, so this is harmless).

This module claims and marks; the Kafka side is ``producers.outbox_publisher``, the wake-ups
(LISTEN/NOTIFY) ``producers.outbox_listener`` and the process loop (relay + sweeper, retention,
gauges) ``producers.relay_service``. Published rows older than ``OUTBOX_RETENTION_HOURS`` are deleted
by ``delete_published``.

Test seam: ``checkpoint(name)`` is called at ``after_claim`` (rows claimed, nothing produced) and
``after_flush`` (produced and flushed, not marked) of every non-empty batch; the crash tests pass
one that kills the process there.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, text

from core import metrics
from core.config import Settings
from core.storage import db
from core.storage.locks import AdvisoryLock
from producers.outbox_publisher import (
    CONTENT_TYPE,
    OUTBOX_ID_HEADER,
    RELAY_PRODUCER_DEFAULTS,
    KafkaBatchPublisher,
    OutboxRow,
    encode_payload,
)

__all__ = ["CONTENT_TYPE", "OUTBOX_ID_HEADER", "RELAY_PRODUCER_DEFAULTS", "BatchResult", "OutboxRelay",
           "OutboxRow", "encode_payload"]

log = logging.getLogger(__name__)

USER_LOCK_NAMESPACE = int(AdvisoryLock.RELAY_USER_CLAIM)
"""Advisory-lock namespace of the relay's per-user claim locks (``core.storage.locks``)."""

Checkpoint = Callable[[str], None]
"""Called with ``after_claim`` / ``after_flush`` inside each non-empty batch (a test seam)."""

CLAIM_SQL = text("""
WITH busy AS MATERIALIZED (
    SELECT objid FROM pg_locks
    WHERE locktype = 'advisory' AND classid = CAST(:ns AS oid) AND objsubid = 2
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND pid <> pg_backend_pid()
), win AS MATERIALIZED (
    SELECT id, message_key FROM outbox
    WHERE published_at IS NULL AND NOT (message_key = ANY(:skip))
      AND CAST(hashtext(message_key) AS oid) NOT IN (SELECT objid FROM busy)
    ORDER BY id LIMIT :window
), mine AS MATERIALIZED (
    SELECT message_key FROM (SELECT DISTINCT message_key FROM win) AS heads
    WHERE pg_try_advisory_xact_lock(:ns, hashtext(message_key))
)
SELECT o.id, o.topic, o.message_key, o.payload
FROM outbox o
WHERE o.id = ANY(ARRAY(SELECT w.id FROM win w WHERE w.message_key IN (SELECT message_key FROM mine)
                       ORDER BY w.id LIMIT :batch))
  AND o.published_at IS NULL
ORDER BY o.id
FOR UPDATE OF o
""")
"""The claim takes its batch from the window (the oldest ``:window`` unpublished rows of users no other
relay holds) and reads at most ``:batch`` rows with their payloads, whatever the backlog; before, it
took it from all the claimed users' unpublished rows, which with a backlog meant reading and sorting
every waiting row (payloads included) to keep ``:batch`` of them (``bench/bench_outbox_relay.py``). The
batch's ids are one array (``= ANY(ARRAY(...))``), so the rows are read by primary key whatever the
planner thinks of the table's size (with ``IN (subquery)`` it could hash-join a scan of every row). The
window itself is an ordered scan of ``ix_outbox_unpublished`` when the statistics are fresh; with stale
ones (right after a backlog built up) the planner may read every waiting row's id and key for it, which
is cheap (23 ms at 50,000 rows), until the table is analysed again."""

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


@dataclass
class BatchResult:
    """What one claim/publish/mark transaction did."""

    claimed: int = 0
    published: list[int] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)  # outbox id -> error


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
        publisher: KafkaBatchPublisher | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        self.settings = settings
        self.engine = engine or db.make_engine(settings.database_url, pool_size=2)
        self._own_engine = engine is None
        self.batch_size = batch_size or settings.OUTBOX_RELAY_BATCH_SIZE
        self.claim_window = claim_window or self.batch_size * 4
        self.publisher = publisher or KafkaBatchPublisher(
            settings, producer_overrides=producer_overrides, flush_timeout=flush_timeout, clock=clock)
        self.failure_backoff_sec = (
            failure_backoff_sec if failure_backoff_sec is not None else settings.OUTBOX_SWEEP_INTERVAL_SEC
        )
        self.clock = clock
        self.checkpoint = checkpoint
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
        self.publisher.open()

    def publish_batch(self) -> BatchResult:
        """One transaction: claim up to ``batch_size`` rows, publish, flush, mark, commit."""
        result = BatchResult()
        skip = self._backed_off_keys()
        with self.engine.connect() as conn, conn.begin():
            rows = self._claim(conn, skip)
            result.claimed = len(rows)
            if not rows:
                return result
            self._checkpoint("after_claim")
            outcome = self.publisher.publish(rows)
            self._checkpoint("after_flush")
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

    def _checkpoint(self, name: str) -> None:
        if self.checkpoint is not None:
            self.checkpoint(name)

    def _backed_off_keys(self) -> list[str]:
        now = self.clock()
        for key in [k for k, until in self._backoff.items() if until <= now]:
            del self._backoff[key]
        return list(self._backoff)

    def _claim(self, conn: Connection, skip: list[str]) -> list[OutboxRow]:
        rows = conn.execute(
            CLAIM_SQL,
            {"skip": skip, "window": self.claim_window, "ns": USER_LOCK_NAMESPACE, "batch": self.batch_size},
        ).all()
        return [OutboxRow(int(r.id), r.topic, r.message_key, r.payload) for r in rows]

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
        self.publisher.close(timeout)
        if self._own_engine:
            self.engine.dispose()
