"""The response bodies of the pai-memory HTTP API as typed dictionaries, for ``producers.http_client``.

They mirror the API's response models in ``schemas/openapi.json`` (the client depends on ``httpx`` and
``schemas`` only, never on the server's code); ``tests/producers/test_http_client_models.py`` checks
their keys against the document, so a field added to the API and not here is found.
"""

from __future__ import annotations

from typing import Any, TypedDict


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


class PooledEntry(TypedDict):
    """One served memory or episode in the order across both kinds (``kind``: memory | episode)."""

    kind: str
    id: int
    score: float


class RetrieveResult(TypedDict):
    user_id: str
    requested_mode: str
    served_by: str
    fallback_reason: str | None
    items: list[RetrievedItem]
    prompt_block: str
    took_ms: float
    episodes: list[dict[str, Any]]  # what the user said (dense only): episode, score, cosine, in_window
    intent: str | None
    order: list[PooledEntry]  # the served memories and episodes in one order, best first (dense only)


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


class IngestResult(TypedDict):
    accepted: list[Accepted]
