"""The MCP server: the memory tools and retrieval for MCP clients (official ``mcp`` SDK, lowlevel server).

Tools ``memory_save``, ``memory_append``, ``memory_delete``, ``memory_list``, ``memory_retrieve``,
``memory_history`` and ``memory_export`` (a memory's changes and the user's data, issue 27; under
``MCP_USER_ID`` the export is the user's own) call the same services as the HTTP API
(``api.services.build_services``: ``core.memory.tools.MemoryTools`` and ``core.retrieval.Retriever``).
Arguments are validated by the HTTP API's request models (``SaveRequest``, ``AppendRequest``,
``DeleteRequest``, ``ListRequest``, ``RetrieveRequest``, and here ``HistoryRequest``, ``ExportRequest``),
whose JSON Schemas are the tools' input schemas; results are the HTTP API's response bodies, as structured
content and as JSON text.

Errors are MCP tool errors (``isError: true``) whose structured content is the HTTP API's error body
``{"error": {"code", "message", "field"}}`` with the same codes and messages (``missing_field``,
``unknown_field``, ``invalid_field``, ``invalid_memory``, ``memory_not_found``, ``rate_limited``,
``storage_unavailable``, ``internal_error``); nothing is written when a call is refused. MCP validates
exactly as REST does (issue 26): a call whose raw JSON holds a duplicate key answers
``duplicate_json_key`` (stdio: a tool error; HTTP: 400 as the REST API), a line over
``API_MAX_BODY_BYTES`` ``payload_too_large`` (HTTP: 413), see ``api.strict.refuse_ambiguous_tool_calls``.

Who may call what (``api.keys``, the same rule as REST): every call is authorised for the key of the
MCP session: over HTTP the bearer key of each request (the environment ``API_TOKEN`` or an API key of
``pai-memory keys``), over stdio ``MCP_API_KEY`` when set (else the local process is trusted: every
scope, or ``read``+``write`` bound to ``MCP_USER_ID``). ``memory_list`` and ``memory_retrieve`` need
``read``, the writes need ``write``; a refusal is the tool error ``forbidden_scope`` or
``forbidden_user`` with the REST API's 403 wording.

Whose memories: when the key is bound to a user, or ``MCP_USER_ID`` is set, every tool acts for that
user: the input schemas have no ``user_id`` and a call that passes one is refused (``unknown_field``,
or ``forbidden_user`` when it names another user than the key's), so a model can never pick another
user. Without a binding, ``user_id`` is a required argument, as in the HTTP API.

Transports: ``stdio`` (a desktop client starts ``pai-memory mcp``) and streamable HTTP at
``http://MCP_HOST:MCP_PORT/mcp``, which requires ``API_TOKEN`` (``Authorization: Bearer``, the HTTP
API's constant-time check) and applies the API's body limit and per-token rate limit.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from api.errors import field_of, invalid_field, validation_message
from api.keys import ADMIN, ANONYMOUS, READ, SCOPES, STATE_KEY, WRITE, Forbidden, Principal, authorize
from api.models import (
    AppendRequest,
    DeleteRequest,
    ListRequest,
    MemoryListResponse,
    MemoryOut,
    RetrieveRequest,
    RetrieveResponse,
    SaveRequest,
    ToolResponse,
    UserId,
    error_body,
)
from api.ratelimit import KeyedRateLimiter, RateLimited
from api.routes.memories import HistoryResponse, history_document
from api.routes.users import export_chunks
from api.services import ApiServices, build_services
from api.strict import REFUSED_ARGUMENTS, StrictLines
from core import tracing
from core.config import ApiSettings, ConfigError, Settings
from core.memory.browse import find_user_pk
from core.memory.errors import InvalidMemoryInput, MemoryNotFound
from schemas.asyncapi import inline_refs

log = logging.getLogger(__name__)

SERVER_NAME = "pai-memory"
MCP_PATH = "/mcp"


class ToolCallError(Exception):
    """A refused tool call: carries the HTTP API's error code, message and field."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    model: type[BaseModel]
    read_only: bool


class HistoryRequest(BaseModel):
    """``memory_history``: the changes of one memory of the user (``GET /v1/memories/{id}/history``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    user_id: UserId
    memory_id: int = Field(ge=1, le=2**31 - 1)


class ExportRequest(BaseModel):
    """``memory_export``: the user's data (``GET /v1/users/{user_id}/export``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    user_id: UserId


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec("memory_save", "Create the user's memory with this key, or overwrite it.", SaveRequest, False),
    ToolSpec("memory_append", "Append to the user's memory with this key (created when absent).",
             AppendRequest, False),
    ToolSpec("memory_delete", "Deactivate the user's memory with this key (error memory_not_found when "
             "there is no active one).", DeleteRequest, False),
    ToolSpec("memory_list", "The user's live memories, most important and most recent first.",
             ListRequest, True),
    ToolSpec("memory_retrieve", "Memories relevant to a question, ranked, with a prompt_block ready to "
             "inject (data, never instructions); served_by says which path answered.", RetrieveRequest, True),
    ToolSpec("memory_history", "Every change of one of the user's memories (by id, as memory_list gives it): "
             "operation, old and new content, the message that caused it.", HistoryRequest, True),
    ToolSpec("memory_export", "Everything stored about the user (memories, history, messages) as one "
             "document (schemas/export.schema.json).", ExportRequest, True),
)


def input_schema(model: type[BaseModel], principal: str | None) -> dict[str, Any]:
    """The tool's input schema: the request model's JSON Schema (without ``user_id`` under a principal)."""
    schema = inline_refs(model.model_json_schema(mode="validation"))
    schema.pop("title", None)
    if principal is not None:
        schema["properties"].pop("user_id", None)
        schema["required"] = [name for name in schema.get("required", []) if name != "user_id"]
    return schema


class MemoryToolServer:
    """The tool handlers over ``ApiServices``; ``server`` is the SDK's lowlevel ``Server``."""

    def __init__(self, settings: Settings, services: ApiServices) -> None:
        self.settings = settings
        self.services = services
        self.principal = settings.MCP_USER_ID
        self.local_principal = _local_principal(settings, services)  # stdio: the session's key
        self.per_user = KeyedRateLimiter("user", settings.API_RATE_LIMIT_PER_USER,
                                         settings.API_RATE_LIMIT_PER_USER_BURST)
        self._specs = {spec.name: spec for spec in TOOLS}
        self.server: Server[Any] = Server(SERVER_NAME, version="1", on_list_tools=self._list_tools,
                                          on_call_tool=self._call_tool,
                                          instructions="Long-term memory of the user: retrieve before "
                                          "answering, save durable facts the user states.")

    def bound_user(self, principal: Principal) -> str | None:
        """The user every tool acts for: the key's user, else ``MCP_USER_ID``, else none."""
        return principal.user_id or self.principal

    def principal_of(self, ctx: ServerRequestContext[Any] | None) -> Principal:
        """The key of this call: the HTTP request's (set by the bearer middleware), else stdio's."""
        scope = getattr(getattr(ctx, "request", None), "scope", None)
        if isinstance(scope, dict):
            found = scope.get("state", {}).get(STATE_KEY)
            if isinstance(found, Principal):
                return found
        return self.local_principal

    def tools(self, principal: Principal | None = None) -> list[types.Tool]:
        bound = self.bound_user(principal or self.local_principal)
        return [types.Tool(name=spec.name, description=spec.description,
                           input_schema=input_schema(spec.model, bound),
                           annotations=types.ToolAnnotations(read_only_hint=spec.read_only,
                                                             destructive_hint=spec.name == "memory_delete",
                                                             open_world_hint=False))
                for spec in TOOLS]

    async def _list_tools(self, ctx: ServerRequestContext[Any],
                          _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self.tools(self.principal_of(ctx)))

    async def _call_tool(self, ctx: ServerRequestContext[Any],
                         params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            result = await anyio.to_thread.run_sync(self.call, params.name, dict(params.arguments or {}),
                                                    _trace_carrier(params), self.principal_of(ctx))
        except ToolCallError as exc:
            return _result(error_body(exc.code, exc.message, exc.field), is_error=True)
        return _result(result, is_error=False)

    def call(self, name: str, arguments: dict[str, Any], carrier: dict[str, str] | None = None,
             principal: Principal | None = None) -> dict[str, Any]:
        """Run one tool synchronously: its response body, or ``ToolCallError`` with the API's error.

        Traced (tracing on) as a SERVER span ``tools/call <name>``, child of the W3C context in
        ``carrier`` (the request's ``_meta.traceparent``/``tracestate``) when valid, else a new root;
        a write's outbox rows continue it. A refused call marks the span failed. ``principal`` is the
        caller's key (default: the stdio session's)."""
        caller = principal or self.local_principal
        if not tracing.enabled():
            return self._call(name, arguments, caller)
        span = tracing.server_span(f"tools/call {name}", carrier or {},
                                   {"mcp.method.name": "tools/call", "gen_ai.tool.name": name})
        with tracing.current(span):
            return self._call(name, arguments, caller)

    def _call(self, name: str, arguments: dict[str, Any], principal: Principal) -> dict[str, Any]:
        spec = self._specs.get(name)
        if spec is None:
            raise ToolCallError("unknown_tool", f"no tool named {name!r}", "name")
        refused = arguments.get(REFUSED_ARGUMENTS)
        if isinstance(refused, dict):  # the transport refused the raw call (``api.strict``)
            raise ToolCallError(str(refused.get("code")), str(refused.get("message")),
                                None if refused.get("field") is None else str(refused.get("field")))
        try:
            request = spec.model.model_validate(self._with_user(arguments, principal))
            authorize(principal, READ if spec.read_only else WRITE, request.user_id)  # type: ignore[attr-defined]
            if isinstance(request, ExportRequest) and request.user_id != self.bound_user(principal):
                authorize(principal, ADMIN, request.user_id)  # another user's data: admin only
            return self._dispatch(request)
        except ToolCallError:
            raise
        except Forbidden as exc:
            raise ToolCallError(exc.code, exc.message, exc.field) from None
        except ValidationError as exc:
            raise _validation_error(exc) from None
        except InvalidMemoryInput as exc:
            raise ToolCallError("invalid_memory", str(exc), invalid_field(str(exc))) from None
        except MemoryNotFound as exc:
            raise ToolCallError("memory_not_found", str(exc), "key") from None
        except RateLimited as exc:
            raise ToolCallError("rate_limited", str(exc)) from None
        except (OperationalError, PoolTimeout) as exc:
            raise _storage_unavailable(exc) from None
        except DBAPIError as exc:
            if exc.connection_invalidated:
                raise _storage_unavailable(exc) from None
            log.error("database error in %s: %s", name, type(exc).__name__)
            raise ToolCallError("internal_error", "internal error") from None
        except Exception as exc:
            log.error("unhandled error in %s: %s", name, type(exc).__name__, exc_info=exc)
            raise ToolCallError("internal_error", "internal error") from None

    def _with_user(self, arguments: dict[str, Any], principal: Principal) -> dict[str, Any]:
        """Arguments with the bound user's ``user_id``; refuses a ``user_id`` argument under a binding."""
        bound = self.bound_user(principal)
        if bound is None:
            return arguments
        if "user_id" in arguments:
            if principal.user_id is not None and arguments["user_id"] != principal.user_id:
                raise ToolCallError("forbidden_user", "this key is bound to another user", "user_id")
            raise ToolCallError("unknown_field", "user_id is not accepted: this server acts for its "
                                "configured user (MCP_USER_ID or the key's user)", "user_id")
        return {**arguments, "user_id": bound}

    def _dispatch(self, request: BaseModel) -> dict[str, Any]:
        tools, svc = self.services.tools, self.services
        self.per_user.check(request.user_id)  # type: ignore[attr-defined]  # every request model has it
        if isinstance(request, SaveRequest):
            out = tools.memory_save(request.tool_write()).as_dict()
            return _dump(ToolResponse, out)
        if isinstance(request, AppendRequest):
            out = tools.memory_append(request.tool_write()).as_dict()
            return _dump(ToolResponse, out)
        if isinstance(request, DeleteRequest):
            return _dump(ToolResponse, tools.memory_delete(request.user_id, request.key,
                                                           request.command_id).as_dict())
        if isinstance(request, ListRequest):
            items = tools.memory_list(request.user_id, request.memory_type, request.limit)
            return _dump(MemoryListResponse, {"user_id": request.user_id,
                                              "memories": [MemoryOut.model_validate(_json(m.as_dict()))
                                                           for m in items]})
        if isinstance(request, RetrieveRequest):
            result = svc.retriever.retrieve(request.user_id, request.question, request.conversation_summary,
                                            request.mode, request.limit, episode_limit=request.episode_limit,
                                            since=request.since, until=request.until,
                                            asked_at=request.asked_at, user_names=request.user_names)
            return _dump(RetrieveResponse, result.as_dict())
        if isinstance(request, HistoryRequest):
            doc = history_document(tools.sessions, request.user_id, request.memory_id)
            if doc is None:
                raise ToolCallError("memory_not_found", f"no memory {request.memory_id} for this user",
                                    "memory_id")
            return _dump(HistoryResponse, doc)
        if isinstance(request, ExportRequest):
            with tools.sessions() as session:
                known = find_user_pk(session, request.user_id) is not None
            if not known:
                raise ToolCallError("user_not_found", f"no user {request.user_id!r}", "user_id")
            exported: dict[str, Any] = json.loads(b"".join(export_chunks(tools.sessions, request.user_id)))
            return exported
        raise TypeError(f"no handler for {type(request).__name__}")


def _trace_carrier(params: types.CallToolRequestParams) -> dict[str, str]:
    """The W3C trace context a client put in the request's ``_meta`` (empty when off or absent)."""
    if not tracing.enabled() or params.meta is None:
        return {}
    meta = params.meta.model_dump(by_alias=True) if isinstance(params.meta, BaseModel) else dict(params.meta)
    return {k: v for k in tracing.TRACE_KEYS if isinstance(v := meta.get(k), str)}


def _json(value: dict[str, Any]) -> dict[str, Any]:
    from fastapi.encoders import jsonable_encoder

    out: dict[str, Any] = jsonable_encoder(value)
    return out


def _dump(model: type[BaseModel], value: dict[str, Any]) -> dict[str, Any]:
    """The body the HTTP API answers with (its response model, JSON mode)."""
    return model.model_validate(_json(value)).model_dump(mode="json")


def _validation_error(exc: ValidationError) -> ToolCallError:
    """The HTTP API's 422 for a request model's first error (same code, message and field)."""
    errors = exc.errors()
    first: Any = errors[0] if errors else {"type": "invalid", "loc": (), "msg": "invalid request"}
    kind = str(first.get("type", ""))
    code = {"missing": "missing_field", "extra_forbidden": "unknown_field"}.get(kind, "invalid_field")
    message = validation_message(first)
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more error(s))"
    return ToolCallError(code, message, field_of(first.get("loc", ())))


def _storage_unavailable(exc: Exception) -> ToolCallError:
    log.error("storage unavailable: %s", type(exc).__name__)
    return ToolCallError("storage_unavailable", "the memory store is unavailable, retry later")


def _result(body: dict[str, Any], *, is_error: bool) -> types.CallToolResult:
    text = json.dumps(body, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=body,
                                is_error=is_error)


def _local_principal(settings: ApiSettings, services: ApiServices) -> Principal:
    """The stdio session's key: ``MCP_API_KEY`` (resolved now; ``ConfigError`` when not live), else the
    trusted local process (every scope, or read+write bound to ``MCP_USER_ID``)."""
    from core import keys as store

    secret = settings.MCP_API_KEY.get_secret_value() if settings.MCP_API_KEY is not None else ""
    if secret:
        with services.tools.sessions() as session:
            info = store.lookup(session, secret)
        if info is None:
            raise ConfigError("MCP_API_KEY is not a live API key (unknown, revoked or expired)")
        return Principal(key_id=info.id, scopes=frozenset(info.scopes), user_id=info.user_id, name=info.name,
                         rate_limit=info.rate_limit)
    if settings.MCP_USER_ID is not None:  # the binding is applied by ``_with_user`` (unknown_field wording)
        return Principal(key_id="mcp-user", scopes=frozenset({READ, WRITE}), user_id=None,
                         name="MCP_USER_ID (local stdio)")
    return Principal(key_id=ANONYMOUS.key_id, scopes=SCOPES, user_id=None, name="local stdio process")


def build_server(settings: Settings, services: ApiServices | None = None) -> MemoryToolServer:
    """The tool server on ``services`` (built from the settings unless given; no network I/O)."""
    svc = services or build_services(settings)
    try:
        return MemoryToolServer(settings, svc)
    except ConfigError:
        if services is None:
            svc.close()
        raise


def serve_stdio(settings: Settings) -> None:
    """Serve MCP over stdin/stdout until the client closes stdin (logs go to stderr)."""
    import io
    import sys

    from mcp.server.stdio import stdio_server

    tool_server = build_server(settings)

    async def main() -> None:
        # stdin through the REST refusals (duplicate keys, size) before the SDK parses each line
        raw = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
        stdin: Any = StrictLines(raw, settings.API_MAX_BODY_BYTES)
        async with stdio_server(stdin=stdin) as (read_stream, write_stream):
            await tool_server.server.run(read_stream, write_stream,
                                         tool_server.server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        tool_server.services.close()


def http_app(settings: ApiSettings, tool_server: MemoryToolServer) -> Callable[..., Any]:
    """The streamable HTTP ASGI app at ``MCP_PATH``, behind the API's bearer token, body and rate limits.

    Raises ``ConfigError`` when ``API_TOKEN`` is not set: the HTTP transport never runs unauthenticated.
    """
    from api.auth import BearerAuthMiddleware, BodyLimitMiddleware
    from api.keys import KeyResolver
    from api.ratelimit import RateLimitMiddleware
    from api.strict import AmbiguousRequestMiddleware
    from core.storage.db import transaction

    token = settings.API_TOKEN.get_secret_value() if settings.API_TOKEN is not None else ""
    if not token:
        raise ConfigError("the MCP HTTP transport requires API_TOKEN (clients send Authorization: Bearer); "
                          "set API_TOKEN or use --transport stdio")
    app: Any = tool_server.server.streamable_http_app(streamable_http_path=MCP_PATH, host=settings.MCP_HOST)
    app = AmbiguousRequestMiddleware(app)  # duplicate JSON keys / repeated parameters: 400 as in REST
    app = BodyLimitMiddleware(app, limit=settings.API_MAX_BODY_BYTES)
    per_token = KeyedRateLimiter("token", settings.API_RATE_LIMIT_PER_TOKEN,
                                 settings.API_RATE_LIMIT_PER_TOKEN_BURST)
    app = RateLimitMiddleware(app, limiter=per_token, exempt=frozenset())
    sessions = tool_server.services.tools.sessions
    resolver = KeyResolver(lambda: transaction(sessions))
    tool_server.services.closers.append(resolver.flush)
    return BearerAuthMiddleware(app, token=token, exempt=frozenset(), resolver=resolver)


def serve_http(settings: Settings) -> None:
    """Serve MCP over streamable HTTP on ``MCP_HOST:MCP_PORT`` until SIGINT/SIGTERM."""
    import uvicorn

    tool_server = build_server(settings)
    try:
        app = http_app(settings, tool_server)
        log.info("pai-memory MCP server listening on http://%s:%d%s", settings.MCP_HOST, settings.MCP_PORT,
                 MCP_PATH)
        uvicorn.run(app, host=settings.MCP_HOST, port=settings.MCP_PORT, log_config=None, access_log=False,
                    server_header=False, proxy_headers=False, timeout_graceful_shutdown=5)
    finally:
        tool_server.services.close()
