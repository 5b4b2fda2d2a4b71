"""A SERVER span per HTTP request (README "Traces"), so a tool write's outbox rows continue its trace.

``TracingMiddleware`` is the outermost ASGI layer. With tracing off (``core.tracing.enabled()`` False:
``OTEL_ENABLED`` unset) it hands the request on untouched: no header is read, nothing is recorded.
On, each HTTP request is a SERVER span named ``<METHOD> <route>`` (the method alone for a path that is
no route of the app, so names stay a bounded set), child of the caller's W3C ``traceparent`` /
``tracestate`` headers when valid, else a new root (a malformed header is ignored, never an error).
The span is current while the app handles the request (FastAPI runs sync endpoints in a worker thread
with a copy of the context), so a write's outbox rows carry it to the relay; a 5xx marks it failed.
"""

from __future__ import annotations

from opentelemetry.trace import StatusCode
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from core import tracing


class TracingMiddleware:
    """See the module docstring; ``routes``: the app's route paths (the span name's route)."""

    def __init__(self, app: ASGIApp, routes: frozenset[str]) -> None:
        self.app = app
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not tracing.enabled():
            await self.app(scope, receive, send)
            return
        method = str(scope.get("method", "GET"))
        path = str(scope.get("path", ""))
        route = path if path in self.routes else None
        carrier: dict[str, str] = {}
        for raw_key, raw_value in scope.get("headers") or ():
            key = raw_key.decode("latin-1").lower()
            if key in tracing.TRACE_KEYS and key not in carrier:
                carrier[key] = raw_value.decode("latin-1")
        attributes: dict[str, str] = {"http.request.method": method, "url.path": path}
        if route is not None:
            attributes["http.route"] = route
        span = tracing.server_span(f"{method} {route}" if route else method, carrier, attributes)

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                status = int(message["status"])
                span.set_attribute("http.response.status_code", status)
                if status >= 500:
                    span.set_status(StatusCode.ERROR)
            await send(message)

        with tracing.current(span):
            await self.app(scope, receive, capture)
