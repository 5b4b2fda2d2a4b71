"""Access control of the HTTP API: bearer token and request-size limit (pure ASGI middleware).

- ``BearerAuthMiddleware``: resolves the caller's ``api.keys.Principal`` and puts it in the request
  scope's state (``principal_dep`` reads it). ``Authorization: Bearer <credential>`` is the
  environment ``API_TOKEN`` (the bootstrap admin key, constant-time compare) or an API key of the key
  store (``resolver``, ``api.keys_store.KeyResolver``). When ``API_TOKEN`` is configured, a request
  without a valid credential gets 401 with ``WWW-Authenticate: Bearer``; without ``API_TOKEN``
  (loopback only) a request without a header is ``ANONYMOUS`` and a presented key still binds it.
  The exempt paths (``/healthz``) pass untouched; paths under ``exempt_prefixes`` (the operator
  console, ``/console``) do their own check. What each principal may do is ``api.keys.authorize``.
- ``BodyLimitMiddleware``: a request whose ``Content-Length`` exceeds the limit, or whose streamed
  body grows past it, gets 413 before the application sees it (the body, at most ``limit`` bytes,
  is buffered and replayed to the app).
- ``is_loopback_host`` / ``check_bind``: without a token the API only binds to loopback.

Neither the token nor the ``Authorization`` header is ever logged.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from api.keys import ANONYMOUS, BOOTSTRAP, STATE_KEY, KeyStoreUnavailable, Principal
from api.models import error_body
from core.config import ConfigError

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

EXEMPT_PATHS = frozenset({"/healthz"})


class InsecureBindError(ConfigError):
    """Refusing to serve without a token on a non-loopback address (API_TOKEN/API_HOST)."""


def is_loopback_host(host: str) -> bool:
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Raise ``InsecureBindError`` when no token is set and ``host`` is not loopback; warn on loopback."""
    if token:
        return
    if not is_loopback_host(host):
        raise InsecureBindError(
            f"API_TOKEN is not set: refusing to bind the API to non-loopback API_HOST {host!r}; "
            "set API_TOKEN or bind to 127.0.0.1")
    log.warning("API_TOKEN is not set: the API accepts unauthenticated requests (loopback only)")


async def send_json(send: Send, status: int, body: dict[str, Any],
                    headers: list[tuple[bytes, bytes]] | None = None) -> None:
    payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(payload)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": payload})


Resolver = Callable[[str], Awaitable["Principal | None"]]


def bearer_credential(scope: Scope) -> bytes | None:
    """The credential of the one ``Authorization: Bearer`` header, else ``None`` (absent or ambiguous)."""
    values = [v for k, v in scope.get("headers", []) if k.lower() == b"authorization"]
    if len(values) != 1:
        return None
    scheme, _, credentials = values[0].partition(b" ")
    if scheme.lower() != b"bearer":
        return None
    return credentials.strip()


def set_principal(scope: Scope, principal: Principal) -> None:
    scope.setdefault("state", {})[STATE_KEY] = principal


class BearerAuthMiddleware:
    """Resolve the caller's principal; 401 when a credential is required and missing or wrong."""

    def __init__(self, app: ASGIApp, token: str | None, exempt: frozenset[str] = EXEMPT_PATHS,
                 exempt_prefixes: tuple[str, ...] = (), resolver: Resolver | None = None) -> None:
        self.app = app
        self._token = token.encode("utf-8") if token else None
        self._exempt = exempt
        self._exempt_prefixes = exempt_prefixes
        self._resolver = resolver

    def _is_exempt(self, path: str) -> bool:
        return path in self._exempt or any(path == p or path.startswith(p + "/")
                                           for p in self._exempt_prefixes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._is_exempt(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        try:
            principal = await self.principal(scope)
        except KeyStoreUnavailable as exc:
            await send_json(send, 503, error_body("storage_unavailable", str(exc)), [(b"retry-after", b"1")])
            return
        if principal is None:
            await send_json(send, 401, error_body("unauthorized", "missing or invalid bearer token"),
                            [(b"www-authenticate", b'Bearer realm="pai-memory"')])
            return
        set_principal(scope, principal)
        await self.app(scope, receive, send)

    async def principal(self, scope: Scope) -> Principal | None:
        """The principal of the request's credential, or ``None`` (answer 401)."""
        credential = bearer_credential(scope)
        if credential is None:
            return ANONYMOUS if self._token is None else None
        if self._token is not None and hmac.compare_digest(credential, self._token):
            return BOOTSTRAP
        if self._resolver is not None:
            return await self._resolver(credential.decode("utf-8", "replace"))
        return ANONYMOUS if self._token is None else None


class RequestMetricsMiddleware:
    """Counts HTTP requests by route template and status (``pai_memory_api_requests_total``).

    Outermost, so requests refused by the auth or size checks are counted too; paths that are not
    routes of the app are counted as ``other`` (label values stay a bounded set).
    """

    def __init__(self, app: ASGIApp, routes: frozenset[str]) -> None:
        self.app = app
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from core import metrics

        status = 500

        async def capture(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, capture)
        finally:
            path = scope.get("path", "")
            metrics.API_REQUESTS.labels(path if path in self.routes else "other", str(status)).inc()


class BodyLimitMiddleware:
    """413 for request bodies larger than ``limit`` bytes (declared or streamed)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = [v for k, v in scope.get("headers", []) if k.lower() == b"content-length"]
        if declared:
            try:
                size = int(declared[0])
            except ValueError:
                await send_json(send, 400, error_body("bad_request", "invalid Content-Length header"))
                return
            if size > self.limit:
                await self._too_large(send)
                return
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            total += len(body)
            if total > self.limit:
                await self._too_large(send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        await send_json(send, 413, error_body("payload_too_large",
                                              f"request body exceeds {self.limit} bytes"),
                        [(b"connection", b"close")])
