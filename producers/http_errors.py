"""The errors of the pai-memory HTTP client: one ``PaiMemoryError`` subclass per HTTP status, carrying the
API's ``{"error": {"code", "message", "field"}}`` and the ``Retry-After`` of the answer."""

from __future__ import annotations

import httpx


class PaiMemoryError(Exception):
    """An error answer of the API: HTTP ``status`` and the body's ``code``, ``message`` and ``field``."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}" + (f" (field {field})" if field else ""))
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retry_after = retry_after


class BadRequest(PaiMemoryError):
    """400: malformed JSON, a duplicate key or query parameter."""


class Unauthorized(PaiMemoryError):
    """401: missing or wrong token."""


class Forbidden(PaiMemoryError):
    """403: the key lacks the scope (``forbidden_scope``) or is bound to another user (``forbidden_user``)."""


class NotFound(PaiMemoryError):
    """404: ``memory_not_found``, ``user_not_found``, ``job_not_found``, ``not_found``."""


class Conflict(PaiMemoryError):
    """409: e.g. ``memory_inactive`` (a deleted memory cannot be corrected)."""


class PayloadTooLarge(PaiMemoryError):
    """413: the body exceeds the server's limit."""


class InvalidRequest(PaiMemoryError):
    """422: ``invalid_field``, ``missing_field``, ``unknown_field``, ``invalid_memory``."""


class RateLimited(PaiMemoryError):
    """429 after the retries; ``retry_after`` says when to come back."""


class Unavailable(PaiMemoryError):
    """503 after the retries: ``storage_unavailable`` or ``kafka_unavailable`` (nothing was acknowledged)."""


class ServerError(PaiMemoryError):
    """500 and other unexpected statuses."""


class ConnectionFailed(PaiMemoryError):
    """The API could not be reached (or did not answer in time) after the retries; ``status`` is 0."""


class JobFailed(PaiMemoryError):
    """``wait_for_job``: the job ended ``failed`` (its ``error`` is the message)."""


_BY_STATUS: dict[int, type[PaiMemoryError]] = {
    400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound, 409: Conflict, 413: PayloadTooLarge,
    422: InvalidRequest, 429: RateLimited, 503: Unavailable}
RETRY_STATUSES = frozenset({429, 503})


def retry_after(response: httpx.Response) -> float | None:
    """The answer's ``Retry-After`` in seconds (``None`` when absent or not a number of seconds)."""
    value = response.headers.get("retry-after")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def error_of(response: httpx.Response) -> PaiMemoryError:
    """The typed error of a non-2xx answer."""
    try:
        body = response.json()["error"]
        code, message, field = str(body["code"]), str(body["message"]), body.get("field")
    except (ValueError, KeyError, TypeError):
        code, message, field = "http_error", response.text[:200] or response.reason_phrase, None
    cls = _BY_STATUS.get(response.status_code, ServerError)
    return cls(response.status_code, code, message, field, retry_after(response))
