"""What the sync and async HTTP clients share: each API call built once as a ``Call`` (method, path, JSON
body, query parameters, and the type of its answer), and the retry policy (``RetryPolicy``: which
answers are retried and after how long, what a final answer returns or raises).

The clients only send: ``MemoryClient`` with ``httpx.Client``, ``AsyncMemoryClient`` with
``httpx.AsyncClient``; every request, default and error is decided here, so both behave the same.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Literal, TypeVar

import httpx

from producers.http_errors import RETRY_STATUSES, ConnectionFailed, JobFailed, error_of, retry_after
from producers.http_models import (
    History,
    IngestResult,
    Job,
    JobAccepted,
    MemoryDetail,
    MemoryList,
    PatchResult,
    RetrieveResult,
    ToolResult,
    UserExport,
)
from schemas import ChatMessageData

Method = Literal["GET", "POST", "PATCH", "DELETE"]
T = TypeVar("T")


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request of the API; ``T`` is the type of its JSON answer."""

    method: Method
    path: str
    json: Any = None
    params: Mapping[str, Any] | None = None


def drop_none(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` without the ``None`` ones (the API's defaults apply)."""
    return {k: v for k, v in values.items() if v is not None}


def message_body(messages: Sequence[ChatMessageData | Mapping[str, Any]]) -> dict[str, Any]:
    """The ``POST /v1/messages`` batch body."""
    items = [m.model_dump(mode="json", exclude_none=True) if isinstance(m, ChatMessageData) else dict(m)
             for m in messages]
    return {"messages": items}


# --- the calls ------------------------------------------------------------------------------------------

def retrieve(user_id: str, question: str, conversation_summary: str | None, mode: str | None,
             limit: int | None, *, episode_limit: int | None = None, since: datetime | None = None,
             until: datetime | None = None, asked_at: datetime | None = None,
             user_names: Sequence[str] | None = None) -> Call[RetrieveResult]:
    """``POST /v1/retrieve``; the datetimes must be timezone-aware (the API refuses naive ones)."""
    return Call("POST", "/v1/retrieve", json=drop_none({
        "user_id": user_id, "question": question, "conversation_summary": conversation_summary,
        "mode": mode, "limit": limit, "episode_limit": episode_limit,
        "since": since.isoformat() if since else None, "until": until.isoformat() if until else None,
        "asked_at": asked_at.isoformat() if asked_at else None,
        "user_names": list(user_names) if user_names else None}))


def tool_write(tool: Literal["save", "append"], user_id: str, key: str, content: str,
               fields: Mapping[str, Any]) -> Call[ToolResult]:
    return Call("POST", f"/v1/memories/{tool}",
                json=drop_none({"user_id": user_id, "key": key, "content": content, **fields}))


def delete(user_id: str, key: str, command_id: str | None) -> Call[ToolResult]:
    return Call("POST", "/v1/memories/delete",
                json=drop_none({"user_id": user_id, "key": key, "command_id": command_id}))


def list_memories(user_id: str, memory_type: str | None, limit: int | None) -> Call[MemoryList]:
    return Call("GET", "/v1/memories",
                params=drop_none({"user_id": user_id, "memory_type": memory_type, "limit": limit}))


def get(user_id: str, memory_id: int) -> Call[MemoryDetail]:
    return Call("GET", f"/v1/memories/{int(memory_id)}", params={"user_id": user_id})


def history(user_id: str, memory_id: int) -> Call[History]:
    return Call("GET", f"/v1/memories/{int(memory_id)}/history", params={"user_id": user_id})


def patch(user_id: str, memory_id: int, content: str | None, importance: int | None,
          ttl_days: int | None) -> Call[PatchResult]:
    return Call("PATCH", f"/v1/memories/{int(memory_id)}", json=drop_none(
        {"user_id": user_id, "content": content, "importance": importance, "ttl_days": ttl_days}))


def export(user_id: str) -> Call[UserExport]:
    return Call("GET", f"/v1/users/{user_id}/export")


def erase(user_id: str) -> Call[JobAccepted]:
    return Call("DELETE", f"/v1/users/{user_id}")


def job(job_id: str) -> Call[Job]:
    return Call("GET", f"/v1/jobs/{job_id}")


def publish_messages(messages: Sequence[ChatMessageData | Mapping[str, Any]]) -> Call[IngestResult]:
    return Call("POST", "/v1/messages", json=message_body(messages))


def finished_job(job: Job, job_id: str, timeout: float, deadline: float) -> Job | None:
    """``wait_for_job``'s step: the job once done, ``None`` to poll again; ``JobFailed`` if it failed,
    ``TimeoutError`` if still open at ``deadline`` (``time.monotonic``)."""
    if job["status"] == "done":
        return job
    if job["status"] == "failed":
        raise JobFailed(200, "job_failed", job.get("error") or "the job failed")
    if time.monotonic() >= deadline:
        raise TimeoutError(f"job {job_id} still {job['status']} after {timeout:g}s")
    return None


# --- retries --------------------------------------------------------------------------------------------

class RetryPolicy:
    """The connection settings and retry rules both clients share (see ``producers.http_client``)."""

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
        after = retry_after(response)
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
