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
