"""The ingest step without a broker or a database: a processor double, a mock sink as next step."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy.exc import OperationalError

from consumers.policies import RetryPolicy
from consumers.runtime import Record
from consumers.steps.dead_letter import DeadLetterStep
from consumers.steps.ingest import IngestStep
from consumers.steps.retry import ErrorPolicy
from core.memory.processing import IngestResult
from core.memory.store import IncomingMessage
from tests.consumers.steps.doubles import Clock, MemoryDlq, chat

RETRY = RetryPolicy(initial_sec=1.0, max_sec=4.0)


@dataclass
class FakeProcessor:
    """Stands in for ``MessageProcessor``'s store: ``fail`` holds message ids whose store raises
    (alone or in a batch) ``times[id]`` times; a ``conflict`` id comes back as a conflict."""

    fail: dict[str, int] = field(default_factory=dict)
    conflict: set[str] = field(default_factory=set)
    batches: list[list[str]] = field(default_factory=list)
    singles: list[str] = field(default_factory=list)

    def _result(self, msg: IncomingMessage) -> IngestResult:
        return IngestResult(message_pk=msg.source_offset or 0, user_pk=1,
                            conversation_pk=hash(msg.conversation_id),
                            created=True, needs_processing=msg.role == "user",
                            conflict="message id known with other content" if msg.message_id in self.conflict
                            else None)

    def _check(self, msgs: Sequence[IncomingMessage], count: bool) -> None:
        for m in msgs:
            if self.fail.get(m.message_id):
                if count:
                    self.fail[m.message_id] -= 1
                raise OperationalError("INSERT", {}, Exception("server closed the connection"))

    def ingest_many(self, msgs: Sequence[IncomingMessage]) -> list[IngestResult]:
        self.batches.append([m.message_id for m in msgs])
        self._check(msgs, count=False)
        return [self._result(m) for m in msgs]

    def ingest(self, msg: IncomingMessage) -> IngestResult:
        self.singles.append(msg.message_id)
        self._check([msg], count=True)
        return self._result(msg)


@dataclass
class MockSink:
    added: list[tuple[int, int]] = field(default_factory=list)  # (offset, message pk)
    touched: list[int] = field(default_factory=list)

    def add(self, record: Record, ingested: IngestResult) -> None:
        self.added.append((record.offset, ingested.message_pk))

    def touch(self, conversation_pk: int) -> None:
        self.touched.append(conversation_pk)


def build(processor: FakeProcessor, clock: Clock) -> tuple[IngestStep, MockSink, MemoryDlq, list[Record]]:
    dlq, sink, done = MemoryDlq(), MockSink(), []
    dead_letters = DeadLetterStep("extractor", dlq, retry=RETRY, clock=clock)  # type: ignore[arg-type]
    dead_letters.bind(done.append)
    step = IngestStep(processor, sink, dead_letters, ErrorPolicy("extractor"), retry=RETRY,  # type: ignore[arg-type]
                      clock=clock)
    return step, sink, dlq, done


def test_a_turns_records_are_stored_together_at_flush() -> None:
    processor = FakeProcessor()
    step, sink, _dlq, done = build(processor, Clock())
    for r in (chat(0), chat(1, role="assistant", content="Noted."), chat(2)):
        step.submit(r)
    assert step.held == 3 and processor.batches == []
    step.flush()
    assert processor.batches == [["m0", "m1", "m2"]] and processor.singles == []
    assert sink.added == [(0, 0), (2, 2)] and len(sink.touched) == 1
    assert [r.offset for r in done] == [1] and step.held == 0  # the context message is done


def test_a_record_that_never_parses_is_dead_lettered_and_the_rest_stored() -> None:
    processor = FakeProcessor()
    step, sink, dlq, _done = build(processor, Clock())
    step.submit(Record("chat", 0, 0, b"u1", b"not json", (), None))
    step.submit(chat(1))
    step.flush()
    assert [(r.offset, etype) for r, _, etype, _ in dlq.sent] == [(0, "InvalidEvent")]
    assert processor.batches == [] and processor.singles == ["m1"] and sink.added == [(1, 1)]


def test_a_failed_batch_is_stored_one_by_one_and_a_transient_failure_holds_its_partition() -> None:
    clock = Clock()
    processor = FakeProcessor(fail={"m1": 1})
    step, sink, dlq, _done = build(processor, clock)
    for r in (chat(0), chat(1), chat(2, partition=1), chat(3)):
        step.submit(r)
    step.flush()
    assert processor.batches == [["m0", "m1", "m2", "m3"]]
    assert processor.singles == ["m0", "m1", "m2"]  # m3 queued behind the failed m1 (same partition)
    assert sink.added == [(0, 0), (2, 2)] and step.held == 2
    step.submit(chat(4))  # a later record of the held partition waits behind it too
    step.flush()
    assert step.held == 3
    step.poll()  # backing off
    assert sink.added == [(0, 0), (2, 2)]
    clock.now += 1.0
    step.poll()
    assert sink.added == [(0, 0), (2, 2), (1, 1), (3, 3), (4, 4)] and step.held == 0 and dlq.sent == []


def test_a_known_id_with_other_content_is_dead_lettered() -> None:
    processor = FakeProcessor(conflict={"m0"})
    step, sink, dlq, done = build(processor, Clock())
    step.submit(chat(0))
    step.flush()
    assert [(reason, etype) for _, reason, etype, _ in dlq.sent] == [
        ("message id known with other content", "MessageIdConflict")]
    assert sink.added == [] and [r.offset for r in done] == [0]


def test_revoke_stores_what_was_queued_and_drops_the_revoked_backlog() -> None:
    processor = FakeProcessor(fail={"m0": 5})
    step, sink, _dlq, done = build(processor, Clock())
    step.submit(chat(0, partition=1))
    step.submit(chat(1, partition=0))
    step.revoke({("chat", 1)})
    assert sink.added == [(1, 1)] and step.held == 0 and done == []
