"""The extractor composed of its steps, without a broker or a database (TEST DOUBLES for the processor
and the dead-letter publisher): revoke and join on the injected clock, the dead-letter limit, the
``max.poll.interval.ms`` it relies on."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

import pytest

from consumers.extractor import ExtractorStrategy, max_poll_interval_ms
from consumers.runtime import Record
from consumers.steps.dlq_limit import DlqLimit, DlqLimitExceeded
from core.memory.processing import IngestResult, ProcessOutcome
from core.memory.store import IncomingMessage
from tests.consumers.steps.doubles import Clock, MemoryDlq, chat


@dataclass
class BlockingProcessor:
    """Stores every message (one conversation per message id); ``process`` waits for ``release``."""

    release: threading.Event = field(default_factory=threading.Event)
    started: threading.Event = field(default_factory=threading.Event)
    extractor: object = None
    kept_alive: list[list[int]] = field(default_factory=list)
    in_model: int = 0  # bursts inside their model slot now
    max_in_model: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ingest(self, msg: IncomingMessage) -> IngestResult:
        offset = msg.source_offset or 0
        return IngestResult(message_pk=offset, user_pk=offset, conversation_pk=offset, created=True,
                            needs_processing=True)

    def ingest_many(self, msgs: Sequence[IncomingMessage]) -> list[IngestResult]:
        return [self.ingest(m) for m in msgs]

    def process(self, message_pks: list[int],
                model_slot: AbstractContextManager[object] | None = None) -> ProcessOutcome:
        with model_slot or nullcontext():  # the "model stage", as MessageProcessor holds the slot
            with self.lock:
                self.in_model += 1
                self.max_in_model = max(self.max_in_model, self.in_model)
            self.started.set()
            self.release.wait(10)
            with self.lock:
                self.in_model -= 1
        return ProcessOutcome(processed=list(message_pks))

    def keep_alive(self, message_pks: Sequence[int]) -> int:
        self.kept_alive.append(sorted(message_pks))
        return len(message_pks)


class JumpingClock(Clock):
    """A manual clock that moves ``step`` seconds at each reading."""

    def __init__(self, step: float) -> None:
        super().__init__()
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def strategy(processor: BlockingProcessor, clock: Clock,
             **kwargs: object) -> tuple[ExtractorStrategy, list[Record]]:
    s = ExtractorStrategy(processor, MemoryDlq(), debounce_sec=0.0, clock=clock, **kwargs)  # type: ignore[arg-type]
    done: list[Record] = []
    s.bind(done.append)
    return s, done


def test_revoke_waits_on_the_injected_clock() -> None:
    processor = BlockingProcessor()
    s, done = strategy(processor, JumpingClock(step=4.0), revoke_timeout_sec=10.0)
    try:
        s.submit(chat(0))
        s.poll()
        assert processor.started.wait(5) and s.in_flight == 1
        s.revoke([("chat", 0)])  # three readings of 4 s pass the 10 s deadline without a real wait
        assert s.abandoned == 1 and done == [] and s.buffered == 0
        processor.release.set()
    finally:
        s.close()


def test_revoke_collects_a_burst_that_finishes_within_the_timeout() -> None:
    processor = BlockingProcessor()
    processor.release.set()
    s, done = strategy(processor, Clock(), revoke_timeout_sec=10.0)
    try:
        s.submit(chat(0))
        s.poll()
        s.revoke([("chat", 0)])
        assert [r.offset for r in done] == [0] and s.abandoned == 0 and s.in_flight == 0
    finally:
        s.close()


def test_join_gives_up_at_the_injected_deadline() -> None:
    processor = BlockingProcessor()
    s, done = strategy(processor, JumpingClock(step=1.0))
    try:
        s.submit(chat(0))
        s.join(timeout=3.0)
        assert done == [] and s.buffered == 1
        processor.release.set()
    finally:
        s.close()


def test_the_in_flight_cap_pushes_back_and_the_next_burst_starts_later() -> None:
    processor = BlockingProcessor()
    s, done = strategy(processor, Clock(), max_in_flight=1, prefetch=0)
    try:
        for offset in range(3):
            s.submit(chat(offset, message_id=f"m{offset}"))
        s.poll()
        assert s.in_flight == 1 and s.buffered == 3
        processor.release.set()
        for _ in range(200):
            s.poll()
            if len(done) == 3:
                break
            threading.Event().wait(0.02)
        assert sorted(r.offset for r in done) == [0, 1, 2] and s.max_running_seen == 1
    finally:
        s.close()


def _poll_until(s: ExtractorStrategy, done: list[Record], count: int) -> None:
    """Poll the strategy (as the loop would) until ``count`` records are done, for at most ~4 s."""
    for _ in range(200):
        s.poll()
        if len(done) == count:
            return
        threading.Event().wait(0.02)


def test_prefetched_bursts_wait_for_a_model_slot_and_take_it_when_one_frees() -> None:
    """``max_in_flight`` bounds the bursts in their model stage; ``prefetch`` more are started (they read
    and commit outside a slot) and wait for one, so a slot never waits for the loop's next turn."""
    processor = BlockingProcessor()
    s, done = strategy(processor, Clock(), max_in_flight=2, prefetch=1)
    try:
        for offset in range(5):
            s.submit(chat(offset, message_id=f"m{offset}"))
        s.poll()
        assert s.in_flight == 3 and s.buffered == 5  # two in their slot, one waiting for a slot
        assert processor.started.wait(5)
        threading.Event().wait(0.1)
        assert processor.in_model == 2
        processor.release.set()
        _poll_until(s, done, 5)
        assert sorted(r.offset for r in done) == [0, 1, 2, 3, 4]
        assert processor.max_in_model == 2 and s.max_running_seen == 3
    finally:
        s.close()


def test_a_cpu_bound_provider_runs_only_its_model_slots_at_once_while_the_others_wait() -> None:
    """``model_slots`` (an in-process provider's ``CONSUMER_EXTRACTOR_CPU_SLOTS``) bounds the bursts in their
    extraction stage below the pool's workers: the rest are started and wait for a slot."""
    processor = BlockingProcessor()
    s, done = strategy(processor, Clock(), max_in_flight=8, prefetch=0, model_slots=2)
    try:
        for offset in range(6):
            s.submit(chat(offset, message_id=f"m{offset}"))
        s.poll()
        assert s.in_flight == 6
        assert processor.started.wait(5)
        threading.Event().wait(0.1)
        assert processor.in_model == 2
        processor.release.set()
        _poll_until(s, done, 6)
        assert sorted(r.offset for r in done) == list(range(6))
        assert processor.max_in_model == 2
    finally:
        s.close()


def test_model_slots_cannot_exceed_the_workers() -> None:
    with pytest.raises(ValueError, match="model_slots"):
        ExtractorStrategy(BlockingProcessor(), MemoryDlq(), debounce_sec=0.0,  # type: ignore[arg-type]
                          max_in_flight=2, model_slots=3)


def test_a_bad_deploy_stops_the_extractor_instead_of_dead_lettering_everything() -> None:
    s, _done = strategy(BlockingProcessor(), Clock(),
                       dlq_limit=DlqLimit(max_share=0.5, window=100, min_records=10, max_consecutive=20))
    for offset in range(9):
        s.submit(Record("chat", 0, offset, b"u", b"{broken", (), None))
    s.poll()
    assert s.dead_lettered == 9
    s.submit(Record("chat", 0, 9, b"u", b"{broken", (), None))
    with pytest.raises(DlqLimitExceeded, match=r"10 of the last 10 records dead-lettered \(share 1.00 > "
                                               r"limit 0.5\) to chat.dlq"):
        s.poll()
    s.close()


def test_the_poll_interval_covers_a_revoke_and_a_dead_letter_publish() -> None:
    assert max_poll_interval_ms(10, 30) == 300_000  # librdkafka's default is the floor
    assert max_poll_interval_ms(600, 30) == 690_000


def test_the_messages_held_are_kept_alive_and_those_done_are_not() -> None:
    """Running or waiting behind its user's running burst, a held message's ``updated_at`` is refreshed
    once it is an interval old, so the sweeper does not re-drive it to this extractor; once done it is
    no longer refreshed."""
    processor, clock = BlockingProcessor(), Clock()
    s, done = strategy(processor, clock, keep_alive_sec=3.0)
    try:
        s.submit(chat(0))
        s.poll()
        assert processor.started.wait(5)  # message 0 running, the worker blocked
        clock.now += 3.5
        s.poll()
        assert processor.kept_alive == [[0]]
        processor.release.set()
        for _ in range(200):  # the completion is taken at a poll
            s.poll()
            if done:
                break
            threading.Event().wait(0.02)
        assert [r.offset for r in done] == [0]
        clock.now += 10
        s.poll()
        assert processor.kept_alive == [[0]]  # done: no longer held, no longer refreshed
    finally:
        s.close()
