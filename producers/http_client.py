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

Each call is built once for both clients (``producers.http_calls``); the answers are typed
dictionaries (``producers.http_models``), the errors ``producers.http_errors``; all are importable
from here.

Usage::

    with MemoryClient("http://127.0.0.1:8080", token="...") as memory:
        found = memory.retrieve("user-42", "what should I cook tonight?")
        prompt = found["prompt_block"] + "\\n\\n" + question
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Self, TypeVar

import httpx

from producers import http_calls as calls
from producers.http_calls import Call, RetryPolicy
from producers.http_calls import Method as Method
from producers.http_errors import RETRY_STATUSES as RETRY_STATUSES
from producers.http_errors import (
    BadRequest,
    Conflict,
    ConnectionFailed,
    Forbidden,
    InvalidRequest,
    JobFailed,
    NotFound,
    PaiMemoryError,
    PayloadTooLarge,
    RateLimited,
    ServerError,
    Unauthorized,
    Unavailable,
    error_of,
)
from producers.http_models import (
    Accepted,
    History,
    Job,
    JobAccepted,
    Memory,
    MemoryDetail,
    MemoryList,
    PatchResult,
    RetrieveResult,
    ToolResult,
    UserExport,
)
from producers.http_models import Change as Change
from producers.http_models import RetrievedItem as RetrievedItem
from schemas import ChatMessageData

T = TypeVar("T")


class MemoryClient(RetryPolicy):
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

    def _send(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = self._http.request(call.method, call.path, json=call.json, params=call.params)
            except httpx.TransportError as exc:
                delay = self._delay(attempt, None)
                if delay is None:
                    raise self._connection_failed(exc) from exc
            else:
                delay = self._delay(attempt, response)
                if delay is None:
                    result: T = self._result(response)
                    return result
            attempt += 1
            self.retried += 1
            time.sleep(delay)

    # retrieval and the four tools
    def retrieve(self, user_id: str, question: str, *, conversation_summary: str | None = None,
                 mode: str | None = None, limit: int | None = None, episode_limit: int | None = None,
                 since: datetime | None = None, until: datetime | None = None,
                 asked_at: datetime | None = None, user_names: Sequence[str] | None = None) -> RetrieveResult:
        """Memories (and episodes) for a prompt; ``prompt_block`` is ready to inject. The options are the
        API's (``RetrieveRequest``): the episodes' limit, a time window, when the question was asked, the
        names the user goes by."""
        return self._send(calls.retrieve(user_id, question, conversation_summary, mode, limit,
                                         episode_limit=episode_limit, since=since, until=until,
                                         asked_at=asked_at, user_names=user_names))

    def save(self, user_id: str, key: str, content: str, **fields: Any) -> ToolResult:
        """``memory_save``; ``fields``: memory_type, importance, confidence, ttl_days, conversation_id,
        command_id."""
        return self._send(calls.tool_write("save", user_id, key, content, fields))

    def append(self, user_id: str, key: str, content: str, **fields: Any) -> ToolResult:
        """``memory_append`` (same fields as ``save``)."""
        return self._send(calls.tool_write("append", user_id, key, content, fields))

    def delete(self, user_id: str, key: str, *, command_id: str | None = None) -> ToolResult:
        """``memory_delete`` (``NotFound`` when there is no active memory with that key)."""
        return self._send(calls.delete(user_id, key, command_id))

    def list_memories(self, user_id: str, *, memory_type: str | None = None,
                      limit: int | None = None) -> MemoryList:
        """``memory_list``: the user's live memories."""
        return self._send(calls.list_memories(user_id, memory_type, limit))

    # memories by id
    def get(self, user_id: str, memory_id: int) -> MemoryDetail:
        return self._send(calls.get(user_id, memory_id))

    def history(self, user_id: str, memory_id: int) -> History:
        return self._send(calls.history(user_id, memory_id))

    def patch(self, user_id: str, memory_id: int, *, content: str | None = None,
              importance: int | None = None, ttl_days: int | None = None) -> PatchResult:
        """A human correction (history records the key that made it)."""
        return self._send(calls.patch(user_id, memory_id, content, importance, ttl_days))

    # a user's data
    def export(self, user_id: str) -> UserExport:
        """The user's data (``schemas/export.schema.json``)."""
        return self._send(calls.export(user_id))

    def erase(self, user_id: str) -> JobAccepted:
        """Start the erasure of the user (202); ``wait_for_job`` for the proof."""
        return self._send(calls.erase(user_id))

    def job(self, job_id: str) -> Job:
        return self._send(calls.job(job_id))

    def wait_for_job(self, job_id: str, *, timeout: float = 300.0, poll: float = 0.5) -> Job:
        """The job once done; ``JobFailed`` if it failed, ``TimeoutError`` if still open after ``timeout``."""
        deadline = time.monotonic() + timeout
        while (done := calls.finished_job(self.job(job_id), job_id, timeout, deadline)) is None:
            time.sleep(poll)
        return done

    # ingestion
    def publish_messages(self, messages: Sequence[ChatMessageData | Mapping[str, Any]]) -> list[Accepted]:
        """Publish chat messages (in order); returns each one's confirmed Kafka position."""
        return self._send(calls.publish_messages(messages))["accepted"]


class AsyncMemoryClient(RetryPolicy):
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

    async def _send(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = await self._http.request(call.method, call.path, json=call.json,
                                                    params=call.params)
            except httpx.TransportError as exc:
                delay = self._delay(attempt, None)
                if delay is None:
                    raise self._connection_failed(exc) from exc
            else:
                delay = self._delay(attempt, response)
                if delay is None:
                    result: T = self._result(response)
                    return result
            attempt += 1
            self.retried += 1
            await asyncio.sleep(delay)

    async def retrieve(self, user_id: str, question: str, *, conversation_summary: str | None = None,
                       mode: str | None = None, limit: int | None = None, episode_limit: int | None = None,
                       since: datetime | None = None, until: datetime | None = None,
                       asked_at: datetime | None = None,
                       user_names: Sequence[str] | None = None) -> RetrieveResult:
        return await self._send(calls.retrieve(user_id, question, conversation_summary, mode, limit,
                                               episode_limit=episode_limit, since=since, until=until,
                                               asked_at=asked_at, user_names=user_names))

    async def save(self, user_id: str, key: str, content: str, **fields: Any) -> ToolResult:
        return await self._send(calls.tool_write("save", user_id, key, content, fields))

    async def append(self, user_id: str, key: str, content: str, **fields: Any) -> ToolResult:
        return await self._send(calls.tool_write("append", user_id, key, content, fields))

    async def delete(self, user_id: str, key: str, *, command_id: str | None = None) -> ToolResult:
        return await self._send(calls.delete(user_id, key, command_id))

    async def list_memories(self, user_id: str, *, memory_type: str | None = None,
                            limit: int | None = None) -> MemoryList:
        return await self._send(calls.list_memories(user_id, memory_type, limit))

    async def get(self, user_id: str, memory_id: int) -> MemoryDetail:
        return await self._send(calls.get(user_id, memory_id))

    async def history(self, user_id: str, memory_id: int) -> History:
        return await self._send(calls.history(user_id, memory_id))

    async def patch(self, user_id: str, memory_id: int, *, content: str | None = None,
                    importance: int | None = None, ttl_days: int | None = None) -> PatchResult:
        return await self._send(calls.patch(user_id, memory_id, content, importance, ttl_days))

    async def export(self, user_id: str) -> UserExport:
        return await self._send(calls.export(user_id))

    async def erase(self, user_id: str) -> JobAccepted:
        return await self._send(calls.erase(user_id))

    async def job(self, job_id: str) -> Job:
        return await self._send(calls.job(job_id))

    async def wait_for_job(self, job_id: str, *, timeout: float = 300.0, poll: float = 0.5) -> Job:
        deadline = time.monotonic() + timeout
        while (done := calls.finished_job(await self.job(job_id), job_id, timeout, deadline)) is None:
            await asyncio.sleep(poll)
        return done

    async def publish_messages(self,
                               messages: Sequence[ChatMessageData | Mapping[str, Any]]) -> list[Accepted]:
        return (await self._send(calls.publish_messages(messages)))["accepted"]


__all__ = [
    "Accepted", "AsyncMemoryClient", "BadRequest", "Conflict", "ConnectionFailed", "Forbidden", "History",
    "InvalidRequest", "Job", "JobAccepted", "JobFailed", "Memory", "MemoryClient", "MemoryDetail",
    "MemoryList",
    "NotFound", "PaiMemoryError", "PatchResult", "PayloadTooLarge", "RateLimited", "RetrieveResult",
    "ServerError", "ToolResult", "Unauthorized", "Unavailable", "UserExport", "error_of",
]
