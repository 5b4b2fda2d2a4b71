"""The console's access rules over real PostgreSQL: admin keys only, server-side logout, failed-login
limit and delay, a trusted reverse proxy's forwarded headers, the audit page."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine, select
from starlette.requests import Request

from api.app import create_app
from api.console.proxy import InvalidTrustedProxies, client_view, normalise_origin, parse_trusted
from api.console.session import COOKIE_NAME
from core import keys
from core.config import Settings
from core.storage.db import session_factory, transaction
from core.storage.models import AuditLog

pytestmark = pytest.mark.services

TOKEN = "tok-console-access-93b1-planted"
PROXY = ("10.9.8.7", 40000)


@pytest.fixture
def console_settings(settings: Settings, clean_db: Engine) -> Settings:
    return settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False,
                                       "CONSOLE_LOGIN_FAILURE_DELAY_SEC": 0.3,
                                       "CONSOLE_LOGIN_FAILURES_PER_MIN": 3.0,
                                       "CONSOLE_TRUSTED_PROXIES": "10.9.8.0/24, ::1"})


@pytest.fixture
def make_client(console_settings: Settings) -> Iterator[Callable[..., TestClient]]:
    opened: list[TestClient] = []

    def make(client: tuple[str, int] = ("127.0.0.1", 50000), base_url: str = "http://127.0.0.1",
             **updates: Any) -> TestClient:
        app = create_app(console_settings.model_copy(update=updates))
        c = TestClient(app, base_url=base_url, follow_redirects=False, client=client)
        c.__enter__()
        opened.append(c)
        return c

    yield make
    for c in opened:
        c.__exit__(None, None, None)


def new_key(engine: Engine, *scopes: str, user_id: str | None = None) -> tuple[str, str]:
    with transaction(session_factory(engine)) as session:
        info, token = keys.create_key(session, f"key {'+'.join(scopes)}", scopes, user_id=user_id)
    return info.id, token


def audit_rows(engine: Engine) -> list[tuple[str, str, str | None]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(select(AuditLog.action, AuditLog.outcome, AuditLog.client)
                                               .order_by(AuditLog.id))]  # type: ignore[misc]


def csrf_of(page: str) -> str:
    marker = 'name="csrf" value="'
    start = page.index(marker) + len(marker)
    return page[start:page.index('"', start)]


def test_logout_revokes_the_session_in_every_process(make_client: Callable[..., TestClient]) -> None:
    first, second = make_client(), make_client()  # two API processes on one database
    ok = first.post("/console/login", data={"token": TOKEN})
    assert ok.status_code == 303
    cookie = ok.cookies[COOKIE_NAME]
    second.cookies.set(COOKIE_NAME, cookie, path="/console")
    page = second.get("/console/users")
    assert page.status_code == 200
    out = second.post("/console/logout", data={"csrf": csrf_of(page.text)})
    assert out.status_code == 303 and out.headers["location"] == "/console/login"
    assert second.get("/console/users").status_code == 401
    first.cookies.set(COOKIE_NAME, cookie, path="/console")  # the copied cookie is dead too
    assert first.get("/console/users").status_code == 401


def test_only_admin_keys_open_the_console(make_client: Callable[..., TestClient], clean_db: Engine) -> None:
    client = make_client()
    admin_id, admin = new_key(clean_db, "admin")
    _, read_write = new_key(clean_db, "read", "write")
    _, bound_admin = new_key(clean_db, "admin", user_id="alice")
    for token in (read_write, bound_admin):
        refused = client.post("/console/login", data={"token": token})
        assert refused.status_code == 403 and "lacks the admin scope" in refused.text
        assert COOKIE_NAME not in refused.cookies
        assert client.get("/console/users", headers={"authorization": f"Bearer {token}"}).status_code == 401
    assert client.get("/console/users", headers={"authorization": f"Bearer {admin}"}).status_code == 200
    ok = client.post("/console/login", data={"token": admin})
    assert ok.status_code == 303
    assert client.get("/console/users").status_code == 200
    with transaction(session_factory(clean_db)) as session:  # revoking the key ends its sessions
        keys.revoke_key(session, admin_id)
    assert client.get("/console/users").status_code == 401
    assert ("console.login", "ok", "127.0.0.1") in audit_rows(clean_db)


def test_failed_logins_are_slowed_and_limited_per_client(make_client: Callable[..., TestClient],
                                                         clean_db: Engine) -> None:
    attacker, neighbour = make_client(), make_client(client=("127.0.0.2", 50000))
    for _ in range(3):
        started = time.monotonic()
        wrong = attacker.post("/console/login", data={"token": "guess"})
        assert wrong.status_code == 401 and time.monotonic() - started >= 0.3  # each failure is slowed
    blocked = attacker.post("/console/login", data={"token": TOKEN})  # even the right token, now
    assert blocked.status_code == 429 and int(blocked.headers["retry-after"]) >= 1
    assert COOKIE_NAME not in blocked.cookies
    assert neighbour.post("/console/login", data={"token": TOKEN}).status_code == 303  # per client
    outcomes = [(a, o) for a, o, c in audit_rows(clean_db) if c == "127.0.0.1"]
    assert outcomes == [("console.login", "failed")] * 3 + [("console.login", "denied")]


def test_a_trusted_proxy_gives_scheme_host_and_client(make_client: Callable[..., TestClient],
                                                      clean_db: Engine) -> None:
    forwarded = {"x-forwarded-proto": "https", "x-forwarded-host": "console.example",
                 "x-forwarded-for": "203.0.113.9, 10.9.8.7", "origin": "https://console.example"}
    proxied = make_client(client=PROXY, base_url="http://10.9.8.1:8080")
    ok = proxied.post("/console/login", data={"token": TOKEN}, headers=forwarded)
    assert ok.status_code == 303, ok.text
    cookie = ok.headers["set-cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert ("console.login", "ok", "203.0.113.9") in audit_rows(clean_db)
    rfc = {"forwarded": 'for="[2001:db8::1]:4711";proto=https;host=console.example',
           "origin": "https://console.example:443"}
    via_rfc = proxied.post("/console/login", data={"token": TOKEN}, headers=rfc)
    assert via_rfc.status_code == 303 and "Secure" in via_rfc.headers["set-cookie"]
    assert ("console.login", "ok", "2001:db8::1") in audit_rows(clean_db)

    direct = make_client(client=("192.0.2.50", 1234), base_url="http://10.9.8.1:8080")  # not a proxy
    spoofed = direct.post("/console/login", data={"token": TOKEN}, headers=forwarded)
    assert spoofed.status_code == 403 and "cross-site" in spoofed.text
    plain = direct.post("/console/login", data={"token": TOKEN},
                        headers={"x-forwarded-proto": "https", "origin": "http://10.9.8.1:8080"})
    assert plain.status_code == 303 and "Secure" not in plain.headers["set-cookie"]
    assert ("console.login", "ok", "192.0.2.50") in audit_rows(clean_db)


def scope_request(peer: str, headers: dict[str, str], scheme: str = "http",
                  host: str = "app:8080") -> Request:
    raw = [(k.lower().encode(), v.encode()) for k, v in {"host": host, **headers}.items()]
    return Request({"type": "http", "method": "GET", "path": "/", "headers": raw, "scheme": scheme,
                    "server": ("app", 8080), "client": (peer, 1), "query_string": b""})


def test_client_view_parsing() -> None:
    trusted = parse_trusted("10.0.0.0/8,fd00::1")
    view = client_view(scope_request("10.1.2.3", {"x-forwarded-proto": "http, https",
                                                  "x-forwarded-host": "a.example, b.example:8443",
                                                  "x-forwarded-for": "198.51.100.1, 10.0.0.5"}), trusted)
    assert (view.scheme, view.host, view.client, view.origin) == ("https", "b.example:8443", "198.51.100.1",
                                                                  "https://b.example:8443")
    for bad in ({"x-forwarded-proto": "javascript"}, {"x-forwarded-host": "evil.example/path"},
                {"x-forwarded-host": "a b"}, {"forwarded": "proto=gopher;host=\"x y\""}):
        odd = client_view(scope_request("10.1.2.3", bad), trusted)
        assert (odd.scheme, odd.host) == ("http", "app:8080"), bad
    claims = {"forwarded": "proto=https;host=x.example;for=1.2.3.4"}
    untrusted = client_view(scope_request("192.0.2.1", claims), trusted)
    assert (untrusted.scheme, untrusted.host, untrusted.client) == ("http", "app:8080", "192.0.2.1")
    assert normalise_origin("HTTPS://Console.Example:443/") == "https://console.example"
    assert normalise_origin("http://h:80") == "http://h" and normalise_origin("http://h:8080") == "http://h:8080"
    assert parse_trusted("") == ()
    with pytest.raises(InvalidTrustedProxies):
        parse_trusted("10.0.0.0/8, proxy.internal")


def test_the_audit_page_shows_admin_actions_escaped(make_client: Callable[..., TestClient],
                                                    clean_db: Engine) -> None:
    client = make_client()
    with transaction(session_factory(clean_db)) as session:
        info, _token = keys.create_key(session, "<b>agent</b>", ["read"])
        keys.audit(session, "cli:ops", "key.create", "ok", target=info.prefix, detail={"name": info.name})
    client.post("/console/login", data={"token": "nope"})
    assert client.post("/console/login", data={"token": TOKEN}).status_code == 303
    page = client.get("/console/audit")
    assert page.status_code == 200
    assert page.text.index("console.login") < page.text.index("key.create")  # newest first
    assert "wrong token" in page.text and info.prefix in page.text and "cli:ops" in page.text
    assert "<b>agent</b>" not in page.text and "&lt;b&gt;agent&lt;/b&gt;" in page.text
    assert TOKEN not in page.text
    assert client.get("/console/audit", params={"page": "0"}).status_code == 422
