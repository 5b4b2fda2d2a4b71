"""The extractor consumer group: chat-message events -> stored messages -> memory writes.

The strategy composes the steps of ``consumers.steps``, each with its own contract and tests:

    submit -> IngestStep (parse, store in batches) -> BurstScheduler (debounce, per-user order)
           -> BoundedPool (extract in worker threads) -> completions -> DeadLetterStep (done / DLQ)

Per record (on the loop thread): parse (malformed -> dead-letter, done) -> store the message
(idempotent) -> if it needs extraction, add it to its conversation's open burst. A burst closes
when its conversation has been quiet for ``LONG_TERM_MEMORY_DEBOUNCE_SEC`` (or has waited
``max_wait_sec``) and is then extracted in a worker thread; its records are marked done only after
the extraction transaction committed.
Meanwhile the ``KeepAlive`` step refreshes the ``updated_at`` of each stored message it holds once it is
a third of the sweeper's re-drive grace old, so a backlog is not re-driven to the extractor holding it.

Concurrency (key-level parallelism, as in Confluent's Parallel Consumer):
- bursts of different users run concurrently, at most ``max_in_flight``
  (``CONSUMER_EXTRACTOR_MAX_IN_FLIGHT``) of them in their model stage at a time (a semaphore of model slots
  that ``MessageProcessor.process`` holds around the model calls only), in a pool of ``max_in_flight`` +
  ``prefetch`` worker (daemon) threads that pushes back (``PoolFull``) when full; the loop thread never
  waits for one. The ``prefetch`` extra bursts read their input and commit their effects while the
  others wait for the model, so a model slot is taken again the moment a call returns instead of after
  the burst's commit and the loop's next turn (default ``max_in_flight // 4``, at least 1). An in-process
  provider (``rules``, ``core.extraction.candidates.is_cpu_bound``) gets ``model_slots``
  (``CONSUMER_EXTRACTOR_CPU_SLOTS``) instead: its bursts compute rather than wait, so more of them at once
  only share the cores, stretch each toward its budget and, past it, fail bursts that a backlog (a
  replay, a restart) would otherwise have extracted;
  ``MessageProcessor.process`` is safe to call from several threads (one SQLAlchemy session per call;
  the per-user advisory lock serialises one user's writes);
- bursts of one user run strictly one after another, oldest first (a user's bursts are queued in
  the order they were opened, i.e. offset order; an older burst is started early when a newer
  one of the same user is due), so a later statement always lands after an earlier one;
- workers hand their results back through the pool's completions; ``poll`` (loop thread) takes them
  and calls ``done``: the ``done`` callback is only ever invoked on the loop thread;
- offsets: the loop's ``OffsetTracker`` commits only up to the lowest record not yet done in each
  partition, whatever order bursts complete in;
- backpressure: ``backpressure()`` is True once ``max_buffered`` records (open, waiting and
  running bursts, retry backlogs) are held, until they drop to half of it: the loop pauses the
  partitions meanwhile, so memory stays bounded.

Errors (``consumers.errors``, decided by ``consumers.steps.retry``): a transient error retries the
burst (or the message store) with backoff, the user's later bursts waiting behind it; the core
bounds extraction attempts (``MEMORY_MESSAGE_MAX_ATTEMPTS``, then the messages are ``FAILED`` for
the sweeper and the records done); a permanent error (integrity/data errors, schema errors) or an
unexpected one after ``max_record_attempts`` dead-letters the records with the reason and marks
them done; a fatal one stops the process, and so does passing the dead-letter limit
(``consumers.steps.dlq_limit``).

Rebalance: ``revoke`` waits up to ``revoke_timeout_sec`` (on the injected clock) for running bursts
that hold records of the revoked partitions, then abandons what is left of those partitions (not
done: the next owner receives the records again; stored messages and the per-user lock make
re-processing idempotent). Lost partitions are abandoned at once. ``max_poll_interval_ms`` is the
``max.poll.interval.ms`` this allows.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from consumers import metrics as consumer_metrics
from consumers.dlq import DeadLetterPublisher
from consumers.offsets import TopicPartitionKey
from consumers.policies import RetryPolicy
from consumers.runtime import DoneCallback, Record
from consumers.steps.bursts import Burst, BurstScheduler
from consumers.steps.dead_letter import DeadLetterStep
from consumers.steps.dlq_limit import DlqLimit
from consumers.steps.ingest import IngestStep
from consumers.steps.keep_alive import KeepAlive
from consumers.steps.pool import BoundedPool, Completion
from consumers.steps.retry import Action, ErrorPolicy
from core import tracing
from core.memory.processing import MessageProcessor, PermanentProcessingError, ProcessOutcome
from producers.tracing import contexts_of

log = logging.getLogger(__name__)


def max_poll_interval_ms(revoke_timeout_sec: float, dlq_timeout_sec: float) -> int:
    """The extractor's ``max.poll.interval.ms``: extraction runs in worker threads, so the loop polls
    every 0.2 s whatever the model does; the interval only has to cover a revoke's wait for in-flight
    bursts and a dead-letter publish (at least librdkafka's default, 300 s)."""
    return int(max(300.0, revoke_timeout_sec + dlq_timeout_sec + 60) * 1000)


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
        dlq_limit: DlqLimit | None = None,
        keep_alive_sec: float | None = None,
        prefetch: int | None = None,
        model_slots: int | None = None,
    ) -> None:
        if max_in_flight < 1 or max_buffered < 1:
            raise ValueError("max_in_flight and max_buffered must be >= 1")
        if model_slots is not None and not 1 <= model_slots <= max_in_flight:
            raise ValueError("model_slots must be between 1 and max_in_flight")
        if prefetch is None:
            prefetch = max(1, max_in_flight // 4)
        if prefetch < 0:
            raise ValueError("prefetch must be >= 0")
        self.processor = processor
        self.dlq = dlq
        self.group = group
        self.retry = retry or RetryPolicy()
        self.clock = clock
        self.on_outcome = on_outcome
        self.max_buffered = max_buffered
        self.revoke_timeout_sec = revoke_timeout_sec
        self.errors = ErrorPolicy(group, max_record_attempts=max_record_attempts)
        self.dead_letters = DeadLetterStep(group, dlq, retry=self.retry, dlq_max_attempts=dlq_max_attempts,
                                           limit=dlq_limit, clock=clock)
        # bursts in their model stage; fewer than the pool's workers for an in-process (CPU-bound) provider
        self.model_slots = threading.BoundedSemaphore(model_slots or max_in_flight)
        self.pool: BoundedPool[Burst, ProcessOutcome] = BoundedPool(self._extract, max_in_flight + prefetch,
                                                                   name="extract")
        self.bursts = BurstScheduler(self.pool, debounce_sec=debounce_sec, clock=clock, max_wait_sec=(
            max_wait_sec if max_wait_sec is not None else max(debounce_sec * 4, 30.0)))
        self.ingest = IngestStep(processor, self.bursts, self.dead_letters, self.errors, retry=self.retry,
                                 clock=clock)
        self.keep_alive = KeepAlive(lambda pks: processor.keep_alive(pks), keep_alive_sec, clock=clock)
        self._bound = False
        self._pressed = False
        self.max_buffered_seen = 0  # observed at each poll (bounded by max_buffered + one poll batch)
        self.abandoned = 0  # records given up on revoke (redelivered to the next owner)

    # --- strategy contract --------------------------------------------------------------------
    def bind(self, done: DoneCallback) -> None:
        self.dead_letters.bind(done)
        self._bound = True

    def submit(self, record: Record) -> None:
        self.ingest.submit(record)  # the loop calls ``poll`` after each turn's records

    def poll(self) -> None:
        self.ingest.flush()
        self._take_completions()
        self.dead_letters.poll()
        self.ingest.poll()
        self._dispatch(force=False)
        if self.keep_alive.due:  # listing every held message each turn costs more than the refresh itself
            self.keep_alive.poll([(pk, b.first_seen) for b in self.bursts.bursts() for pk in b.message_pks])
        held = self.buffered
        self.max_buffered_seen = max(self.max_buffered_seen, held)
        consumer_metrics.CONSUMER_IN_FLIGHT.labels(self.group).set(self.pool.in_flight)
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
        self.ingest.revoke(revoked)
        self.dead_letters.revoke(revoked)
        if not lost:
            deadline = self.clock() + self.revoke_timeout_sec
            while self.bursts.running_in(revoked):
                remaining = deadline - self.clock()
                if remaining <= 0:
                    break
                completion = self.pool.wait(min(remaining, 0.5))
                if completion is not None:
                    self._handle(completion)
        abandoned = self.bursts.revoke(revoked)
        self.abandoned += abandoned
        if abandoned:
            log.warning("revoke: %d record(s) of %s abandoned uncommitted (the next owner redelivers them)",
                        abandoned, sorted(revoked))

    def join(self, timeout: float) -> None:
        """Extract everything held (debounce ignored, per-user order kept) until done or ``timeout``."""
        deadline = self.clock() + timeout
        self.ingest.flush()
        while self.clock() < deadline:
            self._take_completions()
            self.dead_letters.poll()
            self.ingest.poll()
            self._dispatch(force=True)
            if not (self.bursts or self.ingest.held or self.dead_letters.held):
                return
            completion = self.pool.wait(min(0.2, max(0.0, deadline - self.clock())))
            if completion is not None:
                self._handle(completion)
        log.warning("join: leaving %d record(s) unprocessed (their offsets stay uncommitted)", self.buffered)

    def close(self) -> None:
        """After ``join``: cancel the provider's waiting and retrying model calls, close the DLQ.

        Bursts still running are abandoned uncommitted; their calls end with ``ExtractionCancelled``
        (a request already on the wire ends by itself or at its per-request timeout).
        """
        self._bound = False  # running workers are daemon threads: they never hold the process open
        self.pool.close()
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
        return self.bursts.held + self.ingest.held + self.dead_letters.held

    @property
    def in_flight(self) -> int:
        return self.pool.in_flight

    @property
    def max_running_seen(self) -> int:
        return self.pool.max_in_flight_seen

    @property
    def dead_lettered(self) -> int:
        return self.dead_letters.dead_lettered

    # --- bursts -------------------------------------------------------------------------------
    def _dispatch(self, force: bool) -> None:
        if self._bound:
            self.bursts.dispatch(force)

    def _extract(self, burst: Burst) -> ProcessOutcome:
        """Worker thread: extract one burst (its ``job``).

        Traced as one CONSUMER span continuing the first message's trace, linked to every message's
        (``core.tracing.consume_span``); a no-op span when tracing is off."""
        records = burst.records if tracing.enabled() else []
        span = tracing.consume_span(f"{records[0].topic if records else 'burst'} process",
                                    contexts_of(records),
                                    {"messaging.system": "kafka", "messaging.operation.type": "process",
                                     "messaging.batch.message_count": len(burst.job)})
        with tracing.current(span):
            return self.processor.process(burst.job, self.model_slots)

    def _take_completions(self) -> None:
        for completion in self.pool.completed():
            self._handle(completion)

    def _handle(self, c: Completion[Burst, ProcessOutcome]) -> None:
        """A burst came back from a worker (loop thread): mark done, retry or dead-letter."""
        burst = c.task
        burst.running = False
        if c.error is None:
            outcome = c.result or ProcessOutcome()
            result = "processed" if outcome.processed else "skipped" if outcome.skipped else "duplicate"
            log.info("conversation %s: %d message(s) %s, %d memory change(s) in %.0f ms [%s]",
                     burst.conversation_pk, len(burst.message_pks), result,
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
        action = self.errors.decide(c.error, burst.backoff.attempts + 1, what)
        if action is Action.RETRY:
            burst.backoff.failed(self.retry, self.clock())
            if not burst.items:
                self.bursts.remove(burst)
            return
        self.bursts.remove(burst)
        for record in burst.records:
            self.dead_letters.dead_letter(record, c.error, attempts=burst.backoff.attempts + 1)

    def _finish(self, burst: Burst, outcome: str) -> None:
        self.bursts.remove(burst)
        for record in burst.records:
            self.dead_letters.mark(record, outcome)
