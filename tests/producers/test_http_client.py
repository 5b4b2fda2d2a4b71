"""The typed HTTP client (``producers.http_client``) against the real API served by uvicorn on a free
port (real TCP), over real PostgreSQL and the real broker: a chat turn, every route, typed errors with
the API's codes, retries that honour ``Retry-After``, 503 from ingestion without a broker, sync and async.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
import uvicorn
from pydantic import SecretStr
from sqlalchemy import Engine

from api.app import create_app
from core.config import Settings
from localstack.process import free_port
from producers.http_client import (
    AsyncMemoryClient,
    Conflict,
    ConnectionFailed,
    InvalidRequest,
    MemoryClient,
    NotFound,
    RateLimited,
    Unauthorized,
    Unavailable,
)
from schemas import ChatMessageData
from schemas.vocabulary import MessageRole

pytestmark = pytest.mark.services

TOKEN = "tok-http-client-77aa"


@contextmanager
def serve(cfg: Settings) -> Iterator[str]:
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


def api_settings(settings: Settings, **update: Any) -> Settings:
    return settings.model_copy(update={"API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False,
                                       "API_JOBS_POLL_SEC": 0.3, **update})


@pytest.fixture
def api(settings: Settings, clean_db: Engine) -> Iterator[str]:
    with serve(api_settings(settings)) as url:
        yield url


def turn(user: str, i: int, role: MessageRole, content: str) -> ChatMessageData:
    return ChatMessageData(message_id=f"{user}:conv-1:{i}", user_id=user, conversation_id="conv-1", role=role,
                           content=content, created_at=datetime.now(UTC))


def test_a_chat_turn_and_every_route_sync(api: str, settings: Settings) -> None:
    with MemoryClient(api, TOKEN, timeout=30) as memory:
        question = "what should I cook tonight?"
        before = memory.retrieve("ana", question, mode="full_inject")  # before the model call
        assert before["items"] == [] and before["prompt_block"] == ""
        accepted = memory.publish_messages([turn("ana", 0, MessageRole.USER, question),
                                            turn("ana", 1, MessageRole.ASSISTANT, "How about a risotto?")])
        assert [a["message_id"] for a in accepted] == ["ana:conv-1:0", "ana:conv-1:1"]
        assert {a["topic"] for a in accepted} == {settings.TOPIC_CHAT_MESSAGES}
        assert accepted[0]["partition"] == accepted[1]["partition"]  # one user, one partition, in order
        assert accepted[1]["offset"] > accepted[0]["offset"]

        saved = memory.save("ana", "diet", "vegetarian, no mushrooms", memory_type="preference", importance=4)
        assert saved["operation"] == "create" and saved["memory_id"] is not None
        mid = saved["memory_id"]
        assert memory.append("ana", "diet", "loves lemons")["operation"] == "append"
        found = memory.retrieve("ana", question, mode="full_inject")
        assert [i["memory"]["key"] for i in found["items"]] == ["diet"]
        assert "vegetarian" in found["prompt_block"]
        assert [m["id"] for m in memory.list_memories("ana")["memories"]] == [mid]
        assert memory.get("ana", mid)["content"] == "vegetarian, no mushrooms; loves lemons"
        fixed = memory.patch("ana", mid, content="vegan, no mushrooms")
        assert fixed["changed"] and fixed["memory"]["content"] == "vegan, no mushrooms"
        ops = [c["operation"] for c in memory.history("ana", mid)["changes"]]
        assert ops == ["create", "append", "overwrite"]
        exported = memory.export("ana")
        assert exported["user_id"] == "ana" and len(exported["memories"]) == 1
        assert memory.delete("ana", "diet")["operation"] == "delete"

        with pytest.raises(NotFound) as missing:
            memory.get("ana", 999_999)
        assert missing.value.code == "memory_not_found" and missing.value.status == 404
        with pytest.raises(Conflict) as inactive:
            memory.patch("ana", mid, importance=5)
        assert inactive.value.code == "memory_inactive"
        with pytest.raises(InvalidRequest) as invalid:
            memory.save("ana", "diet", "x", importance=9)
        assert invalid.value.code == "invalid_field" and invalid.value.field == "importance"
        with pytest.raises(NotFound) as nobody:
            memory.erase("nobody")
        assert nobody.value.code == "user_not_found"

        job = memory.wait_for_job(memory.erase("ana")["job_id"], timeout=120, poll=0.2)
        assert job["status"] == "done" and job["result"] is not None and job["result"]["ok"] is True
        assert memory.retrieve("ana", question, mode="full_inject")["items"] == []
        assert memory.retried == 0
    with MemoryClient(api, "wrong-token") as stranger, pytest.raises(Unauthorized) as refused:
        stranger.list_memories("ana")
    assert refused.value.code == "unauthorized"


def test_the_async_client_does_the_same_turn(api: str) -> None:
    async def main() -> None:
        async with AsyncMemoryClient(api, TOKEN, timeout=30) as memory:
            assert (await memory.retrieve("bo", "hello", mode="full_inject"))["items"] == []
            accepted = await memory.publish_messages([turn("bo", 0, MessageRole.USER, "I live in Oslo")])
            assert accepted[0]["message_id"] == "bo:conv-1:0"
            mid = (await memory.save("bo", "city", "lives in Oslo"))["memory_id"]
            assert mid is not None
            assert (await memory.append("bo", "city", "near the fjord"))["changed"]
            assert (await memory.get("bo", mid))["key"] == "city"
            assert (await memory.patch("bo", mid, importance=5))["memory"]["importance"] == 5
            assert len((await memory.history("bo", mid))["changes"]) == 3
            assert len((await memory.list_memories("bo"))["memories"]) == 1
            assert (await memory.export("bo"))["memories"][0]["id"] == mid
            assert (await memory.delete("bo", "city"))["operation"] == "delete"
            job = await memory.wait_for_job((await memory.erase("bo"))["job_id"], timeout=120, poll=0.2)
            assert job["result"] is not None and job["result"]["ok"] is True
            with pytest.raises(NotFound):
                await memory.get("bo", mid)

    asyncio.run(main())


def test_retries_honour_retry_after(settings: Settings, clean_db: Engine) -> None:
    cfg = api_settings(settings, API_RATE_LIMIT_PER_USER=1, API_RATE_LIMIT_PER_USER_BURST=1)
    with serve(cfg) as url:
        with MemoryClient(url, TOKEN, retries=0) as impatient:
            impatient.list_memories("cy")
            with pytest.raises(RateLimited) as limited:
                impatient.list_memories("cy")
            assert limited.value.code == "rate_limited" and (limited.value.retry_after or 0) >= 1
        with MemoryClient(url, TOKEN, retries=3) as patient:
            for _ in range(3):  # each one over the limit of 1/s: the client waits Retry-After and succeeds
                assert patient.list_memories("cy")["memories"] == []
            assert patient.retried >= 2


def test_ingestion_without_a_broker_is_unavailable_after_the_retries(settings: Settings,
                                                                     clean_db: Engine) -> None:
    cfg = api_settings(settings, KAFKA_BOOTSTRAP_SERVERS=f"127.0.0.1:{free_port()}",
                       API_INGEST_TIMEOUT_SEC=1.0)
    with serve(cfg) as url, MemoryClient(url, TOKEN, retries=1, max_retry_after=0.1) as memory:
        with pytest.raises(Unavailable) as down:
            memory.publish_messages([turn("dee", 0, MessageRole.USER, "hello")])
        assert down.value.code == "kafka_unavailable" and down.value.status == 503
        assert memory.retried == 1


def test_an_unreachable_api_is_a_connection_error() -> None:
    with MemoryClient(f"http://127.0.0.1:{free_port()}", TOKEN, retries=2, backoff=0.01) as memory:
        with pytest.raises(ConnectionFailed) as failed:
            memory.retrieve("u", "q")
        assert failed.value.code == "connection_failed" and memory.retried == 2
