"""Retrieval for a prompt: ``POST /v1/retrieve`` (``RetrieveRequest`` -> ``RetrieveResponse``), the
``read`` scope on the user, under the per-user rate limit."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from api.deps import Caller, Services, user_limit
from api.keys import READ, authorize
from api.models import ERROR_RESPONSES, RetrieveRequest, RetrieveResponse

router = APIRouter(tags=["retrieval"])


@router.post("/v1/retrieve", response_model=RetrieveResponse, responses=ERROR_RESPONSES)
def retrieve(request: Request, body: RetrieveRequest, principal: Caller, svc: Services) -> dict[str, Any]:
    """Memories for a prompt; ``served_by`` says which path answered (dense, lexical_fallback...)."""
    authorize(principal, READ, body.user_id)
    user_limit(request, body.user_id)
    result = svc.retriever.retrieve(body.user_id, body.question, body.conversation_summary, body.mode,
                                    body.limit, episode_limit=body.episode_limit, since=body.since,
                                    until=body.until, asked_at=body.asked_at,
                                    user_names=body.user_names)
    return result.as_dict()
