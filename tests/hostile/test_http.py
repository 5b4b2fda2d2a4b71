"""The HTTP corpus (``corpus/http.jsonl``) against the API, with ``API_TOKEN`` set.

Each case is sent through FastAPI's ``TestClient`` (the real ASGI stack and middleware, a real
PostgreSQL behind it) between two valid requests of a bystander user: the bad request gets exactly
its expected 4xx with the ``{"error": {"code", "message", "field"}}`` shape (never a 5xx), and the
bystander's save before it and list/retrieve after it succeed. Valid-but-weird cases (injection
strings in keys and questions, extreme Unicode) succeed and are stored inertly / byte-exact.
The same corpus is replayed against a real ``pai-memory run api`` process in
``tests/security/test_secrets.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine, inspect, text

from api.app import create_app
from core.config import Settings
from core.filters import normalise_key
from tests.hostile.cases import HTTP_CATEGORIES, HttpCase, load_http_cases

pytestmark = pytest.mark.services

TOKEN = "hostile-http-token-3f9a1c77"
CASES = load_http_cases()
BODY_LIMIT = 64 * 1024


def error_shape(response: Any) -> dict[str, Any]:
    assert response.headers["content-type"].startswith("application/json"), response.headers
    body = response.json()
    assert set(body) == {"error"}, body
    err = body["error"]
    assert set(err) == {"code", "message", "field"}, err
    assert isinstance(err["code"], str) and err["code"] and isinstance(err["message"], str) and err["message"]
    assert err["field"] is None or isinstance(err["field"], str)
    return dict(err)


def send(client: TestClient, case: HttpCase) -> Any:
    return client.request(case.method, case.url(TOKEN), content=case.body,
                          headers=case.request_headers(TOKEN))


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    cfg = settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False,
                                      "API_MAX_BODY_BYTES": BODY_LIMIT})
    with TestClient(create_app(cfg), raise_server_exceptions=False) as test_client:
        yield test_client


AUTH = {"Authorization": f"Bearer {TOKEN}"}


def test_corpus_is_well_formed() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "case names must be unique"
    assert len(CASES) >= 50
    assert {c.category for c in CASES} == HTTP_CATEGORIES  # every category has cases
    for case in CASES:
        assert case.why and case.method in {"GET", "POST", "PUT", "DELETE", "PATCH"}, case.name
        assert 200 <= case.expect_status < 500, case.name  # nothing in the corpus may expect a 5xx
    big = next(c for c in CASES if c.name == "save_body_1mb")
    assert big.body is not None and len(big.body) > 1_000_000  # generated at test time, not committed


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_http_case(client: TestClient, case: HttpCase) -> None:
    bystander = f"http-bystander-{case.name}"[:128].replace("_", "-")
    before = client.post("/v1/memories/save", headers=AUTH, json={
        "user_id": bystander, "key": "tea", "content": "Prefers oolong tea", "memory_type": "preference"})
    assert before.status_code == 200, before.text

    response = send(client, case)
    assert response.status_code == case.expect_status, (case.why, response.status_code, response.text[:500])
    if response.status_code >= 400:
        err = error_shape(response)
        if case.expect_code:
            assert err["code"] == case.expect_code, err
        assert TOKEN not in response.text  # the secret is never echoed
    check_valid_case(client, case, response)

    listed = client.get("/v1/memories", params={"user_id": bystander}, headers=AUTH)
    assert listed.status_code == 200
    assert [(m["key"], m["content"]) for m in listed.json()["memories"]] == [("tea", "Prefers oolong tea")]
    found = client.post("/v1/retrieve", headers=AUTH, json={"user_id": bystander, "question": "tea?",
                                                            "mode": "full_inject"})
    assert found.status_code == 200 and [i["memory"]["key"] for i in found.json()["items"]] == ["tea"]


def check_valid_case(client: TestClient, case: HttpCase, response: Any) -> None:
    """Valid-but-weird requests: stored inertly and read back exactly."""
    if response.status_code != 200 or case.method != "POST" or case.body is None:
        return
    sent = json.loads(case.body)
    if case.path == "/v1/memories/save":
        out = response.json()
        assert out["user_id"] == sent["user_id"] and out["key"] == normalise_key(sent["key"])
        listed = client.get("/v1/memories", params={"user_id": sent["user_id"]}, headers=AUTH).json()
        stored = {m["key"]: m["content"] for m in listed["memories"]}
        assert stored[normalise_key(sent["key"])] == sent["content"]  # byte-exact
    elif case.path == "/v1/retrieve":
        body = response.json()
        assert body["user_id"] == sent["user_id"]
        assert all(i["memory"]["content"] for i in body["items"])


def test_injection_requests_leave_the_tables_intact(client: TestClient, engine: Engine) -> None:
    for case in CASES:
        if case.category in ("sql_injection", "milvus_injection"):
            assert send(client, case).status_code < 500
    tables = set(inspect(engine).get_table_names())
    assert {"users", "long_term_memories", "messages", "memory_history", "outbox",
            "processed_commands"} <= tables
    with engine.connect() as conn:
        keys = set(conn.execute(text("SELECT memory_key FROM long_term_memories")).scalars())
    assert "drop_table_long_term_memories" in keys  # the SQL in the key was stored as a slug


def test_no_case_is_a_server_error_even_without_the_bystanders(client: TestClient) -> None:
    """The whole corpus back to back (no recovery requests in between): never a 5xx."""
    statuses = {case.name: send(client, case).status_code for case in CASES}
    assert not {n: s for n, s in statuses.items() if s >= 500}, statuses
    assert client.get("/healthz").status_code == 200
