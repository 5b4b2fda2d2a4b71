"""``RetryAfterTransport`` (the eval command's API client) against the real API served by uvicorn on a
free port, with a per-user rate limit the requests exceed: every request ends 200 after waiting."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from sqlalchemy import Engine

from api.app import create_app
from cli.http_retry import RetryAfterTransport
from core.config import Settings
from localstack.process import free_port

pytestmark = pytest.mark.services


@pytest.fixture
def limited_api(settings: Settings, clean_db: Engine) -> Iterator[str]:
    cfg = settings.model_copy(update={"MEMORY_MILVUS_ENABLED": False, "API_RATE_LIMIT_PER_USER": 2,
                                      "API_RATE_LIMIT_PER_USER_BURST": 2})
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(cfg), host="127.0.0.1", port=port, log_config=None))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def test_requests_over_the_rate_limit_are_retried_after_the_wait(limited_api: str) -> None:
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        time.sleep(seconds)

    with httpx.Client(base_url=limited_api, timeout=30) as plain:
        statuses = [plain.get("/v1/memories", params={"user_id": "eval-u"}).status_code for _ in range(3)]
    assert statuses[-1] == 429  # without the transport the third request is refused
    time.sleep(1.1)
    with httpx.Client(base_url=limited_api, timeout=30, transport=RetryAfterTransport(sleep=sleep)) as http:
        for i in range(4):
            body = {"user_id": "eval-u", "question": f"question {i}", "mode": "full_inject"}
            assert http.post("/v1/retrieve", json=body).status_code == 200
    assert waits and all(w >= 1 for w in waits)


def test_a_wait_longer_than_allowed_returns_the_429(limited_api: str) -> None:
    transport = RetryAfterTransport(max_wait=0.5)
    with httpx.Client(base_url=limited_api, timeout=30, transport=transport) as http:
        statuses = [http.get("/v1/memories", params={"user_id": "eval-v"}).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
