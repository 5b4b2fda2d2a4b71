"""The HTTP API the chat service calls: retrieval and the four memory tools.

``create_app(settings)`` builds the FastAPI application; importing this module or calling the
factory does no network I/O (database, Milvus and embedder clients connect on first use).

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
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.auth import BearerAuthMiddleware, BodyLimitMiddleware, RequestMetricsMiddleware
from api.console import PREFIX as CONSOLE_PREFIX
from api.console import install_console
from api.errors import field_of, invalid_field, validation_message
from api.health import Readiness
from api.keys import (
    READ,
    WRITE,
    Forbidden,
    KeyResolver,
    KeyStoreUnavailable,
    Principal,
    authorize,
    principal_dep,
)
from api.models import (
    ERROR_RESPONSES,
    ID_PATTERN,
    LIST_LIMIT_DEFAULT,
    LIST_LIMIT_MAX,
    AppendRequest,
    DeleteRequest,
    MemoryListResponse,
    RetrieveRequest,
    RetrieveResponse,
    SaveRequest,
    ToolResponse,
    error_body,
)
from api.ratelimit import KeyedRateLimiter, RateLimited, RateLimitMiddleware, rate_limited_response_parts
from api.routes import install_routes, openapi_components
from api.routes.examples import apply_examples
from api.strict import AmbiguousRequestMiddleware, UnknownQueryParameterMiddleware
from api.tracing import TracingMiddleware
from core.config import RetrieveMode, Settings
from core.memory.errors import InvalidMemoryInput, MemoryNotFound
from core.memory.tools import MemoryTools
from core.retrieval import Retriever
from core.types import MemoryType

log = logging.getLogger(__name__)

Caller = Annotated[Principal, Depends(principal_dep)]
API_VERSION = "1"


@dataclass
class ApiServices:
    """What the endpoints call; ``close`` releases them at shutdown."""

    tools: MemoryTools
    retriever: Retriever
    readiness: Readiness
    warm_up: Callable[[], None] | None = None
    closers: list[Callable[[], None]] = field(default_factory=list)
    starters: list[Callable[[], None]] = field(default_factory=list)  # run when the app starts

    def close(self) -> None:
        for closer in (*reversed(self.closers), self.retriever.close, self.readiness.close):
            try:
                closer()
            except Exception:  # shutdown must release every service even if one fails
                log.exception("error while closing an API service")


def build_services(settings: Settings) -> ApiServices:
    """Services wired from the settings, sharing one engine and one embedder. No network I/O."""
    from core.embedding.factory import build_embedder
    from core.memory.writer import MemoryWriter
    from core.retrieval import build_retriever
    from core.storage.db import engine_for, session_factory

    engine = engine_for(settings.database_url, settings.DATABASE_POOL_SIZE)
    sessions = session_factory(engine)
    writer = MemoryWriter.from_settings(settings)
    embedder = build_embedder(settings)
    retriever = build_retriever(settings, sessions, embedder)
    warm = getattr(embedder, "warm_up", None)
    dense = settings.MEMORY_MILVUS_ENABLED and settings.LONG_TERM_MEMORY_RETRIEVE_MODE is RetrieveMode.DENSE
    return ApiServices(MemoryTools(sessions, writer), retriever, Readiness(settings, engine),
                       warm_up=warm if dense and callable(warm) else None)


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"type": "invalid", "loc": (), "msg": "invalid request"}
        kind = str(first.get("type", ""))
        if kind == "json_invalid":
            return JSONResponse(error_body("malformed_json", "request body is not valid JSON"), 400)
        if kind == "missing" and tuple(first.get("loc", ())) == ("body",):  # no body at all (issue 26)
            return JSONResponse(error_body("missing_body", "request body is required: a JSON object",
                                           "body"), 422)
        code = {"missing": "missing_field", "extra_forbidden": "unknown_field"}.get(kind, "invalid_field")
        message = validation_message(first)
        if len(errors) > 1:
            message += f" (and {len(errors) - 1} more error(s))"
        return JSONResponse(error_body(code, message, field_of(first.get("loc", ()))), 422)

    @app.exception_handler(InvalidMemoryInput)
    async def _invalid(_request: Request, exc: InvalidMemoryInput) -> JSONResponse:
        return JSONResponse(error_body("invalid_memory", str(exc), invalid_field(str(exc))), 422)

    @app.exception_handler(Forbidden)
    async def _forbidden(_request: Request, exc: Forbidden) -> JSONResponse:
        return JSONResponse(error_body(exc.code, exc.message, exc.field), 403)

    @app.exception_handler(RateLimited)
    async def _rate_limited(_request: Request, exc: RateLimited) -> JSONResponse:
        body, headers = rate_limited_response_parts(exc)
        return JSONResponse(body, 429, headers={k.decode(): v.decode() for k, v in headers})

    @app.exception_handler(MemoryNotFound)
    async def _not_found(_request: Request, exc: MemoryNotFound) -> JSONResponse:
        return JSONResponse(error_body("memory_not_found", str(exc), "key"), 404)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and exc.detail == "There was an error parsing the body":
            # the body could not be decoded at all (invalid UTF-8, nested too deep): not JSON either
            return JSONResponse(error_body("malformed_json", "request body is not valid JSON "
                                           "(not UTF-8, or nested too deep)"), 400)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(error_body(code, str(exc.detail)), exc.status_code, headers=exc.headers)

    async def _storage(_request: Request, exc: Exception) -> JSONResponse:
        log.error("storage unavailable: %s", type(exc).__name__)
        return JSONResponse(error_body("storage_unavailable", "the memory store is unavailable, retry later"),
                            503, headers={"retry-after": "1"})

    app.add_exception_handler(OperationalError, _storage)
    app.add_exception_handler(KeyStoreUnavailable, _storage)  # a console login with an API key
    app.add_exception_handler(PoolTimeout, _storage)

    async def _dbapi(request: Request, exc: Exception) -> JSONResponse:
        if isinstance(exc, DBAPIError) and exc.connection_invalidated:
            return await _storage(request, exc)
        log.exception("database error")
        return JSONResponse(error_body("internal_error", "internal error"), 500)

    app.add_exception_handler(DBAPIError, _dbapi)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.error("unhandled error: %s", type(exc).__name__, exc_info=exc)
        return JSONResponse(error_body("internal_error", "internal error"), 500)


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
    per_user = KeyedRateLimiter("user", settings.API_RATE_LIMIT_PER_USER,
                                settings.API_RATE_LIMIT_PER_USER_BURST)
    per_token = KeyedRateLimiter("token", settings.API_RATE_LIMIT_PER_TOKEN,
                                 settings.API_RATE_LIMIT_PER_TOKEN_BURST)
    app.state.rate_limits = {"user": per_user, "token": per_token}
    _install_error_handlers(app)
    _install_openapi(app, secured=token is not None)

    @app.get("/healthz", tags=["health"])
    def healthz() -> dict[str, str]:
        """Liveness: the process answers. Needs no token."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["health"], responses={503: {"description": "PostgreSQL does not answer"}})
    def readyz() -> JSONResponse:
        """Readiness: PostgreSQL must answer; Milvus and Kafka are reported but not required."""
        ready, checks = svc.readiness.check()
        return JSONResponse({"status": "ready" if ready else "not_ready", "checks": checks},
                            200 if ready else 503)

    @app.post("/v1/retrieve", response_model=RetrieveResponse, tags=["retrieval"], responses=ERROR_RESPONSES)
    def retrieve(body: RetrieveRequest, principal: Caller) -> dict[str, Any]:
        """Memories for a prompt; ``served_by`` says which path answered (dense, lexical_fallback...)."""
        authorize(principal, READ, body.user_id)
        per_user.check(body.user_id)
        result = svc.retriever.retrieve(body.user_id, body.question, body.conversation_summary, body.mode,
                                        body.limit, episode_limit=body.episode_limit, since=body.since,
                                        until=body.until, asked_at=body.asked_at)
        return result.as_dict()

    @app.post("/v1/memories/save", response_model=ToolResponse, tags=["tools"], responses=ERROR_RESPONSES)
    def memory_save(body: SaveRequest, principal: Caller) -> dict[str, Any]:
        """``memory_save``: create or overwrite the memory with this key."""
        authorize(principal, WRITE, body.user_id)
        per_user.check(body.user_id)
        return svc.tools.memory_save(body.tool_write()).as_dict()

    @app.post("/v1/memories/append", response_model=ToolResponse, tags=["tools"], responses=ERROR_RESPONSES)
    def memory_append(body: AppendRequest, principal: Caller) -> dict[str, Any]:
        """``memory_append``: add to the memory with this key (created when absent)."""
        authorize(principal, WRITE, body.user_id)
        per_user.check(body.user_id)
        return svc.tools.memory_append(body.tool_write()).as_dict()

    @app.post("/v1/memories/delete", response_model=ToolResponse, tags=["tools"],
              responses={**ERROR_RESPONSES, 404: ERROR_RESPONSES[422] | {"description": "no active memory"}})
    def memory_delete(body: DeleteRequest, principal: Caller) -> dict[str, Any]:
        """``memory_delete``: deactivate the memory with this key."""
        authorize(principal, WRITE, body.user_id)
        per_user.check(body.user_id)
        return svc.tools.memory_delete(body.user_id, body.key, body.command_id).as_dict()

    @app.get("/v1/memories", response_model=MemoryListResponse, tags=["tools"], responses=ERROR_RESPONSES)
    def memory_list(principal: Caller, user_id: Annotated[str, Query(pattern=ID_PATTERN)],
                    memory_type: Annotated[MemoryType | None, Query()] = None,
                    limit: Annotated[int, Query(ge=1, le=LIST_LIMIT_MAX)] = LIST_LIMIT_DEFAULT,
                    ) -> dict[str, Any]:
        """``memory_list``: the user's live memories, most important and most recent first."""
        authorize(principal, READ, user_id)
        per_user.check(user_id)
        items = svc.tools.memory_list(user_id, memory_type, limit)
        return {"user_id": user_id, "memories": jsonable_encoder([m.as_dict() for m in items])}

    @app.get("/metrics", tags=["health"], response_class=Response)
    def prometheus_metrics() -> Response:
        """Prometheus metrics of this process (text exposition format)."""
        from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

        return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)

    install_routes(app, settings, svc)
    from core.storage.db import transaction

    resolver = KeyResolver(lambda: transaction(svc.tools.sessions))
    app.state.key_resolver = resolver
    svc.closers.append(resolver.flush)
    install_console(app, settings, svc, token)
    routes = frozenset(getattr(r, "path", "") for r in app.routes)
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
