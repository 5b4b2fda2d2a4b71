"""A user's data over HTTP (issue 27): the streamed export and the erasure job with its proof.

Real PostgreSQL, the shared Milvus (a private collection, vectors written by the real indexer) and the
real app. After the erasure job reports its proof, every door is searched for the erased user's content
and finds nothing: REST (retrieve in every mode, list, get by id, export), MCP (the tool handlers), the
console (search and memory pages) and Milvus directly; the other user is untouched. A job accepted by a
process that died is taken up by the next one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator
from pydantic import SecretStr
from sqlalchemy import Engine, select, update

from api.app import create_app
from api.keys import Principal, principal_dep
from api.mcp_server import ToolCallError, build_server
from core.config import RetrieveMode, Settings
from core.embedding.local import LocalE5Embedder
from core.indexing import MemoryIndexer
from core.jobs import JobStore
from core.storage.db import session_factory, transaction
from core.storage.models import Conversation, Job, LongTermMemory, Message, User
from core.vectorstore import MilvusMemoryIndex
from schemas.export import SCHEMA_FILE

pytestmark = pytest.mark.services

TOKEN = "tok-user-data-51e0"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
ERIN = {"kayak": "paddles a sea kayak around Bornholm every August",
        "allergy": "allergic to hazelnuts since childhood",
        "job": "works as a luthier repairing baroque violins"}
FRANK = {"kayak": "paddles a sea kayak on Lake Constance"}


@pytest.fixture
def cfg(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Settings:
    return settings.model_copy(update={
        "API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": True,
        "MEMORY_MILVUS_COLLECTION": unique_name("t_userdata"), "RETRIEVAL_DENSE_TIMEOUT_SEC": 60.0,
        "LONG_TERM_MEMORY_RETRIEVE_MODE": RetrieveMode.DENSE, "API_RATE_LIMIT_PER_USER": 0,
        "API_JOBS_POLL_SEC": 0.5})


@pytest.fixture
def indexer(cfg: Settings, clean_db: Engine) -> Iterator[MemoryIndexer]:
    embedder = LocalE5Embedder()
    index = MilvusMemoryIndex.from_settings(cfg, dim=embedder.dim)
    idx = MemoryIndexer(session_factory(clean_db), embedder, index)
    idx.start()
    try:
        yield idx
    finally:
        idx.index.drop_collection()
        idx.close()


def seed(client: TestClient, engine: Engine, indexer: MemoryIndexer) -> dict[str, int]:
    """Memories of erin and frank over REST, a correction, two stored messages of erin, all indexed."""
    ids = {}
    for user, memories in (("erin", ERIN), ("frank", FRANK)):
        for key, content in memories.items():
            r = client.post("/v1/memories/save", headers=AUTH, json={"user_id": user, "key": key,
                                                                     "content": content})
            assert r.status_code == 200, r.text
            ids[f"{user}/{key}"] = r.json()["memory_id"]
    fix = client.patch(f"/v1/memories/{ids['erin/job']}", headers=AUTH,
                       json={"user_id": "erin", "content": ERIN["job"] + " and violas"})
    assert fix.status_code == 200
    ERIN["job"] += " and violas"
    with transaction(session_factory(engine)) as session:
        pk = session.scalar(select(User.id).where(User.external_id == "erin"))
        conv = Conversation(user_id=pk, external_id="erin-c1")
        session.add(conv)
        session.flush()
        for i, text in enumerate(("I paddle around Bornholm each August", "hazelnuts make me ill")):
            session.add(Message(upstream_message_id=f"erin:c1:{i}", user_id=pk, conversation_id=conv.id,
                                role="user", content=text,
                                created_at=datetime.now(UTC) + timedelta(seconds=i)))
    with engine.connect() as conn:
        report = indexer.sync(list(conn.execute(select(LongTermMemory.id)).scalars()))
    assert report.indexed == 4, report
    return ids


def wait_for_job(client: TestClient, job_id: str, timeout: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        r = client.get(f"/v1/jobs/{job_id}", headers=AUTH)
        assert r.status_code == 200, r.text
        job = r.json()
        if job["status"] in ("done", "failed"):
            return dict(job)
        assert time.monotonic() < deadline, job
        time.sleep(0.3)


def error_code(response: Any) -> str:
    return str(response.json()["error"]["code"])


def test_export_is_one_streamed_document_matching_its_schema(cfg: Settings, clean_db: Engine,
                                                             indexer: MemoryIndexer) -> None:
    with TestClient(create_app(cfg)) as client:
        seed(client, clean_db, indexer)
        with client.stream("GET", "/v1/users/erin/export", headers=AUTH) as response:
            assert response.status_code == 200
            assert "content-length" not in response.headers  # chunked, not buffered
            body = b"".join(response.iter_bytes())
        doc = json.loads(body)
        Draft202012Validator(json.loads(Path(SCHEMA_FILE).read_text(encoding="utf-8"))).validate(doc)
        assert doc["user_id"] == "erin" and doc["format"] == "pai.user.export.v1"
        assert {m["key"]: m["content"] for m in doc["memories"]} == ERIN
        assert [h["operation"] for h in doc["history"]] == ["create", "create", "create", "overwrite"]
        assert [m["content"] for m in doc["messages"]] == ["I paddle around Bornholm each August",
                                                           "hazelnuts make me ill"]
        assert "Constance" not in body.decode()  # nothing of frank

        missing = client.get("/v1/users/nobody/export", headers=AUTH)
        assert missing.status_code == 404 and error_code(missing) == "user_not_found"
        bad = client.get("/v1/users/bad%20id/export", headers=AUTH)
        assert bad.status_code == 422 and error_code(bad) == "invalid_field"
        overrides = client.app.dependency_overrides  # type: ignore[attr-defined]
        overrides[principal_dep] = lambda: Principal("k-rw", frozenset({"read", "write"}), None, "service")
        refused = client.get("/v1/users/erin/export", headers=AUTH)
        assert refused.status_code == 403 and error_code(refused) == "forbidden_scope"
        assert client.delete("/v1/users/erin", headers=AUTH).status_code == 403
        # a key bound to erin exports erin (no admin needed) and never frank
        overrides[principal_dep] = lambda: Principal("k-e", frozenset({"read"}), "erin", "erin-app")
        assert client.get("/v1/users/erin/export", headers=AUTH).status_code == 200
        other = client.get("/v1/users/frank/export", headers=AUTH)
        assert other.status_code == 403 and error_code(other) == "forbidden_user"
        assert "Constance" not in other.text
        other = client.delete("/v1/users/frank", headers=AUTH)
        assert other.status_code == 403 and error_code(other) == "forbidden_user"


def test_erasure_job_proof_then_every_door_finds_nothing(cfg: Settings, clean_db: Engine,
                                                        indexer: MemoryIndexer) -> None:
    app = create_app(cfg)
    with TestClient(app) as client:
        ids = seed(client, clean_db, indexer)
        with session_factory(clean_db)() as session:
            erin_pk = session.scalar(select(User.id).where(User.external_id == "erin"))
        assert erin_pk is not None and indexer.index.count(erin_pk) == 3

        missing = client.delete("/v1/users/nobody", headers=AUTH)
        assert missing.status_code == 404 and error_code(missing) == "user_not_found"
        accepted = client.delete("/v1/users/erin", headers=AUTH)
        assert accepted.status_code == 202, accepted.text
        job_id = accepted.json()["job_id"]
        assert accepted.headers["location"] == f"/v1/jobs/{job_id}"
        job = wait_for_job(client, job_id)
        assert job["status"] == "done", job
        proof = job["result"]
        assert proof["ok"] is True and "user" not in proof
        assert proof["deleted"]["long_term_memories"] == 3 and proof["deleted"]["messages"] == 2
        assert proof["deleted"]["memory_history"] == 4 and proof["deleted"]["users"] == 1
        assert proof["milvus_deleted"] == {cfg.MEMORY_MILVUS_COLLECTION: 3}
        assert not any(proof["remaining"].values()) and not any(proof["milvus_remaining"].values())
        assert cfg.TOPIC_CHAT_MESSAGES in proof["kafka_topics_left_to_retention"]
        assert proof["search"]["probes"] == 3 and proof["search"]["items_found"] == 0
        with session_factory(clean_db)() as session:  # the erased id is not kept in the job
            row = session.get(Job, job_id)
            assert row is not None and row.subject is None and "erin" not in json.dumps(row.result)

        # REST
        for mode in ("dense", "full_inject"):
            for content in ERIN.values():
                r = client.post("/v1/retrieve", headers=AUTH, json={"user_id": "erin", "question": content,
                                                                   "mode": mode})
                assert r.status_code == 200 and r.json()["items"] == [], r.text
        assert client.get("/v1/memories", params={"user_id": "erin"}, headers=AUTH).json()["memories"] == []
        for key in ERIN:
            r = client.get(f"/v1/memories/{ids[f'erin/{key}']}", params={"user_id": "erin"}, headers=AUTH)
            assert r.status_code == 404
            r = client.get(f"/v1/memories/{ids[f'erin/{key}']}/history", params={"user_id": "erin"},
                           headers=AUTH)
            assert r.status_code == 404
        assert client.get("/v1/users/erin/export", headers=AUTH).status_code == 404
        # MCP: the tool handlers over the same services
        mcp = build_server(cfg, app.state.services)
        for content in ERIN.values():
            for mode in ("dense", "full_inject"):
                found = mcp.call("memory_retrieve", {"user_id": "erin", "question": content, "mode": mode})
                assert found["items"] == []
        assert mcp.call("memory_list", {"user_id": "erin"})["memories"] == []
        with pytest.raises(ToolCallError) as refused:
            mcp.call("memory_export", {"user_id": "erin"})
        assert refused.value.code == "user_not_found"
        # the console
        login = client.post("/console/login", data={"token": TOKEN}, follow_redirects=False)
        assert login.status_code == 303
        for content in ERIN.values():
            page = client.get("/console/search", params={"user_id": "erin", "question": content})
            assert page.status_code == 200
            results = page.text.split('<div class="cols">', 1)[1]  # after the form echoing the question
            assert results.count('<td colspan="3" class="muted">nothing</td>') == 3  # dense, full, lexical
            assert "/console/memories/" not in results
            assert not any(word in results for word in ("Bornholm", "hazelnut", "luthier"))
        for key in ERIN:
            page = client.get(f"/console/memories/{ids[f'erin/{key}']}")
            assert page.status_code == 404 and "Bornholm" not in page.text
        users_page = client.get("/console/users", params={"q": "erin"})
        assert ">erin<" not in users_page.text
        # Milvus directly
        assert indexer.index.count(erin_pk) == 0 and indexer.index.list_ids(erin_pk) == []
        # frank is untouched
        r = client.post("/v1/retrieve", headers=AUTH, json={"user_id": "frank", "question": "kayak",
                                                           "mode": "full_inject"})
        assert [i["memory"]["content"] for i in r.json()["items"]] == [FRANK["kayak"]]

        again = client.delete("/v1/users/erin", headers=AUTH)  # erased before: re-checked, not a 404
        assert again.status_code == 202
        rechecked = wait_for_job(client, again.json()["job_id"])
        assert rechecked["status"] == "done" and rechecked["result"]["already_erased"] is True
        assert client.get("/v1/jobs/00000000-0000-0000-0000-000000000000", headers=AUTH).status_code == 404


def test_a_pending_job_survives_a_restart(cfg: Settings, clean_db: Engine, indexer: MemoryIndexer) -> None:
    with TestClient(create_app(cfg.model_copy(update={"API_JOBS_POLL_SEC": 3600.0}))) as client:
        seed(client, clean_db, indexer)
    # the process that accepted these died: one job never started, one was running when it died
    store = JobStore(session_factory(clean_db))
    pending, _ = store.request_erasure("erin", "a dead process")
    running, _ = store.request_erasure("frank", "a dead process")
    with transaction(session_factory(clean_db)) as session:
        session.execute(update(Job).where(Job.id == running.id).values(
            status="running", attempts=1, started_at=datetime.now(UTC) - timedelta(hours=1)))
    with TestClient(create_app(cfg)) as client:
        for job_id in (pending.id, running.id):
            job = wait_for_job(client, job_id)
            assert job["status"] == "done" and job["result"]["ok"] is True, job
        assert wait_for_job(client, running.id)["attempts"] == 2
        assert client.get("/v1/memories", params={"user_id": "frank"}, headers=AUTH).json()["memories"] == []
