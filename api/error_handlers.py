"""The API's exception handlers: every error answered as ``{"error": {"code", "message", "field"}}``.

400 malformed JSON (or a body that is not UTF-8), 403 ``forbidden_scope``/``forbidden_user``
(``api.keys.Forbidden``), 404 ``memory_not_found``/``not_found``, 405, 422 invalid field or rejected
memory (``InvalidMemoryInput``), 429 ``rate_limited`` with ``Retry-After``, 503 ``storage_unavailable``
with ``Retry-After: 1`` (PostgreSQL or the key store unavailable, pool timeout, a connection lost), 500
``internal_error`` otherwise (the exception's type is logged, never its message).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.errors import field_of, invalid_field, validation_message
from api.keys import Forbidden, KeyStoreUnavailable
from api.models import error_body
from api.ratelimit import RateLimited, rate_limited_response_parts
from core.memory.errors import InvalidMemoryInput, MemoryNotFound

log = logging.getLogger(__name__)


def install_error_handlers(app: FastAPI) -> None:
    """Every error as ``{"error": {"code", "message", "field"}}`` (see ``api.app``'s module doc)."""
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
