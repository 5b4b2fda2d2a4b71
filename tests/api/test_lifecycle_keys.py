"""Issue 27's routes with real API keys (issue 26's key store, bearer tokens through the real
middleware): scopes and user binding on memories by id, export, erasure, jobs and ingestion; MCP's
history and export under a key. No key reaches another user's data by any of these doors."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine, select

from api.app import create_app
from api.keys import Principal
from api.mcp_server import ToolCallError, build_server
from core import keys
from core.config import Settings
from core.storage.db import session_factory, transaction
from core.storage.models import AuditLog

pytestmark = pytest.mark.services

TOKEN = "tok-lifecycle-keys-0c9e"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
T0 = "2026-12-01T09:00:00+00:00"


@pytest.fixture
def cfg(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Settings:
    return settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False,
                                       "API_RATE_LIMIT_PER_USER": 0, "API_JOBS_POLL_SEC": 0.3,
                                       "API_INGEST_TIMEOUT_SEC": 2.0,
                                       "TOPIC_CHAT_MESSAGES": unique_name("never_created")})


@pytest.fixture
def client(cfg: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(cfg)) as test_client:
        yield test_client


def key(engine: Engine, *scopes: str, user_id: str | None = None) -> dict[str, str]:
    with transaction(session_factory(engine)) as session:
        _info, token = keys.create_key(session, f"key {'/'.join(scopes)} {user_id or 'all'}", scopes,
                                       user_id=user_id)
    return {"Authorization": f"Bearer {token}"}


def code(response: Any) -> str:
    return str(response.json()["error"]["code"])


def save(client: TestClient, user: str, content: str) -> int:
    r = client.post("/v1/memories/save", headers=ADMIN,
                    json={"user_id": user, "key": "city", "content": content})
    assert r.status_code == 200, r.text
    return int(r.json()["memory_id"])


def test_scopes_and_bindings_on_every_new_route(client: TestClient, clean_db: Engine) -> None:
    erin_mid, frank_mid = save(client, "erin", "lives in Aarhus"), save(client, "frank", "lives in Graz")
    reader, writer = key(clean_db, "read"), key(clean_db, "write")
    erin_rw = key(clean_db, "read", "write", user_id="erin")
    erin_read = key(clean_db, "read", user_id="erin")

    assert client.get(f"/v1/memories/{frank_mid}", params={"user_id": "frank"},
                      headers=reader).status_code == 200
    assert client.get(f"/v1/memories/{frank_mid}/history", params={"user_id": "frank"},
                      headers=reader).status_code == 200
    for headers, expected in ((reader, "forbidden_scope"), (erin_rw, "forbidden_user")):
        r = client.patch(f"/v1/memories/{frank_mid}", headers=headers,
                         json={"user_id": "frank", "content": "x y"})
        assert r.status_code == 403 and code(r) == expected
    for path in (f"/v1/memories/{frank_mid}", f"/v1/memories/{frank_mid}/history"):
        r = client.get(path, params={"user_id": "frank"}, headers=erin_rw)
        assert r.status_code == 403 and code(r) == "forbidden_user" and "Graz" not in r.text
        r = client.get(path, params={"user_id": "erin"}, headers=erin_rw)  # frank's id under erin's name
        assert r.status_code == 404 and "Graz" not in r.text
    fixed = client.patch(f"/v1/memories/{erin_mid}", headers=erin_rw, json={"user_id": "erin",
                                                                            "content": "lives in Aarhus, DK"})
    assert fixed.status_code == 200
    history = client.get(f"/v1/memories/{erin_mid}/history", params={"user_id": "erin"}, headers=erin_read)
    assert "key key read/write erin" in history.json()["changes"][-1]["reason"]  # who changed it

    # export: admin, or a read key of that very user
    for headers, expected in ((reader, "forbidden_scope"), (writer, "forbidden_scope"),
                              (erin_rw, "forbidden_user")):
        r = client.get("/v1/users/frank/export", headers=headers)
        assert r.status_code == 403 and code(r) == expected and "Graz" not in r.text
    own = client.get("/v1/users/erin/export", headers=erin_read)
    assert own.status_code == 200 and "Aarhus" in own.text and "Graz" not in own.text
    # ingestion: write, and only for the key's user (the topic does not exist: nothing can be acknowledged)
    message = {"message_id": "frank:c:1", "user_id": "frank", "conversation_id": "c", "role": "user",
               "content": "hi", "created_at": T0}
    r = client.post("/v1/messages", headers=reader, json=message)
    assert r.status_code == 403 and code(r) == "forbidden_scope"
    r = client.post("/v1/messages", headers=erin_rw, json=message)
    assert r.status_code == 403 and code(r) == "forbidden_user"
    # erasure: admin, or a write key of that very user; the job is readable by admin and by the key that asked
    for headers, expected in ((reader, "forbidden_scope"), (erin_read, "forbidden_scope"),
                              (erin_rw, "forbidden_user")):
        target = "/v1/users/erin" if headers is erin_read else "/v1/users/frank"
        r = client.delete(target, headers=headers)
        assert r.status_code == 403 and code(r) == expected, (headers, r.text)
    accepted = client.delete("/v1/users/erin", headers=erin_rw)
    assert accepted.status_code == 202
    job_id = accepted.json()["job_id"]
    assert client.get(f"/v1/jobs/{job_id}", headers=reader).status_code == 403
    deadline = time.monotonic() + 60
    while (job := client.get(f"/v1/jobs/{job_id}", headers=erin_rw).json())["status"] in ("pending",
                                                                                         "running"):
        assert time.monotonic() < deadline, job
        time.sleep(0.2)
    assert job["status"] == "done" and job["result"]["ok"] is True
    assert client.get("/v1/memories", params={"user_id": "frank"}, headers=ADMIN).json()["memories"]
    with session_factory(clean_db)() as session:  # requested and done, the user named by hash only
        actions = [(a.action, a.outcome) for a in session.scalars(select(AuditLog).order_by(AuditLog.id))]
        assert ("user.erase.requested", "accepted") in actions and ("user.erase", "ok") in actions
        assert not any("erin" in (a.target or "") for a in session.scalars(select(AuditLog)))


def test_mcp_history_and_export_follow_the_key(cfg: Settings, client: TestClient) -> None:
    mid = save(client, "gus", "lives in Turku")
    save(client, "hana", "lives in Osaka")
    mcp = build_server(cfg, client.app.state.services)  # type: ignore[attr-defined]
    gus = Principal("k-g", frozenset({"read"}), "gus", "gus-agent")
    reader = Principal("k-r", frozenset({"read"}), None, "reader")
    history = mcp.call("memory_history", {"memory_id": mid}, principal=gus)
    assert [c["operation"] for c in history["changes"]] == ["create"]
    assert mcp.call("memory_export", {}, principal=gus)["user_id"] == "gus"
    for principal, args, expected in ((gus, {"user_id": "hana"}, "forbidden_user"),
                                      (reader, {"user_id": "hana"}, "forbidden_scope")):
        with pytest.raises(ToolCallError) as refused:
            mcp.call("memory_export", args, principal=principal)
        assert refused.value.code == expected
    with pytest.raises(ToolCallError) as hidden:  # gus's memory id under hana's name: not found
        mcp.call("memory_history", {"user_id": "hana", "memory_id": mid}, principal=reader)
    assert hidden.value.code == "memory_not_found"
