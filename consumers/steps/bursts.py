"""The debounce and per-user order step: stored messages -> bursts, started oldest first per user.

``BurstScheduler`` (loop thread only) groups the records to extract by conversation:

- ``add(record, ingested)`` puts a stored message that needs extraction into its conversation's open
  burst (opening one, queued behind the user's earlier bursts); ``touch(conversation_pk)`` (a context
  message or a duplicate) only keeps the open burst waiting;
- debounce: a burst is due once its conversation has been quiet for ``debounce_sec`` or it has waited
  ``max_wait_sec`` since it opened;
- per-user order: ``dispatch`` offers only the head (oldest) burst of each idle user to the next step
  (a ``BurstRunner``, the bounded pool), when the head or any later burst of that user is due (an
  older burst is started early when a newer one is due), so a user's bursts run strictly one after
  another in offset order; ``force`` ignores the debounce (shutdown);
- push back: the runner raises ``PoolFull`` when it is full; the burst stays queued and is offered
  again at the next ``dispatch``. A started burst is closed (later messages of its conversation open a
  new burst) and ``running`` until the caller ``remove``s it (done, dead-lettered) or retries it;
- ``revoke(revoked)`` drops the records of revoked partitions from every burst (abandoned: not done)
  and returns how many; a burst left empty is removed unless it is running.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from consumers.offsets import TopicPartitionKey
from consumers.runtime import Record
from consumers.steps.pool import PoolFull
from consumers.steps.retry import Backoff
from core.memory.processing import IngestResult


@dataclass(eq=False)
class Burst:
    """The records of one conversation extracted together (one ``MessageProcessor.process`` call)."""

    user_pk: int
    conversation_pk: int
    first_seen: float
    last_seen: float
    items: list[tuple[Record, int]] = field(default_factory=list)  # (record, stored message id)
    backoff: Backoff = field(default_factory=Backoff)
    open: bool = True  # still collecting records of its conversation
    running: bool = False
    job: list[int] = field(default_factory=list)  # the message ids of the run started last

    @property
    def records(self) -> list[Record]:
        return [r for r, _ in self.items]

    @property
    def message_pks(self) -> list[int]:
        return list(dict.fromkeys(pk for _, pk in self.items))


class BurstRunner(Protocol):
    """The step after the scheduler (``consumers.steps.pool.BoundedPool``)."""

    @property
    def full(self) -> bool: ...

    def submit(self, task: Burst) -> None:
        """Start the burst now, or raise ``PoolFull`` taking nothing."""
        ...


class BurstScheduler:
    """Debounce and per-user order of bursts (see the module docstring)."""

    def __init__(self, runner: BurstRunner, *, debounce_sec: float, max_wait_sec: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.runner = runner
        self.debounce_sec = debounce_sec
        self.max_wait_sec = max_wait_sec
        self.clock = clock
        self._open: dict[int, Burst] = {}  # conversation_pk -> its open burst
        self._users: dict[int, list[Burst]] = {}  # user_pk -> bursts in the order they were opened
        self._held = 0  # records in bursts, kept up to date (read every loop turn)

    def __bool__(self) -> bool:
        """True while any burst is held (open, waiting or running)."""
        return bool(self._users)

    @property
    def held(self) -> int:
        """Records in bursts (open, waiting or running)."""
        return self._held

    def bursts(self) -> list[Burst]:
        return [b for bursts in self._users.values() for b in bursts]

    def touch(self, conversation_pk: int) -> None:
        burst = self._open.get(conversation_pk)
        if burst is not None:
            burst.last_seen = self.clock()

    def add(self, record: Record, ingested: IngestResult) -> None:
        now = self.clock()
        burst = self._open.get(ingested.conversation_pk)
        if burst is None:
            burst = Burst(ingested.user_pk, ingested.conversation_pk, now, now)
            self._open[ingested.conversation_pk] = burst
            self._users.setdefault(ingested.user_pk, []).append(burst)
        burst.last_seen = now
        burst.items.append((record, ingested.message_pk))
        self._held += 1

    def due(self, burst: Burst, now: float) -> bool:
        return now - burst.last_seen >= self.debounce_sec or now - burst.first_seen >= self.max_wait_sec

    def dispatch(self, force: bool = False) -> None:
        """Offer the head burst of every idle user whose head (or a later burst) is due to the runner,
        until it is full."""
        if self.runner.full:
            return
        now = self.clock()
        for bursts in list(self._users.values()):
            head = bursts[0]
            if head.running or not head.backoff.ready(now):
                continue
            if not (force or any(self.due(b, now) for b in bursts)):
                continue
            if not head.items:  # every record abandoned on revoke
                self.remove(head)
                continue
            try:
                self._start(head)
            except PoolFull:
                return
            if self.runner.full:
                return

    def _start(self, burst: Burst) -> None:
        burst.job = burst.message_pks
        self.runner.submit(burst)
        if burst.open:
            burst.open = False
            if self._open.get(burst.conversation_pk) is burst:
                del self._open[burst.conversation_pk]
        burst.running = True

    def running_in(self, revoked: set[TopicPartitionKey]) -> bool:
        """True while a running burst holds records of ``revoked`` partitions."""
        return any(b.running and any(r.tp in revoked for r in b.records) for b in self.bursts())

    def revoke(self, revoked: set[TopicPartitionKey]) -> int:
        """Drop the records of ``revoked`` partitions from every burst; returns how many."""
        abandoned = 0
        for burst in self.bursts():
            kept = [(r, pk) for r, pk in burst.items if r.tp not in revoked]
            abandoned += len(burst.items) - len(kept)
            self._held -= len(burst.items) - len(kept)
            burst.items = kept
            if not kept and not burst.running:
                self.remove(burst)
        return abandoned

    def remove(self, burst: Burst) -> None:
        bursts = self._users.get(burst.user_pk)
        if bursts is not None and burst in bursts:
            bursts.remove(burst)
            self._held -= len(burst.items)
            if not bursts:
                del self._users[burst.user_pk]
        if self._open.get(burst.conversation_pk) is burst:
            del self._open[burst.conversation_pk]
