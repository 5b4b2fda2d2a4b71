"""The indexer consumer group: ``memory.dirty`` events -> ``MemoryIndexer.sync`` in batches.

Per record: parse (malformed -> dead-letter, done) -> buffer it under its memory id (events of one
memory collapse: only the id matters, the truth is re-read). ``poll`` flushes when the buffer holds
``batch_size`` distinct memories or its oldest record has waited ``max_wait_sec``; a flush syncs the
buffered ids in chunks of ``batch_size`` (one embedding call per chunk) and marks a chunk's records
done only after ``sync`` returned, i.e. after Milvus and PostgreSQL both hold the result. Every
``poll`` also lets the indexer seal its recent Milvus writes (``MemoryIndexer.seal_if_due``: a
``flush`` at most every ``MEMORY_MILVUS_FLUSH_INTERVAL_SEC``), which keeps Milvus Lite searches fast.

A failed sync (``IndexSyncFailed``) keeps the records buffered and retries with exponential backoff
(``RetryPolicy``); after ``max_attempts`` failures in a row the records are marked done anyway and the
rows are left ``FAILED``/``DIRTY`` in PostgreSQL for the sweeper, so one poisonous memory cannot block
its partition forever. ``IndexModelMismatch`` is fatal: it propagates and stops the process. Any other
exception from ``sync`` is classified (``consumers.errors``, by ``consumers.steps.retry``):
transient ones retry like ``IndexSyncFailed``; a fatal one stops the process; a permanent one (or an
unexpected one after ``max_record_attempts`` tries) syncs the batch's memories one by one and
dead-letters the records of those that still fail, with the reason, so the partition moves on.
While ``max_buffered`` records are held the loop pauses the partitions.

Start-up (``bind``, called by ``ConsumerLoop.run`` before it consumes) checks the collection registry
and creates the active collection (``MemoryIndexer.start``), retrying while Milvus or PostgreSQL are
unreachable for up to ``start_timeout_sec``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy.exc import DBAPIError

from consumers import metrics as consumer_metrics
from consumers.dlq import DeadLetterPublisher
from consumers.errors import describe
from consumers.policies import RetryPolicy
from consumers.runtime import DoneCallback, Record
from consumers.steps.dead_letter import DeadLetterStep
from consumers.steps.dlq_limit import DlqLimit
from consumers.steps.retry import Action, Backoff, ErrorPolicy
from core import metrics, tracing
from core.episodes.indexing import EpisodeIndexer, EpisodeSyncFailed, EpisodeSyncReport
from core.indexing import IndexSyncFailed, MemoryIndexer, SyncReport
from core.vectorstore import IndexModelMismatch, VectorStoreError
from producers.tracing import contexts_of
from schemas import EpisodeDirtyEvent, parse_index_event

log = logging.getLogger(__name__)


class IndexerStrategy:
    """Processing strategy of the indexer group (see ``consumers.runtime`` for the contract)."""

    def __init__(self, indexer: MemoryIndexer, dlq: DeadLetterPublisher, *, batch_size: int,
                 max_wait_sec: float = 0.2, retry: RetryPolicy | None = None, max_attempts: int | None = 8,
                 start_timeout_sec: float = 60.0, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep,
                 on_report: Callable[[SyncReport, float], None] | None = None,
                 on_failure: Callable[[IndexSyncFailed], None] | None = None, group: str = "indexer",
                 max_buffered: int = 10000, max_record_attempts: int = 3, dlq_max_attempts: int = 5,
                 episodes: EpisodeIndexer | None = None, dlq_limit: DlqLimit | None = None) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self.indexer = indexer
        self.episodes = episodes  # ``pai.episode.dirty.v1`` (core.episodes); None: acknowledged unindexed
        self.dlq = dlq
        self.batch_size = batch_size
        self.max_wait_sec = max_wait_sec
        self.retry = retry or RetryPolicy()
        self.max_attempts = max_attempts
        self.start_timeout_sec = start_timeout_sec
        self.clock = clock
        self.sleep = sleep
        self.on_report = on_report  # (report, seconds the sync took)
        self.on_failure = on_failure
        self.group = group
        self.max_buffered = max_buffered
        self.errors = ErrorPolicy(group, max_record_attempts=max_record_attempts)
        self.dead_letters = DeadLetterStep(group, dlq, retry=self.retry, dlq_max_attempts=dlq_max_attempts,
                                           limit=dlq_limit, clock=clock)
        self._buffer: dict[int, list[Record]] = {}  # memory id -> records, insertion = age order
        self._since: dict[int, float] = {}  # memory id -> when its oldest buffered record arrived
        # memory id -> origin of the newest change announced: when the message or command that caused
        # it was created (``changed_at`` for events without one). Freshness is measured from it.
        self._origin_at: dict[int, tuple[datetime, datetime]] = {}  # memory id -> (changed_at, origin)
        self._backoff = Backoff()  # attempts and next try of the buffered batch
        self._fatal: BaseException | None = None
        self.given_up = 0

    # --- strategy contract --------------------------------------------------------------------
    @property
    def dead_lettered(self) -> int:
        return self.dead_letters.dead_lettered

    def bind(self, done: DoneCallback) -> None:
        self.dead_letters.bind(done)
        self._start()

    def submit(self, record: Record) -> None:
        try:
            event = parse_index_event(record.value or b"")
        except Exception as exc:  # SchemaError, or anything else parsing raises: this record never parses
            # a failed publish waits in the backlog, published again at the next poll
            self.dead_letters.dead_letter(record, str(exc), error_type=type(exc).__name__, delay=False)
            return
        # episodes share the buffer under the negative of their id (``_sync`` splits them off)
        memory_id = (-event.data.episode_id if isinstance(event, EpisodeDirtyEvent)
                     else event.data.memory_id)
        self._buffer.setdefault(memory_id, []).append(record)
        self._since.setdefault(memory_id, self.clock())
        newest = self._origin_at.get(memory_id)
        if newest is None or event.data.changed_at > newest[0]:
            self._origin_at[memory_id] = (event.data.changed_at,
                                          event.data.origin_at or event.data.changed_at)

    def poll(self) -> None:
        now = self.clock()
        self.dead_letters.poll()
        if self._buffer and self._backoff.ready(now):
            oldest = min(self._since.values())
            if len(self._buffer) >= self.batch_size or now - oldest >= self.max_wait_sec:
                self._flush(list(self._buffer))
        self.indexer.seal_if_due()

    def backpressure(self) -> bool:
        return self.buffered >= self.max_buffered

    def revoke(self, partitions: list[tuple[str, int]], lost: bool = False) -> None:
        revoked = set(partitions)
        self.dead_letters.revoke(revoked)
        affected = [mid for mid, records in self._buffer.items() if any(r.tp in revoked for r in records)]
        if not affected or (not lost and self._flush(affected)):
            return
        # abandon: the revoked partitions' records stay uncommitted and go to the next owner
        for mid in affected:
            if mid not in self._buffer:
                continue  # its chunk was synced before the failure
            kept = [r for r in self._buffer[mid] if r.tp not in revoked]
            if kept:
                self._buffer[mid] = kept
            else:
                self._forget(mid)

    def join(self, timeout: float) -> None:
        deadline = self.clock() + timeout
        while (self._buffer or self.dead_letters.held) and self._fatal is None:
            now = self.clock()
            if now >= deadline:
                log.warning("join: leaving %d memories unindexed (their offsets stay uncommitted)",
                            len(self._buffer))
                return
            self.dead_letters.poll()
            if self._buffer and self._backoff.ready(now):
                try:
                    self._flush(list(self._buffer))
                except IndexModelMismatch:
                    return  # already raised once from poll/revoke; nothing more to do here
            if self._buffer or self.dead_letters.held:
                timers = ((self._backoff.not_before, bool(self._buffer)),
                          (self.dead_letters.backoff.not_before, bool(self.dead_letters.held)))
                waits = [t for t, busy in timers if busy and t > now]
                self.sleep(max(0.0, min(min(waits, default=now + 0.05), deadline) - now))

    def close(self) -> None:
        self.dlq.close()
        self.indexer.close()
        if self.episodes is not None:
            self.episodes.close()

    @property
    def buffered(self) -> int:
        """Records waiting (buffered or waiting to be dead-lettered)."""
        return sum(len(records) for records in self._buffer.values()) + self.dead_letters.held

    @property
    def buffered_memories(self) -> int:
        return len(self._buffer)

    # --- internals ----------------------------------------------------------------------------
    def _start(self) -> None:
        deadline = self.clock() + self.start_timeout_sec
        attempt = 0
        while True:
            try:
                self.indexer.start()
                if self.episodes is not None:
                    self.episodes.start()
                return
            except IndexModelMismatch:
                raise
            except (VectorStoreError, DBAPIError) as exc:
                attempt += 1
                delay = self.retry.delay(attempt)
                if self.clock() + delay > deadline:
                    raise
                log.warning("indexer start-up failed (attempt %d, retry in %.1fs): %s", attempt, delay, exc)
                self.sleep(delay)

    def _mark(self, record: Record, outcome: str) -> None:
        self.dead_letters.mark(record, outcome)

    def _forget(self, memory_id: int) -> None:
        self._buffer.pop(memory_id, None)
        self._since.pop(memory_id, None)
        self._origin_at.pop(memory_id, None)

    def _flush(self, memory_ids: list[int]) -> bool:
        """Sync ``memory_ids`` chunk by chunk; True when all their records are done."""
        for start in range(0, len(memory_ids), self.batch_size):
            if not self._sync(memory_ids[start:start + self.batch_size]):
                return False
        return True

    def _sync(self, memory_ids: list[int]) -> bool:
        started = self.clock()
        # one CONSUMER span per sync, continuing the first event's trace and linked to every event's
        records = [r for mid in memory_ids for r in self._buffer.get(mid, [])] if tracing.enabled() else []
        span = tracing.consume_span(f"{records[0].topic if records else 'memory.dirty'} process",
                                    contexts_of(records), {
                                        "messaging.system": "kafka", "messaging.operation.type": "process",
                                        "messaging.batch.message_count": len(records),
                                        "pai.memories": len(memory_ids)})
        try:
            with tracing.current(span):
                report = self._sync_ids(memory_ids)
        except IndexModelMismatch as exc:
            self._fatal = exc
            log.error("indexer stops: %s", exc)
            raise
        except IndexSyncFailed as exc:
            metrics.INDEX_SYNCED.labels("failed").inc(max(1, len(exc.failed_ids)))
            if self.on_failure is not None:
                self.on_failure(exc)
            attempts = self._backoff.attempts + 1
            if self.max_attempts is not None and attempts >= self.max_attempts:
                log.error("giving up on %d memories after %d attempts (left %s in PostgreSQL for the "
                          "sweeper): %s", len(memory_ids), attempts,
                          "FAILED" if exc.failed_ids else "unsynced", exc)
                self.given_up += len(memory_ids)
                self._backoff.reset()
                self._release(memory_ids, "given_up")
                return True
            delay = self._backoff.failed(self.retry, self.clock())
            consumer_metrics.CONSUMER_RETRIES.labels(self.group).inc()
            log.warning("indexing attempt %d failed, retry in %.1fs: %s", attempts, delay, exc)
            return False
        except Exception as exc:
            what = f"indexing {len(memory_ids)} memories"
            if self.errors.decide(exc, self._backoff.attempts + 1, what) is Action.RETRY:
                self._backoff.failed(self.retry, self.clock())
                return False
            self._backoff.reset()
            self._isolate(memory_ids, exc)
            return True
        self._backoff.reset()
        self._observe(report, self.clock() - started)
        self._release(memory_ids, "processed")
        if self.on_report is not None:
            self.on_report(report, self.clock() - started)
        return True

    def _sync_ids(self, ids: list[int]) -> SyncReport:
        """Sync the buffered ids: memories (positive) by the memory indexer, episodes (negative) by the
        episode indexer; an episode failure raises ``IndexSyncFailed`` like a memory one."""
        memories = [i for i in ids if i > 0]
        episodes = [-i for i in ids if i < 0]
        report = self.indexer.sync(memories) if memories else SyncReport()
        if episodes and self.episodes is not None:
            try:
                self._observe_episodes(self.episodes.sync(episodes))
            except EpisodeSyncFailed as exc:
                raise IndexSyncFailed(exc.stage, ids, [-i for i in exc.failed_ids], str(exc)) from exc
        return report

    def _observe_episodes(self, report: EpisodeSyncReport) -> None:
        for result in ("upserted", "skipped", "deleted", "erased"):
            ids: list[int] = getattr(report, result)
            if ids:
                metrics.EPISODE_INDEX_SYNCED.labels(result).inc(len(ids))
        now = datetime.now(UTC)
        for eid in (*report.upserted, *report.deleted):
            newest = self._origin_at.get(-eid)
            if newest is not None:
                metrics.EPISODE_FRESHNESS.observe(max(0.0, (now - newest[1]).total_seconds()))

    def _observe(self, report: SyncReport, seconds: float) -> None:
        for result in ("upserted", "refreshed", "skipped", "deleted", "erased", "superseded"):
            ids: list[int] = getattr(report, result)
            if ids:
                metrics.INDEX_SYNCED.labels(result).inc(len(ids))
        metrics.STAGE_DURATION.labels("index_sync").observe(seconds)
        if report.embed_calls:
            metrics.STAGE_DURATION.labels("index_embed").observe(report.embed_sec)
        metrics.STAGE_DURATION.labels("index_milvus").observe(report.milvus_sec)
        now = datetime.now(UTC)
        for mid in (*report.upserted, *report.deleted):
            newest = self._origin_at.get(mid)
            if newest is not None:
                metrics.FRESHNESS.observe(max(0.0, (now - newest[1]).total_seconds()))

    def _release(self, memory_ids: list[int], outcome: str) -> None:
        for mid in memory_ids:
            for record in self._buffer.get(mid, []):
                self._mark(record, outcome)
            self._forget(mid)

    def _isolate(self, memory_ids: list[int], exc: BaseException) -> None:
        """A batch failed for good: sync its memories one by one, dead-letter the records of those
        that still fail (the rows stay for the sweeper), release the others."""
        for mid in memory_ids:
            error: BaseException = exc
            if len(memory_ids) > 1:
                try:
                    report = self._sync_ids([mid])
                except IndexModelMismatch as mismatch:
                    self._fatal = mismatch
                    raise
                except Exception as single:
                    error = single
                else:
                    self._observe(report, 0.0)
                    self._release([mid], "processed")
                    continue
            log.error("memory %s cannot be indexed, dead-lettering its records: %s", mid, describe(error))
            for record in self._buffer.get(mid, []):
                self.dead_letters.dead_letter(record, error)
            self._forget(mid)
