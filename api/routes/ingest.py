"""Ingestion over HTTP for chat services without a Kafka client: ``POST /v1/messages``.

The body is one chat message (the ``pai.chat.message.v1`` payload, ``schemas.ChatMessageData``, validated
exactly as the event) or ``{"messages": [...]}`` with up to ``API_INGEST_MAX_BATCH`` of them. Each is
published, in the order given, to the chat topic with the idempotent producer
(``producers.client.MemoryEventProducer``: ``acks=all``, key = the user id, so one user's messages keep
their order on one partition). The answer is 202 with each message's event id and topic/partition/offset
only when the broker confirmed every message of the request; otherwise 503 ``kafka_unavailable`` with
``Retry-After`` (no 2xx for an unconfirmed message). A retry after a 503 is safe: a message id already
stored downstream changes nothing.
"""

from __future__ import annotations

import json
import math
from typing import Any

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError
from starlette.concurrency import run_in_threadpool

from api.deps import Caller, ingest_of, settings_of, user_limit
from api.keys import WRITE, authorize
from api.models import ERROR_RESPONSES, ErrorResponse, error_body
from producers.client import ProducerError
from schemas import ChatMessageData
from schemas.errors import SchemaError

router = APIRouter(tags=["ingestion"])

EXAMPLE_MESSAGE = {"message_id": "conv-7:12", "user_id": "user-42", "conversation_id": "conv-7",
                   "role": "user",
                   "content": "I moved to Lisbon last month", "created_at": "2026-12-04T10:00:00Z"}


class Accepted(BaseModel):
    message_id: str
    event_id: str
    topic: str
    partition: int
    offset: int


class IngestResponse(BaseModel):
    accepted: list[Accepted] = Field(description="one per message, in request order, all confirmed by Kafka")


class IngestBatch(BaseModel):
    messages: list[ChatMessageData]


REF = "#/components/schemas/"


def openapi_components() -> dict[str, Any]:
    """Schemas the request body of ``POST /v1/messages`` refers to (added to the OpenAPI components)."""
    schema = IngestBatch.model_json_schema(ref_template=REF + "{model}")
    components = dict(schema.pop("$defs", {}))
    components["IngestBatch"] = schema
    return components


def _invalid(loc: tuple[Any, ...], exc: ValidationError) -> RequestValidationError:
    return RequestValidationError([{**e, "loc": ("body", *loc, *e.get("loc", ()))} for e in exc.errors()])


def parse_messages(raw: bytes, max_batch: int) -> list[ChatMessageData]:
    """The messages of a request body (one message or ``{"messages": [...]}``), validated as the event
    payload; ``RequestValidationError`` (422 with the field) otherwise."""
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        invalid = [{"type": "json_invalid", "loc": ("body",), "msg": "invalid JSON"}]
        raise RequestValidationError(invalid) from None
    if isinstance(doc, dict) and set(doc) == {"messages"}:
        items = doc["messages"]
        if not isinstance(items, list) or not items:
            raise RequestValidationError([{"type": "invalid", "loc": ("body", "messages"),
                                           "msg": "messages must be a non-empty list"}])
        if len(items) > max_batch:
            raise RequestValidationError([{"type": "too_long", "loc": ("body", "messages"),
                                           "msg": f"at most {max_batch} messages per request"}])
        prefix: list[tuple[Any, ...]] = [("messages", i) for i in range(len(items))]
    elif isinstance(doc, dict):
        items, prefix = [doc], [()]
    else:
        raise RequestValidationError([{"type": "invalid", "loc": ("body",),
                                       "msg": "the body must be a message object or {\"messages\": [...]}"}])
    out = []
    for loc, item in zip(prefix, items, strict=True):
        try:
            out.append(ChatMessageData.model_validate_json(json.dumps(item)))
        except ValidationError as exc:
            raise _invalid(loc, exc) from None
    return out


@router.post("/v1/messages", status_code=202, response_model=IngestResponse,
             responses={**ERROR_RESPONSES,
                        403: {"model": ErrorResponse, "description": "the key lacks `write` "
                                                 "or is bound to another user"},
                        503: {"model": ErrorResponse, "description": "Kafka did not confirm every message "
                              "(`kafka_unavailable`, Retry-After): nothing of this request is acknowledged"}},
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {
                 "schema": {"oneOf": [{"$ref": f"{REF}ChatMessageData"}, {"$ref": f"{REF}IngestBatch"}]},
                 "examples": {"one": {"value": EXAMPLE_MESSAGE},
                              "batch": {"value": {"messages": [EXAMPLE_MESSAGE]}}}}}}})
async def ingest_messages(request: Request, principal: Caller) -> Any:
    """Publish chat messages to the chat topic; 202 once Kafka confirmed each (topic/partition/offset)."""
    settings = settings_of(request)
    messages = parse_messages(await request.body(), settings.API_INGEST_MAX_BATCH)
    for user in dict.fromkeys(m.user_id for m in messages):
        authorize(principal, WRITE, user)
        user_limit(request, user)
    ingest = ingest_of(request)
    try:
        result = await run_in_threadpool(ingest.publish, messages)
    except (ProducerError, SchemaError) as exc:
        result = f"{type(exc).__name__}"
    if isinstance(result, str):
        retry = str(max(1, math.ceil(ingest.timeout / 2)))
        return JSONResponse(error_body("kafka_unavailable", f"not acknowledged: {result}; retry later"), 503,
                            headers={"retry-after": retry})
    return {"accepted": result}
