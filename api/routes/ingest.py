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
import logging
import math
import threading
import time
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError
from starlette.concurrency import run_in_threadpool

from api.keys import WRITE, Principal, authorize, principal_dep
from api.models import ERROR_RESPONSES, ErrorResponse, error_body
from api.routes.common import user_limit
from core.config import Settings
from producers.client import DeliveryFuture, MemoryEventProducer, ProducerError
from schemas import ChatMessageData, make_event
from schemas.errors import SchemaError

log = logging.getLogger(__name__)

router = APIRouter(tags=["ingestion"])
SOURCE = "pai-memory-http"

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


class IngestProducer:
    """The API process's one producer, opened on first use (no network I/O before a request needs it)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.timeout = settings.API_INGEST_TIMEOUT_SEC
        self._producer: MemoryEventProducer | None = None
        self._lock = threading.Lock()

    def producer(self) -> MemoryEventProducer:
        with self._lock:
            if self._producer is None:
                ms = max(1000, int(self.timeout * 1000))
                self._producer = MemoryEventProducer(self.settings, source=SOURCE, config={
                    "message.timeout.ms": ms, "request.timeout.ms": min(ms, 30_000),
                    "client.id": "pai-memory-api-ingest"}, queue_full_timeout=min(self.timeout, 5.0)).open()
            return self._producer

    def close(self) -> None:
        with self._lock:
            if self._producer is not None:
                self._producer.close(timeout=5.0, raise_on_pending=False)
                self._producer = None

    def publish(self, messages: list[ChatMessageData]) -> list[dict[str, Any]] | str:
        """Publish in order and wait for every confirmation: the accepted list, or the reason of failure."""
        producer = self.producer()
        futures: list[tuple[ChatMessageData, str, DeliveryFuture]] = []
        for message in messages:
            event = make_event(message, source=SOURCE)
            futures.append((message, event.id, producer.publish(event)))
        deadline = time.monotonic() + self.timeout + 1.0
        accepted = []
        for message, event_id, future in futures:
            try:
                report = future.result(timeout=max(0.0, deadline - time.monotonic()))
            except FutureTimeout:
                return "the broker did not confirm the message in time"
            except ProducerError as exc:
                log.warning("HTTP ingestion: delivery failed: %s", getattr(exc, "name", type(exc).__name__))
                return f"delivery failed: {getattr(exc, 'name', None) or type(exc).__name__}"
            accepted.append({"message_id": message.message_id, "event_id": event_id, "topic": report.topic,
                             "partition": report.partition, "offset": report.offset})
        return accepted


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
async def ingest_messages(request: Request, principal: Annotated[Principal, Depends(principal_dep)]) -> Any:
    """Publish chat messages to the chat topic; 202 once Kafka confirmed each (topic/partition/offset)."""
    settings: Settings = request.app.state.settings
    messages = parse_messages(await request.body(), settings.API_INGEST_MAX_BATCH)
    for user in dict.fromkeys(m.user_id for m in messages):
        authorize(principal, WRITE, user)
        user_limit(request, user)
    ingest: IngestProducer = request.app.state.ingest
    try:
        result = await run_in_threadpool(ingest.publish, messages)
    except (ProducerError, SchemaError) as exc:
        result = f"{type(exc).__name__}"
    if isinstance(result, str):
        retry = str(max(1, math.ceil(ingest.timeout / 2)))
        return JSONResponse(error_body("kafka_unavailable", f"not acknowledged: {result}; retry later"), 503,
                            headers={"retry-after": retry})
    return {"accepted": result}
