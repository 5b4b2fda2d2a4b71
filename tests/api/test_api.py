"""The HTTP API over real PostgreSQL (and Milvus Lite for the dense round trip).

In-process through FastAPI's ``TestClient`` (real ASGI stack, middleware included), plus one test
that starts ``pai-memory run api`` as a real process and talks to it over TCP.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine, select

from api.app import create_app
from api.auth import InsecureBindError, check_bind, is_loopback_host
from core.config import RetrieveMode, Settings
from core.embedding.local import LocalE5Embedder
from core.memory.text import embedding_text
from core.retrieval import read_prompt_block
from core.storage.db import session_factory, transaction
from core.storage.models import LongTermMemory
from core.vectorstore import IndexRow, MilvusMemoryIndex, ensure_active_collection
from localstack.process import free_port

pytestmark = pytest.mark.services

TOKEN = "tok-5f1c9a7e-planted-secret-0b2d"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def api_settings(settings: Settings, clean_db: Engine) -> Settings:
    return settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False,
                                       "API_MAX_BODY_BYTES": 4096})


@pytest.fixture
def client(api_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(api_settings)) as test_client:
        yield test_client


def error_of(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"} and {"code", "message", "field"} <= set(body["error"]), body
    return dict(body["error"])


# --- access ------------------------------------------------------------------------------------
def test_healthz_needs_no_token(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", "/v1/memories?user_id=u1", None),
    ("POST", "/v1/retrieve", {"user_id": "u1", "question": "q"}),
    ("POST", "/v1/memories/save", {"user_id": "u1", "key": "k", "content": "c"}),
    ("POST", "/v1/memories/append", {"user_id": "u1", "key": "k", "content": "c"}),
    ("POST", "/v1/memories/delete", {"user_id": "u1", "key": "k"}),
    ("GET", "/readyz", None),
    ("GET", "/openapi.json", None),
    ("GET", "/metrics", None),
    ("GET", "/no-such-route", None),
])
def test_every_endpoint_but_healthz_needs_the_token(client: TestClient, method: str, path: str,
                                                    body: dict[str, Any] | None) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"},
                    {"Authorization": f"Bearer {TOKEN}x"}, {"Authorization": f"Bearer {TOKEN[:-1]}"},
                    {"Authorization": TOKEN}):
        response = client.request(method, path, json=body, headers=headers)
        assert response.status_code == 401, (headers, response.text)
        assert error_of(response)["code"] == "unauthorized"
        assert response.headers["www-authenticate"].startswith("Bearer")
    response = client.request(method, path, json=body, headers=AUTH)
    assert response.status_code != 401


def test_openapi_document(client: TestClient) -> None:
    doc = client.get("/openapi.json", headers=AUTH).json()
    assert set(doc["paths"]) >= {"/v1/retrieve", "/v1/memories/save", "/v1/memories/append",
                                 "/v1/memories/delete", "/v1/memories", "/healthz", "/readyz"}
    assert doc["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    assert doc["paths"]["/v1/retrieve"]["post"]["security"] == [{"bearerAuth": []}]
    assert "security" not in doc["paths"]["/healthz"]["get"]
    schemas = doc["components"]["schemas"]
    assert schemas["SaveRequest"]["properties"]["user_id"]["pattern"] == r"^[A-Za-z0-9._:@-]{1,128}$"
    assert "ErrorResponse" in schemas


def test_oversized_bodies_get_413(client: TestClient) -> None:
    big = {"user_id": "u1", "key": "k", "content": "x" * 5000}
    response = client.post("/v1/memories/save", json=big, headers=AUTH)
    assert response.status_code == 413 and error_of(response)["code"] == "payload_too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: the streamed size is what counts
        yield b'{"user_id": "u1", "key": "k", "content": "'
        for _ in range(10):
            yield b"y" * 1000
        yield b'"}'

    response = client.post("/v1/memories/save", content=chunks(),
                           headers={**AUTH, "content-type": "application/json"})
    assert response.status_code == 413
    # just under the limit: parsed and validated normally (content too long -> 422, not 413)
    response = client.post("/v1/memories/save", json={"user_id": "u1", "key": "k", "content": "z" * 3000},
                           headers=AUTH)
    assert response.status_code == 422 and error_of(response)["field"] == "content"


# --- validation ---------------------------------------------------------------------------------
VALID = {"user_id": "user-1", "key": "favorite_food", "content": "喜欢酸菜鱼", "memory_type": "preference",
         "importance": 4, "confidence": 0.9, "ttl_days": 30}


@pytest.mark.parametrize(("change", "field"), [
    ({"user_id": "has space"}, "user_id"),
    ({"user_id": "x" * 129}, "user_id"),
    ({"user_id": "../../etc"}, "user_id"),
    ({"user_id": "u1' OR '1'='1"}, "user_id"),
    ({"user_id": 42}, "user_id"),
    ({"key": ""}, "key"),
    ({"key": "k" * 161}, "key"),
    ({"key": "line\nbreak"}, "key"),
    ({"content": ""}, "content"),
    ({"content": "c" * 1001}, "content"),
    ({"content": "nul\x00byte"}, "content"),
    ({"memory_type": "hobby"}, "memory_type"),
    ({"memory_type": 1}, "memory_type"),
    ({"importance": 0}, "importance"),
    ({"importance": 6}, "importance"),
    ({"importance": "3"}, "importance"),
    ({"importance": True}, "importance"),
    ({"importance": 2.5}, "importance"),
    ({"confidence": 1.5}, "confidence"),
    ({"confidence": -0.1}, "confidence"),
    ({"confidence": "high"}, "confidence"),
    ({"ttl_days": 0}, "ttl_days"),
    ({"ttl_days": -3}, "ttl_days"),
    ({"conversation_id": "bad id"}, "conversation_id"),
    ({"unexpected": 1}, "unexpected"),
])
def test_invalid_save_fields_get_422_naming_the_field(client: TestClient, change: dict[str, Any],
                                                      field: str) -> None:
    response = client.post("/v1/memories/save", json={**VALID, **change}, headers=AUTH)
    assert response.status_code == 422, response.text
    assert error_of(response)["field"] == field


def test_other_invalid_requests(client: TestClient) -> None:
    missing = client.post("/v1/memories/save", json={"user_id": "u1", "key": "k"}, headers=AUTH)
    assert missing.status_code == 422 and error_of(missing) == {
        "code": "missing_field", "message": "Field required", "field": "content"}
    for body, field in (({"user_id": "u1", "question": ""}, "question"),
                        ({"user_id": "u1", "question": "q", "mode": "sparse"}, "mode"),
                        ({"user_id": "u1", "question": "q", "limit": 0}, "limit"),
                        ({"user_id": "u1", "question": "q", "limit": 201}, "limit"),
                        ({"user_id": "u1", "question": "q" * 4001}, "question")):
        response = client.post("/v1/retrieve", json=body, headers=AUTH)
        assert response.status_code == 422 and error_of(response)["field"] == field, response.text
    bad_params: list[tuple[dict[str, Any], str]] = [
        ({"user_id": "a b"}, "user_id"), ({}, "user_id"),
        ({"user_id": "u1", "memory_type": "x"}, "memory_type"), ({"user_id": "u1", "limit": 0}, "limit")]
    for params, field in bad_params:
        response = client.get("/v1/memories", params=params, headers=AUTH)
        assert response.status_code == 422 and error_of(response)["field"] == field
    bad_json = client.post("/v1/memories/save", content=b'{"user_id": "u1", ',
                           headers={**AUTH, "content-type": "application/json"})
    assert bad_json.status_code == 400 and error_of(bad_json)["code"] == "malformed_json"
    not_object = client.post("/v1/retrieve", json=["u1"], headers=AUTH)
    assert not_object.status_code == 422
    wrong_method = client.get("/v1/memories/save", headers=AUTH)
    assert wrong_method.status_code == 405 and error_of(wrong_method)["code"] == "method_not_allowed"


def test_domain_rejections(client: TestClient) -> None:
    noise = client.post("/v1/memories/save", json={**VALID, "key": "weather-date_0512"}, headers=AUTH)
    assert noise.status_code == 422 and error_of(noise)["code"] == "invalid_memory"
    assert error_of(noise)["field"] == "key"
    profile = client.post("/v1/memories/save", json={**VALID, "key": "user_nickname"}, headers=AUTH)
    assert profile.status_code == 422
    missing = client.post("/v1/memories/delete", json={"user_id": "user-1", "key": "never-saved"},
                          headers=AUTH)
    assert missing.status_code == 404 and error_of(missing)["code"] == "memory_not_found"


# --- round trips --------------------------------------------------------------------------------
def test_save_list_retrieve_delete_round_trip(client: TestClient) -> None:
    food = {"user_id": "rt-user", "key": "favorite_food", "content": "喜欢吃老坛酸菜鱼",
            "memory_type": "preference", "importance": 4, "command_id": "cmd-1"}
    saved = client.post("/v1/memories/save", headers=AUTH, json=food)
    assert saved.status_code == 200, saved.text
    assert saved.json()["operation"] == "create" and saved.json()["changed"] is True
    again = client.post("/v1/memories/save", headers=AUTH, json=food)
    assert again.json()["duplicate_command"] is True
    client.post("/v1/memories/save", headers=AUTH, json={
        "user_id": "rt-user", "key": "movies", "content": "Loves romantic comedies",
        "memory_type": "preference"})
    appended = client.post("/v1/memories/append", headers=AUTH, json={
        "user_id": "rt-user", "key": "movies", "content": "When Harry Met Sally is a favourite"})
    assert appended.json()["operation"] == "append"
    client.post("/v1/memories/save", headers=AUTH, json={
        "user_id": "someone-else", "key": "movies", "content": "Hates romantic comedies"})

    listed = client.get("/v1/memories", params={"user_id": "rt-user"}, headers=AUTH).json()
    assert listed["user_id"] == "rt-user"
    assert {m["key"]: m["content"] for m in listed["memories"]} == {
        "favorite_food": "喜欢吃老坛酸菜鱼",
        "movies": "Loves romantic comedies; When Harry Met Sally is a favourite",
    }
    only = client.get("/v1/memories", params={"user_id": "rt-user", "memory_type": "fact"}, headers=AUTH)
    assert only.json()["memories"] == []

    full = client.post("/v1/retrieve", headers=AUTH, json={
        "user_id": "rt-user", "question": "晚饭吃什么", "mode": "full_inject"}).json()
    assert full["served_by"] == "full_inject" and len(full["items"]) == 2
    assert full["items"][0]["memory"]["key"] == "favorite_food"  # importance 4 first
    lexical = client.post("/v1/retrieve", headers=AUTH, json={
        "user_id": "rt-user", "question": "想吃酸菜鱼", "mode": "dense", "limit": 1}).json()
    assert lexical["served_by"] == "lexical_fallback"
    assert "MEMORY_MILVUS_ENABLED" in lexical["fallback_reason"]
    assert [i["memory"]["key"] for i in lexical["items"]] == ["favorite_food"]
    assert read_prompt_block(lexical["prompt_block"]) == [
        {"type": "preference", "key": "favorite_food", "content": "喜欢吃老坛酸菜鱼"}]
    assert set(lexical["items"][0]["components"]) >= {"retrieval", "importance", "confidence", "recency",
                                                       "exact_key"}

    delete = {"user_id": "rt-user", "key": "favorite_food"}
    deleted = client.post("/v1/memories/delete", headers=AUTH, json=delete)
    assert deleted.status_code == 200 and deleted.json()["operation"] == "delete"
    listed = client.get("/v1/memories", params={"user_id": "rt-user"}, headers=AUTH).json()
    assert [m["key"] for m in listed["memories"]] == ["movies"]
    after = client.post("/v1/retrieve", headers=AUTH, json={
        "user_id": "rt-user", "question": "想吃酸菜鱼", "mode": "full_inject"}).json()
    assert [i["memory"]["key"] for i in after["items"]] == ["movies"]
    gone = client.post("/v1/memories/delete", headers=AUTH, json=delete)
    assert gone.status_code == 404


def test_dense_retrieval_through_the_api(api_settings: Settings, clean_db: Engine,
                                         unique_name: Callable[[str], str]) -> None:
    s = api_settings.model_copy(update={"MEMORY_MILVUS_ENABLED": True, "RETRIEVAL_DENSE_TIMEOUT_SEC": 60.0,
                                        "MEMORY_MILVUS_COLLECTION": unique_name("t_api"),
                                        "LONG_TERM_MEMORY_RETRIEVE_MODE": RetrieveMode.DENSE})
    embedder = LocalE5Embedder()
    index = MilvusMemoryIndex.from_settings(s)
    sessions = session_factory(clean_db)
    try:
        with transaction(sessions) as session:
            ensure_active_collection(session, index, embedder.model, embedder.dim)
        with TestClient(create_app(s)) as client:
            for key, content, mtype in (("food", "喜欢吃老坛酸菜鱼，越酸越好", "preference"),
                                        ("movies", "Loves romantic comedies", "preference"),
                                        ("city", "住在杭州西湖区", "fact")):
                r = client.post("/v1/memories/save", headers=AUTH, json={
                    "user_id": "dense-user", "key": key, "content": content, "memory_type": mtype})
                assert r.status_code == 200
            with sessions() as session:  # what the indexer would do
                rows = session.scalars(select(LongTermMemory)).all()
            texts = [embedding_text(r.memory_type, r.memory_key, r.content) for r in rows]
            vectors = embedder.embed_passages(texts)
            index.upsert([IndexRow(r.id, r.user_id, r.memory_type or "fact", v)
                          for r, v in zip(rows, vectors, strict=True)])
            body = client.post("/v1/retrieve", headers=AUTH, json={
                "user_id": "dense-user", "question": "Any film suggestions for a cozy night in?"}).json()
            assert body["served_by"] == "dense" and body["fallback_reason"] is None
            assert body["items"][0]["memory"]["key"] == "movies"
            assert len(body["items"]) == 3 and body["requested_mode"] == "dense"
    finally:
        index.drop_collection()
        index.close()


# --- readiness and storage failures -------------------------------------------------------------
def test_readyz_reports_dependencies(client: TestClient) -> None:
    response = client.get("/readyz", headers=AUTH)
    assert response.status_code == 200
    checks = response.json()["checks"]
    assert checks["postgres"]["ok"] is True and checks["postgres"]["required"] is True
    assert checks["milvus"]["required"] is False and checks["kafka"]["required"] is False


def test_postgres_down_gives_503_not_a_crash(api_settings: Settings) -> None:
    dead = api_settings.model_copy(update={
        "DATABASE_URL": SecretStr(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nope")})
    with TestClient(create_app(dead)) as client:
        ready = client.get("/readyz", headers=AUTH)
        assert ready.status_code == 503 and ready.json()["checks"]["postgres"]["ok"] is False
        listed = client.get("/v1/memories", params={"user_id": "u1"}, headers=AUTH)
        assert listed.status_code == 503 and error_of(listed)["code"] == "storage_unavailable"
        assert client.get("/healthz").status_code == 200


# --- binding and secrets ------------------------------------------------------------------------
def test_check_bind_refuses_public_addresses_without_a_token() -> None:
    assert is_loopback_host("127.0.0.1") and is_loopback_host("::1") and is_loopback_host("localhost")
    assert not is_loopback_host("0.0.0.0") and not is_loopback_host("10.1.2.3")
    for host in ("0.0.0.0", "::", "192.168.1.20", "api.example.com"):
        with pytest.raises(InsecureBindError, match="API_TOKEN"):
            check_bind(host, None)
        check_bind(host, "secret")
    check_bind("127.0.0.1", None)


def test_token_is_never_logged(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    client.get("/v1/memories", params={"user_id": "u1"}, headers=AUTH)
    client.get("/v1/memories", params={"user_id": "u1"}, headers={"Authorization": f"Bearer {TOKEN}-wrong"})
    client.post("/v1/memories/save", json={"user_id": "u1", "key": "x" * 500, "content": "c"}, headers=AUTH)
    assert TOKEN not in caplog.text


def _run_api(env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "cli.main", "run", "api"], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def test_pai_memory_run_api_serves_and_stops(api_settings: Settings) -> None:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": api_settings.database_url, "API_TOKEN": TOKEN,
           "API_HOST": "127.0.0.1", "API_PORT": str(port), "MEMORY_MILVUS_ENABLED": "false"}
    proc = _run_api(env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "API did not start"
            time.sleep(0.2)
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{base}/v1/memories", params={"user_id": "u1"}).status_code == 401
        ok = httpx.get(f"{base}/v1/memories", params={"user_id": "u1"}, headers=AUTH)
        assert ok.status_code == 200 and ok.json() == {"user_id": "u1", "memories": []}
        big = httpx.post(f"{base}/v1/memories/save", headers=AUTH,
                         content=b"x" * (api_settings.API_MAX_BODY_BYTES * 20))
        assert big.status_code == 413
    finally:
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, output
    assert TOKEN not in output


def test_pai_memory_run_api_refuses_public_bind_without_token(api_settings: Settings) -> None:
    env = {k: v for k, v in os.environ.items() if k != "API_TOKEN"}
    env.update({"DATABASE_URL": api_settings.database_url, "API_HOST": "0.0.0.0",
                "API_PORT": str(free_port())})
    proc = _run_api(env)
    output, _ = proc.communicate(timeout=60)
    assert proc.returncode == 2, output
    assert "API_TOKEN" in output and "0.0.0.0" in output
