"""The MCP server end to end with the SDK's own client: stdio (a subprocess) and streamable HTTP (a
``pai-memory mcp --transport http`` process on a free port), over real PostgreSQL and Milvus Lite.

Save -> the indexing core syncs the memory into Milvus -> retrieve finds it served by ``dense`` ->
delete -> the next retrieve no longer returns it; bad arguments are tool errors with the HTTP API's
codes and nothing is written; under a principal (``MCP_USER_ID``) a ``user_id`` argument is refused.
"""

from __future__ import annotations

import json
import select as io_select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from sqlalchemy import Engine, func, select

from core.config import Settings
from core.embedding.local import LocalE5Embedder
from core.indexing import MemoryIndexer
from core.storage.db import session_factory
from core.storage.models import LongTermMemory
from core.vectorstore import MilvusMemoryIndex
from localstack.process import free_port
from tests.support.env import clean_env, service_env

pytestmark = pytest.mark.services

TOKEN = "tok-mcp-7d41c2-planted-secret"
ROOT = str(Path(__file__).resolve().parents[2])
TOOLS = {"memory_save", "memory_append", "memory_delete", "memory_list", "memory_retrieve", "memory_history",
         "memory_export"}


@pytest.fixture
def mcp_env(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str],
            tmp_path: Path) -> Iterator[tuple[dict[str, str], MemoryIndexer]]:
    """Child environment of an MCP server on a private Milvus collection, and an indexer on it."""
    collection = unique_name("t_mcp")
    cfg = settings.model_copy(update={"MEMORY_MILVUS_COLLECTION": collection, "MEMORY_MILVUS_ENABLED": True})
    env = clean_env(service_env(cfg, tmp_path, MEMORY_MILVUS_ENABLED="true",
                                LONG_TERM_MEMORY_RETRIEVE_MODE="dense", RETRIEVAL_DENSE_TIMEOUT_SEC="60",
                                API_TOKEN=TOKEN, MCP_PORT=str(free_port())))
    embedder = LocalE5Embedder()
    indexer = MemoryIndexer(session_factory(clean_db), embedder,
                            MilvusMemoryIndex.from_settings(cfg, dim=embedder.dim))
    indexer.start()
    try:
        yield env, indexer
    finally:
        indexer.index.drop_collection()
        indexer.close()


def sync_all(engine: Engine, indexer: MemoryIndexer) -> None:
    """What the indexer group does on ``memory.dirty``: sync every memory into Milvus."""
    with engine.connect() as conn:
        ids = list(conn.execute(select(LongTermMemory.id)).scalars())
    report = indexer.sync(ids)
    assert report.superseded == []
    assert report.indexed + len(report.skipped) + len(report.refreshed) == len(ids)


def memory_count(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(LongTermMemory)).scalar_one())


async def call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result = await client.call_tool(tool, args)
    body = result.structured_content
    assert isinstance(body, dict)
    assert json.loads(result.content[0].text) == body  # type: ignore[union-attr]
    return result.is_error, body


async def scenario(client: Client, engine: Engine, indexer: MemoryIndexer, user: dict[str, str]) -> None:
    """The round trip every transport must pass; ``user`` is ``{"user_id": ...}`` or empty (principal)."""
    tools = await client.list_tools()
    assert {t.name for t in tools.tools} == TOOLS
    save_schema = next(t for t in tools.tools if t.name == "memory_save").input_schema
    assert {"key", "content"} <= set(save_schema["required"])
    assert ("user_id" in save_schema["properties"]) == bool(user)

    for key, content, mtype in (("movies", "Loves romantic comedies", "preference"),
                                ("food", "喜欢吃老坛酸菜鱼，越酸越好", "preference"),
                                ("city", "住在杭州西湖区", "fact")):
        failed, body = await call(client, "memory_save", {**user, "key": key, "content": content,
                                                         "memory_type": mtype})
        assert not failed and body["operation"] == "create" and body["changed"] is True, body
    sync_all(engine, indexer)

    question = {**user, "question": "Any film suggestions for a cozy night in?"}
    failed, found = await call(client, "memory_retrieve", question)
    assert not failed and found["served_by"] == "dense" and found["fallback_reason"] is None, found
    assert found["items"][0]["memory"]["key"] == "movies"
    assert "Loves romantic comedies" in found["prompt_block"]

    failed, listed = await call(client, "memory_list", {**user})
    assert not failed and {m["key"] for m in listed["memories"]} == {"movies", "food", "city"}

    movies_id = next(m["id"] for m in listed["memories"] if m["key"] == "movies")
    failed, deleted = await call(client, "memory_delete", {**user, "key": "movies"})
    assert not failed and deleted["operation"] == "delete", deleted
    failed, history = await call(client, "memory_history", {**user, "memory_id": movies_id})
    assert not failed and [c["operation"] for c in history["changes"]] == ["create", "delete"], history
    assert history["changes"][0]["new_content"] == "Loves romantic comedies"
    failed, missing = await call(client, "memory_history", {**user, "memory_id": 987654})
    assert failed and missing["error"]["code"] == "memory_not_found"
    failed, exported = await call(client, "memory_export", {**user})
    assert not failed and exported["format"] == "pai.user.export.v1", exported
    assert {m["key"] for m in exported["memories"]} == {"movies", "food", "city"}
    assert len(exported["history"]) == 4 and exported["messages"] == []
    sync_all(engine, indexer)
    failed, after = await call(client, "memory_retrieve", question)
    assert not failed and after["served_by"] == "dense"
    assert "movies" not in {i["memory"]["key"] for i in after["items"]}

    # bad arguments: the HTTP API's error codes, nothing written
    before = memory_count(engine)
    for tool, args, code, field in (
        ("memory_save", {**user, "key": "k"}, "missing_field", "content"),
        ("memory_save", {**user, "key": "k", "content": "c", "importance": 9}, "invalid_field", "importance"),
        ("memory_save", {**user, "key": "k", "content": "c", "color": "red"}, "unknown_field", "color"),
        ("memory_save", {**user, "key": "k", "content": "c", "importance": "5"}, "invalid_field",
         "importance"),
        ("memory_append", {**user, "key": "k", "content": "c\x00"}, "invalid_field", "content"),
        ("memory_list", {**user, "limit": 0}, "invalid_field", "limit"),
        ("memory_retrieve", {**user, "question": ""}, "invalid_field", "question"),
        ("memory_delete", {**user, "key": "movies"}, "memory_not_found", "key"),
    ):
        failed, body = await call(client, tool, args)
        assert failed, (tool, args, body)
        assert body["error"]["code"] == code and body["error"]["field"] == field, (tool, args, body)
        assert body["error"]["message"]
    assert memory_count(engine) == before


def test_stdio_transport_round_trip(mcp_env: tuple[dict[str, str], MemoryIndexer], clean_db: Engine) -> None:
    env, indexer = mcp_env
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "cli.main", "mcp", "--transport", "stdio"], env=env, cwd=ROOT)

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            await scenario(client, clean_db, indexer, {"user_id": "mcp-stdio-user"})

    anyio.run(main)


def test_stdio_principal_fixes_the_user(mcp_env: tuple[dict[str, str], MemoryIndexer],
                                        clean_db: Engine) -> None:
    env, _indexer = mcp_env
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "cli.main", "mcp", "--transport", "stdio", "--user", "alice"],
                                   env=env, cwd=ROOT)

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            tools = await client.list_tools()
            for tool in tools.tools:
                assert "user_id" not in tool.input_schema["properties"], tool.name
            failed, body = await call(client, "memory_save",
                                      {"user_id": "mallory", "key": "k", "content": "c"})
            assert failed and body["error"]["code"] == "unknown_field" and body["error"]["field"] == "user_id"
            assert "MCP_USER_ID" in body["error"]["message"]
            assert memory_count(clean_db) == 0
            failed, body = await call(client, "memory_save",
                                      {"key": "pet", "content": "Has a cat named Miso"})
            assert not failed and body["user_id"] == "alice"
            failed, listed = await call(client, "memory_list", {})
            assert not failed and listed["user_id"] == "alice" and len(listed["memories"]) == 1
            # export of self only: the principal's data, another user's never
            failed, exported = await call(client, "memory_export", {})
            assert not failed and exported["user_id"] == "alice" and len(exported["memories"]) == 1
            failed, body = await call(client, "memory_export", {"user_id": "mallory"})
            assert failed and body["error"]["code"] == "unknown_field"

    anyio.run(main)


@pytest.fixture
def http_server(mcp_env: tuple[dict[str, str], MemoryIndexer], tmp_path: Path) -> Iterator[str]:
    env, _ = mcp_env
    url = f"http://127.0.0.1:{env['MCP_PORT']}/mcp"
    log = (tmp_path / "mcp-http.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "mcp", "--transport", "http"], env=env,
                            stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, (tmp_path / "mcp-http.log").read_text()
            try:
                httpx.get(url, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the MCP HTTP server did not start"
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        log.close()


def test_http_transport_round_trip(http_server: str, mcp_env: tuple[dict[str, str], MemoryIndexer],
                                   clean_db: Engine) -> None:
    _env, indexer = mcp_env

    async def main() -> None:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
        async with http, Client(streamable_http_client(http_server, http_client=http),
                                read_timeout_seconds=120) as client:
            await scenario(client, clean_db, indexer, {"user_id": "mcp-http-user"})

    anyio.run(main)


def test_http_transport_requires_the_token(http_server: str) -> None:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    headers = {"accept": "application/json, text/event-stream"}
    for auth in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Bearer {TOKEN}x"}):
        response = httpx.post(http_server, json=init, headers={**headers, **auth}, timeout=10)
        assert response.status_code == 401, response.text
        assert response.json()["error"]["code"] == "unauthorized"
    ok = httpx.post(http_server, json=init, headers={**headers, "Authorization": f"Bearer {TOKEN}"},
                    timeout=10)
    assert ok.status_code == 200, ok.text


def test_http_transport_refuses_to_start_without_a_token(
        mcp_env: tuple[dict[str, str], MemoryIndexer]) -> None:
    env, _ = mcp_env
    env = {k: v for k, v in env.items() if k != "API_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "cli.main", "mcp", "--transport", "http"], env=env,
                          capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert done.returncode == 2 and "requires API_TOKEN" in done.stderr


def test_http_transport_enforces_the_key_of_the_session(http_server: str, clean_db: Engine) -> None:
    """A key bound to alice reaches only alice over MCP HTTP; a read key cannot write."""
    from core import keys
    from core.storage.db import transaction

    with transaction(session_factory(clean_db)) as session:
        _a, alice_token = keys.create_key(session, "alice agent", ["read", "write"], user_id="alice")
        _r, read_token = keys.create_key(session, "reader", ["read"])

    async def main() -> None:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {alice_token}"})
        async with http, Client(streamable_http_client(http_server, http_client=http),
                                read_timeout_seconds=120) as client:
            tools = await client.list_tools()
            assert all("user_id" not in t.input_schema["properties"] for t in tools.tools)
            failed, body = await call(client, "memory_save", {"key": "pet", "content": "Has a cat"})
            assert not failed and body["user_id"] == "alice", body
            for tool, args in (("memory_list", {"user_id": "bob"}),
                               ("memory_save", {"user_id": "bob", "key": "k", "content": "c"}),
                               ("memory_delete", {"user_id": "bob", "key": "pet"}),
                               ("memory_retrieve", {"user_id": "bob", "question": "pets?"})):
                failed, body = await call(client, tool, args)
                assert failed and body["error"]["code"] == "forbidden_user", (tool, body)
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {read_token}"})
        async with http, Client(streamable_http_client(http_server, http_client=http),
                                read_timeout_seconds=120) as client:
            failed, body = await call(client, "memory_save", {"user_id": "bob", "key": "k", "content": "c"})
            assert failed and body["error"]["code"] == "forbidden_scope", body
            failed, body = await call(client, "memory_list", {"user_id": "alice"})
            assert not failed and [m["key"] for m in body["memories"]] == ["pet"]

    anyio.run(main)
    assert memory_count(clean_db) == 1


# --- MCP validates exactly as REST does (issue 26 point 3) ------------------------------------------
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}


def test_stdio_refuses_duplicate_keys_and_oversized_calls_like_rest(
        mcp_env: tuple[dict[str, str], MemoryIndexer], clean_db: Engine) -> None:
    """Raw JSON-RPC lines (the SDK client cannot send duplicate keys): ``{"user_id":"a","user_id":"b"}``
    is the tool error ``duplicate_json_key`` (field ``user_id``), not b's memories; a duplicate deeper
    in the message too; a call over ``API_MAX_BODY_BYTES`` is ``payload_too_large``; nothing is
    written, and a valid call on the same connection still works."""
    env, _ = mcp_env
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "mcp", "--transport", "stdio"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None

    def send(raw: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(raw.encode() + b"\n")
        proc.stdin.flush()

    def answer() -> dict[str, Any]:
        assert proc.stdout is not None
        ready, _, _ = io_select.select([proc.stdout], [], [], 120)
        assert ready, "no answer from the MCP server within 120 s"
        reply: dict[str, Any] = json.loads(proc.stdout.readline())
        return reply

    def tool_call(n: int, arguments_json: str, name: str = "memory_save") -> str:
        return ('{"jsonrpc":"2.0","id":' + str(n) + ',"method":"tools/call","params":{"name":"' + name
                + '","arguments":' + arguments_json + "}}")

    try:
        send(json.dumps(INIT))
        assert answer()["id"] == 1
        send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        cases = [
            (tool_call(2, '{"user_id":"a","user_id":"b","key":"k","content":"c"}'), "duplicate_json_key",
             "user_id"),
            ('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_save",'
             '"arguments":{"user_id":"a","key":"k","content":"c"},"name":"memory_list"}}',
             "duplicate_json_key", "name"),
            (tool_call(4, json.dumps({"user_id": "a", "key": "k", "content": "x" * 70_000})),
             "payload_too_large", None),
        ]
        for n, (raw, code, field) in enumerate(cases, start=2):
            send(raw)
            reply = answer()
            assert reply["id"] == n, reply
            result = reply["result"]
            assert result["isError"] is True, reply
            assert result["structuredContent"]["error"]["code"] == code, reply
            assert result["structuredContent"]["error"]["field"] == field, reply
        assert memory_count(clean_db) == 0
        send(tool_call(9, '{"user_id":"a","key":"k","content":"c"}'))
        ok = answer()
        assert ok["id"] == 9 and ok["result"]["isError"] is False, ok
        assert memory_count(clean_db) == 1
    finally:
        proc.stdin.close()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def test_http_transport_refuses_duplicate_keys_like_rest(http_server: str, clean_db: Engine) -> None:
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json",
               "Authorization": f"Bearer {TOKEN}"}
    raw = ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_list",'
           '"arguments":{"user_id":"a","user_id":"b"}}}')
    response = httpx.post(http_server, content=raw.encode(), headers=headers, timeout=10)
    assert response.status_code == 400, response.text
    assert response.json()["error"] == {"code": "duplicate_json_key", "field": "user_id",
                                        "message": "JSON key 'user_id' occurs more than once in one object"}
    big = httpx.post(http_server, content=b'{"x":"' + b"y" * 70_000 + b'"}', headers=headers, timeout=10)
    assert big.status_code == 413 and big.json()["error"]["code"] == "payload_too_large"
