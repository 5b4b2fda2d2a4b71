"""Typed Python client of the pai-memory HTTP API, sync (``MemoryClient``) and async (``AsyncMemoryClient``).

It lives beside ``producers.client.MemoryEventProducer`` because it plays the same role for a chat
service that has no Kafka client: it publishes chat turns (``POST /v1/messages``, confirmed by the
broker before the API answers) and calls the memory tools and retrieval. It depends on ``httpx`` and the
event contract (``schemas``) only, never on the server's code.

Covers every route: ``retrieve``, the four tools (``save``, ``append``, ``delete``, ``list_memories``),
``get``, ``history``, ``patch``, ``export``, ``erase`` (+ ``job``, ``wait_for_job``) and ``publish_messages``.

- Errors: a non-2xx answer raises a ``PaiMemoryError`` subclass by status (``BadRequest``,
  ``Unauthorized``, ``Forbidden``, ``NotFound``, ``Conflict``, ``PayloadTooLarge``, ``InvalidRequest``,
  ``RateLimited``, ``Unavailable``, ``ServerError``) carrying the API's ``code``, ``message`` and
  ``field``; a transport failure after the retries raises ``ConnectionFailed``.
- Retries: 429 and 503 are retried after their ``Retry-After`` (capped at ``max_retry_after``),
  connection errors after an exponential backoff, up to ``retries`` times. Every call is safe to repeat:
  tool writes change nothing when the state is already there (use ``command_id`` to make one strictly
  idempotent), a re-published message id changes nothing downstream, an erasure reuses the open job.
- Timeouts: ``timeout`` seconds per request (``httpx.Timeout`` accepted).

Usage::

    with MemoryClient("http://127.0.0.1:8080", token="...") as memory:
        found = memory.retrieve("user-42", "what should I cook tonight?")
        prompt = found["prompt_block"] + "\\n\\n" + question
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Self, TypedDict

import httpx

from schemas import ChatMessageData

# --- response types (the API's JSON bodies; see schemas/openapi.json) ---------------------------------


class Memory(TypedDict):
    id: int
    key: str
    memory_type: str
    content: str
    importance: int
    confidence: float
    created_at: str
    updated_at: str
    expires_at: str | None
    last_accessed_at: str | None


class RetrievedItem(TypedDict):
    memory: Memory
    score: float
    components: dict[str, float]


class RetrieveResult(TypedDict):
    user_id: str
    requested_mode: str
    served_by: str
    fallback_reason: str | None
    items: list[RetrievedItem]
    prompt_block: str
    took_ms: float


class ToolResult(TypedDict):
    tool: str
    user_id: str
    key: str
    memory_id: int | None
    operation: str | None
    changed: bool
    duplicate_command: bool


class MemoryList(TypedDict):
    user_id: str
    memories: list[Memory]


class MemoryDetail(TypedDict):
    id: int
    user_id: str
    key: str
    memory_type: str | None
    content: str | None
    importance: int | None
    confidence: float | None
    is_active: bool
    expired: bool
    expires_at: str | None
    vector_status: str | None
    vector_error: str | None
    vector_synced_at: str | None
    source_message_id: int | None
    created_at: str
    updated_at: str


class Change(TypedDict):
    id: int
    operation: str
    source: str
    command_id: str | None
    old_content: str | None
    new_content: str | None
    memory_type: str | None
    reason: str | None
    created_at: str
    message: dict[str, Any] | None


class History(TypedDict):
    memory_id: int
    user_id: str
    changes: list[Change]


class PatchResult(TypedDict):
    memory_id: int
    operation: str | None
    changed: bool
    memory: MemoryDetail


class JobAccepted(TypedDict):
    job_id: str
    status: str
    status_url: str


class Job(TypedDict):
    id: str
    kind: str
    status: str
    requested_by: str
    attempts: int
    result: dict[str, Any] | None
    error: str | None
    created_at: str | None
    started_at: str | None
    finished_at: str | None


class Accepted(TypedDict):
    message_id: str
    event_id: str
    topic: str
    partition: int
    offset: int


class UserExport(TypedDict):
    format: str
    user_id: str
    exported_at: str
    memories: list[dict[str, Any]]
    history: list[dict[str, Any]]
    messages: list[dict[str, Any]]


# --- errors ---------------------------------------------------------------------------------------------


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


def _retry_after(response: httpx.Response) -> float | None:
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
    return cls(response.status_code, code, message, field, _retry_after(response))


# --- requests (shared by both clients) ----------------------------------------------------------------

Method = Literal["GET", "POST", "PATCH", "DELETE"]


def _drop_none(values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _message_body(messages: Sequence[ChatMessageData | Mapping[str, Any]]) -> dict[str, Any]:
    items = [m.model_dump(mode="json", exclude_none=True) if isinstance(m, ChatMessageData) else dict(m)
             for m in messages]
    return {"messages": items}


class _Base:
    def __init__(self, base_url: str, token: str | None, *, timeout: float | httpx.Timeout = 10.0,
                 retries: int = 3, backoff: float = 0.2, max_retry_after: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_retry_after = max_retry_after
        self.retried = 0  # retries done by this client (429/503/connection), for monitoring

    def _delay(self, attempt: int, response: httpx.Response | None) -> float | None:
        """Seconds to wait before the next attempt, or ``None`` to give up."""
        if attempt >= self.retries:
            return None
        if response is None:
            return float(self.backoff * (2 ** attempt))
        if response.status_code not in RETRY_STATUSES:
            return None
        after = _retry_after(response)
        if after is None:
            return float(self.backoff * (2 ** attempt))
        return min(after, self.max_retry_after)

    @staticmethod
    def _result(response: httpx.Response) -> Any:
        if response.is_success:
            return response.json()
        raise error_of(response)

    @staticmethod
    def _connection_failed(exc: Exception) -> ConnectionFailed:
        return ConnectionFailed(0, "connection_failed", f"{type(exc).__name__}: {exc}")


# --- sync ---------------------------------------------------------------------------------------------


class MemoryClient(_Base):
    """Synchronous client (one ``httpx.Client``; close it or use ``with``)."""

    def __init__(self, base_url: str, token: str | None = None, *, timeout: float | httpx.Timeout = 10.0,
                 retries: int = 3, backoff: float = 0.2, max_retry_after: float = 30.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        super().__init__(base_url, token, timeout=timeout, retries=retries, backoff=backoff,
                         max_retry_after=max_retry_after)
        self._http = httpx.Client(base_url=self.base_url, headers=self.headers, timeout=timeout,
                                  transport=transport)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _call(self, method: Method, path: str, *, json: Any = None,
              params: Mapping[str, Any] | None = None) -> Any:
        attempt = 0
        while True:
            try:
                response = self._http.request(method, path, json=json, params=params)
            except httpx.TransportError as exc:
                delay = self._delay(attempt, None)
                if delay is None:
                    raise self._connection_failed(exc) from exc
            else:
                delay = self._delay(attempt, response)
                if delay is None:
                    return self._result(response)
            attempt += 1
            self.retried += 1
            time.sleep(delay)

    # retrieval and the four tools
    def retrieve(self, user_id: str, question: str, *, conversation_summary: str | None = None,
                 mode: str | None = None, limit: int | None = None) -> RetrieveResult:
        """Memories for a prompt; ``prompt_block`` is ready to inject."""
        body = _drop_none({"user_id": user_id, "question": question,
                           "conversation_summary": conversation_summary, "mode": mode, "limit": limit})
        result: RetrieveResult = self._call("POST", "/v1/retrieve", json=body)
        return result

    def save(self, user_id: str, key: str, content: str, **fields: Any) -> ToolResult:
        """``memory_save``; ``fields``: memory_type, importance, confidence, ttl_days, conversation_id,
        command_id."""
        result: ToolResult = self._call("POST", "/v1/memories/save",
                                        json=_drop_none({"user_id": user_id, "key": key, "content": content,
                                                         **fields}))
        return result

    def append(self, user_id: str, key: str, content: str, **fields: Any) -> ToolResult:
        """``memory_append`` (same fields as ``save``)."""
        result: ToolResult = self._call("POST", "/v1/memories/append",
                                        json=_drop_none({"user_id": user_id, "key": key, "content": content,
                                                         **fields}))
        return result

    def delete(self, user_id: str, key: str, *, command_id: str | None = None) -> ToolResult:
        """``memory_delete`` (``NotFound`` when there is no active memory with that key)."""
        result: ToolResult = self._call("POST", "/v1/memories/delete",
                                        json=_drop_none({"user_id": user_id, "key": key,
                                                         "command_id": command_id}))
        return result

    def list_memories(self, user_id: str, *, memory_type: str | None = None,
                      limit: int | None = None) -> MemoryList:
        """``memory_list``: the user's live memories."""
        result: MemoryList = self._call("GET", "/v1/memories", params=_drop_none(
            {"user_id": user_id, "memory_type": memory_type, "limit": limit}))
        return result

    # memories by id
    def get(self, user_id: str, memory_id: int) -> MemoryDetail:
        result: MemoryDetail = self._call("GET", f"/v1/memories/{int(memory_id)}",
                                          params={"user_id": user_id})
        return result

    def history(self, user_id: str, memory_id: int) -> History:
        result: History = self._call("GET", f"/v1/memories/{int(memory_id)}/history",
                                     params={"user_id": user_id})
        return result

    def patch(self, user_id: str, memory_id: int, *, content: str | None = None,
              importance: int | None = None, ttl_days: int | None = None) -> PatchResult:
        """A human correction (history records the key that made it)."""
        result: PatchResult = self._call("PATCH", f"/v1/memories/{int(memory_id)}", json=_drop_none(
            {"user_id": user_id, "content": content, "importance": importance, "ttl_days": ttl_days}))
        return result

    # a user's data
    def export(self, user_id: str) -> UserExport:
        """The user's data (``schemas/export.schema.json``)."""
        result: UserExport = self._call("GET", f"/v1/users/{user_id}/export")
        return result

    def erase(self, user_id: str) -> JobAccepted:
        """Start the erasure of the user (202); ``wait_for_job`` for the proof."""
        result: JobAccepted = self._call("DELETE", f"/v1/users/{user_id}")
        return result

    def job(self, job_id: str) -> Job:
        result: Job = self._call("GET", f"/v1/jobs/{job_id}")
        return result

    def wait_for_job(self, job_id: str, *, timeout: float = 300.0, poll: float = 0.5) -> Job:
        """The job once done; ``JobFailed`` if it failed, ``TimeoutError`` if still open after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            job = self.job(job_id)
            if job["status"] == "done":
                return job
            if job["status"] == "failed":
                raise JobFailed(200, "job_failed", job.get("error") or "the job failed")
            if time.monotonic() >= deadline:
                raise TimeoutError(f"job {job_id} still {job['status']} after {timeout:g}s")
            time.sleep(poll)

    # ingestion
    def publish_messages(self, messages: Sequence[ChatMessageData | Mapping[str, Any]]) -> list[Accepted]:
        """Publish chat messages (in order); returns each one's confirmed Kafka position."""
        result: dict[str, list[Accepted]] = self._call("POST", "/v1/messages", json=_message_body(messages))
        return result["accepted"]


# --- async --------------------------------------------------------------------------------------------


class AsyncMemoryClient(_Base):
    """Asynchronous client (one ``httpx.AsyncClient``; ``await aclose()`` or ``async with``); the same
    methods as ``MemoryClient``, as coroutines."""

    def __init__(self, base_url: str, token: str | None = None, *, timeout: float | httpx.Timeout = 10.0,
                 retries: int = 3, backoff: float = 0.2, max_retry_after: float = 30.0,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        super().__init__(base_url, token, timeout=timeout, retries=retries, backoff=backoff,
                         max_retry_after=max_retry_after)
        self._http = httpx.AsyncClient(base_url=self.base_url, headers=self.headers, timeout=timeout,
                                       transport=transport)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _call(self, method: Method, path: str, *, json: Any = None,
                    params: Mapping[str, Any] | None = None) -> Any:
        attempt = 0
        while True:
            try:
                response = await self._http.request(method, path, json=json, params=params)
            except httpx.TransportError as exc:
                delay = self._delay(attempt, None)
                if delay is None:
                    raise self._connection_failed(exc) from exc
            else:
                delay = self._delay(attempt, response)
                if delay is None:
                    return self._result(response)
            attempt += 1
            self.retried += 1
            await asyncio.sleep(delay)

    async def retrieve(self, user_id: str, question: str, *, conversation_summary: str | None = None,
                       mode: str | None = None, limit: int | None = None) -> RetrieveResult:
        body = _drop_none({"user_id": user_id, "question": question,
                           "conversation_summary": conversation_summary, "mode": mode, "limit": limit})
        result: RetrieveResult = await self._call("POST", "/v1/retrieve", json=body)
        return result

    async def save(self, user_id: str, key: str, content: str, **fields: Any) -> ToolResult:
        result: ToolResult = await self._call("POST", "/v1/memories/save", json=_drop_none(
            {"user_id": user_id, "key": key, "content": content, **fields}))
        return result

    async def append(self, user_id: str, key: str, content: str, **fields: Any) -> ToolResult:
        result: ToolResult = await self._call("POST", "/v1/memories/append", json=_drop_none(
            {"user_id": user_id, "key": key, "content": content, **fields}))
        return result

    async def delete(self, user_id: str, key: str, *, command_id: str | None = None) -> ToolResult:
        result: ToolResult = await self._call("POST", "/v1/memories/delete", json=_drop_none(
            {"user_id": user_id, "key": key, "command_id": command_id}))
        return result

    async def list_memories(self, user_id: str, *, memory_type: str | None = None,
                   limit: int | None = None) -> MemoryList:
        result: MemoryList = await self._call("GET", "/v1/memories", params=_drop_none(
            {"user_id": user_id, "memory_type": memory_type, "limit": limit}))
        return result

    async def get(self, user_id: str, memory_id: int) -> MemoryDetail:
        result: MemoryDetail = await self._call("GET", f"/v1/memories/{int(memory_id)}",
                                                params={"user_id": user_id})
        return result

    async def history(self, user_id: str, memory_id: int) -> History:
        result: History = await self._call("GET", f"/v1/memories/{int(memory_id)}/history",
                                           params={"user_id": user_id})
        return result

    async def patch(self, user_id: str, memory_id: int, *, content: str | None = None,
                    importance: int | None = None, ttl_days: int | None = None) -> PatchResult:
        result: PatchResult = await self._call("PATCH", f"/v1/memories/{int(memory_id)}", json=_drop_none(
            {"user_id": user_id, "content": content, "importance": importance, "ttl_days": ttl_days}))
        return result

    async def export(self, user_id: str) -> UserExport:
        result: UserExport = await self._call("GET", f"/v1/users/{user_id}/export")
        return result

    async def erase(self, user_id: str) -> JobAccepted:
        result: JobAccepted = await self._call("DELETE", f"/v1/users/{user_id}")
        return result

    async def job(self, job_id: str) -> Job:
        result: Job = await self._call("GET", f"/v1/jobs/{job_id}")
        return result

    async def wait_for_job(self, job_id: str, *, timeout: float = 300.0, poll: float = 0.5) -> Job:
        deadline = time.monotonic() + timeout
        while True:
            job = await self.job(job_id)
            if job["status"] == "done":
                return job
            if job["status"] == "failed":
                raise JobFailed(200, "job_failed", job.get("error") or "the job failed")
            if time.monotonic() >= deadline:
                raise TimeoutError(f"job {job_id} still {job['status']} after {timeout:g}s")
            await asyncio.sleep(poll)

    async def publish_messages(self,
                               messages: Sequence[ChatMessageData | Mapping[str, Any]]) -> list[Accepted]:
        result: dict[str, list[Accepted]] = await self._call("POST", "/v1/messages",
                                                             json=_message_body(messages))
        return result["accepted"]


__all__ = [
    "Accepted", "AsyncMemoryClient", "BadRequest", "Conflict", "ConnectionFailed", "Forbidden", "History",
    "InvalidRequest", "Job", "JobAccepted", "JobFailed", "Memory", "MemoryClient", "MemoryDetail",
    "MemoryList",
    "NotFound", "PaiMemoryError", "PatchResult", "PayloadTooLarge", "RateLimited", "RetrieveResult",
    "ServerError", "ToolResult", "Unauthorized", "Unavailable", "UserExport", "error_of",
]
