"""Ambiguous requests are refused (pure ASGI middleware).

A repeated query parameter (``?user_id=a&user_id=b``, also after percent-decoding the name) or a
JSON body with a duplicate object key at any depth (``{"user_id": "a", "user_id": "b"}``) would
resolve to the last value, while a gateway or log in front of the API may have looked at the first:
``AmbiguousRequestMiddleware`` answers 400 (``repeated_query_parameter`` / ``duplicate_json_key``,
``field`` naming the parameter or key) before the application sees the request.

Bodies that are not JSON at all pass through unchanged (the application answers them as before);
the body is buffered (the size limit is enforced by ``BodyLimitMiddleware`` outside this one) and
replayed to the application.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute, Match, Router

from api.auth import ASGIApp, Message, Receive, Scope, Send, send_json
from api.models import error_body


class DuplicateKeyError(ValueError):
    """A JSON object holds the same key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKeyError(key)
        out[key] = value
    return out


def duplicate_json_key(body: bytes) -> str | None:
    """The first key found twice in one object of the JSON ``body``; None if none, or not JSON."""
    try:
        json.loads(body, object_pairs_hook=_no_duplicates)
    except DuplicateKeyError as exc:
        return exc.key
    except (ValueError, RecursionError):  # not JSON (or too deep): the application answers it
        return None
    return None


def repeated_query_parameter(query_string: bytes) -> str | None:
    """The first parameter name given twice in ``query_string`` (names compared percent-decoded, as
    the application reads them); None if none."""
    seen: set[str] = set()
    for name, _ in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True):
        if name in seen:
            return name
        seen.add(name)
    return None


class AmbiguousRequestMiddleware:
    """400 for repeated query parameters and JSON bodies with duplicate keys (see module doc)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        repeated = repeated_query_parameter(scope.get("query_string", b""))
        if repeated is not None:
            await send_json(send, 400, error_body(
                "repeated_query_parameter", f"query parameter {repeated!r} is given more than once",
                repeated[:128]))
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        duplicate = duplicate_json_key(body) if body.strip() else None
        if duplicate is not None:
            await send_json(send, 400, error_body(
                "duplicate_json_key", f"JSON key {duplicate!r} occurs more than once in one object",
                duplicate[:128]))
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


# --- MCP: the same refusals for tool calls ---------------------------------------------------------
REFUSED_ARGUMENTS = "__pai_memory_refused__"
"""Key of the arguments a refused ``tools/call`` is rewritten to (see ``refuse_ambiguous_tool_calls``)."""


def _duplicate_anywhere(text: str) -> str | None:
    try:
        json.loads(text, object_pairs_hook=_no_duplicates)
    except DuplicateKeyError as exc:
        return exc.key
    except (ValueError, RecursionError):
        return None
    return None


def refuse_ambiguous_tool_calls(line: str, max_bytes: int) -> str:
    """One MCP JSON-RPC line (a message or a batch) as the tool server must see it.

    The SDK parses messages itself and keeps the last of duplicate keys, so the REST refusals are
    applied here first: a line holding a duplicate key at any depth, or longer than ``max_bytes``
    (``API_MAX_BODY_BYTES``, the REST body limit), has the arguments of each ``tools/call`` in it
    replaced by ``{REFUSED_ARGUMENTS: error}`` with the REST error (``duplicate_json_key`` with the key,
    ``payload_too_large``); the tool server answers that error as a tool error, nothing is written.
    Any other line, or a line that is not JSON (the SDK answers a parse error), is returned unchanged.
    """
    size = len(line.encode("utf-8", "surrogatepass"))
    duplicate = None if size > max_bytes else _duplicate_anywhere(line)
    if duplicate is None and size <= max_bytes:
        return line
    error: dict[str, str | None]
    if duplicate is not None:
        error = {"code": "duplicate_json_key",
                 "message": f"JSON key {duplicate!r} occurs more than once in one object",
                 "field": duplicate[:128]}
    else:
        error = {"code": "payload_too_large", "message": f"request body exceeds {max_bytes} bytes",
                 "field": None}
    try:
        parsed = json.loads(line)
    except (ValueError, RecursionError):
        return line
    messages = parsed if isinstance(parsed, list) else [parsed]
    changed = False
    for message in messages:
        if isinstance(message, dict) and message.get("method") == "tools/call":
            params = message.get("params")
            if not isinstance(params, dict):
                params = message["params"] = {}
            params["arguments"] = {REFUSED_ARGUMENTS: error}
            changed = True
    if not changed:  # no tool call in it: nothing is written by it, the SDK answers it
        return line
    return json.dumps(parsed, ensure_ascii=False) + ("\n" if line.endswith("\n") else "")


class StrictLines:
    """An async line source (the stdio transport's stdin) passed through ``refuse_ambiguous_tool_calls``."""

    def __init__(self, lines: Any, max_bytes: int) -> None:
        self.lines = lines
        self.max_bytes = max_bytes

    def __aiter__(self) -> StrictLines:
        self._it = self.lines.__aiter__()
        return self

    async def __anext__(self) -> str:
        line: str = await self._it.__anext__()
        return refuse_ambiguous_tool_calls(line, self.max_bytes)


# --- unknown query parameters ---------------------------------------------------------------------
def _query_names(dependant: Dependant) -> list[str]:
    """The query parameter names a route reads, its dependencies' included."""
    names = [p.alias for p in dependant.query_params]
    for sub in dependant.dependencies:
        names.extend(_query_names(sub))
    return names


def _full_match(routes: list[BaseRoute], scope: Scope) -> BaseRoute | None:
    """The route that fully matches ``scope``; inside an included router (FastAPI keeps
    ``include_router`` routers as one route holding ``original_router``), the route within it; None
    when nothing within resolves (the request then passes unchecked rather than refused wrongly)."""
    for route in routes:
        match, _ = route.matches(scope)
        if match is Match.FULL:
            inner = getattr(route, "original_router", None)
            if inner is not None:
                return _full_match(list(inner.routes), scope)  # None: a prefixed router, not checked
            return route
    return None


class UnknownQueryParameterMiddleware:
    """400 ``unknown_query_parameter`` (``field`` = the name) for a query parameter the matched route
    does not read, on every route (``/openapi.json``, health, metrics included): a typo such as
    ``?limt=5`` would otherwise be ignored silently. Routes under ``skip_prefix`` (the console, which
    validates its query strings itself, with the same code) and unmatched paths (404) pass through."""

    def __init__(self, app: ASGIApp, router: Router, skip_prefix: str) -> None:
        self.app = app
        self.router = router
        self.skip_prefix = skip_prefix
        self._declared: dict[int, frozenset[str]] = {}

    def _names(self, route: BaseRoute) -> frozenset[str]:
        names = self._declared.get(id(route))
        if names is None:
            found = _query_names(route.dependant) if isinstance(route, APIRoute) else []
            names = self._declared[id(route)] = frozenset(found)
        return names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        query = scope.get("query_string", b"") if scope["type"] == "http" else b""
        if not query or str(scope.get("path", "")).startswith(self.skip_prefix):
            await self.app(scope, receive, send)
            return
        route = _full_match(self.router.routes, scope)
        if route is not None:
            names = self._names(route)
            for name, _value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
                if name not in names:
                    path = getattr(route, "path", scope.get("path", ""))
                    await send_json(send, 400, error_body(
                        "unknown_query_parameter", f"query parameter {name!r} is not accepted by {path}",
                        name[:128]))
                    return
        await self.app(scope, receive, send)
