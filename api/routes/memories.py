"""Memories by id: ``GET /v1/memories/{id}``, ``GET /v1/memories/{id}/history``, ``PATCH /v1/memories/{id}``.

All user-scoped: the caller names the user (``user_id`` query parameter); a memory of another user
answers exactly like a missing one (404 ``memory_not_found``), so ids reveal nothing. Reads come from
the console's read models (``core.memory.browse``: one implementation); a correction goes through
``MemoryTools.memory_correct`` (the writer: history, outbox, vector DIRTY), and its history row says
which key made it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator

from api.deps import Caller, db_read, services_of, user_limit
from api.keys import READ, WRITE, authorize
from api.models import CONTENT_MAX_CHARS, ERROR_RESPONSES, ID_PATTERN, MAX_TTL_DAYS, ErrorResponse, error_body
from core.memory import browse
from core.memory.errors import MemoryInactive, MemoryNotFound

router = APIRouter(tags=["memories"])
TEXT_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]*$"  # as api.models

MAX_MEMORY_ID = 2**31 - 1
MemoryId = Annotated[int, Path(ge=1, le=MAX_MEMORY_ID, description="the memory's id", examples=[42])]
UserQuery = Annotated[str, Query(pattern=ID_PATTERN, description="the user the memory belongs to",
                                 examples=["user-42"])]
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorResponse,
                   "description": "no such memory for this user (`memory_not_found`)"}}
FORBIDDEN: dict[int | str, dict[str, Any]] = {403: {"model": ErrorResponse,
                   "description": "the key lacks the scope (`forbidden_scope`) or is bound to another user "
                                  "(`forbidden_user`)"}}


class SourceMessageOut(BaseModel):
    id: int
    message_id: str = Field(description="upstream message id")
    conversation_id: str
    role: str
    content: str
    memory_status: str
    created_at: str


class MemoryDetail(BaseModel):
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
    vector_status: str | None = Field(description="DIRTY (index pending), SYNCED or FAILED")
    vector_error: str | None
    vector_synced_at: str | None
    source_message_id: int | None
    created_at: str
    updated_at: str

    model_config = ConfigDict(json_schema_extra={"examples": [{
        "id": 42, "user_id": "user-42", "key": "preference-coffee", "memory_type": "preference",
        "content": "drinks oat-milk flat whites", "importance": 3, "confidence": 0.9, "is_active": True,
        "expired": False, "expires_at": "2027-12-04T10:00:00+00:00", "vector_status": "SYNCED",
        "vector_error": None, "vector_synced_at": "2026-12-04T10:00:01+00:00", "source_message_id": 7,
        "created_at": "2026-12-04T10:00:00+00:00", "updated_at": "2026-12-04T10:00:00+00:00"}]})


class ChangeOut(BaseModel):
    id: int
    operation: str = Field(description="create, overwrite, append, merge, delete, expire, ...")
    source: str = Field(description="extractor, tool or lifecycle")
    command_id: str | None
    old_content: str | None
    new_content: str | None
    memory_type: str | None
    reason: str | None = Field(description="why; a human correction names the key that made it")
    created_at: str
    message: SourceMessageOut | None = Field(description="the stored message that caused the change")


class HistoryResponse(BaseModel):
    memory_id: int
    user_id: str
    changes: list[ChangeOut]


class PatchRequest(BaseModel):
    """A human correction: at least one of the fields; the others stay as they are."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={
        "examples": [{"user_id": "user-42", "content": "drinks black coffee now", "importance": 4}]})

    user_id: Annotated[str, Field(pattern=ID_PATTERN, examples=["user-42"])]
    content: Annotated[str | None,
                       Field(min_length=1, max_length=CONTENT_MAX_CHARS, pattern=TEXT_PATTERN)] = None
    importance: Annotated[int | None, Field(ge=1, le=5)] = None
    ttl_days: Annotated[int | None, Field(ge=1, le=MAX_TTL_DAYS,
                                          description="a new expiry, this many days from now")] = None

    @model_validator(mode="after")
    def _something(self) -> PatchRequest:
        if self.content is None and self.importance is None and self.ttl_days is None:
            raise ValueError("give at least one of content, importance, ttl_days")
        return self


class PatchResponse(BaseModel):
    memory_id: int
    operation: str | None = Field(description="overwrite, or null when nothing changed")
    changed: bool
    memory: MemoryDetail


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def memory_detail(row: browse.MemoryRow) -> dict[str, Any]:
    return {"id": row.id, "user_id": row.user_id, "key": row.key, "memory_type": row.memory_type,
            "content": row.content, "importance": row.importance, "confidence": row.confidence,
            "is_active": row.is_active, "expired": row.expired, "expires_at": _iso(row.expires_at),
            "vector_status": row.vector_status, "vector_error": row.vector_error,
            "vector_synced_at": _iso(row.vector_synced_at), "source_message_id": row.source_message_id,
            "created_at": _iso(row.created_at), "updated_at": _iso(row.updated_at)}


def change_out(h: browse.HistoryRow) -> dict[str, Any]:
    m = h.message
    return {"id": h.id, "operation": h.operation, "source": h.source, "command_id": h.command_id,
            "old_content": h.old_content, "new_content": h.new_content, "memory_type": h.memory_type,
            "reason": h.reason, "created_at": _iso(h.created_at),
            "message": None if m is None else {
                "id": m.id, "message_id": m.upstream_message_id, "conversation_id": m.conversation_id,
                "role": m.role, "content": m.content, "memory_status": m.memory_status,
                "created_at": _iso(m.created_at)}}


def not_found(memory_id: int) -> JSONResponse:
    return JSONResponse(error_body("memory_not_found", f"no memory {memory_id} for this user", "id"), 404)


def history_document(sessions: Callable[[], Any], user_id: str, memory_id: int) -> dict[str, Any] | None:
    """The history document of this user's memory, or ``None`` when it is not one of theirs (REST and MCP)."""
    with sessions() as session:
        row = browse.get_user_memory(session, user_id, memory_id)
        changes = None if row is None else browse.memory_history(session, row.id)
    if changes is None:
        return None
    return {"memory_id": memory_id, "user_id": user_id, "changes": [change_out(h) for h in changes]}


@router.get("/v1/memories/{memory_id:int}", response_model=MemoryDetail,
            responses={**ERROR_RESPONSES, **NOT_FOUND, **FORBIDDEN})
def get_memory(request: Request, memory_id: MemoryId, user_id: UserQuery,
               principal: Caller) -> Any:
    """One memory of the user: content, type, key, scores, expiry, vector status, source message id."""
    authorize(principal, READ, user_id)
    user_limit(request, user_id)
    row = db_read(request, lambda s: browse.get_user_memory(s, user_id, memory_id))
    return not_found(memory_id) if row is None else memory_detail(row)


@router.get("/v1/memories/{memory_id:int}/history", response_model=HistoryResponse,
            responses={**ERROR_RESPONSES, **NOT_FOUND, **FORBIDDEN})
def get_memory_history(request: Request, memory_id: MemoryId, user_id: UserQuery,
                       principal: Caller) -> Any:
    """Every change of the memory, oldest first: operation, old/new content, the message that caused it,
    the reason (a human correction names the key that made it)."""
    authorize(principal, READ, user_id)
    user_limit(request, user_id)
    doc = history_document(services_of(request).tools.sessions, user_id, memory_id)
    return not_found(memory_id) if doc is None else doc


@router.patch("/v1/memories/{memory_id:int}", response_model=PatchResponse,
              responses={**ERROR_RESPONSES, **NOT_FOUND, **FORBIDDEN,
                         409: {"model": ErrorResponse, "description": "the memory is deleted or expired "
                                                                      "(`memory_inactive`)"}})
def patch_memory(request: Request, memory_id: MemoryId, body: PatchRequest,
                 principal: Caller) -> Any:
    """A human correction (content, importance, expiry) through the same writer as every other write:
    history (recording which key changed it), outbox, vector re-index."""
    authorize(principal, WRITE, body.user_id)
    user_limit(request, body.user_id)
    tools = services_of(request).tools
    try:
        result = tools.memory_correct(body.user_id, memory_id,
                                      actor=f"key {principal.name} ({principal.key_id})",
                                      content=body.content, importance=body.importance,
                                      ttl_days=body.ttl_days)
    except MemoryNotFound:
        return not_found(memory_id)
    except MemoryInactive as exc:
        return JSONResponse(error_body("memory_inactive", str(exc), "id"), 409)
    row = db_read(request, lambda s: browse.get_user_memory(s, body.user_id, memory_id))
    if row is None:  # erased in between
        return not_found(memory_id)
    return {"memory_id": memory_id, "operation": result.operation, "changed": result.changed,
            "memory": memory_detail(row)}
