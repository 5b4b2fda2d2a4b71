"""Who is calling and what they may do: the ``Principal`` of a request and ``authorize``.

The same contract for every door (REST, MCP, console):

- A ``Principal`` is the key a caller presented: its id, its scopes (``read``, ``write``, ``admin``,
  ``metrics``: a monitoring key that scrapes ``/metrics`` and reads ``/readyz``'s detail, nothing else),
  an optional user binding (a key bound to one user reads and writes only that user) and a name for
  humans and the audit log. The environment ``API_TOKEN`` is the bootstrap admin key: every scope,
  no user binding (``BOOTSTRAP``). An API run without ``API_TOKEN`` (loopback only) treats a request
  without a bearer header as ``ANONYMOUS``, which has every scope too.
- ``authorize(principal, scope, user_id)`` returns nothing or raises ``Forbidden``: the app answers
  403 ``{"error": {"code": "forbidden_scope" | "forbidden_user", ...}}``; MCP answers the same body as
  a tool error. ``user_id=None`` means "no particular user" (a listing across users, the console, a
  re-drive): a user-bound key is refused there.
- ``principal_dep`` is the FastAPI dependency: the principal the auth middleware
  (``api.auth.BearerAuthMiddleware``) resolved for this request.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime

from fastapi import Request
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

log = logging.getLogger(__name__)

READ = "read"
WRITE = "write"
ADMIN = "admin"
METRICS = "metrics"  # scrape /metrics and read /readyz's detail; no memory of anyone
SCOPES = frozenset({READ, WRITE, ADMIN, METRICS})
STATE_KEY = "principal"


@dataclass(frozen=True)
class Principal:
    """The caller: key id, scopes, optional user binding (``user_id``), display name.

    ``rate_limit`` (requests/s, ``None`` = the API's per-token default) is the key's own limit."""

    key_id: str
    scopes: frozenset[str]
    user_id: str | None
    name: str
    rate_limit: float | None = None

    def has(self, scope: str) -> bool:
        return scope in self.scopes


BOOTSTRAP = Principal(key_id="env", scopes=SCOPES, user_id=None, name="API_TOKEN (bootstrap admin)")
ANONYMOUS = Principal(key_id="anonymous", scopes=SCOPES, user_id=None,
                      name="anonymous (no API_TOKEN, loopback)")


class Forbidden(Exception):
    """The principal may not do this: ``code`` is ``forbidden_scope`` or ``forbidden_user`` (HTTP 403)."""

    code = "forbidden"
    field: str | None = None

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ForbiddenScope(Forbidden):
    """The key lacks the scope the operation needs."""

    code = "forbidden_scope"


class ForbiddenUser(Forbidden):
    """A key bound to one user asked for another user (or for no particular user)."""

    code = "forbidden_user"
    field = "user_id"


def authorize(principal: Principal, scope: str, user_id: str | None) -> None:
    """Raise ``ForbiddenScope`` / ``ForbiddenUser`` unless ``principal`` may use ``scope`` on ``user_id``.

    The ``admin`` scope implies every other. A user-bound key acts only on its user; with
    ``user_id=None`` (an operation across users) a user-bound key is refused."""
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}")
    if not (principal.has(scope) or principal.has(ADMIN)):
        raise ForbiddenScope(f"this key lacks the {scope!r} scope")
    if principal.user_id is not None and user_id != principal.user_id:
        raise ForbiddenUser("this key is bound to another user" if user_id is not None
                            else "this key is bound to one user and cannot act across users")


def request_principal(request: Request) -> Principal:
    """The principal the auth middleware put in the request's state (``ANONYMOUS`` when none did)."""
    principal = request.scope.get("state", {}).get(STATE_KEY)
    return principal if isinstance(principal, Principal) else ANONYMOUS


def principal_dep(request: Request) -> Principal:
    """FastAPI dependency: the request's ``Principal``."""
    return request_principal(request)


class KeyStoreUnavailable(Exception):
    """The key store (PostgreSQL) did not answer: the caller gets 503, never a guess either way."""


class KeyResolver:
    """Resolves API-key tokens to principals through the key store (``core.keys``), cached.

    - A token's outcome (principal or refusal) is cached ``cache_ttl`` seconds (keyed by its SHA-256),
      so a revocation or rotation takes effect in every process within that time; at most
      ``max_entries`` tokens are cached (the oldest dropped).
    - Last-used times are coalesced: kept in memory and written at most every ``touch_interval``
      seconds (one UPDATE per used key), not once per request.
    """

    def __init__(self, sessions: Callable[[], AbstractContextManager[Session]], *, cache_ttl: float = 5.0,
                 touch_interval: float = 60.0, max_entries: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._sessions = sessions
        self._ttl = cache_ttl
        self._touch_interval = touch_interval
        self._max = max_entries
        self._clock = clock
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, tuple[float, Principal | None]] = OrderedDict()
        self._used: dict[str, datetime] = {}
        self._last_touch = clock()

    async def __call__(self, token: str) -> Principal | None:
        return await run_in_threadpool(self.resolve, token)

    def resolve(self, token: str) -> Principal | None:
        """The principal of ``token`` or ``None`` (unknown, revoked, expired, malformed).

        Raises ``KeyStoreUnavailable`` when PostgreSQL does not answer (nothing is cached then)."""
        from core import keys as store

        if store.parse_token(token) is None:
            return None
        digest = store.token_hash(token)
        now = self._clock()
        with self._lock:
            hit = self._cache.get(digest)
        if hit is not None and hit[0] > now:
            principal = hit[1]
        else:
            try:
                with self._sessions() as session:
                    info = store.lookup(session, token)
            except SQLAlchemyError as exc:
                log.error("API key lookup failed: %s", type(exc).__name__)
                raise KeyStoreUnavailable("the key store is unavailable, retry later") from None
            principal = None if info is None else Principal(
                key_id=info.id, scopes=frozenset(info.scopes), user_id=info.user_id, name=info.name,
                rate_limit=info.rate_limit)
            with self._lock:
                self._cache[digest] = (now + self._ttl, principal)
                self._cache.move_to_end(digest)
                while len(self._cache) > self._max:
                    self._cache.popitem(last=False)
        if principal is not None:
            self._mark_used(principal.key_id, now)
        return principal

    def _mark_used(self, key_id: str, now: float) -> None:
        with self._lock:
            self._used[key_id] = datetime.now(UTC)
            if now - self._last_touch < self._touch_interval:
                return
            used, self._used, self._last_touch = self._used, {}, now
        self.flush(used)

    def flush(self, used: dict[str, datetime] | None = None) -> None:
        """Write the pending last-used times now (also called at shutdown)."""
        from core import keys as store

        if used is None:
            with self._lock:
                used, self._used = self._used, {}
        if not used:
            return
        try:
            with self._sessions() as session:
                store.touch(session, used)
        except Exception as exc:  # a lost last-used time must never fail a request
            log.warning("could not record API key last-used times: %s", type(exc).__name__)

    def forget(self) -> None:
        """Drop the cache (a test or an admin action in this process wants revocation at once)."""
        with self._lock:
            self._cache.clear()
