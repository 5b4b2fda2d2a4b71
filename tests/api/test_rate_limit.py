"""HTTP rate limits through the real API app (FastAPI ``TestClient``, real PostgreSQL): per user and
per token, ``429`` with ``Retry-After`` and the API's error body; 0 turns a limit off. The token
bucket itself is checked with a fake clock."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine

from api.app import create_app
from api.ratelimit import KeyedRateLimiter, RateLimited
from core.config import Settings

pytestmark = pytest.mark.services

TOKEN = "tok-ratelimit-3c9d"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _client(settings: Settings, **limits: Any) -> TestClient:
    cfg = settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False,
                                      "API_RATE_LIMIT_PER_USER": 0, "API_RATE_LIMIT_PER_TOKEN": 0, **limits})
    return TestClient(create_app(cfg))


@pytest.fixture
def per_user(settings: Settings, clean_db: Engine) -> Iterator[TestClient]:
    with _client(settings, API_RATE_LIMIT_PER_USER=0.5, API_RATE_LIMIT_PER_USER_BURST=3) as client:
        yield client


def _assert_429(response: Any) -> int:
    assert response.status_code == 429, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == "rate_limited", body
    assert {"code", "message", "field"} <= set(body["error"])
    retry_after = int(response.headers["retry-after"])
    assert retry_after >= 1
    return retry_after


def test_a_user_over_the_limit_gets_429_with_retry_after_and_other_users_do_not(per_user: TestClient) -> None:
    question = {"user_id": "hot", "question": "what do I like?", "mode": "full_inject"}
    calls = [("POST", "/v1/memories/save", {"user_id": "hot", "key": "fact-a", "content": "Alpha"}),
             ("POST", "/v1/retrieve", question),
             ("GET", "/v1/memories?user_id=hot", None)]
    for method, path, body in calls:  # the burst of 3
        assert per_user.request(method, path, json=body, headers=AUTH).status_code == 200
    more = [("POST", "/v1/memories/delete", {"user_id": "hot", "key": "fact-a"}),
            ("POST", "/v1/memories/append", {"user_id": "hot", "key": "fact-a", "content": "more"})]
    for method, path, body in [*calls, *more]:
        retry_after = _assert_429(per_user.request(method, path, json=body, headers=AUTH))
        assert retry_after == 2  # one token back at 0.5/s
    # the refused writes changed nothing
    listed = per_user.get("/v1/memories?user_id=cold", headers=AUTH)
    assert listed.status_code == 200 and listed.json()["memories"] == []
    assert per_user.get("/healthz").status_code == 200
    assert per_user.get("/readyz", headers=AUTH).status_code == 200


def test_invalid_requests_cost_the_user_nothing(per_user: TestClient) -> None:
    for _ in range(10):
        bad = per_user.post("/v1/memories/save", json={"user_id": "hot", "key": "k"}, headers=AUTH)
        assert bad.status_code == 422
    assert per_user.get("/v1/memories?user_id=hot", headers=AUTH).status_code == 200


def test_the_bucket_refills(settings: Settings, clean_db: Engine) -> None:
    with _client(settings, API_RATE_LIMIT_PER_USER=2, API_RATE_LIMIT_PER_USER_BURST=1) as client:
        assert client.get("/v1/memories?user_id=u", headers=AUTH).status_code == 200
        assert _assert_429(client.get("/v1/memories?user_id=u", headers=AUTH)) == 1
        time.sleep(0.6)  # 2 tokens/s: one is back after 0.5 s
        assert client.get("/v1/memories?user_id=u", headers=AUTH).status_code == 200


def test_a_token_over_its_limit_gets_429_on_every_route_but_the_probes(
    settings: Settings, clean_db: Engine
) -> None:
    with _client(settings, API_RATE_LIMIT_PER_TOKEN=0.25, API_RATE_LIMIT_PER_TOKEN_BURST=4) as client:
        for i in range(4):  # four different users: the token's bucket, not a user's, runs out
            assert client.get(f"/v1/memories?user_id=u{i}", headers=AUTH).status_code == 200
        assert _assert_429(client.get("/v1/memories?user_id=u9", headers=AUTH)) == 4
        assert _assert_429(client.post("/v1/retrieve", json={"user_id": "u9", "question": "q"},
                                       headers=AUTH)) == 4
        assert _assert_429(client.get("/metrics", headers=AUTH)) == 4
        # an invalid body is refused before it is read: 429, not 422
        assert _assert_429(client.post("/v1/memories/save", json={"bad": 1}, headers=AUTH)) == 4
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz", headers=AUTH).status_code == 200
        # a caller without the token is refused as before (401), not counted
        assert client.get("/v1/memories?user_id=u1").status_code == 401


def test_zero_turns_the_limits_off(settings: Settings, clean_db: Engine) -> None:
    with _client(settings) as client:
        for _ in range(60):
            assert client.get("/v1/memories?user_id=same", headers=AUTH).status_code == 200


def test_the_defaults_leave_a_chat_turn_alone(settings: Settings, clean_db: Engine) -> None:
    """A chat turn: retrieval plus a few tool calls for the user, many users through one token."""
    assert settings.API_RATE_LIMIT_PER_USER >= 5 and settings.API_RATE_LIMIT_PER_USER_BURST >= 20
    cfg = settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False})
    with TestClient(create_app(cfg)) as client:
        for user in ("a", "b", "c"):
            for i in range(cfg.API_RATE_LIMIT_PER_USER_BURST):
                body = {"user_id": user, "key": f"fact-k{i}", "content": f"Fact number {i}"}
                assert client.post("/v1/memories/save", json=body, headers=AUTH).status_code == 200


# --- the bucket ---------------------------------------------------------------------------------
class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_token_bucket_rate_burst_and_wait() -> None:
    clock = FakeClock()
    limiter = KeyedRateLimiter("user", rate=4, burst=2, clock=clock)
    assert [limiter.acquire("k") for _ in range(2)] == [0.0, 0.0]
    assert limiter.acquire("k") == pytest.approx(0.25)
    clock.now += 0.25
    assert limiter.acquire("k") == 0.0
    clock.now += 10  # refills to the burst, never beyond
    assert [limiter.acquire("k") for _ in range(3)][:2] == [0.0, 0.0]
    with pytest.raises(RateLimited) as err:
        limiter.check("k")
    assert err.value.scope == "user" and err.value.retry_after > 0
    assert limiter.acquire("other") == 0.0


def test_the_number_of_buckets_is_bounded() -> None:
    clock = FakeClock()
    limiter = KeyedRateLimiter("user", rate=1, burst=1, max_keys=100, clock=clock)
    for i in range(1000):
        limiter.acquire(f"user-{i}")
        clock.now += 0.01
    assert len(limiter) == 100
    assert limiter.acquire("user-999") > 0  # the most recent buckets are kept


def test_a_disabled_limiter_keeps_no_state() -> None:
    limiter = KeyedRateLimiter("token", rate=0, burst=1)
    assert all(limiter.acquire("k") == 0.0 for _ in range(100)) and len(limiter) == 0
