"""The keep-alive step: the messages the extractor holds do not look stuck to the sweeper.

The sweeper re-drives a user message left ``PENDING`` longer than its grace
(``core.memory.redrive``, ``MEMORY_MESSAGE_REDRIVE_GRACE_SEC``), measured from the message's
``updated_at``. A message the extractor has stored and holds (in a burst waiting for the debounce, for
a free worker or for its user's earlier bursts, or running) is not stuck, however long the backlog;
re-driving it publishes it again (an outbox row, a Kafka record, a second ingest), up to
``MEMORY_MESSAGE_MAX_REDRIVES`` times, so a lagging extractor multiplied its own load and the relay's
(``bench/RESULTS.md``: 2.7 re-drives per message at 40 messages/s with a 4 s grace).

``KeepAlive.poll(held)`` (loop thread, every turn) looks every half ``interval_sec`` (``interval_sec``: a
third of the grace) and refreshes the ``updated_at`` of the held messages stored or refreshed at least
``interval_sec`` before, in one statement (``refresh``: ``MessageProcessor.keep_alive``, PENDING rows
only). A held message is counted from its burst's opening (no later than it was stored), so its
``updated_at`` is never older than about one and a half intervals (half the grace, leaving the other half
for a loaded machine's stalls). A message no longer held (done, dead-lettered, revoked, the process
gone) is no longer refreshed, and the sweeper re-drives it after the grace as before. A failed refresh
is logged and tried again at the next look: the re-drive it did not prevent is harmless (idempotent).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable

from sqlalchemy.exc import SQLAlchemyError

log = logging.getLogger(__name__)


class KeepAlive:
    """Refreshes the held messages' ``updated_at`` (see the module docstring); ``interval_sec=None``:
    off (no sweeper re-drives messages)."""

    def __init__(self, refresh: Callable[[list[int]], int], interval_sec: float | None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if interval_sec is not None and interval_sec <= 0:
            raise ValueError("interval_sec must be > 0 (or None: off)")
        self.refresh = refresh
        self.interval_sec = interval_sec
        self.clock = clock
        self._since: dict[int, float] = {}  # message pk -> clock time it was stored or last refreshed
        self._next = 0.0
        self.refreshed = 0  # messages refreshed so far
        self.failures = 0

    @property
    def due(self) -> bool:
        """True when the next ``poll`` would look at the held messages (callers may skip listing them
        otherwise: ``poll`` returns at once)."""
        return self.interval_sec is not None and self.clock() >= self._next

    def poll(self, held: Iterable[tuple[int, float]]) -> None:
        """``held``: (message pk, clock time its burst opened) of every message held now."""
        if self.interval_sec is None:
            return
        now = self.clock()
        if now < self._next:
            return
        self._next = now + self.interval_sec / 2
        since: dict[int, float] = {}
        for pk, opened in held:
            since[pk] = self._since.get(pk, min(since.get(pk, opened), opened))
        self._since = since  # messages no longer held are forgotten
        due = [pk for pk, t in since.items() if now - t >= self.interval_sec]
        if not due:
            return
        try:
            self.refresh(due)
        except SQLAlchemyError as exc:
            self.failures += 1
            log.warning("keep-alive of %d held message(s) failed (tried again in %gs): %s",
                        len(due), self.interval_sec, exc)
            return
        for pk in due:
            since[pk] = now
        self.refreshed += len(due)
