"""Endpoint etiquette for model calls (LLM chat, embeddings): adaptive concurrency, rate-limit pauses.

``AdaptiveLimiter`` is shared by every thread of a process that calls one endpoint (one per client
object; build the provider once per process). Contract:

- ``acquire(deadline)`` returns a ``Permit`` once fewer than ``limit`` requests are in flight and no
  rate-limit pause is active; raises ``DeadlineExceeded`` if ``deadline`` (``time.monotonic``) comes
  first and ``LimiterClosed`` once ``close()`` was called (also while waiting).
- ``release(permit, signal)`` ends the request. AIMD on the limit: ``Signal.OK`` grows it by
  ``1/limit`` (about +1 per round trip of a full window), never above ``max_limit``;
  ``Signal.OVERLOAD`` (HTTP 429, a timeout, 503) multiplies it by ``decrease`` (never below
  ``min_limit``), at most once per window: an overload of a request that was granted before the last
  cut does not cut again (it saw the old limit); ``Signal.NEUTRAL`` leaves it alone.
- ``pause(seconds)`` honours a ``Retry-After``: no permit is granted before then (bounded by
  ``max_pause``), for every thread, since the endpoint's rate limit is shared.
- ``sleep(seconds)`` is an interruptible back-off: it returns early and raises ``LimiterClosed`` when
  the limiter is closed, so retries stop at shutdown.
- ``close()`` wakes every waiter; the requests already in flight finish (or time out) by themselves.

Gauges ``pai_memory_model_concurrency_limit`` and ``pai_memory_model_requests_in_flight`` (label
``client``) follow the state; rate-limit waits are counted in ``pai_memory_model_rate_limit_*``.
"""

from __future__ import annotations

import email.utils
import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum

from core import metrics


class LimiterClosed(RuntimeError):
    """The limiter was closed (shutdown): no new request is started, retries stop."""


class DeadlineExceeded(TimeoutError):
    """The caller's deadline passed while waiting for a free slot or a rate-limit pause."""


class Signal(Enum):
    OK = "ok"  # the endpoint answered in time (whatever the body)
    OVERLOAD = "overload"  # 429, 503, a timeout: the endpoint asks for less
    NEUTRAL = "neutral"  # other failures: say nothing about load


@dataclass(frozen=True)
class Permit:
    """One granted request slot. ``epoch`` is the number of cuts made before it was granted."""

    epoch: int
    granted_at: float


class AdaptiveLimiter:
    """AIMD concurrency limit with a hard cap, shared rate-limit pauses and cancellation (thread-safe)."""

    def __init__(self, max_limit: int, *, client: str, initial: float | None = None, min_limit: int = 1,
                 decrease: float = 0.9, max_pause: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if min_limit < 1 or max_limit < min_limit:
            raise ValueError("need 1 <= min_limit <= max_limit")
        if not 0.0 < decrease < 1.0:
            raise ValueError("decrease must be in (0, 1)")
        if max_pause < 0:
            raise ValueError("max_pause must be >= 0")
        self.max_limit = max_limit
        self.min_limit = min_limit
        self.decrease = decrease
        self.max_pause = max_pause
        self.client = client
        self._clock = clock
        self._limit = float(max_limit if initial is None else min(max(initial, min_limit), max_limit))
        self._in_flight = 0
        self._epoch = 0
        self._paused_until = 0.0
        self._closed = False
        self._cond = threading.Condition()
        self.cuts = 0  # overload cuts made (for tests and logs)
        self.rate_limit_pauses = 0
        self.peak_in_flight = 0
        self._publish()

    # --- state --------------------------------------------------------------------------------
    @property
    def limit(self) -> float:
        """The current (fractional) limit; ``slots`` requests may be in flight."""
        with self._cond:
            return self._limit

    @property
    def slots(self) -> int:
        with self._cond:
            return self._slots()

    @property
    def in_flight(self) -> int:
        with self._cond:
            return self._in_flight

    @property
    def closed(self) -> bool:
        return self._closed

    def paused_for(self) -> float:
        """Seconds left of the current rate-limit pause (0 when none)."""
        with self._cond:
            return max(0.0, self._paused_until - self._clock())

    # --- protocol -----------------------------------------------------------------------------
    def acquire(self, deadline: float | None = None) -> Permit:
        """Wait for a slot (and the end of any pause); see the module docstring."""
        waited_pause = 0.0
        with self._cond:
            while True:
                if self._closed:
                    raise LimiterClosed(f"{self.client} client is closed")
                now = self._clock()
                if self._paused_until > now:
                    wake = self._paused_until
                    if deadline is not None and deadline <= wake:
                        wait = deadline - now
                        if wait <= 0:
                            raise DeadlineExceeded(f"{self.client}: deadline passed in a rate-limit pause")
                    else:
                        wait = wake - now
                    self._cond.wait(wait)
                    waited_pause += self._clock() - now
                    continue
                if self._in_flight < self._slots():
                    break
                if deadline is not None and deadline - now <= 0:
                    raise DeadlineExceeded(f"{self.client}: deadline passed waiting for a free request slot")
                self._cond.wait(None if deadline is None else deadline - now)
            self._in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self._in_flight)
            permit = Permit(self._epoch, self._clock())
            self._publish()
        if waited_pause > 0:
            metrics.MODEL_RATE_LIMIT_WAIT_SECONDS.labels(self.client).inc(waited_pause)
        return permit

    def release(self, permit: Permit, signal: Signal) -> None:
        with self._cond:
            self._in_flight = max(0, self._in_flight - 1)
            if signal is Signal.OK:
                self._limit = min(float(self.max_limit), self._limit + 1.0 / self._limit)
            elif signal is Signal.OVERLOAD and permit.epoch == self._epoch:
                self._limit = max(float(self.min_limit), self._limit * self.decrease)
                self._epoch += 1
                self.cuts += 1
            self._publish()
            self._cond.notify_all()

    def pause(self, seconds: float) -> float:
        """Grant no permit for ``seconds`` (capped at ``max_pause``); returns the pause applied."""
        seconds = min(max(0.0, seconds), self.max_pause)
        with self._cond:
            until = self._clock() + seconds
            if until > self._paused_until:
                self._paused_until = until
                self.rate_limit_pauses += 1
                metrics.MODEL_RATE_LIMIT_PAUSES.labels(self.client).inc()
            self._cond.notify_all()
        return seconds

    def sleep(self, seconds: float) -> None:
        """Back off for ``seconds``; raises ``LimiterClosed`` at once when closed (also while asleep)."""
        end = self._clock() + max(0.0, seconds)
        with self._cond:
            while not self._closed:
                left = end - self._clock()
                if left <= 0:
                    return
                self._cond.wait(left)
            raise LimiterClosed(f"{self.client} client is closed")

    def close(self) -> None:
        """Refuse new requests and wake every waiter (idempotent)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    # --- internals ----------------------------------------------------------------------------
    def _slots(self) -> int:
        return max(self.min_limit, min(self.max_limit, math.floor(self._limit)))

    def _publish(self) -> None:
        metrics.MODEL_CONCURRENCY_LIMIT.labels(self.client).set(self._limit)
        metrics.MODEL_IN_FLIGHT.labels(self.client).set(self._in_flight)


def retry_after_seconds(headers: Mapping[str, str] | None,
                        now: Callable[[], float] = time.time) -> float | None:
    """The wait a ``429``/``503`` reply asks for: ``retry-after-ms``, ``retry-after`` in seconds, or
    ``retry-after`` as an HTTP date; ``None`` when absent or unreadable (never negative)."""
    if not headers:
        return None
    lowered = {k.lower(): v for k, v in headers.items()}
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        raw = lowered.get(name)
        if raw is None:
            continue
        try:
            value = float(raw) / divisor
        except ValueError:
            continue
        if math.isfinite(value):
            return max(0.0, value)
    raw = lowered.get("retry-after")
    if raw:
        try:
            parsed = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        return max(0.0, parsed.timestamp() - now())
    return None
