"""``CommandStrategy.join`` waits on the injected clock and sleep, never on real time (no broker)."""

from __future__ import annotations

import psycopg
from sqlalchemy.exc import OperationalError

from consumers.commands import CommandStrategy
from consumers.policies import RetryPolicy
from consumers.runtime import Record
from core.memory.tools import ToolCommand, ToolResult
from schemas import MemorySaveData
from schemas.codec import make_event
from tests.consumers.steps.doubles import Clock, MemoryDlq


class DownTools:
    """TEST DOUBLE of ``MemoryTools``: the database is down for every call."""

    def __init__(self) -> None:
        self.calls = 0

    def apply(self, command: ToolCommand) -> ToolResult:
        self.calls += 1
        raise OperationalError("SELECT 1", {}, psycopg.OperationalError("server closed the connection"))

    def apply_batch(self, commands: list[ToolCommand]) -> list[ToolResult]:
        raise AssertionError("one record: no batch")


def command(offset: int) -> Record:
    data = MemorySaveData(command_id=f"j{offset}", user_id="u1", key="fact-x", content="lives in Oslo")
    return Record("commands", 0, offset, b"u1", make_event(data, source="test").model_dump_json().encode(),
                  (), None)


def test_join_waits_out_its_timeout_on_the_injected_clock() -> None:
    clock = Clock()
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.now += seconds

    tools = DownTools()
    strategy = CommandStrategy(tools, MemoryDlq(), clock=clock, sleep=sleep,  # type: ignore[arg-type]
                               retry=RetryPolicy(initial_sec=0.1, max_sec=0.5))
    strategy.bind(lambda record: None)
    strategy.submit(command(0))
    strategy.join(timeout=3.0)

    assert 3.0 <= sum(slept) < 3.0 + 0.2 + 1e-9  # gave up at the deadline of the manual clock
    assert set(slept) == {0.2}
    assert tools.calls >= 2  # retried while waiting, then left the record for the next owner
