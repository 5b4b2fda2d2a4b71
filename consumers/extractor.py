"""The extractor consumer group: chat-message events -> stored messages -> memory writes.

Per record (on the loop thread): parse (malformed -> dead-letter, done) -> store the message
(idempotent) -> if it needs extraction, add it to its conversation's open burst. A burst closes
when its conversation has been quiet for ``LONG_TERM_MEMORY_DEBOUNCE_SEC`` (or has waited
``max_wait_sec``) and is then extracted in a worker thread; its records are marked done only after
the extraction transaction committed.

Concurrency (key-level parallelism, as in Confluent's Parallel Consumer):
- bursts of different users run concurrently, at most ``max_in_flight``
  (``CONSUMER_EXTRACTOR_MAX_IN_FLIGHT``) at a time, each in a worker (daemon) thread; the loop thread never
  waits for one. ``MessageProcessor.process`` is safe to call from several threads (one
  SQLAlchemy session per call; the per-user advisory lock serialises one user's writes);
- bursts of one user run strictly one after another, oldest first (a user's bursts are queued in
  the order they were opened, i.e. offset order; an older burst is started early when a newer
  one of the same user is due), so a later statement always lands after an earlier one;
- workers hand their results back through a queue; ``poll`` (loop thread) takes them and calls
  ``done``: the ``done`` callback is only ever invoked on the loop thread;
- offsets: the loop's ``OffsetTracker`` commits only up to the lowest record not yet done in each
  partition, whatever order bursts complete in;
- backpressure: ``backpressure()`` is True once ``max_buffered`` records (open, waiting and
  running bursts, retry backlogs) are held, until they drop to half of it: the loop pauses the
  partitions meanwhile, so memory stays bounded.

Errors (``consumers.errors``, shared steps in ``consumers.steps``): a transient error retries the
burst (or the message store) with backoff, the user's later bursts waiting behind it; the core
bounds extraction attempts (``MEMORY_MESSAGE_MAX_ATTEMPTS``, then the messages are ``FAILED`` for
the sweeper and the records done); a permanent error (integrity/data errors, schema errors) or an
unexpected one after ``max_record_attempts`` dead-letters the records with the reason and marks
them done; a fatal one stops the process.

Rebalance: ``revoke`` waits up to ``revoke_timeout_sec`` for running bursts that hold records of
the revoked partitions, then abandons what is left of those partitions (not done: the next owner
receives the records again; stored messages and the per-user lock make re-processing idempotent).
Lost partitions are abandoned at once.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from consumers import metrics as consumer_metrics
from consumers.dlq import DeadLetterPublisher
from consumers.errors import describe
from consumers.policies import RetryPolicy
from consumers.runtime import DoneCallback, Record
from consumers.steps import Action, Backoff, RecordSteps
from core import metrics as core_metrics
from core import tracing
from core.memory.processing import IngestResult, MessageProcessor, PermanentProcessingError, ProcessOutcome
from core.memory.store import IncomingMessage
from producers.tracing import contexts_of
from schemas import parse_chat_message

log = logging.getLogger(__name__)

TopicPartitionKey = tuple[str, int]


@dataclass(eq=False)
class _Burst:
    user_pk: int
    conversation_pk: int
    first_seen: float
    last_seen: float
    items: list[tuple[Record, int]] = field(default_factory=list)  # (record, stored message id)
    backoff: Backoff = field(default_factory=Backoff)
    open: bool = True  # still collecting records of its conversation
    running: bool = False

    @property
    def records(self) -> list[Record]:
        return [r for r, _ in self.items]

    @property
    def message_pks(self) -> list[int]:
        return list(dict.fromkeys(pk for _, pk in self.items))


@dataclass(frozen=True)
class _Completion:
    burst: _Burst
    outcome: ProcessOutcome | None
    error: BaseException | None
    seconds: float


class ExtractorStrategy:
    """Processing strategy of the extractor group (see the module docstring and ``consumers.runtime``)."""

    def __init__(
        self,
        processor: MessageProcessor,
        dlq: DeadLetterPublisher,
        *,
        debounce_sec: float,
        group: str = "extractor",
        max_wait_sec: float | None = None,
        retry: RetryPolicy | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_outcome: Callable[[ProcessOutcome], None] | None = None,
        max_in_flight: int = 32,
        max_buffered: int = 2000,
        revoke_timeout_sec: float = 10.0,
        max_record_attempts: int = 3,
        dlq_max_attempts: int = 5,
    ) -> None:
        if max_in_flight < 1 or max_buffered < 1:
            raise ValueError("max_in_flight and max_buffered must be >= 1")
        self.processor = processor
        self.dlq = dlq
        self.group = group
        self.debounce_sec = debounce_sec
        self.max_wait_sec = max_wait_sec if max_wait_sec is not None else max(debounce_sec * 4, 30.0)
        self.retry = retry or RetryPolicy()
        self.clock = clock
        self.on_outcome = on_outcome
        self.max_in_flight = max_in_flight
        self.max_buffered = max_buffered
        self.revoke_timeout_sec = revoke_timeout_sec
        self.steps = RecordSteps(group, dlq, retry=self.retry, max_record_attempts=max_record_attempts,
                                 dlq_max_attempts=dlq_max_attempts, clock=clock)
        self._open: dict[int, _Burst] = {}  # conversation_pk -> its open burst
        self._users: dict[int, list[_Burst]] = {}  # user_pk -> bursts in the order they were opened
        self._running = 0
        self._completions: queue.SimpleQueue[_Completion] = queue.SimpleQueue()
        self._bound = False
        self._ingest_backlog: list[Record] = []
        self._to_ingest: list[Record] = []  # submitted this loop turn, stored together at the next poll
        self._ingest_backoff = Backoff()
        self._dlq_backlog: list[tuple[Record, str, str]] = []  # record, reason, error type
        self._dlq_backoff = Backoff()
        self._pressed = False
        self.max_running_seen = 0
        self.max_buffered_seen = 0  # observed at each poll (bounded by max_buffered + one poll batch)
        self.abandoned = 0  # records given up on revoke (redelivered to the next owner)

    # --- strategy contract --------------------------------------------------------------------
    def bind(self, done: DoneCallback) -> None:
        self.steps.bind(done)
        self._bound = True

    def submit(self, record: Record) -> None:
        self._to_ingest.append(record)  # the loop calls ``poll`` after each turn's records

    def poll(self) -> None:
        self._ingest_submitted()
        self._drain_completions()
        now = self.clock()
        if self._dlq_backlog and self._dlq_backoff.ready(now):
            self._drain_dlq()
        if self._ingest_backlog and self._ingest_backoff.ready(now):
            self._drain_ingest_backlog()
        self._dispatch(force=False)
        held = self.buffered
        self.max_buffered_seen = max(self.max_buffered_seen, held)
        consumer_metrics.CONSUMER_IN_FLIGHT.labels(self.group).set(self._running)
        consumer_metrics.CONSUMER_BUFFERED.labels(self.group).set(held)

    def backpressure(self) -> bool:
        held = self.buffered
        if held >= self.max_buffered:
            self._pressed = True
        elif self._pressed and held <= self.max_buffered // 2:
            self._pressed = False
        return self._pressed

    def revoke(self, partitions: list[TopicPartitionKey], lost: bool = False) -> None:
        revoked = set(partitions)
        self._ingest_submitted()
        self._ingest_backlog = [r for r in self._ingest_backlog if r.tp not in revoked]
        self._dlq_backlog = [item for item in self._dlq_backlog if item[0].tp not in revoked]
        if not lost:
            deadline = time.monotonic() + self.revoke_timeout_sec
            while any(b.running and any(r.tp in revoked for r in b.records) for b in self._all_bursts()):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                try:
                    self._handle(self._completions.get(timeout=min(remaining, 0.5)))
                except queue.Empty:
                    continue
        abandoned = 0
        for burst in self._all_bursts():
            kept = [(r, pk) for r, pk in burst.items if r.tp not in revoked]
            abandoned += len(burst.items) - len(kept)
            burst.items = kept
            if not kept and not burst.running:
                self._remove(burst)
        self.abandoned += abandoned
        if abandoned:
            log.warning("revoke: %d record(s) of %s abandoned uncommitted (the next owner redelivers them)",
                        abandoned, sorted(revoked))

    def join(self, timeout: float) -> None:
        """Extract everything held (debounce ignored, per-user order kept) until done or ``timeout``."""
        deadline = time.monotonic() + timeout
        self._ingest_submitted()
        while time.monotonic() < deadline:
            self._drain_completions()
            if self._dlq_backlog and self._dlq_backoff.ready(self.clock()):
                self._drain_dlq()
            if self._ingest_backlog and self._ingest_backoff.ready(self.clock()):
                self._drain_ingest_backlog()
            self._dispatch(force=True)
            if not (self._users or self._ingest_backlog or self._dlq_backlog):
                return
            with contextlib.suppress(queue.Empty):
                self._handle(self._completions.get(timeout=min(0.2, max(0.0, deadline - time.monotonic()))))
        log.warning("join: leaving %d record(s) unprocessed (their offsets stay uncommitted)", self.buffered)

    def close(self) -> None:
        """After ``join``: cancel the provider's waiting and retrying model calls, close the DLQ.

        Bursts still running are abandoned uncommitted; their calls end with ``ExtractionCancelled``
        (a request already on the wire ends by itself or at its per-request timeout).
        """
        self._bound = False  # running workers are daemon threads: they never hold the process open
        cancel = getattr(self.processor.extractor, "close", None)
        if callable(cancel):
            try:
                cancel()
            except Exception:  # shutdown goes on whatever the provider does
                log.exception("closing the extraction provider failed")
        self.dlq.close()

    @property
    def buffered(self) -> int:
        """Records held and not yet done (bursts open, waiting or running; retry backlogs)."""
        return (sum(len(b.items) for b in self._all_bursts()) + len(self._ingest_backlog)
                + len(self._dlq_backlog) + len(self._to_ingest))

    @property
    def in_flight(self) -> int:
        return self._running

    @property
    def dead_lettered(self) -> int:
        return self.steps.dead_lettered

    # --- ingest (loop thread) -----------------------------------------------------------------
    def _ingest_submitted(self) -> None:
        """Store the records submitted since the last call: one transaction for all of them
        (``MessageProcessor.ingest_many``); if that fails, one by one as before (retry backlog, DLQ),
        so one bad record costs the batch only its speed. Records of a partition with a backlog
        queue behind it (partition order)."""
        records, self._to_ingest = self._to_ingest, []
        batch: list[tuple[Record, IncomingMessage]] = []
        for record in records:
            if self._ingest_backlog and any(r.tp == record.tp for r in self._ingest_backlog):
                self._ingest_backlog.append(record)  # keep partition order behind a failed store
                continue
            msg = self._parse(record)
            if msg is not None:
                batch.append((record, msg))
        if not batch:
            return
        if len(batch) > 1:
            try:
                results = self.processor.ingest_many([msg for _, msg in batch])
            except Exception as exc:
                log.info("storing %d messages together failed, storing them one by one: %s",
                         len(batch), type(exc).__name__)
            else:
                for (record, msg), res in zip(batch, results, strict=True):
                    self._place(record, msg, res)
                return
        for record, msg in batch:
            if self._ingest_backlog and any(r.tp == record.tp for r in self._ingest_backlog):
                self._ingest_backlog.append(record)
            elif not self._store(record, msg):
                self._ingest_backlog.append(record)
                self._ingest_backoff.failed(self.retry, self.clock())

    def _ingest(self, record: Record) -> bool:
        """Store the record's message; False when it must be retried later (backlog)."""
        msg = self._parse(record)
        return True if msg is None else self._store(record, msg)

    def _parse(self, record: Record) -> IncomingMessage | None:
        """The record's message, or None after dead-lettering a record that never parses."""
        try:
            event = parse_chat_message(record.value or b"")
        except Exception as exc:  # SchemaError, or anything else parsing raises: this record never parses
            self._dead_letter(record, exc)
            return None
        data = event.data
        return IncomingMessage(
            message_id=data.message_id,
            user_id=data.user_id,
            conversation_id=data.conversation_id,
            role=data.role.value,
            content=data.content,
            created_at=data.created_at,
            conversation_summary=data.conversation_summary,
            source_topic=record.topic,
            source_partition=record.partition,
            source_offset=record.offset,
        )

    def _store(self, record: Record, msg: IncomingMessage) -> bool:
        """Store one message; False when it must be retried later (backlog)."""
        try:
            res = self.processor.ingest(msg)
        except Exception as exc:
            what = f"storing message {msg.message_id} ({record.topic}:{record.partition}@{record.offset})"
            if self.steps.decide(exc, self._ingest_backoff.attempts + 1, what) is Action.RETRY:
                return False
            self._dead_letter(record, exc, attempts=self._ingest_backoff.attempts + 1)
            return True
        self._place(record, msg, res)
        return True

    def _place(self, record: Record, msg: IncomingMessage, res: IngestResult) -> None:
        """Mark a stored record done (context, duplicate) or add it to its conversation's burst."""
        if res.conflict is not None:
            # a known id (this user) with other content: not a redelivery, never dropped silently
            core_metrics.MESSAGE_ID_CONFLICTS.labels(self.group).inc()
            log.warning("%s (%s:%s@%s)", res.conflict, record.topic, record.partition, record.offset)
            if not self.steps.dead_letter(record, res.conflict, error_type="MessageIdConflict"):
                self._dlq_backlog.append((record, res.conflict, "MessageIdConflict"))
                self._dlq_backoff.failed(self.retry, self.clock())
            return
        now = self.clock()
        burst = self._open.get(res.conversation_pk)
        if not res.needs_processing:
            if burst is not None:
                burst.last_seen = now
            self.steps.mark(record, "context" if msg.role != "user" else "duplicate")
            return
        if burst is None:
            burst = _Burst(res.user_pk, res.conversation_pk, now, now)
            self._open[res.conversation_pk] = burst
            self._users.setdefault(res.user_pk, []).append(burst)
        burst.last_seen = now
        burst.items.append((record, res.message_pk))

    def _drain_ingest_backlog(self) -> None:
        self._ingest_backoff.drain(self._ingest_backlog, self._ingest, self.retry, self.clock)

    def _dead_letter(self, record: Record, exc: BaseException, attempts: int = 1) -> None:
        if not self.steps.dead_letter(record, exc, attempts=attempts):
            self._dlq_backlog.append((record, describe(exc), type(exc).__name__))
            self._dlq_backoff.failed(self.retry, self.clock())

    def _drain_dlq(self) -> None:
        while self._dlq_backlog:
            record, reason, error_type = self._dlq_backlog[0]
            if not self.steps.dead_letter(record, reason, error_type=error_type):
                self._dlq_backoff.failed(self.retry, self.clock())
                return
            self._dlq_backlog.pop(0)
        self._dlq_backoff.reset()

    # --- bursts -------------------------------------------------------------------------------
    def _all_bursts(self) -> list[_Burst]:
        return [b for bursts in self._users.values() for b in bursts]

    def _due(self, burst: _Burst, now: float) -> bool:
        return now - burst.last_seen >= self.debounce_sec or now - burst.first_seen >= self.max_wait_sec

    def _dispatch(self, force: bool) -> None:
        """Start the head burst of every idle user whose head (or a later burst) is due."""
        if not self._bound or self._running >= self.max_in_flight:
            return
        now = self.clock()
        for bursts in list(self._users.values()):
            head = bursts[0]
            if head.running or not head.backoff.ready(now):
                continue
            if not (force or any(self._due(b, now) for b in bursts)):
                continue
            if not head.items:  # every record abandoned on revoke
                self._remove(head)
                continue
            self._start(head)
            if self._running >= self.max_in_flight:
                return

    def _start(self, burst: _Burst) -> None:
        if burst.open:
            burst.open = False
            if self._open.get(burst.conversation_pk) is burst:
                del self._open[burst.conversation_pk]
        burst.running = True
        self._running += 1
        self.max_running_seen = max(self.max_running_seen, self._running)
        # one daemon thread per running burst (at most max_in_flight): a model call that outlives
        # shutdown dies with the process; its transaction either committed or never happened
        threading.Thread(target=self._work, args=(burst, burst.message_pks), daemon=True,
                         name=f"extract-{burst.user_pk}").start()

    def _work(self, burst: _Burst, message_pks: list[int]) -> None:
        """Worker thread: extract one burst, hand the result back to the loop thread.

        Traced as one CONSUMER span continuing the first message's trace, linked to every message's
        (``core.tracing.consume_span``); a no-op span when tracing is off."""
        started = time.perf_counter()
        records = burst.records if tracing.enabled() else []
        span = tracing.consume_span(f"{records[0].topic if records else 'burst'} process",
                                    contexts_of(records),
                                    {"messaging.system": "kafka", "messaging.operation.type": "process",
                                     "messaging.batch.message_count": len(message_pks)})
        try:
            with tracing.current(span):
                outcome = self.processor.process(message_pks)
        except BaseException as exc:  # every failure goes back to the loop thread to be classified
            self._completions.put(_Completion(burst, None, exc, time.perf_counter() - started))
        else:
            self._completions.put(_Completion(burst, outcome, None, time.perf_counter() - started))

    def _drain_completions(self) -> None:
        while True:
            try:
                completion = self._completions.get_nowait()
            except queue.Empty:
                return
            self._handle(completion)

    def _handle(self, c: _Completion) -> None:
        """A burst came back from a worker (loop thread): mark done, retry or dead-letter."""
        burst = c.burst
        burst.running = False
        self._running -= 1
        if c.error is None:
            outcome = c.outcome or ProcessOutcome()
            result = "processed" if outcome.processed else "skipped" if outcome.skipped else "duplicate"
            log.info("conversation %s: %d message(s) %s, %d memory change(s) in %.0f ms [%s]",
                     burst.conversation_pk, len(c.burst.message_pks), result,
                     sum(w.changed for w in outcome.writes), c.seconds * 1000,
                     " ".join(f"{k}={v * 1000:.0f}ms" for k, v in outcome.stage_seconds.items()))
            if self.on_outcome is not None:
                self.on_outcome(outcome)
            self._finish(burst, result)
            return
        if isinstance(c.error, PermanentProcessingError):
            # attempts exhausted: the core marked the messages FAILED (the sweeper re-drives them)
            consumer_metrics.CONSUMER_ERRORS.labels(self.group, "permanent").inc()
            log.error("burst of conversation %s failed for good: %s", burst.conversation_pk, c.error)
            self._finish(burst, "failed")
            return
        what = f"burst of conversation {burst.conversation_pk}"
        action = self.steps.decide(c.error, burst.backoff.attempts + 1, what)
        if action is Action.RETRY:
            burst.backoff.failed(self.retry, self.clock())
            if not burst.items:
                self._remove(burst)
            return
        self._remove(burst)
        for record in burst.records:
            self._dead_letter(record, c.error, attempts=burst.backoff.attempts + 1)

    def _finish(self, burst: _Burst, outcome: str) -> None:
        self._remove(burst)
        for record in burst.records:
            self.steps.mark(record, outcome)

    def _remove(self, burst: _Burst) -> None:
        bursts = self._users.get(burst.user_pk)
        if bursts is not None and burst in bursts:
            bursts.remove(burst)
            if not bursts:
                del self._users[burst.user_pk]
        if self._open.get(burst.conversation_pk) is burst:
            del self._open[burst.conversation_pk]
