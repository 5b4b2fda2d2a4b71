"""Access control of the HTTP API: bearer token, loopback-only default, request-size limit.

Adds to ``tests/api/test_api.py`` (401 matrix per endpoint, 413 declared/streamed, ``check_bind``
and the real ``run api`` refusing 0.0.0.0):

- the token is compared with ``hmac.compare_digest`` on *every* decision (right, wrong, shorter,
  longer, empty), observed by wrapping it; no other comparison decides;
- a token anywhere but the ``Authorization: Bearer`` header (query string, cookie, other headers)
  is refused; the ``Bearer`` scheme is case-insensitive, credentials are exact;
- defaults: ``API_HOST`` is 127.0.0.1 and no token is configured; ``serve`` refuses a non-loopback
  host without a (non-empty) token *before* building or binding anything, on IPv4 and IPv6;
- size: the limit holds on every route at the exact boundary, a request without the token is
  refused (401) without its body being read, declared and streamed sizes both count.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine

import api.auth
import api.server
from api.app import create_app
from api.auth import InsecureBindError
from core.config import Settings, load_settings

TOKEN = "access-token-7c1e5d9b"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
LIMIT = 4096


@pytest.fixture
def cfg(settings: Settings, clean_db: Engine) -> Settings:
    return settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False,
                                       "API_MAX_BODY_BYTES": LIMIT})


@pytest.fixture
def compare_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bytes, bytes]]:
    """Every ``hmac.compare_digest`` call the auth middleware makes."""
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(api.auth.hmac, "compare_digest", spy)
    return calls


@pytest.fixture
def client(cfg: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(cfg)) as test_client:
        yield test_client


@pytest.mark.services
def test_every_token_decision_goes_through_compare_digest(client: TestClient,
                                                          compare_calls: list[tuple[bytes, bytes]]) -> None:
    presented = [TOKEN, TOKEN[:-1], TOKEN + "x", "x" * len(TOKEN), "", TOKEN.upper(), TOKEN[::-1]]
    for credentials in presented:
        compare_calls.clear()
        response = client.get("/v1/memories", params={"user_id": "u1"},
                              headers={"Authorization": f"Bearer {credentials}"})
        assert response.status_code == (200 if credentials == TOKEN else 401), credentials
        # exactly one constant-time comparison decided, with the configured token, whatever the length
        assert compare_calls == [(credentials.encode(), TOKEN.encode())], credentials


@pytest.mark.services
@pytest.mark.parametrize(("headers", "params", "cookies"), [
    ({}, {"access_token": TOKEN}, {}),
    ({}, {"token": TOKEN, "api_key": TOKEN}, {}),
    ({}, {}, {"Authorization": f"Bearer {TOKEN}", "token": TOKEN}),
    ({"X-API-Key": TOKEN}, {}, {}),
    ({"X-Auth-Token": TOKEN}, {}, {}),
    ({"Proxy-Authorization": f"Bearer {TOKEN}"}, {}, {}),
    ({"Authorization": TOKEN}, {}, {}),
    ({"Authorization": f"Token {TOKEN}"}, {}, {}),
    ({"Authorization": f"Bearer{TOKEN}"}, {}, {}),
    ({"Authorization": f"Bearer {TOKEN} extra"}, {}, {}),
])
def test_the_token_is_accepted_only_in_the_bearer_header(
        client: TestClient, headers: dict[str, str], params: dict[str, str], cookies: dict[str, str]) -> None:
    client.cookies.clear()
    for name, value in cookies.items():
        client.cookies.set(name, value)
    response = client.get("/v1/memories", params={"user_id": "u1", **params}, headers=headers)
    assert response.status_code == 401, response.text
    assert response.json()["error"]["code"] == "unauthorized"
    assert TOKEN not in response.text


@pytest.mark.services
def test_scheme_is_case_insensitive_and_credentials_exact(client: TestClient) -> None:
    for scheme in ("Bearer", "bearer", "BEARER"):
        assert client.get("/v1/memories", params={"user_id": "u1"},
                          headers={"Authorization": f"{scheme} {TOKEN}"}).status_code == 200


def test_defaults_bind_to_loopback_without_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("API_HOST", "API_TOKEN", "API_MAX_BODY_BYTES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir("/")  # no .env file either
    settings = load_settings()
    assert settings.API_HOST == "127.0.0.1"
    assert settings.API_TOKEN is None
    assert settings.API_MAX_BODY_BYTES == 64 * 1024
    assert Settings.model_fields["API_HOST"].default == "127.0.0.1"


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "[::]", "10.0.0.7", "192.168.1.20", "api.example.com",
                                  "0", "::ffff:0.0.0.0", "127.0.0.1.nip.io"])
@pytest.mark.parametrize("token", [None, ""])
def test_serve_refuses_public_hosts_without_a_token_before_binding(
        host: str, token: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    def must_not_run(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the app was built or the server started")

    monkeypatch.setattr("api.app.create_app", must_not_run)
    monkeypatch.setattr(api.server._Server, "run", must_not_run)
    settings = Settings(API_HOST=host, API_TOKEN=None if token is None else SecretStr(token))
    with pytest.raises(InsecureBindError, match="API_TOKEN"):
        api.server.serve(settings)


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", "127.5.6.7"])
def test_serve_binds_loopback_without_a_token(host: str, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[tuple[str, int]] = []
    monkeypatch.setattr("api.app.create_app", lambda settings: object())
    monkeypatch.setattr(api.server._Server, "run",
                        lambda self, *a, **k: started.append((self.config.host, self.config.port)))
    api.server.serve(Settings(API_HOST=host, API_TOKEN=None, API_PORT=8099))
    assert started == [(host, 8099)]


def test_serve_binds_a_public_host_with_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    monkeypatch.setattr("api.app.create_app", lambda settings: object())
    monkeypatch.setattr(api.server._Server, "run", lambda self, *a, **k: started.append(self.config.host))
    api.server.serve(Settings(API_HOST="0.0.0.0", API_TOKEN=SecretStr("t")))
    assert started == ["0.0.0.0"]


ROUTES = [("POST", "/v1/retrieve"), ("POST", "/v1/memories/save"), ("POST", "/v1/memories/append"),
          ("POST", "/v1/memories/delete"), ("GET", "/v1/memories?user_id=u1"), ("GET", "/healthz")]


def _json_of_size(size: int) -> bytes:
    head, tail = b'{"user_id": "u1", "question": "', b'"}'
    return head + b"q" * (size - len(head) - len(tail)) + tail


@pytest.mark.services
@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_body_limit_at_the_boundary_on_every_route(client: TestClient, method: str, path: str) -> None:
    headers = {**AUTH, "content-type": "application/json"}
    at_limit = client.request(method, path, content=_json_of_size(LIMIT), headers=headers)
    assert at_limit.status_code != 413, at_limit.text  # exactly the limit is read and validated
    over = client.request(method, path, content=_json_of_size(LIMIT + 1), headers=headers)
    assert over.status_code == 413 and over.json()["error"]["code"] == "payload_too_large"

    def streamed() -> Iterator[bytes]:
        body = _json_of_size(LIMIT + 1)
        for start in range(0, len(body), 1000):
            yield body[start:start + 1000]

    chunked = client.request(method, path, content=streamed(), headers=headers)
    assert chunked.status_code == 413


@pytest.mark.services
def test_requests_without_the_token_are_refused_before_their_body_is_read(cfg: Settings) -> None:
    app = create_app(cfg)
    received: list[int] = []

    async def asgi(scope: Any, receive: Any, send: Any) -> None:
        async def counting_receive() -> Any:
            message = await receive()
            received.append(len(message.get("body", b"")))
            return message

        await app(scope, counting_receive, send)

    with TestClient(asgi) as test_client:
        response = test_client.post("/v1/memories/save", content=b"x" * (LIMIT * 50),
                                    headers={"content-type": "application/json"})
        assert response.status_code == 401
        assert sum(received) == 0  # the large body was never read
        received.clear()
        response = test_client.post("/v1/memories/save", content=b"x" * (LIMIT * 50),
                                    headers={**AUTH, "content-type": "application/json"})
        assert response.status_code == 413
