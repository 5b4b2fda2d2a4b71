"""TEST DOUBLES for the steps' unit tests: records, a manual clock, a dead-letter publisher in memory."""

from __future__ import annotations

from dataclasses import dataclass, field

from consumers.dlq import DeadLetterError
from consumers.runtime import Record


def record(offset: int, partition: int = 0, topic: str = "chat", value: bytes = b"{}") -> Record:
    return Record(topic, partition, offset, b"k", value, (), None)


@dataclass
class Clock:
    """A manual clock: ``now`` moves only when the test moves it."""

    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class MemoryDlq:
    """Stands in for ``DeadLetterPublisher``: keeps the dead letters; ``fail`` makes the next sends fail."""

    topic: str = "chat.dlq"
    fail: int = 0
    sent: list[tuple[Record, str, str, int]] = field(default_factory=list)
    closed: bool = False

    def send(self, record: Record, *, reason: str, error_type: str, attempts: int = 1) -> None:
        if self.fail:
            self.fail -= 1
            raise DeadLetterError("not confirmed: timeout")
        self.sent.append((record, reason, error_type, attempts))

    def close(self) -> None:
        self.closed = True
