"""The operator console over HTTP (no browser): access control, CSRF, input validation, paging in SQL.

The browser tests (``test_console_browser.py``) drive the same pages in headless chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine, func, insert, select
from sqlalchemy.orm import Session

from api.app import create_app
from api.console.session import COOKIE_NAME, SESSION_MAX_AGE_SEC, SessionSigner
from core.config import Settings
from core.memory import browse
from core.memory.browse import MemoryFilter
from core.storage.models import LongTermMemory, MemoryHistory, User

pytestmark = pytest.mark.services

TOKEN = "tok-console-4f1e9a-planted-secret"


@pytest.fixture
def client(settings: Settings, clean_db: Engine) -> Iterator[TestClient]:
    cfg = settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False})
    with TestClient(create_app(cfg), base_url="http://127.0.0.1", follow_redirects=False) as c:
        yield c


def login(client: TestClient) -> None:
    resp = client.post("/console/login", data={"token": TOKEN})
    assert resp.status_code == 303 and resp.headers["location"] == "/console/users"


def seed_memories(engine: Engine, user: str, n: int) -> int:
    """``n`` memories of ``user`` written in SQL (mixed types, activity and vector status); the user's pk."""
    now = datetime.now(UTC)
    with Session(engine) as s, s.begin():
        pk = s.execute(insert(User).values(external_id=user).returning(User.id)).scalar_one()
        s.execute(insert(LongTermMemory), [
            {"user_id": pk, "memory_key": f"fact-{i:04d}" if i % 10 else f"pct%_{i:04d}",
             "memory_type": ("fact", "preference", "goal")[i % 3], "content": f"content {i}",
             "importance": 1 + i % 5, "confidence": 0.9, "is_active": i % 4 != 0,
             "vector_status": ("SYNCED", "DIRTY", "FAILED")[i % 3], "expires_at": now + timedelta(days=30),
             "created_at": now, "updated_at": now - timedelta(seconds=i)} for i in range(n)])
    return pk


def test_without_a_token_the_console_is_disabled(settings: Settings, clean_db: Engine) -> None:
    cfg = settings.model_copy(update={"API_TOKEN": None, "MEMORY_MILVUS_ENABLED": False})
    with TestClient(create_app(cfg), base_url="http://127.0.0.1") as c:
        for method, path in (("get", "/console/users"), ("get", "/console/login"),
                             ("post", "/console/login")):
            resp = c.request(method, path, data={"token": "x"} if method == "post" else None)
            assert resp.status_code == 503 and "needs <code>API_TOKEN</code>" in resp.text, path
            assert COOKIE_NAME not in resp.cookies


def test_login_session_cookie_and_bearer(client: TestClient) -> None:
    page = client.get("/console/users")
    assert page.status_code == 401 and 'name="token"' in page.text and 'type="password"' in page.text
    assert page.headers["cache-control"] == "no-store"
    assert "script-src" not in page.headers["content-security-policy"]  # default-src 'none': no scripts

    wrong = client.post("/console/login", data={"token": TOKEN + "x"})
    assert wrong.status_code == 401 and "wrong token" in wrong.text and COOKIE_NAME not in wrong.cookies
    cross = client.post("/console/login", data={"token": TOKEN}, headers={"origin": "http://evil.example"})
    assert cross.status_code == 403 and COOKIE_NAME not in cross.cookies
    as_json = client.post("/console/login", json={"token": TOKEN})
    assert as_json.status_code == 422 and COOKIE_NAME not in as_json.cookies

    ok = client.post("/console/login", data={"token": TOKEN})
    assert ok.status_code == 303 and TOKEN not in ok.headers["location"]
    cookie = ok.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/console" in cookie
    assert TOKEN not in cookie
    assert client.get("/console/users").status_code == 200

    # a forged or expired cookie is no session; the API's bearer header is one
    client.cookies.clear()
    client.cookies.set(COOKIE_NAME, ok.cookies[COOKIE_NAME][:-4] + "0000", path="/console")
    assert client.get("/console/users").status_code == 401
    old = SessionSigner(TOKEN, clock=lambda: 1_000_000.0).issue()
    client.cookies.clear()
    client.cookies.set(COOKIE_NAME, old, path="/console")
    assert client.get("/console/users").status_code == 401
    assert SessionSigner(TOKEN, clock=lambda: 1_000_000.0 + SESSION_MAX_AGE_SEC - 1).verify(old) is not None
    client.cookies.clear()
    assert client.get("/console/users", headers={"authorization": f"Bearer {TOKEN}"}).status_code == 200
    assert client.get("/console/users", headers={"authorization": "Bearer nope"}).status_code == 401
    # the REST API keeps its bearer check
    assert client.get("/v1/memories", params={"user_id": "u"}).status_code == 401


def test_inputs_are_validated_like_the_rest_api_and_posts_need_csrf(client: TestClient,
                                                                    clean_db: Engine) -> None:
    seed_memories(clean_db, "alice", 3)
    login(client)
    for path, params, code, field, words in (
        ("/console/users/bad%20id/memories", {}, "invalid_field", "user_id", "must be 1-128 characters"),
        ("/console/users/alice/memories", {"page": "0"}, "invalid_field", "page",
         "greater than or equal to 1"),
        ("/console/users/alice/memories", {"page": "1e3"}, "invalid_field", "page", "valid integer"),
        ("/console/users/alice/memories", {"memory_type": "secret"}, "invalid_field", "memory_type", "Input"),
        ("/console/users/alice/memories", {"key": "a\x00b"}, "invalid_field", "key", "control characters"),
        ("/console/users/alice/memories", {"colour": "red"}, "unknown_field", "colour", "Extra inputs"),
        ("/console/users/alice/messages", {"status": "DONE"}, "invalid_field", "status", "Input"),
        ("/console/search", {"question": "where do I live"}, "missing_field", "user_id", "Field required"),
        ("/console/search", {"user_id": "alice", "question": "q", "limit": "99"}, "invalid_field", "limit",
         "less than or equal to 50"),
        ("/console/memories/abc", {}, "invalid_field", "memory_id", "positive integer"),
    ):
        resp = client.get(path, params=params)
        assert resp.status_code == 422, (path, params, resp.status_code)
        assert f"<code>{code}</code>" in resp.text, (path, params)
        assert f"field <code>{field}</code>" in resp.text, (path, params)
        assert words in resp.text, (path, params, resp.text[-600:])
    assert client.get("/console/users", params=[("q", "a"), ("q", "b")]).status_code == 400
    assert client.get("/console/users/nobody/memories").status_code == 404

    group = client.app.state.services.retriever.settings.GROUP_COMMANDS  # type: ignore[attr-defined]
    base = {"group": group, "partition": "0", "offset": "0"}
    no_csrf = client.post("/console/ops/redrive", data=base)
    assert no_csrf.status_code == 422 and "<code>missing_field</code>" in no_csrf.text
    forged = client.post("/console/ops/redrive", data={**base, "csrf": "0" * 64})
    assert forged.status_code == 422 and "<code>csrf_failed</code>" in forged.text
    assert client.get("/console/ops/redrive").status_code == 405
    out = client.post("/console/logout", data={"csrf": "0" * 64})
    assert out.status_code == 422 and client.get("/console/users").status_code == 200  # still logged in


def test_memory_pages_are_paged_and_filtered_in_sql(client: TestClient, clean_db: Engine,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    pk = seed_memories(clean_db, "bob", 120)
    with Session(clean_db) as s:
        first = browse.list_memories(s, pk, "bob", page=1, page_size=50)
        last = browse.list_memories(s, pk, "bob", page=3, page_size=50)
        assert first.total == 120 and first.pages == 3 and len(first.items) == 50 and len(last.items) == 20
        every = [m.id for p in (1, 2, 3) for m in browse.list_memories(s, pk, "bob", page=p).items]
        assert len(every) == len(set(every)) == 120
        importance = [m.importance for m in first.items]
        assert importance == sorted(importance, reverse=True)
        flt = MemoryFilter(memory_type="goal", active=True, vector_status="FAILED")
        page = browse.list_memories(s, pk, "bob", flt, page=1, page_size=200)
        expected = [i for i in range(120) if i % 3 == 2 and i % 4 != 0]
        assert page.total == len(expected) == len(page.items)
        assert all(m.memory_type == "goal" and m.is_active and m.vector_status == "FAILED"
                   for m in page.items)
        # LIKE wildcards in the prefix are literal
        assert browse.list_memories(s, pk, "bob", MemoryFilter(key_prefix="pct%_")).total == 12
        assert browse.list_memories(s, pk, "bob", MemoryFilter(key_prefix="pct_")).total == 0
        with pytest.raises(ValueError, match="page_size"):
            browse.list_memories(s, pk, "bob", page_size=0)
        s.add(MemoryHistory(memory_id=first.items[0].id, user_id=pk, memory_key="k", operation="create",
                            source="tool"))
        s.commit()
        assert s.scalar(select(func.count()).select_from(MemoryHistory)) == 1
    login(client)
    resp = client.get("/console/users/bob/memories", params={"memory_type": "goal", "active": "active",
                                                             "vector_status": "FAILED"})
    assert resp.status_code == 200 and f"({len(expected)} in all)" in resp.text
    live = client.get("/console/users/bob/memories")  # the default view: live memories
    assert live.status_code == 200 and "page 1 of 2 (90 in all)" in live.text
    resp = client.get("/console/users/bob/memories", params={"page": "3", "active": "all"})
    assert resp.status_code == 200 and "page 3 of 3 (120 in all)" in resp.text
    assert 'id="next"' not in resp.text
    assert resp.text.count('<tr><td><a href="/console/memories/') == 20
    monkeypatch.setattr(browse, "COUNT_CAP", 100)  # counts stop at the cap; paging goes on
    capped = client.get("/console/users/bob/memories", params={"page": "2", "active": "all"})
    assert "page 2 (more than 100 in all)" in capped.text and 'id="next"' in capped.text
    assert "(more than 100 in all)" in client.get("/console/users/bob/memories",
                                                  params={"page": "3", "active": "all"}).text
    assert '<td class="num">90</td><td class="num">more than 100</td>' in client.get("/console/users").text
    monkeypatch.undo()
    users = client.get("/console/users", params={"q": "bo"})
    assert users.status_code == 200 and "/console/users/bob/memories" in users.text
    assert '<td class="num">90</td><td class="num">120</td>' in users.text  # active / all


def test_stored_text_is_escaped(client: TestClient, clean_db: Engine) -> None:
    pk = seed_memories(clean_db, "mallory", 1)
    now = datetime.now(UTC)
    with Session(clean_db) as s, s.begin():
        s.execute(insert(LongTermMemory).values(
            user_id=pk, memory_key="fact-x", memory_type="fact", content='<script>alert("x")</script><b>',
            importance=3, confidence=0.9, is_active=True, created_at=now, updated_at=now))
    login(client)
    page = client.get("/console/users/mallory/memories")
    assert page.status_code == 200
    assert "<script>alert" not in page.text
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;b&gt;" in page.text


def test_bidi_control_characters_are_shown_not_obeyed(client: TestClient, clean_db: Engine) -> None:
    """Issue 26: a right-to-left override (and the other bidi controls) in user text would reorder
    what the operator reads; the console shows them as visible ``[U+202E]`` markers instead."""
    pk = seed_memories(clean_db, "mallory", 1)
    now = datetime.now(UTC)
    with Session(clean_db) as s, s.begin():
        s.execute(insert(LongTermMemory).values(
            user_id=pk, memory_key="fact-rlo", memory_type="fact",
            content="invoice\u202egnp.exe \u2066x\u2069",
            importance=3, confidence=0.9, is_active=True, created_at=now, updated_at=now))
    login(client)
    page = client.get("/console/users/mallory/memories")
    assert page.status_code == 200
    assert not any(ch in page.text for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    assert "invoice[U+202E]gnp.exe [U+2066]x[U+2069]" in page.text


def test_a_users_episodes_are_shown_beside_the_memories_escaped_and_paged(client: TestClient,
                                                                           clean_db: Engine) -> None:
    from core.storage.models import Conversation, Episode, Message

    pk = seed_memories(clean_db, "erin", 1)
    now = datetime.now(UTC)
    with Session(clean_db) as s, s.begin():
        conv = s.execute(insert(Conversation).values(user_id=pk, external_id="trip-chat")
                         .returning(Conversation.id)).scalar_one()
        for i in range(55):
            msg = s.execute(insert(Message).values(
                upstream_message_id=f"erin-m{i}", user_id=pk, conversation_id=conv, role="user",
                content=f"said {i}", created_at=now - timedelta(minutes=i)).returning(Message.id)
            ).scalar_one()
            s.execute(insert(Episode).values(
                user_id=pk, conversation_id=conv, message_id=msg, passage_index=0,
                content='<b>kayaking</b> on Tahoe' if i == 0 else f"passage {i}",
                sent_at=now - timedelta(minutes=i),
                expires_at=now + timedelta(days=365), vector_status="SYNCED" if i % 2 else "DIRTY"))
    login(client)
    memories = client.get("/console/users/erin/memories")
    assert 'href="/console/users/erin/episodes"' in memories.text
    page = client.get("/console/users/erin/episodes")
    assert page.status_code == 200 and "trip-chat" in page.text and "erin-m0" in page.text
    assert "<b>kayaking" not in page.text and "&lt;b&gt;kayaking&lt;/b&gt; on Tahoe" in page.text
    assert "55 in all" in page.text and "passage 49" in page.text and "passage 50" not in page.text
    second = client.get("/console/users/erin/episodes", params={"page": 2})
    assert "passage 54" in second.text and "passage 49" not in second.text
    assert client.get("/console/users/erin/episodes", params={"page": "x"}).status_code == 422
    assert client.get("/console/users/nobody/episodes").status_code == 404
