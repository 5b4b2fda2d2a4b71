"""Memories by id over HTTP (issue 27): get, history, a human correction; user-scoped, with scopes.

Real PostgreSQL through the real app (``TestClient``: middleware, auth, error handlers). Wrong scopes are
exercised with principals the authorisation module defines (``api.keys``), installed with FastAPI's
dependency override of ``principal_dep``: the same code path a scoped key will take.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine, select

from api.app import create_app
from api.keys import Principal, principal_dep
from core.config import Settings
from core.storage.db import session_factory
from core.storage.models import LongTermMemory, OutboxEvent

pytestmark = pytest.mark.services

TOKEN = "tok-memories-by-id-3b7e"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def app_client(settings: Settings, clean_db: Engine) -> Iterator[TestClient]:
    app = create_app(settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN),
                                                 "MEMORY_MILVUS_ENABLED": False}))
    with TestClient(app) as client:
        yield client


def as_principal(client: TestClient, principal: Principal) -> None:
    client.app.dependency_overrides[principal_dep] = lambda: principal  # type: ignore[attr-defined]


def error_code(response: Any) -> str:
    body = response.json()
    assert set(body) == {"error"}, body
    return str(body["error"]["code"])


def save(client: TestClient, user: str, key: str, content: str) -> int:
    response = client.post("/v1/memories/save", json={"user_id": user, "key": key, "content": content,
                                                     "memory_type": "preference", "importance": 3},
                           headers=AUTH)
    assert response.status_code == 200, response.text
    return int(response.json()["memory_id"])


def patch(client: TestClient, memory_id: int, **fields: Any) -> Any:
    return client.patch(f"/v1/memories/{memory_id}", json=fields, headers=AUTH)


def test_get_history_and_patch_round_trip(app_client: TestClient, clean_db: Engine) -> None:
    mid = save(app_client, "alice", "coffee", "drinks oat-milk flat whites")
    got = app_client.get(f"/v1/memories/{mid}", params={"user_id": "alice"}, headers=AUTH)
    assert got.status_code == 200, got.text
    memory = got.json()
    assert memory["id"] == mid and memory["user_id"] == "alice" and memory["key"] == "coffee"
    assert memory["content"] == "drinks oat-milk flat whites" and memory["memory_type"] == "preference"
    assert memory["vector_status"] == "DIRTY" and memory["is_active"] is True and memory["expires_at"]
    before_expiry = memory["expires_at"]

    patched = patch(app_client, mid, user_id="alice", content="drinks black coffee", importance=5)
    assert patched.status_code == 200, patched.text
    body = patched.json()
    assert body["changed"] is True and body["operation"] == "overwrite"
    assert body["memory"]["content"] == "drinks black coffee" and body["memory"]["importance"] == 5
    assert body["memory"]["expires_at"] == before_expiry  # expiry untouched unless asked
    assert body["memory"]["vector_status"] == "DIRTY"

    again = patch(app_client, mid, user_id="alice", content="drinks black coffee")
    assert again.status_code == 200 and again.json()["changed"] is False

    ttl = app_client.patch(f"/v1/memories/{mid}", json={"user_id": "alice", "ttl_days": 2}, headers=AUTH)
    assert ttl.status_code == 200 and ttl.json()["memory"]["expires_at"] < before_expiry

    history = app_client.get(f"/v1/memories/{mid}/history", params={"user_id": "alice"}, headers=AUTH)
    assert history.status_code == 200, history.text
    changes = history.json()["changes"]
    assert [c["operation"] for c in changes] == ["create", "overwrite", "overwrite"]
    correction = changes[1]
    assert correction["old_content"] == "drinks oat-milk flat whites"
    assert correction["new_content"] == "drinks black coffee"
    assert "human correction by key API_TOKEN (bootstrap admin) (env)" in correction["reason"]
    assert correction["message"] is None
    # the correction went through the writer: one memory.dirty outbox row per effective write
    with session_factory(clean_db)() as session:
        outbox = session.scalars(select(OutboxEvent).where(OutboxEvent.aggregate_id == mid)).all()
        assert len(outbox) == 3
        row = session.get(LongTermMemory, mid)
        assert row is not None and row.vector_status == "DIRTY" and row.importance == 5


def test_another_users_memory_is_a_404_like_a_missing_one(app_client: TestClient) -> None:
    mid = save(app_client, "alice", "city", "lives in Lisbon")
    save(app_client, "bob", "city", "lives in Porto")
    for suffix in ("", "/history"):
        path = f"/v1/memories/{mid}{suffix}"
        other = app_client.get(path, params={"user_id": "bob"}, headers=AUTH)
        missing = app_client.get(f"/v1/memories/999999{suffix}", params={"user_id": "alice"}, headers=AUTH)
        nobody = app_client.get(path, params={"user_id": "nobody"}, headers=AUTH)
        for response in (other, missing, nobody):
            assert response.status_code == 404 and error_code(response) == "memory_not_found"
            assert "Lisbon" not in response.text
        assert other.json()["error"]["message"].replace(str(mid), "N") == \
            missing.json()["error"]["message"].replace("999999", "N")
    hijack = patch(app_client, mid, user_id="bob", content="hijacked")
    assert hijack.status_code == 404 and error_code(hijack) == "memory_not_found"
    assert app_client.get(f"/v1/memories/{mid}", params={"user_id": "alice"},
                          headers=AUTH).json()["content"] == "lives in Lisbon"


def test_bad_input_gets_a_4xx_with_a_code(app_client: TestClient) -> None:
    mid = save(app_client, "alice", "pet", "has a cat named Miso")
    cases: list[tuple[str, str, dict[str, Any] | None, dict[str, Any] | None, int, str]] = [
        ("GET", "/v1/memories/abc", {"user_id": "alice"}, None, 404, "not_found"),
        ("GET", "/v1/memories/0", {"user_id": "alice"}, None, 422, "invalid_field"),
        ("GET", f"/v1/memories/{mid}", None, None, 422, "missing_field"),
        ("GET", f"/v1/memories/{mid}", {"user_id": "a b"}, None, 422, "invalid_field"),
        ("PATCH", f"/v1/memories/{mid}", None, {"user_id": "alice"}, 422, "invalid_field"),
        ("PATCH", f"/v1/memories/{mid}", None, {"user_id": "alice", "importance": 9}, 422, "invalid_field"),
        ("PATCH", f"/v1/memories/{mid}", None, {"user_id": "alice", "importance": "5"}, 422, "invalid_field"),
        ("PATCH", f"/v1/memories/{mid}", None, {"user_id": "alice", "ttl_days": 0}, 422, "invalid_field"),
        ("PATCH", f"/v1/memories/{mid}", None, {"user_id": "alice", "content": ""}, 422, "invalid_field"),
        ("PATCH", f"/v1/memories/{mid}", None, {"user_id": "alice", "key": "renamed"}, 422, "unknown_field"),
        ("PATCH", f"/v1/memories/{mid}", None, {"user_id": "alice", "content": "weather today sunny 25°C"},
         422, "invalid_memory"),
    ]
    for method, path, params, body, status, code in cases:
        response = app_client.request(method, path, params=params, json=body, headers=AUTH)
        assert response.status_code == status, (method, path, body, response.text)
        assert error_code(response) == code, (method, path, body, response.text)


def test_a_deleted_memory_cannot_be_corrected(app_client: TestClient) -> None:
    mid = save(app_client, "alice", "gym", "goes to the gym on Mondays")
    assert app_client.post("/v1/memories/delete", json={"user_id": "alice", "key": "gym"},
                           headers=AUTH).status_code == 200
    response = app_client.patch(f"/v1/memories/{mid}", json={"user_id": "alice", "content": "Tuesdays"},
                                headers=AUTH)
    assert response.status_code == 409 and error_code(response) == "memory_inactive"
    history = app_client.get(f"/v1/memories/{mid}/history", params={"user_id": "alice"}, headers=AUTH)
    assert [c["operation"] for c in history.json()["changes"]] == ["create", "delete"]


def test_scopes_and_user_bound_keys(app_client: TestClient) -> None:
    mid = save(app_client, "alice", "book", "reads Le Guin")
    bob_mid = save(app_client, "bob", "book", "reads Pratchett")
    write_only = Principal("k-w", frozenset({"write"}), None, "writer")
    as_principal(app_client, write_only)
    for path in (f"/v1/memories/{mid}", f"/v1/memories/{mid}/history"):
        response = app_client.get(path, params={"user_id": "alice"}, headers=AUTH)
        assert response.status_code == 403 and error_code(response) == "forbidden_scope"
    read_only = Principal("k-r", frozenset({"read"}), None, "reader")
    as_principal(app_client, read_only)
    assert app_client.get(f"/v1/memories/{mid}", params={"user_id": "alice"}, headers=AUTH).status_code == 200
    response = app_client.patch(f"/v1/memories/{mid}", json={"user_id": "alice", "content": "x y z"},
                                headers=AUTH)
    assert response.status_code == 403 and error_code(response) == "forbidden_scope"
    alice_key = Principal("k-a", frozenset({"read", "write"}), "alice", "alice-agent")
    as_principal(app_client, alice_key)
    for user, memory in (("bob", bob_mid), ("bob", mid)):
        response = app_client.get(f"/v1/memories/{memory}", params={"user_id": user}, headers=AUTH)
        assert response.status_code == 403 and error_code(response) == "forbidden_user"
        assert "Pratchett" not in response.text
    response = app_client.patch(f"/v1/memories/{bob_mid}", json={"user_id": "bob", "content": "a b c"},
                                headers=AUTH)
    assert response.status_code == 403 and error_code(response) == "forbidden_user"
    # alice's own key reaches alice, and through alice's name never bob's memory
    assert app_client.get(f"/v1/memories/{bob_mid}", params={"user_id": "alice"},
                          headers=AUTH).status_code == 404
    ok = patch(app_client, mid, user_id="alice", content="reads Le Guin and Jemisin")
    assert ok.status_code == 200
    history = app_client.get(f"/v1/memories/{mid}/history", params={"user_id": "alice"}, headers=AUTH).json()
    assert "alice-agent (k-a)" in history["changes"][-1]["reason"]
