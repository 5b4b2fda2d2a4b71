"""The erasure proof covers episodes: after forget-user no door returns the erased user's words.

Real PostgreSQL, Milvus and the local model. A user's messages become memories and episodes, indexed
into both collections; every door first shows the words (so the check below is not vacuous), then
``UserEraser`` runs and every door is asked again: the REST API (retrieve, list), the MCP tools
(memory_retrieve, memory_list), the console (episodes, memories, messages, search) and Milvus directly
(both collections, by user scope and over every entity).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from api.app import build_services, create_app
from api.mcp_server import MemoryToolServer
from core.config import RetrieveMode, Settings
from core.embedding.local import LocalE5Embedder
from core.episodes.indexing import build_episode_indexer
from core.erasure import UserEraser
from core.extraction.factory import build_extractor
from core.memory.dedup import SemanticDeduper
from core.memory.processing import MessageProcessor
from core.memory.store import IncomingMessage, find_user
from core.storage.db import session_factory
from core.storage.models import Episode, LongTermMemory
from core.vectorstore import MilvusMemoryIndex
from tests.support.indexing import running_indexer

pytestmark = pytest.mark.services

TOKEN = "tok-erasure-episodes-6b1d"
_LOCAL = LocalE5Embedder()
VICTIM = "victim-ep"
WORDS = ("Zanzibar", "marmalade", "Quillon")
SAID = ["I flew to Zanzibar last weekend with my cousin Quillon.",
        "I make orange marmalade every Sunday morning.",
        "Yesterday Quillon and I went snorkelling off Zanzibar."]


def _leaks(payload: Any) -> list[str]:
    text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return [w for w in WORDS if w.lower() in text.lower()]


@pytest.fixture
def erasable(settings: Settings, clean_db: Engine, unique_name) -> Iterator[tuple[Settings, Any]]:
    with running_indexer(settings, clean_db, unique_name("erase_ep"), _LOCAL) as (base, memories):
        cfg = base.model_copy(update={"MEMORY_MILVUS_ENABLED": True, "API_TOKEN": SecretStr(TOKEN),
                                      "LONG_TERM_MEMORY_RETRIEVE_MODE": RetrieveMode.DENSE,
                                      "RETRIEVAL_DENSE_TIMEOUT_SEC": 60.0})
        sessions = session_factory(clean_db)
        processor = MessageProcessor(cfg, sessions, build_extractor(cfg), SemanticDeduper(_LOCAL, 0.96, 0.97))
        at = datetime.now(UTC) - timedelta(days=3)
        for user, texts in ((VICTIM, SAID), ("bystander-ep", ["I flew to Lisbon last weekend."])):
            for i, text in enumerate(texts):
                pk = processor.ingest(IncomingMessage(f"{user}-{i}", user, "c1", "user", text,
                                                      at + timedelta(minutes=i))).message_pk
                processor.process([pk])
        episodes = build_episode_indexer(cfg, sessions, _LOCAL)
        with Session(clean_db) as s:
            memories.sync(s.scalars(select(LongTermMemory.id)).all())
            episodes.sync(s.scalars(select(Episode.id)).all())
        try:
            yield cfg, episodes
        finally:
            episodes.index.drop_collection()
            episodes.close()


def _doors(cfg: Settings, client: TestClient, mcp: MemoryToolServer, user_pk: int,
           views: list[MilvusMemoryIndex]) -> dict[str, Any]:
    """What each door returns for the victim (the Milvus doors: entity ids in the user's scope)."""
    auth = {"Authorization": f"Bearer {TOKEN}"}
    ask = {"user_id": VICTIM, "question": "Where did I fly last weekend and with whom?", "mode": "dense"}
    out: dict[str, Any] = {
        "rest_retrieve": client.post("/v1/retrieve", json=ask, headers=auth).json(),
        "rest_retrieve_marmalade": client.post("/v1/retrieve", headers=auth, json={
            **ask, "question": "What do I make on Sunday mornings?"}).json(),
        "rest_list": client.get("/v1/memories", params={"user_id": VICTIM}, headers=auth).json(),
        "mcp_retrieve": mcp.call("memory_retrieve", {"user_id": VICTIM, "question": ask["question"]}),
        "mcp_list": mcp.call("memory_list", {"user_id": VICTIM}),
    }
    client.post("/console/login", data={"token": TOKEN})
    for page in ("episodes", "memories", "messages"):
        out[f"console_{page}"] = client.get(f"/console/users/{VICTIM}/{page}").text
    out["console_search"] = client.get("/console/search", params={"user_id": VICTIM,
                                                                   "question": ask["question"]}).text
    for view in views:
        out[f"milvus_{view.collection}_scope"] = view.list_ids(user_pk)
        everything = view.list_ids()
        out[f"milvus_{view.collection}_owners"] = sorted(set(view.get_user_ids(everything).values()))
    return out


def test_after_forget_user_no_door_returns_the_erased_users_words_from_episodes(
        erasable: tuple[Settings, Any], clean_db: Engine) -> None:
    cfg, _episodes = erasable
    services = build_services(cfg)
    client = TestClient(create_app(cfg, services), base_url="http://127.0.0.1", follow_redirects=False)
    mcp = MemoryToolServer(cfg, services)
    index = MilvusMemoryIndex.from_settings(cfg, dim=_LOCAL.dim)
    views = [index, index.for_collection(cfg.episode_collection)]
    with Session(clean_db) as s:
        victim_pk = find_user(s, VICTIM)
    assert victim_pk is not None
    try:
        with client:
            before = _doors(cfg, client, mcp, victim_pk, views)
            # every door shows the words before: episodes in retrieval (REST and MCP), the console
            # page of episodes, the user's entities in the episodes' collection
            assert before["rest_retrieve"]["episodes"], before["rest_retrieve"]
            assert _leaks(before["rest_retrieve"]["episodes"]) and _leaks(before["mcp_retrieve"]["episodes"])
            assert "<user_episodes>" in before["rest_retrieve"]["prompt_block"]
            assert set(_leaks(before["console_episodes"])) == set(WORDS)
            assert len(before[f"milvus_{cfg.episode_collection}_scope"]) == len(SAID)
            assert views[1].layout() == cfg.EPISODE_MILVUS_USER_PARTITIONS  # in the victim's bucket
            assert victim_pk in before[f"milvus_{cfg.episode_collection}_owners"]

            proof = UserEraser(session_factory(clean_db), index, (cfg.episode_collection,)).erase(VICTIM)
            assert proof.ok, proof.render()
            assert proof.deleted["episodes"] == len(SAID)
            assert proof.milvus_deleted[cfg.episode_collection] == len(SAID)

            after = _doors(cfg, client, mcp, victim_pk, views)
            # the bystander keeps what they said
            other = client.post("/v1/retrieve", headers={"Authorization": f"Bearer {TOKEN}"}, json={
                "user_id": "bystander-ep", "question": "Where did I fly last weekend?",
                "mode": "dense"}).json()
        assert any("Lisbon" in e["episode"]["content"] for e in other["episodes"]), other
        leaks = {door: _leaks(value) for door, value in after.items()
                 if not door.startswith("milvus_") and _leaks(value)}
        assert leaks == {}, leaks
        for door in ("rest_retrieve", "rest_retrieve_marmalade", "mcp_retrieve"):
            assert after[door]["items"] == [] and after[door]["episodes"] == [], after[door]
        assert after["rest_list"]["memories"] == [] and after["mcp_list"]["memories"] == []
        for view in views:
            assert after[f"milvus_{view.collection}_scope"] == []
            assert victim_pk not in after[f"milvus_{view.collection}_owners"]
    finally:
        index.close()
