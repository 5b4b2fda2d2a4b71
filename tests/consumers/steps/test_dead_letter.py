"""The dead-letter step without a broker (a publisher in memory): marks, dead letters, the backlog of
failed publishes, the fatal error after too many, and the dead-letter limit stopping the group."""

from __future__ import annotations

import pytest

from consumers.errors import FatalConsumerError
from consumers.policies import RetryPolicy
from consumers.runtime import Record
from consumers.steps.dead_letter import DeadLetterStep
from consumers.steps.dlq_limit import DlqLimit, DlqLimitExceeded
from tests.consumers.steps.doubles import Clock, MemoryDlq, record

RETRY = RetryPolicy(initial_sec=1.0, max_sec=4.0)


def step(dlq: MemoryDlq, clock: Clock, **kwargs: object) -> tuple[DeadLetterStep, list[Record]]:
    done: list[Record] = []
    s = DeadLetterStep("g", dlq, retry=RETRY, clock=clock, **kwargs)  # type: ignore[arg-type]
    s.bind(done.append)
    return s, done


def test_mark_needs_a_bound_loop() -> None:
    s = DeadLetterStep("g", MemoryDlq())  # type: ignore[arg-type]
    with pytest.raises(RuntimeError):
        s.mark(record(0), "processed")


def test_a_dead_letter_carries_the_reason_and_marks_the_record_done() -> None:
    dlq = MemoryDlq()
    s, done = step(dlq, Clock())
    s.dead_letter(record(0), ValueError("bad   value\nhere"), attempts=3)
    s.dead_letter(record(1), "a known id with other content", error_type="MessageIdConflict")
    assert [(r.offset, reason, etype, n) for r, reason, etype, n in dlq.sent] == [
        (0, "ValueError: bad value here", "ValueError", 3),
        (1, "a known id with other content", "MessageIdConflict", 1)]
    assert [r.offset for r in done] == [0, 1] and s.dead_lettered == 2 and s.held == 0


def test_a_failed_publish_waits_in_the_backlog_for_its_backoff() -> None:
    dlq, clock = MemoryDlq(fail=2), Clock()
    s, done = step(dlq, clock)
    s.dead_letter(record(0), ValueError("x"))
    s.dead_letter(record(1), ValueError("y"))
    assert done == [] and s.held == 2
    s.poll()  # still backing off
    assert done == []
    clock.now += 10
    s.poll()
    assert [r.offset for r in done] == [0, 1] and s.held == 0
    assert [(r.offset, n) for r, _, _, n in dlq.sent] == [(0, 1), (1, 1)]


def test_without_delay_the_backlog_is_published_again_at_the_next_poll() -> None:
    dlq, clock = MemoryDlq(fail=1), Clock()
    s, done = step(dlq, clock)
    s.dead_letter(record(0), "unparsable", error_type="SchemaError", delay=False)
    s.poll()
    assert [r.offset for r in done] == [0]


def test_revoke_drops_the_backlogs_records_of_revoked_partitions() -> None:
    dlq, clock = MemoryDlq(fail=2), Clock()
    s, done = step(dlq, clock)
    s.dead_letter(record(0, partition=0), "a")
    s.dead_letter(record(1, partition=1), "b")
    s.revoke({("chat", 1)})
    clock.now += 10
    s.poll()
    assert [(r.partition, r.offset) for r in done] == [(0, 0)] and s.held == 0


def test_a_group_that_cannot_dead_letter_stops() -> None:
    dlq = MemoryDlq(fail=10)
    s, done = step(dlq, Clock(), dlq_max_attempts=3)
    assert not s.try_send(record(0), "a") and not s.try_send(record(0), "a")
    with pytest.raises(FatalConsumerError, match=r"cannot dead-letter to chat.dlq \(3 attempts\)"):
        s.try_send(record(0), "a")
    assert done == []


def test_the_share_limit_stops_the_group_and_says_why() -> None:
    limit = DlqLimit(max_share=0.5, window=10, min_records=10, max_consecutive=0)
    s, done = step(MemoryDlq(), Clock(), limit=limit)
    for i in range(5):
        s.mark(record(2 * i), "processed")
        s.dead_letter(record(2 * i + 1), "bad")
    with pytest.raises(DlqLimitExceeded) as raised:
        s.dead_letter(record(10), "bad")
    assert str(raised.value) == (
        "dead-letter limit of group g passed: 6 of the last 10 records dead-lettered (share 0.60 > "
        "limit 0.5) to chat.dlq; stopping instead of dead-lettering every record")
    assert len(done) == 11  # the record that passed the limit was dead-lettered and is done


def test_a_run_of_dead_letters_stops_the_group() -> None:
    limit = DlqLimit(max_share=1.0, window=10, min_records=1, max_consecutive=4)
    s, _done = step(MemoryDlq(), Clock(), limit=limit)
    for i in range(3):
        s.dead_letter(record(i), "bad")
    s.mark(record(3), "duplicate")
    for i in range(4, 7):
        s.dead_letter(record(i), "bad")
    with pytest.raises(DlqLimitExceeded, match=r"4 records in a row dead-lettered \(limit 4\) to chat.dlq"):
        s.dead_letter(record(7), "bad")


def test_the_default_limit_lets_a_few_poison_records_through() -> None:
    s, done = step(MemoryDlq(), Clock())
    for i in range(2000):
        if i % 2 == 0:
            s.dead_letter(record(i), "bad")
        else:
            s.mark(record(i), "processed")
    assert len(done) == 2000 and s.dead_lettered == 1000
