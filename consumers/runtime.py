"""A consumer-group loop with manual offset management around a processing strategy.

Contract between the loop and a ``ProcessingStrategy`` (modelled on Arroyo's):
- ``submit(record)`` hands over one record; the strategy must call the ``done`` callback it was
  bound with exactly once per record, and only after the record's effects are durable (or the
  record was dead-lettered). Offsets are committed only up to the lowest record not yet done;
- ``poll()`` is called on every loop turn for time-based work (debounce, retries);
- ``revoke(partitions, lost)`` is called from the rebalance callback before those partitions go to
  another member: the strategy must finish (within a bounded time) or abandon their in-flight work
  before returning; ``lost=True`` (the partitions already belong to another member): abandon at once.
  Abandoned records are simply not marked done: their offsets stay uncommitted and the next
  owner receives them again (effects are idempotent);
- ``backpressure()`` is True while the strategy holds as much work as it may: the loop then
  pauses every assigned partition (fetching stops, heartbeats and callbacks go on) and resumes
  them once it returns False, so memory stays bounded;
- ``join(timeout)`` finishes in-flight work on shutdown; ``close()`` releases resources.
All of these, and ``done``, run on the loop thread only (``done`` is not thread-safe; a strategy
with worker threads hands completions back to the loop thread, see ``consumers.extractor``).

Errors (``consumers.errors``): a strategy handles transient and permanent errors of its records
itself (``consumers.steps``). ``FatalConsumerError`` (raised by a strategy, or set by the loop on
a broker authentication/authorisation error reported by librdkafka) stops the loop: one log line,
no drain, the offsets of work already done are committed, the exception propagates
(``pai-memory run`` exits with code 4). Every offset commit is checked: a failed commit (async:
through ``on_commit``) is logged and counted (``pai_memory_offset_commit_failures_total``) and the
same offsets are committed again on the next interval.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import FrameType
from typing import Any, Protocol

from confluent_kafka import OFFSET_INVALID, Consumer, KafkaError, KafkaException, TopicPartition
from confluent_kafka.admin import AdminClient

from consumers import metrics as consumer_metrics
from consumers.errors import FatalConsumerError, kafka_error_is_fatal
from consumers.lag import record_librdkafka_stats
from consumers.liveness import AssignmentWatchdog, GroupUnreadable, partitions_without_owner
from consumers.offsets import OffsetTracker, TopicPartitionKey
from core.config import Settings
from producers.kafka_config import client_config

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Record:
    """A consumed Kafka record, detached from the client library."""

    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    headers: tuple[tuple[str, bytes], ...]
    timestamp_ms: int | None

    @property
    def tp(self) -> TopicPartitionKey:
        return (self.topic, self.partition)


DoneCallback = Callable[[Record], None]


class ProcessingStrategy(Protocol):
    """What a consumer group does with its records; the ``ConsumerLoop`` drives it (after Arroyo's
    ``ProcessingStrategy``). Every method is called on the loop thread only, never concurrently.

    Lifecycle: ``bind`` once, then any number of ``submit``/``poll``/``backpressure`` turns with
    ``revoke`` from rebalances in between, then ``join`` (skipped after a fatal error) and ``close``.
    """

    def bind(self, done: DoneCallback) -> None:
        """Receive the callback that marks a record done; called once, before the first ``submit``.

        ``done(record)`` must be called exactly once per submitted record, on the loop thread, and only
        once the record's effects are durable (or it was dead-lettered): offsets are committed up to
        the lowest record not yet done, so a record never marked done is consumed again later."""
        ...

    def submit(self, record: Record) -> None:
        """Take one record (in partition offset order). Must not block on slow work (a model call,
        a long retry): hold the record and do the work in ``poll`` or in workers. May raise
        ``FatalConsumerError`` to stop the group; any other error of a record is the strategy's to
        classify and handle (``consumers.steps``), never the loop's."""
        ...

    def poll(self) -> None:
        """Called on every loop turn (about every 0.2 s, records or not): time-based work such as
        debounce deadlines, due retries, and handing back completions of worker threads (calling
        ``done`` for them). Must return quickly; may raise ``FatalConsumerError``."""
        ...

    def revoke(self, partitions: list[TopicPartitionKey], lost: bool = False) -> None:
        """The partitions are leaving this member. Called from the rebalance callback, before the
        loop commits their done offsets and forgets them.

        ``lost=False`` (revoked, we still own them until this returns): finish their in-flight work
        within a bounded time (``CONSUMER_REVOKE_TIMEOUT_SEC``), calling ``done`` for what completed,
        and abandon the rest. ``lost=True`` (already owned by another member): abandon at once, commit
        nothing. Abandoning means dropping the records without ``done``; the next owner gets them
        again. Afterwards the strategy holds nothing of these partitions."""
        ...

    def backpressure(self) -> bool:
        """True while the strategy holds as much work as it may: the loop pauses every assigned
        partition (fetching stops, heartbeats and rebalances go on) and resumes them once this returns
        False. Called every turn; must be cheap."""
        ...

    def join(self, timeout: float) -> None:
        """Shutdown: finish in-flight work within ``timeout`` seconds, calling ``done`` for what
        completes, then return (what is left stays uncommitted). Not called after a fatal error."""
        ...

    def close(self) -> None:
        """Release resources (threads, producers, connections). Called exactly once, last, also
        after a fatal error; must not raise."""
        ...


@dataclass(frozen=True)
class CommitPolicy:
    """Commit completed offsets at most every ``interval_sec`` (and always on revoke/shutdown)."""

    interval_sec: float = 1.0


@dataclass(frozen=True)
class LoopHooks:
    """Optional observers (metrics) of the loop; each must be cheap and never raise."""

    on_stats: Callable[[str], None] | None = None
    on_rebalance: Callable[[str, int], None] | None = None  # (kind, partition count)
    on_records: Callable[[int], None] | None = None

    @classmethod
    def prometheus(cls, group: str) -> LoopHooks:
        """Hooks that export lag (librdkafka statistics) and rebalances to Prometheus."""

        def on_rebalance(kind: str, count: int) -> None:
            consumer_metrics.REBALANCES.labels(group, kind).inc()
            if kind == "assign":
                consumer_metrics.ASSIGNED_PARTITIONS.labels(group).inc(count)
            else:
                consumer_metrics.ASSIGNED_PARTITIONS.labels(group).dec(count)

        return cls(
            on_stats=lambda stats: record_librdkafka_stats(group, stats), on_rebalance=on_rebalance
        )


def _to_record(msg: Any) -> Record:
    ts_type, ts = msg.timestamp()
    return Record(
        topic=msg.topic(),
        partition=msg.partition(),
        offset=msg.offset(),
        key=msg.key(),
        value=msg.value(),
        headers=tuple(msg.headers() or ()),
        timestamp_ms=ts if ts_type else None,
    )


class ConsumerLoop:
    """Runs one group member until ``stop()`` (or SIGTERM/SIGINT when installed)."""

    def __init__(
        self,
        settings: Settings,
        group_id: str,
        topics: Iterable[str],
        strategy: ProcessingStrategy,
        *,
        batch_size: int = 100,
        commit_policy: CommitPolicy | None = None,
        hooks: LoopHooks | None = None,
        extra_config: dict[str, Any] | None = None,
        instance_id: str | None = None,
    ) -> None:
        self.settings = settings
        self.group_id = group_id
        self.topics = list(topics)
        self.strategy = strategy
        self.batch_size = batch_size
        self.commit_policy = commit_policy or CommitPolicy()
        self.hooks = hooks or LoopHooks.prometheus(group_id)
        self.extra_config = extra_config or {}
        self.instance_id = instance_id or settings.KAFKA_GROUP_INSTANCE_ID
        self.shutdown_timeout_sec = settings.CONSUMER_SHUTDOWN_TIMEOUT_SEC
        self.tracker = OffsetTracker()
        self._stop = threading.Event()
        self._consumer: Consumer | None = None
        self._assigned: set[TopicPartitionKey] = set()
        self._paused: set[TopicPartitionKey] = set()
        self._fatal: FatalConsumerError | None = None
        self._sync_commit = False
        self.commit_failures = 0
        self.pauses = 0  # times backpressure paused the assignment
        self.turns = 0  # loop turns (each one polls the broker): evidence the loop is not blocked
        self.rejoins = 0  # fresh clients after a member was found outside its group (consumers/liveness.py)
        self._watchdog = AssignmentWatchdog(settings.CONSUMER_REJOIN_AFTER_SEC)
        self._admin: AdminClient | None = None

    # --- lifecycle ----------------------------------------------------------------------------
    def stop(self) -> None:
        self._stop.set()

    def install_signal_handlers(self) -> None:
        def _handler(signum: int, frame: FrameType | None) -> None:
            log.info("signal %s: draining and stopping", signum)
            self.stop()

        signal.signal(signal.SIGTERM, _handler)
        signal.signal(signal.SIGINT, _handler)

    @property
    def assignment(self) -> set[TopicPartitionKey]:
        return set(self._assigned)

    @property
    def paused(self) -> set[TopicPartitionKey]:
        return set(self._paused)

    def _config(self) -> dict[str, Any]:
        conf = client_config(self.settings)
        conf.update(
            {
                "group.id": self.group_id,
                "enable.auto.commit": False,
                "enable.auto.offset.store": False,
                "auto.offset.reset": "earliest",
                "partition.assignment.strategy": "cooperative-sticky",
                "session.timeout.ms": 10000,
                "heartbeat.interval.ms": 1000,
                "max.poll.interval.ms": 300000,
                "statistics.interval.ms": 5000 if self.hooks.on_stats else 0,
                "on_commit": self._on_commit,
                "error_cb": self._on_error,
            }
        )
        if self.instance_id:
            conf["group.instance.id"] = self.instance_id
        if self.hooks.on_stats:
            conf["stats_cb"] = self.hooks.on_stats
        conf.update(self.extra_config)
        return conf

    def run(self) -> None:
        """Consume until stopped; drains, commits and closes on the way out.

        Raises ``FatalConsumerError`` (after committing what is done and closing) on a fatal error.
        """
        self.strategy.bind(self._done)
        consumer = self._join()
        last_commit = time.monotonic()
        fatal: FatalConsumerError | None = None
        try:
            while not self._stop.is_set():
                msgs = consumer.consume(self.batch_size, timeout=0.2)
                self.turns += 1
                consumer_metrics.CONSUMER_LAST_POLL.labels(self.group_id).set(time.time())
                if self._fatal is not None:
                    raise self._fatal
                good = 0
                for msg in msgs:
                    err = msg.error()
                    if err is not None:
                        if kafka_error_is_fatal(err):
                            raise FatalConsumerError(f"consumer error: {err.str()}")
                        if err.code() != KafkaError._PARTITION_EOF:
                            log.warning("consumer error: %s", err)
                        continue
                    rec = _to_record(msg)
                    self.tracker.started(rec.topic, rec.partition, rec.offset)
                    self.strategy.submit(rec)
                    good += 1
                if good and self.hooks.on_records:
                    self.hooks.on_records(good)
                self.strategy.poll()
                self._apply_backpressure(consumer)
                if time.monotonic() - last_commit >= self.commit_policy.interval_sec:
                    self._commit(asynchronous=True)
                    last_commit = time.monotonic()
                if self._watchdog.due(bool(self._assigned), time.monotonic()):
                    consumer = self._check_membership(consumer)
        except FatalConsumerError as exc:
            fatal = exc
            log.critical("consumer group %s stops: %s", self.group_id, exc)
            raise
        finally:
            try:
                if fatal is None:
                    self.strategy.join(timeout=self.shutdown_timeout_sec)
                self._commit(asynchronous=False)
            finally:
                self.strategy.close()
                if self._consumer is not None:
                    self._consumer.close()
                self._consumer = None

    # --- membership -----------------------------------------------------------------------------
    def _join(self) -> Consumer:
        """A fresh client, subscribed (the group join happens inside ``consume``)."""
        consumer = Consumer(self._config())
        self._consumer = consumer
        consumer.subscribe(
            self.topics, on_assign=self._on_assign, on_revoke=self._on_revoke, on_lost=self._on_lost
        )
        return consumer

    def _check_membership(self, consumer: Consumer) -> Consumer:
        """Called when the member has held nothing for ``CONSUMER_REJOIN_AFTER_SEC``: if some partition
        of its topics has no owner in the group, the client is replaced by a fresh one (a new join).
        A member idle by design (more members than partitions) or a group mid-rebalance is left alone;
        so is a broker that cannot answer now (checked again later)."""
        now = time.monotonic()
        self._watchdog.checked(now)
        try:
            if self._admin is None:
                self._admin = AdminClient(client_config(self.settings))
            partitions = [(t, p) for t in self.topics
                          for p in consumer.list_topics(t, timeout=5).topics[t].partitions]
            orphaned = partitions_without_owner(self._admin, self.group_id, partitions)
        except (GroupUnreadable, KafkaException, KeyError) as exc:
            log.info("membership check of %s skipped: %s", self.group_id, exc)
            return consumer
        if not orphaned:
            return consumer
        log.warning("group %s: no partition held for %.0fs while %d partition(s) have no owner: "
                    "rejoining with a fresh client", self.group_id, self._watchdog.after_sec, len(orphaned))
        self._consumer = None
        try:
            consumer.close()
        except (KafkaException, RuntimeError) as exc:
            log.warning("closing the stale client failed: %s", exc)
        self.rejoins += 1
        consumer_metrics.CONSUMER_REJOINS.labels(self.group_id).inc()
        self._watchdog.rejoined(time.monotonic())
        return self._join()

    # --- backpressure ---------------------------------------------------------------------------
    def _apply_backpressure(self, consumer: Consumer) -> None:
        """Pause every assigned partition while the strategy is full, resume when it is not."""
        if self.strategy.backpressure():
            todo = self._assigned - self._paused
            if todo:
                try:
                    consumer.pause([TopicPartition(t, p) for t, p in sorted(todo)])
                except KafkaException as exc:  # e.g. an assignment not yet applied: next turn
                    log.debug("pause failed (will retry): %s", exc)
                    return
                if not self._paused:
                    self.pauses += 1
                    log.info("backpressure: pausing %d partition(s)", len(todo))
                self._paused |= todo
        elif self._paused:
            todo = self._paused & self._assigned
            try:
                if todo:
                    consumer.resume([TopicPartition(t, p) for t, p in sorted(todo)])
            except KafkaException as exc:
                log.warning("resume failed (will retry): %s", exc)
                return
            log.info("backpressure over: resuming %d partition(s)", len(todo))
            self._paused.clear()
        consumer_metrics.PAUSED_PARTITIONS.labels(self.group_id).set(len(self._paused))

    # --- offsets ------------------------------------------------------------------------------
    def _done(self, record: Record) -> None:
        self.tracker.done(record.topic, record.partition, record.offset)

    def _commit(self, asynchronous: bool, only: set[TopicPartitionKey] | None = None) -> None:
        consumer = self._consumer
        if consumer is None:
            return
        offsets = {
            k: v
            for k, v in self.tracker.committable().items()
            if (only is None or k in only) and k in self._assigned
        }
        if not offsets:
            return
        tps = [TopicPartition(t, p, o) for (t, p), o in offsets.items()]
        if asynchronous:
            try:  # the result arrives in _on_commit
                consumer.commit(offsets=tps, asynchronous=True)
            except KafkaException as exc:
                self._commit_failed(f"{exc}")
            return
        self._sync_commit = True
        try:
            result = consumer.commit(offsets=tps, asynchronous=False)
        except KafkaException as exc:
            self._commit_failed(f"{exc}")
            return
        finally:
            self._sync_commit = False
        self._commit_result(None, list(result or []))

    def _on_commit(self, err: KafkaError | None, partitions: list[TopicPartition]) -> None:
        """librdkafka's commit result (async commits; served on the loop thread by consume)."""
        if self._sync_commit:
            return  # the synchronous caller checks its own result
        self._commit_result(err, partitions)

    def _commit_result(self, err: KafkaError | None, partitions: list[TopicPartition]) -> None:
        if err is not None and err.code() == KafkaError._NO_OFFSET:
            return
        failed = [tp for tp in partitions if tp.error is not None]
        if err is not None or failed:
            detail = err.str() if err is not None else "; ".join(
                f"{tp.topic}[{tp.partition}]@{tp.offset}: {tp.error}" for tp in failed)
            self._commit_failed(detail)
        ok = {(tp.topic, tp.partition): tp.offset for tp in partitions
              if tp.error is None and err is None and tp.offset >= 0}
        if ok:
            self.tracker.mark_committed(ok)

    def _commit_failed(self, detail: str) -> None:
        self.commit_failures += 1
        consumer_metrics.OFFSET_COMMIT_FAILURES.labels(self.group_id).inc()
        log.warning("offset commit failed (the same offsets are committed again later): %s", detail)

    def _on_error(self, err: KafkaError) -> None:
        """Client-level errors (librdkafka ``error_cb``): authentication/authorisation is fatal."""
        if kafka_error_is_fatal(err):
            if self._fatal is None:
                self._fatal = FatalConsumerError(f"Kafka client error {err.name()}: {err.str()}")
        elif err.code() != KafkaError._ALL_BROKERS_DOWN:
            log.warning("kafka client error: %s", err)

    # --- rebalance callbacks --------------------------------------------------------------------
    # librdkafka calls these from inside ``consume()``, on the loop thread (after aiokafka's
    # ``ConsumerRebalanceListener``). A revoke completes before the partitions are reassigned, so
    # whatever it commits is what the next owner starts from.
    def _on_assign(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        """New partitions: remember them (for pausing under backpressure) and count the rebalance.
        Nothing to seek: consumption starts at the group's committed offsets."""
        keys = [(tp.topic, tp.partition) for tp in partitions]
        self._assigned.update(keys)
        log.info("assigned %s", keys)
        if self.hooks.on_rebalance:
            self.hooks.on_rebalance("assign", len(keys))

    def _on_revoke(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        """Partitions leave in an orderly rebalance. In this order: the strategy finishes or abandons
        their in-flight work (``revoke``, bounded), then their done offsets are committed
        synchronously (so the next owner does not redo finished work), then their offset tracking,
        assignment and pause state are forgotten. Must not return before the commit."""
        keys = [(tp.topic, tp.partition) for tp in partitions]
        log.info("revoking %s", keys)
        self.strategy.revoke(keys)
        self._commit(asynchronous=False, only=set(keys))
        self.tracker.forget(keys)
        self._assigned.difference_update(keys)
        self._paused.difference_update(keys)
        if self.hooks.on_rebalance:
            self.hooks.on_rebalance("revoke", len(keys))

    def _on_lost(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        """Partitions already belong to another member (session timeout, fenced): abandon their
        in-flight work at once (``revoke(lost=True)``) and forget them WITHOUT committing: a commit
        now would fail or, worse, move the new owner's offsets."""
        keys = [(tp.topic, tp.partition) for tp in partitions]
        log.warning("partitions lost %s: abandoning their in-flight work", keys)
        self.strategy.revoke(keys, lost=True)
        self.tracker.forget(keys)
        self._assigned.difference_update(keys)
        self._paused.difference_update(keys)
        if self.hooks.on_rebalance:
            self.hooks.on_rebalance("lost", len(keys))


__all__ = ["OFFSET_INVALID", "CommitPolicy", "ConsumerLoop", "LoopHooks", "ProcessingStrategy", "Record"]
