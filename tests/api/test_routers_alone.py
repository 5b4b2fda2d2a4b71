"""Each router mounted alone on a minimal FastAPI app, on real services (issue 29): a console page group,
the console login, the tools and retrieval routers and the health router work without ``create_app``,
reading only what they need from ``app.state`` (``api.deps``, ``api.console.attach_console``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import APIRouter, FastAPI
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine

from api.console import attach_console, login, pages
from api.console.session import COOKIE_NAME
from api.error_handlers import install_error_handlers
from api.keys import READ, WRITE, Principal, principal_dep
from api.ratelimit import KeyedRateLimiter
from api.routes import health, retrieve, tools
from api.services import ApiServices, build_services
from core.config import Settings

pytestmark = pytest.mark.services

TOKEN = "tok-router-alone-5c2d"
BEARER = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def services(settings: Settings, clean_db: Engine) -> Iterator[tuple[Settings, ApiServices]]:
    cfg = settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False,
                                      "CONSOLE_LOGIN_FAILURE_DELAY_SEC": 0.0})
    svc = build_services(cfg)
    try:
        yield cfg, svc
    finally:
        svc.close()


def minimal_app(cfg: Settings, svc: ApiServices, *routers: APIRouter) -> FastAPI:
    """An app with only ``routers``, the error answers and the state they read."""
    app = FastAPI()
    app.state.services, app.state.settings = svc, cfg
    app.state.rate_limits = {"user": KeyedRateLimiter("user", 1000.0, 1000),
                             "token": KeyedRateLimiter("token", 1000.0, 1000)}
    install_error_handlers(app)
    for router in routers:
        app.include_router(router)
    return app


def console_app(cfg: Settings, svc: ApiServices, router: APIRouter, token: str | None = TOKEN) -> FastAPI:
    app = minimal_app(cfg, svc, router)
    attach_console(app, cfg, svc, token)
    return app


def test_the_console_pages_router_alone(services: tuple[Settings, ApiServices]) -> None:
    cfg, svc = services
    client = TestClient(tools_app(cfg, svc, Principal("k", frozenset({READ, WRITE}), None, "test")))
    saved = client.post("/v1/memories/save", json={"user_id": "alone-user", "key": "city",
                                                   "content": "lives in Lisbon", "memory_type": "fact"})
    assert saved.status_code == 200, saved.text

    with TestClient(console_app(cfg, svc, pages.router), base_url="http://127.0.0.1",
                    follow_redirects=False) as c:
        assert c.get("/console/users").status_code == 401  # the login form: no session
        users = c.get("/console/users", headers=BEARER)
        assert users.status_code == 200 and "alone-user" in users.text
        assert users.headers["cache-control"] == "no-store"
        memories = c.get("/console/users/alone-user/memories", headers=BEARER)
        assert memories.status_code == 200 and "lives in Lisbon" in memories.text
        assert c.get("/console/users/nobody/memories", headers=BEARER).status_code == 404
        refused = c.get("/console/users?page=0", headers=BEARER)
        assert refused.status_code == 422
        assert c.get("/console/login").status_code == 404  # only the pages router is mounted


def test_a_page_handler_of_a_disabled_console(services: tuple[Settings, ApiServices]) -> None:
    cfg, svc = services
    with TestClient(console_app(cfg, svc, pages.router, token=None)) as c:
        page = c.get("/console/users", headers=BEARER)
        assert page.status_code == 503 and "needs <code>API_TOKEN</code>" in page.text


def test_the_console_login_router_alone(services: tuple[Settings, ApiServices]) -> None:
    cfg, svc = services
    with TestClient(console_app(cfg, svc, login.router), base_url="http://127.0.0.1",
                    follow_redirects=False) as c:
        assert c.get("/console/login").status_code == 200
        wrong = c.post("/console/login", data={"token": TOKEN + "x"})
        assert wrong.status_code == 401 and COOKIE_NAME not in wrong.cookies
        ok = c.post("/console/login", data={"token": TOKEN})
        assert ok.status_code == 303 and ok.headers["location"] == "/console/users"
        assert COOKIE_NAME in ok.cookies


def tools_app(cfg: Settings, svc: ApiServices, principal: Principal) -> FastAPI:
    app = minimal_app(cfg, svc, tools.router, retrieve.router)
    app.dependency_overrides[principal_dep] = lambda: principal
    return app


def test_the_tools_and_retrieve_routers_alone(services: tuple[Settings, ApiServices]) -> None:
    cfg, svc = services
    writer = TestClient(tools_app(cfg, svc, Principal("w", frozenset({READ, WRITE}), None, "writer")))
    saved = writer.post("/v1/memories/save", json={
        "user_id": "tools-user", "key": "drink", "content": "drinks green tea", "memory_type": "preference"})
    assert saved.status_code == 200 and saved.json()["changed"] is True
    listed = writer.get("/v1/memories", params={"user_id": "tools-user"})
    assert [m["key"] for m in listed.json()["memories"]] == ["drink"]
    found = writer.post("/v1/retrieve", json={"user_id": "tools-user", "question": "what tea?",
                                              "mode": "full_inject"})
    assert found.status_code == 200 and "green tea" in found.json()["prompt_block"]
    missing = writer.post("/v1/memories/delete", json={"user_id": "tools-user", "key": "nothing"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "memory_not_found"

    reader = TestClient(tools_app(cfg, svc, Principal("r", frozenset({READ}), None, "reader")))
    refused = reader.post("/v1/memories/save", json={"user_id": "tools-user", "key": "x", "content": "y"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden_scope"


def test_the_health_router_alone(services: tuple[Settings, ApiServices]) -> None:
    cfg, svc = services
    with TestClient(minimal_app(cfg, svc, health.router)) as c:
        assert c.get("/healthz").json() == {"status": "ok"}
        ready = c.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
        assert c.get("/metrics").headers["content-type"].startswith("text/plain")
