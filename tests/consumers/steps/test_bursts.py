"""The debounce and per-user order step without a broker, with a mock runner as the next step."""

from __future__ import annotations

from dataclasses import dataclass, field

from consumers.policies import RetryPolicy
from consumers.steps.bursts import Burst, BurstScheduler
from consumers.steps.pool import PoolFull
from core.memory.processing import IngestResult
from tests.consumers.steps.doubles import Clock, record


@dataclass
class MockRunner:
    """The next step: takes bursts until ``capacity`` are running, then rejects (``PoolFull``)."""

    capacity: int = 10
    started: list[Burst] = field(default_factory=list)

    @property
    def full(self) -> bool:
        return sum(b.running for b in self.started) >= self.capacity

    def submit(self, task: Burst) -> None:
        if len([b for b in self.started if b.running or b is task]) >= self.capacity:
            raise PoolFull
        self.started.append(task)


def stored(user: int, conversation: int, message: int) -> IngestResult:
    return IngestResult(message_pk=message, user_pk=user, conversation_pk=conversation, created=True,
                        needs_processing=True)


def scheduler(runner: MockRunner, clock: Clock, debounce: float = 1.0,
              max_wait: float = 30.0) -> BurstScheduler:
    return BurstScheduler(runner, debounce_sec=debounce, max_wait_sec=max_wait, clock=clock)


def test_a_burst_waits_for_its_conversation_to_be_quiet() -> None:
    clock, runner = Clock(), MockRunner()
    s = scheduler(runner, clock, debounce=1.0)
    s.add(record(0), stored(1, 10, 100))
    clock.now += 0.6
    s.add(record(1), stored(1, 10, 101))
    clock.now += 0.6
    s.dispatch()
    assert runner.started == []  # quiet for 0.6 s only
    s.touch(10)  # a context message keeps it waiting
    clock.now += 0.9
    s.dispatch()
    assert runner.started == []
    clock.now += 0.1
    s.dispatch()
    (burst,) = runner.started
    assert burst.job == [100, 101] and burst.running and not burst.open and s.held == 2


def test_max_wait_starts_a_burst_that_never_goes_quiet() -> None:
    clock, runner = Clock(), MockRunner()
    s = scheduler(runner, clock, debounce=1.0, max_wait=3.0)
    for i in range(7):
        s.add(record(i), stored(1, 10, 100 + i))
        s.dispatch()
        clock.now += 0.5
    assert len(runner.started) == 1 and runner.started[0].job == [100, 101, 102, 103, 104, 105, 106]


def test_force_ignores_the_debounce() -> None:
    clock, runner = Clock(), MockRunner()
    s = scheduler(runner, clock)
    s.add(record(0), stored(1, 10, 100))
    s.dispatch(force=True)
    assert len(runner.started) == 1


def test_one_users_bursts_run_one_after_another_in_offset_order() -> None:
    clock, runner = Clock(), MockRunner()
    s = scheduler(runner, clock, debounce=1.0)
    s.add(record(0), stored(1, 10, 100))  # conversation 10, then 11, of the same user
    s.add(record(1), stored(1, 11, 110))
    s.add(record(2), stored(2, 20, 200))  # another user
    clock.now += 1.0
    s.dispatch()
    assert [b.conversation_pk for b in runner.started] == [10, 20]  # one per user at a time
    first = runner.started[0]
    s.dispatch()
    assert len(runner.started) == 2  # user 1's second burst waits while the first runs
    first.running = False
    s.remove(first)
    s.dispatch()
    assert [b.conversation_pk for b in runner.started] == [10, 20, 11]


def test_an_older_burst_starts_early_when_a_newer_one_of_its_user_is_due() -> None:
    clock, runner = Clock(), MockRunner()
    s = scheduler(runner, clock, debounce=1.0)
    s.add(record(0), stored(1, 11, 110))  # the older conversation keeps talking ...
    s.add(record(1), stored(1, 12, 120))  # ... the newer one goes quiet
    clock.now += 0.8
    s.add(record(2), stored(1, 11, 111))
    clock.now += 0.2
    s.dispatch()
    assert [b.job for b in runner.started] == [[110, 111]]


def test_a_full_runner_pushes_back_and_the_burst_is_offered_again() -> None:
    clock, runner = Clock(), MockRunner(capacity=1)
    s = scheduler(runner, clock, debounce=0.0)
    s.add(record(0), stored(1, 10, 100))
    s.add(record(1), stored(2, 20, 200))
    s.dispatch()
    assert [b.user_pk for b in runner.started] == [1]
    waiting = next(b for b in s.bursts() if b.user_pk == 2)
    assert not waiting.running and waiting.open  # rejected: untouched, still collecting
    runner.started[0].running = False
    s.remove(runner.started[0])
    s.dispatch()
    assert [b.user_pk for b in runner.started] == [1, 2]


def test_a_burst_backing_off_is_not_offered_before_its_time() -> None:
    clock, runner = Clock(), MockRunner()
    s = scheduler(runner, clock, debounce=0.0)
    s.add(record(0), stored(1, 10, 100))
    s.dispatch()
    burst = runner.started[0]
    burst.running = False
    delay = burst.backoff.failed(RetryPolicy(initial_sec=2.0), clock())  # a transient failure
    s.dispatch()
    assert len(runner.started) == 1
    clock.now += delay
    s.dispatch()
    assert runner.started == [burst, burst]


def test_revoke_abandons_the_revoked_partitions_records() -> None:
    clock, runner = Clock(), MockRunner()
    s = scheduler(runner, clock, debounce=0.0)
    s.add(record(0, partition=0), stored(1, 10, 100))
    s.add(record(1, partition=1), stored(1, 10, 101))
    s.add(record(2, partition=1), stored(2, 20, 200))
    s.dispatch()
    revoked = {("chat", 1)}
    assert s.running_in(revoked)
    assert s.revoke(revoked) == 2
    running = {b.user_pk: b for b in s.bursts()}
    assert [r.offset for r in running[1].records] == [0]
    assert 2 in running and running[2].items == []  # running: kept until its completion comes back
    running[2].running = False
    assert not s.running_in(revoked)
    s.dispatch()  # an empty burst is removed, never started again
    assert s.held == 1 and [b.user_pk for b in s.bursts()] == [1]
