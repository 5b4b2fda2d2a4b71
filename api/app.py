"""The HTTP API the chat service calls: retrieval and the four memory tools.

``create_app(settings)`` builds the FastAPI application: the services (``api.services``), the routers
(``api.routes``), the console (``api.console``), the error handlers (``api.error_handlers``), the
OpenAPI document and the middleware. Importing this module or calling the factory does no network I/O
(database, Milvus and embedder clients connect on first use).

Endpoints (JSON):
- ``POST /v1/retrieve``           ``RetrieveRequest``  -> ``RetrieveResponse``
- ``POST /v1/memories/save``      ``SaveRequest``      -> ``ToolResponse``
- ``POST /v1/memories/append``    ``AppendRequest``    -> ``ToolResponse``
- ``POST /v1/memories/delete``    ``DeleteRequest``    -> ``ToolResponse`` (404 if no active memory)
- ``GET  /v1/memories?user_id=&memory_type=&limit=``   -> ``MemoryListResponse``
- ``GET  /healthz`` liveness (never needs the token), ``GET /readyz`` readiness (503 if PostgreSQL
  does not answer; Milvus and Kafka are reported), ``GET /metrics`` (Prometheus),
  ``GET /openapi.json``.
- ``/console/...``: the operator console (HTML, ``api.console``; its own login with the same token).

Errors are always ``{"error": {"code", "message", "field"}}``: 400 malformed JSON, a repeated query
parameter or a duplicate JSON key (``api.strict``), 401 missing or
wrong bearer token, 404 unknown memory/route, 413 body over ``API_MAX_BODY_BYTES``, 422 invalid
field or rejected memory (``InvalidMemoryInput``), 429 over a rate limit (per token, per user;
``api.ratelimit``, with ``Retry-After``), 503 PostgreSQL unavailable, 500 otherwise.
Tool writes go through ``core.memory.tools.MemoryTools`` (one transaction per write, like every
other door).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from api.auth import BearerAuthMiddleware, BodyLimitMiddleware, RequestMetricsMiddleware
from api.console import PREFIX as CONSOLE_PREFIX
from api.console import install_console
from api.error_handlers import install_error_handlers
from api.keys import KeyResolver
from api.ratelimit import KeyedRateLimiter, RateLimitMiddleware
from api.routes import METERED_ROUTERS, ROUTERS, openapi_components
from api.routes.examples import apply_examples
from api.services import ApiServices, build_services, wire_ingest, wire_jobs
from api.strict import AmbiguousRequestMiddleware, UnknownQueryParameterMiddleware
from api.tracing import TracingMiddleware
from core.config import Settings

__all__ = ["API_VERSION", "ApiServices", "build_services", "create_app"]

log = logging.getLogger(__name__)

API_VERSION = "1"


def _install_openapi(app: FastAPI, secured: bool) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description,
                                 routes=app.routes)
            schema.setdefault("components", {}).setdefault("schemas", {}).update(openapi_components())
            apply_examples(schema)
            schema.setdefault("components", {})["securitySchemes"] = {
                "bearerAuth": {"type": "http", "scheme": "bearer",
                               "description": "API_TOKEN; required on every endpoint except /healthz"
                                              + ("" if secured else " (not configured on this server)")}}
            for path, operations in schema.get("paths", {}).items():
                if path == "/healthz":
                    continue
                for operation in operations.values():
                    operation["security"] = [{"bearerAuth": []}]
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def create_app(settings: Settings, services: ApiServices | None = None) -> FastAPI:
    """The FastAPI application for ``settings`` (services built from them unless given)."""
    svc = services or build_services(settings)
    token = settings.API_TOKEN.get_secret_value() if settings.API_TOKEN is not None else None
    token = token or None

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if svc.warm_up is not None:  # load the embedding model off the request path
            threading.Thread(target=_safe_warm_up, args=(svc.warm_up,), name="embedder-warm-up",
                             daemon=True).start()
        for start in svc.starters:
            start()
        try:
            yield
        finally:
            svc.close()

    app = FastAPI(title="pai-memory", version=API_VERSION, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Per-user long-term memory: retrieval for prompts and the memory tools.")
    app.state.services = svc
    app.state.settings = settings
    per_user = KeyedRateLimiter("user", settings.API_RATE_LIMIT_PER_USER,
                                settings.API_RATE_LIMIT_PER_USER_BURST)
    per_token = KeyedRateLimiter("token", settings.API_RATE_LIMIT_PER_TOKEN,
                                 settings.API_RATE_LIMIT_PER_TOKEN_BURST)
    app.state.rate_limits = {"user": per_user, "token": per_token}
    install_error_handlers(app)
    _install_openapi(app, secured=token is not None)
    for router in ROUTERS:
        app.include_router(router)
    app.state.jobs = wire_jobs(settings, svc)
    app.state.ingest = wire_ingest(settings, svc)
    from core.storage.db import transaction

    resolver = KeyResolver(lambda: transaction(svc.tools.sessions))
    app.state.key_resolver = resolver
    svc.closers.append(resolver.flush)
    install_console(app, settings, svc, token)
    routes = frozenset({"/openapi.json", *(getattr(r, "path", "") for m in METERED_ROUTERS
                                           for r in m.routes)})
    # innermost: unknown query parameters refused on every route (the console validates its own)
    app.add_middleware(UnknownQueryParameterMiddleware, router=app.router, skip_prefix=CONSOLE_PREFIX)
    app.add_middleware(AmbiguousRequestMiddleware)  # sees the body within the size limit
    app.add_middleware(BodyLimitMiddleware, limit=settings.API_MAX_BODY_BYTES)
    app.add_middleware(RateLimitMiddleware, limiter=per_token)  # after the token check, before the body
    app.add_middleware(BearerAuthMiddleware, token=token, exempt_prefixes=(CONSOLE_PREFIX,),
                       resolver=resolver)
    app.add_middleware(RequestMetricsMiddleware, routes=routes)
    app.add_middleware(TracingMiddleware, routes=routes)  # outermost: a span per request when tracing is on
    return app


def _safe_warm_up(warm_up: Callable[[], None]) -> None:
    try:
        warm_up()
    except Exception as exc:  # a failed warm-up only means the first dense query pays for loading
        log.warning("embedder warm-up failed: %s", type(exc).__name__)
