"""The four memory tools over HTTP: ``POST /v1/memories/save|append|delete`` (the ``write`` scope) and
``GET /v1/memories`` (``read``), each under the per-user rate limit. Writes go through
``core.memory.tools.MemoryTools`` (one transaction per write, like every other door); a delete of no
active memory is 404 ``memory_not_found`` (``api.error_handlers``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.encoders import jsonable_encoder

from api.deps import Caller, Services, user_limit
from api.keys import READ, WRITE, authorize
from api.models import (
    ERROR_RESPONSES,
    ID_PATTERN,
    LIST_LIMIT_DEFAULT,
    LIST_LIMIT_MAX,
    AppendRequest,
    DeleteRequest,
    MemoryListResponse,
    SaveRequest,
    ToolResponse,
)
from core.types import MemoryType

router = APIRouter(tags=["tools"])


@router.post("/v1/memories/save", response_model=ToolResponse, responses=ERROR_RESPONSES)
def memory_save(request: Request, body: SaveRequest, principal: Caller, svc: Services) -> dict[str, Any]:
    """``memory_save``: create or overwrite the memory with this key."""
    authorize(principal, WRITE, body.user_id)
    user_limit(request, body.user_id)
    return svc.tools.memory_save(body.tool_write()).as_dict()


@router.post("/v1/memories/append", response_model=ToolResponse, responses=ERROR_RESPONSES)
def memory_append(request: Request, body: AppendRequest, principal: Caller, svc: Services) -> dict[str, Any]:
    """``memory_append``: add to the memory with this key (created when absent)."""
    authorize(principal, WRITE, body.user_id)
    user_limit(request, body.user_id)
    return svc.tools.memory_append(body.tool_write()).as_dict()


@router.post("/v1/memories/delete", response_model=ToolResponse,
             responses={**ERROR_RESPONSES, 404: ERROR_RESPONSES[422] | {"description": "no active memory"}})
def memory_delete(request: Request, body: DeleteRequest, principal: Caller, svc: Services) -> dict[str, Any]:
    """``memory_delete``: deactivate the memory with this key."""
    authorize(principal, WRITE, body.user_id)
    user_limit(request, body.user_id)
    return svc.tools.memory_delete(body.user_id, body.key, body.command_id).as_dict()


@router.get("/v1/memories", response_model=MemoryListResponse, responses=ERROR_RESPONSES)
def memory_list(request: Request, principal: Caller, svc: Services,
                user_id: Annotated[str, Query(pattern=ID_PATTERN)],
                memory_type: Annotated[MemoryType | None, Query()] = None,
                limit: Annotated[int, Query(ge=1, le=LIST_LIMIT_MAX)] = LIST_LIMIT_DEFAULT,
                ) -> dict[str, Any]:
    """``memory_list``: the user's live memories, most important and most recent first."""
    authorize(principal, READ, user_id)
    user_limit(request, user_id)
    items = svc.tools.memory_list(user_id, memory_type, limit)
    return {"user_id": user_id, "memories": jsonable_encoder([m.as_dict() for m in items])}
