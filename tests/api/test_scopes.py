"""API keys by the REST door and the MCP tool server: scopes, user binding, revocation, expiry,
rotation, per-key rate limits and coalesced last-used times, over real PostgreSQL.

The MCP HTTP transport with a key is in ``test_mcp_server.py``; the console in ``test_console.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine, select

from api.app import create_app
from api.keys import METRICS, READ, WRITE, Principal
from api.mcp_server import ToolCallError, build_server
from core import keys
from core.config import Settings
from core.storage.db import session_factory, transaction
from core.storage.models import ApiKey

pytestmark = pytest.mark.services

TOKEN = "tok-scopes-41f0-planted-secret"


@pytest.fixture
def api_settings(settings: Settings, clean_db: Engine) -> Settings:
    return settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False})


@pytest.fixture
def client(api_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(api_settings)) as test_client:
        yield test_client


def make_key(engine: Engine, *scopes: str, user_id: str | None = None, **kw: Any) -> tuple[str, str]:
    """(key id, token) of a new key."""
    with transaction(session_factory(engine)) as session:
        info, token = keys.create_key(session, "test key", scopes, user_id=user_id, **kw)
    return info.id, token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def save(user: str, key: str = "pet", content: str = "Has a cat named Miso") -> dict[str, Any]:
    return {"user_id": user, "key": key, "content": content}


# every REST door that names a user, with the scope it needs
DOORS: list[tuple[str, str, Any, str]] = [
    ("GET", "/v1/memories?user_id={u}", None, READ),
    ("POST", "/v1/retrieve", {"user_id": "{u}", "question": "any pets?"}, READ),
    ("POST", "/v1/memories/save", save("{u}", "k2", "Likes tea"), WRITE),
    ("POST", "/v1/memories/append", save("{u}", "k3", "Plays chess"), WRITE),
    ("POST", "/v1/memories/delete", {"user_id": "{u}", "key": "pet"}, WRITE),
]


def request(client: TestClient, method: str, path: str, body: Any, user: str, token: str) -> Any:
    filled = None if body is None else {k: v.replace("{u}", user) if isinstance(v, str) else v
                                        for k, v in body.items()}
    return client.request(method, path.replace("{u}", user), json=filled, headers=bearer(token))


def test_a_user_bound_key_reaches_only_its_user_by_every_rest_door(client: TestClient,
                                                                   clean_db: Engine) -> None:
    for user in ("alice", "bob"):
        assert client.post("/v1/memories/save", json=save(user), headers=bearer(TOKEN)).status_code == 200
    _, alice_key = make_key(clean_db, READ, WRITE, user_id="alice")
    for method, path, body, _scope in DOORS:
        refused = request(client, method, path, body, "bob", alice_key)
        assert refused.status_code == 403, (path, refused.text)
        error = refused.json()["error"]
        assert error["code"] == "forbidden_user" and error["field"] == "user_id", error
        assert "alice" not in refused.text and "Miso" not in refused.text
    bob = client.get("/v1/memories?user_id=bob", headers=bearer(TOKEN)).json()
    assert [m["key"] for m in bob["memories"]] == ["pet"]  # bob's memory untouched by the refused delete
    for method, path, body, _scope in DOORS:
        ok = request(client, method, path, body, "alice", alice_key)
        assert ok.status_code == 200, (path, ok.text)


def test_a_read_key_cannot_write(client: TestClient, clean_db: Engine) -> None:
    _, read_key = make_key(clean_db, READ)
    assert client.post("/v1/memories/save", json=save("carol"), headers=bearer(TOKEN)).status_code == 200
    for method, path, body, scope in DOORS:
        response = request(client, method, path, body, "carol", read_key)
        if scope == READ:
            assert response.status_code == 200, (path, response.text)
        else:
            assert response.status_code == 403, (path, response.text)
            assert response.json()["error"]["code"] == "forbidden_scope"
    listed = client.get("/v1/memories?user_id=carol", headers=bearer(read_key)).json()
    assert [m["key"] for m in listed["memories"]] == ["pet"]  # nothing written, nothing deleted


def test_a_write_key_cannot_read(client: TestClient, clean_db: Engine) -> None:
    _, write_key = make_key(clean_db, WRITE)
    assert client.post("/v1/memories/save", json=save("dave"), headers=bearer(write_key)).status_code == 200
    refused = client.get("/v1/memories?user_id=dave", headers=bearer(write_key))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden_scope"


def test_revoked_expired_rotated_and_unknown_keys_get_401(client: TestClient, clean_db: Engine) -> None:
    resolver = client.app.state.key_resolver  # type: ignore[attr-defined]
    key_id, token = make_key(clean_db, READ)
    assert client.get("/v1/memories?user_id=u1", headers=bearer(token)).status_code == 200
    sessions = session_factory(clean_db)
    with transaction(sessions) as session:
        _info, new_token = keys.rotate_key(session, key_id)
    resolver.forget()
    assert client.get("/v1/memories?user_id=u1", headers=bearer(token)).status_code == 401
    assert client.get("/v1/memories?user_id=u1", headers=bearer(new_token)).status_code == 200
    with transaction(sessions) as session:
        keys.revoke_key(session, f"pmk_{key_id}")
    resolver.forget()
    refused = client.get("/v1/memories?user_id=u1", headers=bearer(new_token))
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"
    _, short = make_key(clean_db, READ, expires_in=timedelta(seconds=1))
    with transaction(sessions) as session:  # let it expire without sleeping
        row = session.get(ApiKey, keys.parse_token(short))
        assert row is not None and row.expires_at is not None
        row.expires_at -= timedelta(seconds=5)
    assert client.get("/v1/memories?user_id=u1", headers=bearer(short)).status_code == 401
    forged = new_token[:-4] + ("AAAA" if not new_token.endswith("AAAA") else "BBBB")
    for wrong in (forged, "pmk_000000000000_" + "x" * 43, "pmk_", token + "x"):
        assert client.get("/v1/memories?user_id=u1", headers=bearer(wrong)).status_code == 401


def test_a_key_with_its_own_rate_limit_gets_429(client: TestClient, clean_db: Engine) -> None:
    _, slow = make_key(clean_db, READ, rate_limit=0.5)  # burst max(1, 2 * 0.5) = 1
    _, other = make_key(clean_db, READ)
    assert client.get("/v1/memories?user_id=u1", headers=bearer(slow)).status_code == 200
    limited = client.get("/v1/memories?user_id=u2", headers=bearer(slow))
    assert limited.status_code == 429 and limited.headers["retry-after"] == "2"
    assert limited.json()["error"]["code"] == "rate_limited"
    assert client.get("/v1/memories?user_id=u3", headers=bearer(other)).status_code == 200


def test_last_used_is_recorded_without_a_write_per_request(client: TestClient, clean_db: Engine) -> None:
    resolver = client.app.state.key_resolver  # type: ignore[attr-defined]
    key_id, token = make_key(clean_db, READ)
    for _ in range(5):
        assert client.get("/v1/memories?user_id=u1", headers=bearer(token)).status_code == 200
    with clean_db.connect() as conn:  # coalesced: not written yet (the first write is due after 60 s)
        assert conn.execute(select(ApiKey.last_used_at).where(ApiKey.id == key_id)).scalar_one() is None
    resolver.flush()
    with clean_db.connect() as conn:
        assert conn.execute(select(ApiKey.last_used_at).where(ApiKey.id == key_id)).scalar_one() is not None


def test_the_mcp_tool_server_applies_the_same_rule(api_settings: Settings, clean_db: Engine) -> None:
    server = build_server(api_settings)
    try:
        alice = Principal(key_id="k-alice", scopes=frozenset({READ, WRITE}), user_id="alice", name="alice")
        reader = Principal(key_id="k-read", scopes=frozenset({READ}), user_id=None, name="reader")
        assert all("user_id" not in t.input_schema["properties"] for t in server.tools(alice))
        assert all("user_id" in t.input_schema["properties"] for t in server.tools(reader))
        saved = server.call("memory_save", {"key": "pet", "content": "Has a dog"}, principal=alice)
        assert saved["user_id"] == "alice"
        for tool, args in (("memory_list", {"user_id": "bob"}), ("memory_retrieve", {"user_id": "bob",
                                                                                    "question": "pets?"}),
                           ("memory_delete", {"user_id": "bob", "key": "pet"}),
                           ("memory_save", {"user_id": "bob", "key": "k", "content": "c"})):
            with pytest.raises(ToolCallError) as raised:
                server.call(tool, args, principal=alice)
            assert raised.value.code == "forbidden_user" and raised.value.field == "user_id", tool
        assert server.call("memory_list", {"user_id": "alice"}, principal=reader)["memories"]
        with pytest.raises(ToolCallError) as raised:
            server.call("memory_save", {"user_id": "alice", "key": "k", "content": "c"}, principal=reader)
        assert raised.value.code == "forbidden_scope"
        with pytest.raises(ToolCallError) as raised:
            server.call("memory_delete", {"user_id": "alice", "key": "pet"}, principal=reader)
        assert raised.value.code == "forbidden_scope"
        assert [m["key"] for m in server.call("memory_list", {}, principal=alice)["memories"]] == ["pet"]
    finally:
        server.services.close()


def test_a_stdio_mcp_api_key_must_be_live(api_settings: Settings, clean_db: Engine) -> None:
    from core.config import ConfigError

    key_id, token = make_key(clean_db, READ, user_id="erin")
    server = build_server(api_settings.model_copy(update={"MCP_API_KEY": SecretStr(token)}))
    try:
        assert server.local_principal.user_id == "erin" and server.local_principal.scopes == {READ}
        with pytest.raises(ToolCallError) as raised:
            server.call("memory_save", {"key": "k", "content": "c"})
        assert raised.value.code == "forbidden_scope"
    finally:
        server.services.close()
    with transaction(session_factory(clean_db)) as session:
        keys.revoke_key(session, key_id)
    with pytest.raises(ConfigError):
        build_server(api_settings.model_copy(update={"MCP_API_KEY": SecretStr(token)}))


def test_an_api_key_while_postgres_is_down_gets_503_not_401(api_settings: Settings, clean_db: Engine) -> None:
    from localstack.process import free_port

    _, token = make_key(clean_db, READ)
    dead = api_settings.model_copy(update={
        "DATABASE_URL": SecretStr(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nope")})
    with TestClient(create_app(dead)) as down:
        response = down.get("/v1/memories?user_id=u1", headers=bearer(token))
        assert response.status_code == 503 and response.headers["retry-after"] == "1"
        assert response.json()["error"]["code"] == "storage_unavailable"
        assert down.get("/v1/memories?user_id=u1", headers=bearer("nope")).status_code == 401  # not a key


def test_a_metrics_key_scrapes_metrics_and_reads_no_memory(client: TestClient, clean_db: Engine) -> None:
    """A ``metrics`` key (a Prometheus scraper's) gets /metrics and /readyz's detail and is refused every
    memory door; a ``read`` key gets neither /metrics nor the readiness detail; admin gets both."""
    assert client.post("/v1/memories/save", json=save("alice"), headers=bearer(TOKEN)).status_code == 200
    _, scraper = make_key(clean_db, METRICS)
    _, reader = make_key(clean_db, READ, WRITE)
    scraped = client.get("/metrics", headers=bearer(scraper))
    assert scraped.status_code == 200 and "pai_memory_api_requests_total" in scraped.text
    ready = client.get("/readyz", headers=bearer(scraper))
    assert ready.status_code == 200 and "postgres" in str(ready.json()["checks"])
    for method, path, body, _scope in DOORS:
        refused = request(client, method, path, body, "alice", scraper)
        assert refused.status_code == 403, (path, refused.text)
        assert refused.json()["error"]["code"] == "forbidden_scope"
    denied = client.get("/metrics", headers=bearer(reader))
    assert denied.status_code == 403 and denied.json()["error"]["code"] == "forbidden_scope"
    assert client.get("/readyz", headers=bearer(reader)).json() == {"status": "ready"}
    assert client.get("/metrics", headers=bearer(TOKEN)).status_code == 200
    assert "checks" in client.get("/readyz", headers=bearer(TOKEN)).json()
    _, bound = make_key(clean_db, METRICS, user_id="alice")  # metrics are across users
    assert client.get("/metrics", headers=bearer(bound)).json()["error"]["code"] == "forbidden_user"
