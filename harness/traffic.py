"""A steady stream of chat messages with known expected outcomes (the fault suite's and the soak's load).

Per user a job, an allergy, then "I live in <city> now." statements (never the same city twice in a
row), each in its own conversation, so every delivered message must leave exactly one change.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from core.config import Settings
from producers.client import DeliveryFuture, MemoryEventProducer
from schemas import ChatMessageData

CITIES = ["Wuhan", "Chengdu", "Lisbon", "Oslo", "Kyoto", "Quito", "Dakar", "Hanoi", "Perth", "Tunis",
          "Lima", "Riga", "Porto", "Bergen", "Zagreb", "Accra", "Nairobi", "Seoul", "Dublin", "Hobart"]
JOBS = ["nurse", "teacher", "pilot", "carpenter", "chemist", "lawyer", "baker", "plumber"]
ALLERGENS = ["peanuts", "shellfish", "penicillin", "cats", "pollen", "gluten", "latex", "eggs"]
SLOT_KEYS = {"job": "fact-job", "allergy": "fact-allergy", "city": "fact-home_city"}


@dataclass
class Sent:
    """One published chat message and what it must produce."""

    message_id: str
    user: str
    kind: str  # job | allergy | city
    value: str
    content: str
    at: float  # monotonic publish time
    delivered: bool | None = None  # None: no delivery report yet
    error: str | None = None


def statement(user_index: int, n: int) -> tuple[str, str, str]:
    """(kind, value, content) of a user's ``n``-th message: a job, an allergy, then cities (never the
    same city twice in a row, so each city statement is a change)."""
    if n == 0:
        job = JOBS[user_index % len(JOBS)]
        return "job", job, f"I work as a {job}."
    if n == 1:
        allergen = ALLERGENS[user_index % len(ALLERGENS)]
        return "allergy", allergen, f"I am allergic to {allergen}."
    city = CITIES[(user_index * 3 + n) % len(CITIES)]
    return "city", city, f"I live in {city} now."


class Traffic:
    """Publishes the users' statements round-robin at ``rate`` messages/s while started.

    Every message is its own conversation, so each one is extracted on its own and must leave exactly
    one change. Only messages the broker confirmed count as published (``delivered``).
    """

    def __init__(self, settings: Settings, users: Sequence[str], rate: float, run: str,
                 max_per_start: int | None = None) -> None:
        self.settings = settings
        self.users = list(users)
        self.rate = rate
        self.run = run
        self.max_per_start = max_per_start  # the stream pauses itself after this many (bounds the backlog)
        self.producer = MemoryEventProducer(settings, source="pai-reliability")
        self.sent: list[Sent] = []
        self._futures: list[tuple[Sent, DeliveryFuture]] = []
        self._count: dict[str, int] = defaultdict(int)
        self._turn = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def publish_one(self, user_index: int | None = None) -> Sent:
        with self._lock:
            if user_index is None:
                user_index = self._turn % len(self.users)
                self._turn += 1
            user = self.users[user_index]
            n = self._count[user]
            self._count[user] += 1
            kind, value, content = statement(user_index, n)
            mid = f"{self.run}-{user}-m{n}"
            sent = Sent(mid, user, kind, value, content, time.monotonic())
            future = self.producer.publish_message(ChatMessageData(
                message_id=mid, user_id=user, conversation_id=f"{self.run}-{user}-c{n}", role="user",
                content=content, created_at=datetime.now(UTC)))
            self.sent.append(sent)
            self._futures.append((sent, future))
        return sent

    def publish_round(self) -> list[Sent]:
        """One message for every user, back to back (a burst)."""
        return [self.publish_one(i) for i in range(len(self.users))]

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()

        def loop() -> None:
            period = 1.0 / self.rate
            next_at = time.monotonic()
            published = 0
            while not self._stop.is_set():
                if self.max_per_start is not None and published >= self.max_per_start:
                    self._stop.wait(0.2)
                    continue
                self.publish_one()
                published += 1
                next_at += period
                self._stop.wait(max(0.0, next_at - time.monotonic()))

        self._thread = threading.Thread(target=loop, name="reliability-traffic", daemon=True)
        self._thread.start()

    def pause(self, flush_timeout: float = 150.0) -> None:
        """Stop publishing and wait for every delivery report."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join(10)
            self._thread = None
        self.settle_deliveries(flush_timeout)

    def settle_deliveries(self, timeout: float = 150.0) -> None:
        deadline = time.monotonic() + timeout
        for sent, future in self._futures:
            if sent.delivered is not None:
                continue
            try:
                future.result(timeout=max(0.1, deadline - time.monotonic()))
                sent.delivered = True
            except Exception as exc:  # DeliveryError or timeout: not published, not expected downstream
                sent.delivered = False
                sent.error = f"{type(exc).__name__}: {exc}"

    @property
    def delivered(self) -> list[Sent]:
        return [s for s in self.sent if s.delivered]

    @property
    def undelivered(self) -> list[Sent]:
        return [s for s in self.sent if s.delivered is False]

    def close(self) -> None:
        self.pause(30)
        self.producer.close(30, raise_on_pending=False)

