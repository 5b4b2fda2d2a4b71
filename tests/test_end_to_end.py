"""The whole service end to end: chat events -> extractor -> outbox relay -> indexer -> HTTP API.

Real processes (``pai-memory run ...``) on the session's services with private topics, groups and
collection: a published conversation becomes memories found by dense retrieval through the API;
an update's new text is what retrieval returns; a delete through the API disappears from Milvus.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core.config import Settings
from core.storage.models import LongTermMemory, User
from core.vectorstore import MilvusMemoryIndex
from localstack.process import wait_until
from localstack.service import LocalService
from producers.client import MemoryEventProducer
from tests.support.env import PIPELINE_ENV, private_service
from tests.support.pipeline import conversation, isolated_settings

pytestmark = pytest.mark.services

TOKEN = "e2e-test-token-0123456789"


@pytest.fixture
def service(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], tmp_path: Path
) -> Iterator[tuple[Settings, LocalService, httpx.Client]]:
    cfg = isolated_settings(
        settings, unique_name, MEMORY_MILVUS_COLLECTION=unique_name("e2e"), PAI_MEMORY_HOME=str(tmp_path)
    )
    # free API and metrics ports: runs beside the demo
    svc = private_service(cfg, tmp_path, **PIPELINE_ENV, API_TOKEN=TOKEN, RETRIEVAL_DENSE_TIMEOUT_SEC="20")
    port = int(svc.env["API_PORT"])
    for process in ("extractor", "relay", "indexer", "api"):
        svc.supervisor.start(process)
    client = httpx.Client(
        base_url=f"http://127.0.0.1:{port}", timeout=60, headers={"Authorization": f"Bearer {TOKEN}"}
    )
    try:
        wait_until(lambda: _healthy(client), 90, what="API up")
        yield cfg, svc, client
    finally:
        client.close()
        svc.supervisor.stop_all(timeout=20)


def _healthy(client: httpx.Client) -> bool:
    try:
        return client.get("/healthz").status_code == 200
    except httpx.HTTPError:
        return False


def _retrieve(client: httpx.Client, user: str, question: str) -> dict[str, Any]:
    resp = client.post(
        "/v1/retrieve", json={"user_id": user, "question": question, "mode": "dense", "limit": 3}
    )
    resp.raise_for_status()
    body: dict[str, Any] = resp.json()
    return body


def _dense_answer(client: httpx.Client, user: str, question: str) -> list[str]:
    """Contents retrieved on the dense path (waits out the API's embedder warm-up)."""
    result: dict[str, Any] = {}

    def dense() -> bool:
        result.update(_retrieve(client, user, question))
        return bool(result["served_by"] == "dense")

    wait_until(dense, 60, interval=1.0, what="retrieval served by the dense path")
    return [item["memory"]["content"] for item in result["items"]]


def test_chat_to_dense_retrieval_with_update_and_delete(
    service: tuple[Settings, LocalService, httpx.Client], clean_db: Engine
) -> None:
    cfg, svc, client = service
    user = "e2e-user"
    first = conversation(
        user,
        "e2e-c1",
        [
            ("user", "I live in Wuhan."),
            ("assistant", "Nice city! What do you do there?"),
            ("user", "I work as a nurse at a children's hospital. I'm allergic to peanuts."),
        ],
    )
    with MemoryEventProducer(cfg) as producer:
        for m in first:
            producer.publish_message(m)
        producer.flush(30)
    svc.wait_settled([m.message_id for m in first], [user], timeout=240)

    answer = _dense_answer(client, user, "Which city do I live in?")
    assert any("Wuhan" in a for a in answer), answer
    assert any("peanut" in a.lower() for a in _dense_answer(client, user, "Any food allergies I have?"))

    # an update: the new text is what retrieval returns, the old one is gone. It is said after the first
    # conversation's last turn (a burst said earlier than a key's last change is not applied: the later
    # statement wins), however fast the first one settled
    second = conversation(user, "e2e-c2", [("user", "I moved to Shanghai last month, I live there now.")],
                          start=first[-1].created_at + timedelta(seconds=1))
    with MemoryEventProducer(cfg) as producer:
        producer.publish_message(second[0])
        producer.flush(30)
    svc.wait_settled([m.message_id for m in first + second], [user], timeout=240)
    answer = _dense_answer(client, user, "Which city do I live in?")
    assert any("Shanghai" in a for a in answer) and not any("Wuhan" in a for a in answer), answer

    # a delete through the API disappears from Milvus and from retrieval
    listed = client.get("/v1/memories", params={"user_id": user}).json()["memories"]
    allergy = next(m for m in listed if "peanut" in m["content"].lower())
    resp = client.post("/v1/memories/delete", json={"user_id": user, "key": allergy["key"]})
    assert resp.status_code == 200 and resp.json()["changed"] is True
    svc.wait_settled([m.message_id for m in first + second], [user], timeout=120)
    index = MilvusMemoryIndex.from_settings(cfg)
    try:
        with Session(clean_db) as s:
            user_pk = s.scalar(select(User.id).where(User.external_id == user))
            live_ids = set(
                s.scalars(
                    select(LongTermMemory.id).where(
                        LongTermMemory.user_id == user_pk, LongTermMemory.is_active.is_(True)
                    )
                ).all()
            )
        assert user_pk is not None
        wait_until(lambda: set(index.list_ids(user_pk)) == live_ids, 60, what="Milvus equals the live rows")
        assert allergy["id"] not in set(index.list_ids(user_pk))
    finally:
        index.close()
    answer = _dense_answer(client, user, "Any food allergies I have?")
    assert not any("peanut" in a.lower() for a in answer), answer
