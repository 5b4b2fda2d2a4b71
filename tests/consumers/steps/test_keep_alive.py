"""The keep-alive step without a database, with a mock refresh as the next step and a manual clock."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from sqlalchemy.exc import OperationalError

from consumers.steps.keep_alive import KeepAlive
from tests.consumers.steps.doubles import Clock


@dataclass
class MockRefresh:
    """The next step (``MessageProcessor.keep_alive``): records each call; ``fail`` makes the next raise."""

    calls: list[list[int]] = field(default_factory=list)
    fail: int = 0

    def __call__(self, pks: list[int]) -> int:
        if self.fail:
            self.fail -= 1
            raise OperationalError("UPDATE", {}, Exception("server closed the connection"))
        self.calls.append(sorted(pks))
        return len(pks)


def test_held_messages_are_refreshed_once_an_interval_old_looking_every_half_interval() -> None:
    clock, refresh = Clock(), MockRefresh()
    step = KeepAlive(refresh, 10.0, clock=clock)
    opened = clock.now
    step.poll([(1, opened), (2, opened)])  # stored now: nothing to refresh yet
    assert refresh.calls == []
    clock.now += 3
    step.poll([(1, opened), (2, opened), (3, clock.now)])  # within half an interval: not even looked at
    assert refresh.calls == []
    clock.now += 3  # 6 s: looked at, nothing an interval old
    step.poll([(1, opened), (2, opened), (3, opened + 3)])
    assert refresh.calls == []
    clock.now += 5  # 11 s after the bursts opened: 1 and 2 are due, 3 (stored 8 s ago) is not
    step.poll([(1, opened), (2, opened), (3, opened + 3)])
    assert refresh.calls == [[1, 2]]
    clock.now += 5  # 3 was stored 13 s ago; 1 and 2 refreshed 5 s ago
    step.poll([(1, opened), (2, opened), (3, opened + 3)])
    assert refresh.calls == [[1, 2], [3]]
    clock.now += 5
    step.poll([(1, opened), (2, opened), (3, opened + 3)])
    assert refresh.calls == [[1, 2], [3], [1, 2]] and step.refreshed == 5


def test_messages_no_longer_held_are_not_refreshed() -> None:
    clock, refresh = Clock(), MockRefresh()
    step = KeepAlive(refresh, 10.0, clock=clock)
    opened = clock.now
    step.poll([(1, opened), (2, opened)])
    clock.now += 10
    step.poll([(2, opened)])  # 1 was done (or revoked): the sweeper may re-drive it after its grace
    assert refresh.calls == [[2]]


def test_a_failed_refresh_is_tried_again_at_the_next_interval() -> None:
    clock, refresh = Clock(), MockRefresh(fail=1)
    step = KeepAlive(refresh, 10.0, clock=clock)
    opened = clock.now - 20
    step.poll([(7, opened)])
    assert refresh.calls == [] and step.failures == 1
    clock.now += 1
    step.poll([(7, opened)])  # not before the next look, half an interval later
    assert refresh.calls == []
    clock.now += 4
    step.poll([(7, opened)])
    assert refresh.calls == [[7]]


def test_off_without_an_interval() -> None:
    refresh = MockRefresh()
    step = KeepAlive(refresh, None, clock=Clock())
    step.poll([(1, 0.0)])
    assert refresh.calls == []
    with pytest.raises(ValueError):
        KeepAlive(refresh, 0.0)
