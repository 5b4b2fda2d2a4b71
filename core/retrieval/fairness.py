"""Fairness of the dense path between users (issue 26): a per-user share of the slots, and a circuit
breaker that pauses the path for one failing user, and for everyone only when many users fail.

Both are thread-safe and use ``time.monotonic``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict

log = logging.getLogger("core.retrieval")  # the retrieval's one logger name, as before the split

FAILURES_KEPT = 10_000  # users whose last failure is remembered (oldest forgotten first)


class UserSlots:
    """How many dense searches each user holds; a user holds at most ``per_user`` at once."""

    def __init__(self, per_user: int, wait_sec: float) -> None:
        self.per_user = per_user
        self._wait_sec = wait_sec
        self._cond = threading.Condition()
        self._in_flight: dict[str, int] = {}  # user id -> dense searches holding a slot

    def take(self, user_id: str) -> bool:
        """Count one more dense search of ``user_id``, waiting up to ``wait_sec`` while the user
        already holds ``per_user``; False if it never got one."""
        deadline = time.monotonic() + self._wait_sec
        with self._cond:
            while self._in_flight.get(user_id, 0) >= self.per_user:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            self._in_flight[user_id] = self._in_flight.get(user_id, 0) + 1
            return True

    def release(self, user_id: str) -> None:
        with self._cond:
            left = self._in_flight.get(user_id, 0) - 1
            if left > 0:
                self._in_flight[user_id] = left
            else:
                self._in_flight.pop(user_id, None)
            self._cond.notify_all()


class DenseBreaker:
    """Pauses the dense path after failures: for the failing user during ``cooldown_sec``, and for
    everyone during ``cooldown_sec`` once ``breaker_users`` distinct users failed within it.

    A failure recorded with ``everyone=False`` (a long question's, on its own lane: it says nothing
    about the path short questions take) pauses that user only and never counts towards everyone's."""

    def __init__(self, cooldown_sec: float, breaker_users: int) -> None:
        self._cooldown = cooldown_sec
        self._breaker_users = breaker_users
        self._lock = threading.Lock()
        self._paused_until = 0.0
        self._last_failure = ""
        # user -> (at, reason, counts towards pausing everyone)
        self._user_failures: OrderedDict[str, tuple[float, str, bool]] = OrderedDict()

    def paused(self, user_id: str) -> str | None:
        """Why the dense path is paused for ``user_id`` now, or ``None`` if it is not."""
        now = time.monotonic()
        with self._lock:
            remaining = self._paused_until - now
            if remaining > 0:
                return f"dense path paused for {remaining:.1f}s after failures: {self._last_failure}"
            failed = self._user_failures.get(user_id)
            if failed is not None and now - failed[0] < self._cooldown:
                return (f"dense path paused for this user for {self._cooldown - (now - failed[0]):.1f}s "
                        f"after its failure: {failed[1]}")
        return None

    def failed(self, user_id: str, reason: str, *, everyone: bool = True) -> None:
        """Record a dense failure of ``user_id`` (logged as a warning); ``everyone=False``: it pauses
        this user only."""
        log.warning("dense retrieval failed, serving lexical fallback: %s", reason)
        now = time.monotonic()
        with self._lock:
            earlier = self._user_failures.get(user_id)
            counts = everyone or (earlier is not None and earlier[2] and now - earlier[0] < self._cooldown)
            self._user_failures[user_id] = (now, reason, counts)
            self._user_failures.move_to_end(user_id)
            while self._user_failures and (now - next(iter(self._user_failures.values()))[0] >= self._cooldown
                                           or len(self._user_failures) > FAILURES_KEPT):
                self._user_failures.popitem(last=False)  # oldest first: outside the window
            failing = sum(1 for _, _, c in self._user_failures.values() if c) if counts else 0
            if counts and failing >= self._breaker_users:
                self._last_failure = f"{failing} users failed, the last: {reason}"
                self._paused_until = now + self._cooldown
