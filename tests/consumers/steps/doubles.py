"""TEST DOUBLES for the steps' unit tests: records, chat-message records, a manual clock, a dead-letter
publisher in memory."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from consumers.dlq import DeadLetterError
from consumers.runtime import Record
from schemas import ChatMessageData
from schemas.codec import make_event


def record(offset: int, partition: int = 0, topic: str = "chat", value: bytes = b"{}") -> Record:
    return Record(topic, partition, offset, b"k", value, (), None)


def chat(offset: int, content: str = "I live in Oslo.", role: str = "user", partition: int = 0,
         conversation: str = "c1", message_id: str | None = None) -> Record:
    data = ChatMessageData(message_id=message_id or f"m{offset}", user_id="u1", conversation_id=conversation,
                           role=role, content=content,  # type: ignore[arg-type]
                           created_at=datetime(2026, 1, 1, tzinfo=UTC))
    value = make_event(data, source="test").model_dump_json().encode()
    return Record("chat", partition, offset, b"u1", value, (), None)


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
