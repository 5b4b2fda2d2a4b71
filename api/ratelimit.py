"""HTTP rate limiting: token buckets per caller token and per user, in this process.

- ``RateLimitMiddleware`` (pure ASGI, inside the bearer check): one bucket per caller key (the
  resolved ``Principal``'s key id; else a SHA-256 of the presented bearer token; ``anonymous`` when
  the API runs without a token), for every path but the probes ``/healthz`` and ``/readyz``.
  ``API_RATE_LIMIT_PER_TOKEN`` requests/s refill a bucket of ``API_RATE_LIMIT_PER_TOKEN_BURST``; a key
  with its own ``rate_limit`` (``pai-memory keys create --rate-limit``) gets that rate and a burst of
  twice the rate (at least 1).
- ``KeyedRateLimiter.check(user_id)``: the endpoints call it once the request is valid, one bucket
  per ``user_id`` (``API_RATE_LIMIT_PER_USER`` / ``_BURST``); an invalid request costs no user tokens.
- Over a limit: ``429`` with ``Retry-After`` (whole seconds until a token is back, at least 1) and
  the API's error body ``{"error": {"code": "rate_limited", "message", "field"}}``. A rate of 0
  turns that limit off.

Per process: each API replica keeps its own buckets, so N replicas admit up to N times the
configured rate in total (set the per-replica rate to the total / N, or enforce a global limit at
the gateway). The buckets guard one process's database and embedder capacity, which is per process
too; sharing state between replicas would put a network round trip on every request.

Memory is bounded: at most ``max_keys`` buckets, the least recently used dropped first. A dropped
bucket had been idle for the longest time, and a bucket idle for ``burst / rate`` seconds (3 s per
user by default) is full again, which is what a new bucket is: with the per-token limit in front,
churning through 100,000 user ids faster than that is not possible, so eviction loses no state.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from api.auth import ASGIApp, Receive, Scope, Send, send_json
from api.keys import STATE_KEY, Principal
from api.models import error_body
from core import metrics

EXEMPT_PATHS = frozenset({"/healthz", "/readyz"})
MAX_KEYS = 100_000


class RateLimited(Exception):
    """The caller exceeded a rate limit; retry after ``retry_after`` seconds."""

    def __init__(self, scope: str, retry_after: float) -> None:
        super().__init__(f"rate limit exceeded ({scope}), retry after {retry_after_header(retry_after)} s")
        self.scope = scope
        self.retry_after = retry_after


def retry_after_header(seconds: float) -> str:
    return str(max(1, math.ceil(seconds)))


class KeyedRateLimiter:
    """Token buckets by key: ``rate`` tokens/s up to ``burst``; thread-safe; ``rate <= 0`` is off."""

    def __init__(self, scope: str, rate: float, burst: int, *, max_keys: int = MAX_KEYS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.scope = scope
        self.rate = rate
        self.burst = max(1, burst)
        self.max_keys = max_keys
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, at)

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def acquire(self, key: str, rate: float | None = None) -> float:
        """Take one token for ``key``: 0.0 when granted, else the seconds until one is available.

        ``rate`` overrides the limiter's rate for this key (burst ``max(1, 2 * rate)``); 0 is off."""
        if rate is None:
            rate, burst = self.rate, float(self.burst)
        else:
            burst = max(1.0, 2.0 * rate)
        if rate <= 0:
            return 0.0
        with self._lock:
            now = self._clock()
            tokens, at = self._buckets.pop(key, (burst, now))
            tokens = min(burst, tokens + (now - at) * rate)
            if tokens >= 1.0:
                tokens -= 1.0
                wait = 0.0
            else:
                wait = (1.0 - tokens) / rate
            self._buckets[key] = (tokens, now)  # most recently used last
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
            return wait

    def wait(self, key: str) -> float:
        """Seconds until ``key`` has a token (0.0 now), taking none; the limiter's own rate."""
        if not self.enabled:
            return 0.0
        with self._lock:
            found = self._buckets.get(key)
            if found is None:
                return 0.0
            tokens, at = found
            tokens = min(float(self.burst), tokens + (self._clock() - at) * self.rate)
            return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def check(self, key: str, rate: float | None = None) -> None:
        """Raise ``RateLimited`` when ``key`` is over the limit (a token is taken otherwise)."""
        wait = self.acquire(key, rate)
        if wait > 0:
            metrics.API_RATE_LIMITED.labels(self.scope).inc()
            raise RateLimited(self.scope, wait)

    def __len__(self) -> int:
        return len(self._buckets)


def rate_limited_response_parts(exc: RateLimited) -> tuple[dict[str, object], list[tuple[bytes, bytes]]]:
    body = error_body("rate_limited", str(exc))
    return body, [(b"retry-after", retry_after_header(exc.retry_after).encode())]


class RateLimitMiddleware:
    """429 for callers over the per-token rate (see module docstring)."""

    def __init__(self, app: ASGIApp, limiter: KeyedRateLimiter,
                 exempt: frozenset[str] = EXEMPT_PATHS) -> None:
        self.app = app
        self.limiter = limiter
        self.exempt = exempt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in self.exempt:
            await self.app(scope, receive, send)
            return
        principal = scope.get("state", {}).get(STATE_KEY)
        rate = principal.rate_limit if isinstance(principal, Principal) else None
        if rate is None and not self.limiter.enabled:
            await self.app(scope, receive, send)
            return
        try:
            self.limiter.check(_token_key(scope), rate)
        except RateLimited as exc:
            body, headers = rate_limited_response_parts(exc)
            await send_json(send, 429, body, headers)
            return
        await self.app(scope, receive, send)


def _token_key(scope: Scope) -> str:
    """The resolved key's id, else a digest of the bearer credential (never the token), or ``anonymous``."""
    principal = scope.get("state", {}).get(STATE_KEY)
    if isinstance(principal, Principal) and principal.key_id not in ("env", "anonymous"):
        return "key:" + principal.key_id
    values = [v for k, v in scope.get("headers", []) if k.lower() == b"authorization"]
    if len(values) != 1:
        return "anonymous"
    scheme, _, credentials = values[0].partition(b" ")
    if scheme.lower() != b"bearer":
        return "anonymous"
    return hashlib.sha256(credentials.strip()).hexdigest()
