"""The HTTP client's request core and answer types, without a server: each call is built once for the
sync and async clients (``producers.http_calls``), and the typed answers (``producers.http_models``)
claim no field the API's OpenAPI document lacks."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, get_type_hints

import httpx
import pytest

from producers import http_calls as calls
from producers import http_models
from producers.http_calls import RetryPolicy
from producers.http_client import AsyncMemoryClient, MemoryClient

OPENAPI = Path(__file__).resolve().parents[2] / "schemas" / "openapi.json"
DOC: dict[str, Any] = json.loads(OPENAPI.read_text(encoding="utf-8"))
SCHEMAS = DOC["components"]["schemas"]

# client type -> the API's response model in schemas/openapi.json
MIRRORS = {"Memory": "MemoryOut", "RetrievedItem": "RetrievedItemOut", "RetrieveResult": "RetrieveResponse",
           "ToolResult": "ToolResponse", "MemoryList": "MemoryListResponse", "MemoryDetail": "MemoryDetail",
           "Change": "ChangeOut", "History": "HistoryResponse", "PatchResult": "PatchResponse",
           "JobAccepted": "JobAccepted", "Job": "JobOut", "Accepted": "Accepted", "UserExport": "UserExport",
           "IngestResult": "IngestResponse"}


@pytest.mark.parametrize(("client_type", "api_model"), sorted(MIRRORS.items()))
def test_client_types_claim_only_fields_the_api_answers(client_type: str, api_model: str) -> None:
    keys = set(get_type_hints(getattr(http_models, client_type)))
    assert keys <= set(SCHEMAS[api_model]["properties"]), keys - set(SCHEMAS[api_model]["properties"])


def test_calls_drop_unset_fields_and_keep_the_path_typed() -> None:
    call = calls.retrieve("u1", "q", None, None, 5)
    assert (call.method, call.path, call.json) == ("POST", "/v1/retrieve",
                                                   {"user_id": "u1", "question": "q", "limit": 5})
    assert calls.get("u1", 7).params == {"user_id": "u1"} and calls.get("u1", 7).path == "/v1/memories/7"
    assert calls.tool_write("append", "u1", "k", "c", {"ttl_days": None, "importance": 3}).json == {
        "user_id": "u1", "key": "k", "content": "c", "importance": 3}
    assert calls.list_memories("u1", None, None).params == {"user_id": "u1"}


def test_sync_and_async_clients_send_the_same_requests() -> None:
    seen: list[tuple[str, str, bytes]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append((request.method, str(request.url), request.content))
        return httpx.Response(200, json={"accepted": []})

    with MemoryClient("http://api.test", token="t", transport=httpx.MockTransport(answer)) as sync:
        sync.delete("u1", "k", command_id="c1")
        sync.list_memories("u1", limit=3)
        sync.publish_messages([])

    async def run() -> None:
        async with AsyncMemoryClient("http://api.test", token="t",
                                     transport=httpx.MockTransport(answer)) as client:
            await client.delete("u1", "k", command_id="c1")
            await client.list_memories("u1", limit=3)
            await client.publish_messages([])

    asyncio.run(run())
    assert seen[:3] == seen[3:] and len(seen) == 6
    assert isinstance(sync, RetryPolicy)


def test_both_clients_send_the_retrieve_options_the_api_takes() -> None:
    bodies: list[dict[str, Any]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json={"items": []})

    since = datetime(2026, 11, 1, tzinfo=UTC)
    options: dict[str, Any] = {"episode_limit": 4, "since": since, "asked_at": since,
                               "user_names": ["Alice", "Alice Chen"]}
    with MemoryClient("http://api.test", token="t", transport=httpx.MockTransport(answer)) as sync:
        sync.retrieve("u1", "what did I do last weekend?", **options)

    async def run() -> None:
        async with AsyncMemoryClient("http://api.test", token="t",
                                     transport=httpx.MockTransport(answer)) as client:
            await client.retrieve("u1", "what did I do last weekend?", **options)

    asyncio.run(run())
    assert bodies[0] == bodies[1] == {
        "user_id": "u1", "question": "what did I do last weekend?", "episode_limit": 4,
        "since": "2026-11-01T00:00:00+00:00", "asked_at": "2026-11-01T00:00:00+00:00",
        "user_names": ["Alice", "Alice Chen"]}
    # each field is one the API's request model takes
    assert set(bodies[0]) <= set(SCHEMAS["RetrieveRequest"]["properties"])
