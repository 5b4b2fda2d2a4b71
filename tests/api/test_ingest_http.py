"""Ingestion over HTTP (``POST /v1/messages``, issue 27) against the real broker.

A 202 names, for each message, the topic/partition/offset Kafka confirmed, and the record is there
(read back with a consumer); one user's messages keep their order; bad input is a 4xx with a code and
publishes nothing; with the broker unreachable (the API's producer pointed at a closed port) or a topic
that does not exist, the answer is 503 with ``Retry-After``, never a 2xx.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from confluent_kafka import Consumer, Message
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import Engine

from api.app import create_app
from api.keys import Principal, principal_dep
from core.config import Settings
from localstack.process import free_port
from localstack.topics import ensure_topics
from producers.kafka_config import client_config
from schemas import parse_chat_message

pytestmark = pytest.mark.services

TOKEN = "tok-ingest-http-9c1d"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def msg(user: str, i: int, **extra: Any) -> dict[str, Any]:
    return {"message_id": f"{user}:c1:{i}", "user_id": user, "conversation_id": "c1", "role": "user",
            "content": f"message {i} of {user}", "created_at": (T0 + timedelta(seconds=i)).isoformat(),
            **extra}


def app_for(settings: Settings, **update: Any) -> TestClient:
    return TestClient(create_app(settings.model_copy(update={
        "API_TOKEN": SecretStr(TOKEN), "MEMORY_MILVUS_ENABLED": False, "API_RATE_LIMIT_PER_USER": 0,
        **update})))


@pytest.fixture
def topic(settings: Settings, unique_name: Callable[[str], str]) -> str:
    name = unique_name("ingest_http")
    ensure_topics(settings, {name: 3})
    return name


@pytest.fixture
def client(settings: Settings, clean_db: Engine, topic: str) -> Iterator[TestClient]:
    with app_for(settings, TOPIC_CHAT_MESSAGES=topic) as test_client:
        yield test_client


def read_all(settings: Settings, topic: str, n: int, timeout: float = 30.0) -> list[Message]:
    consumer = Consumer({**client_config(settings), "group.id": f"reader-{topic}",
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    consumer.subscribe([topic])
    out: list[Message] = []
    deadline = time.monotonic() + timeout
    try:
        while len(out) < n and time.monotonic() < deadline:
            record = consumer.poll(0.5)
            if record is not None:
                assert record.error() is None, record.error()
                out.append(record)
        assert consumer.poll(1.0) is None, "a record beyond those acknowledged"
    finally:
        consumer.close()
    return out


def error_code(response: Any) -> str:
    return str(response.json()["error"]["code"])


def test_one_message_is_acknowledged_with_its_position(client: TestClient, settings: Settings,
                                                       topic: str) -> None:
    response = client.post("/v1/messages", json=msg("alice", 1), headers=AUTH)
    assert response.status_code == 202, response.text
    [accepted] = response.json()["accepted"]
    assert accepted["message_id"] == "alice:c1:1" and accepted["topic"] == topic
    [record] = read_all(settings, topic, 1)
    assert (record.partition(), record.offset()) == (accepted["partition"], accepted["offset"])
    assert record.key() == b"alice"
    event = parse_chat_message(record.value())
    assert event.id == accepted["event_id"] and event.data.content == "message 1 of alice"


def test_a_batch_keeps_each_users_order(client: TestClient, settings: Settings, topic: str) -> None:
    users = ["alice", "bob", "carol@example.com"]
    batch = [msg(users[i % 3], i) for i in range(30)]
    response = client.post("/v1/messages", json={"messages": batch}, headers=AUTH)
    assert response.status_code == 202, response.text
    accepted = response.json()["accepted"]
    assert [a["message_id"] for a in accepted] == [m["message_id"] for m in batch]
    for user in users:  # one partition per user, offsets rising in request order
        mine = [a for a in accepted if a["message_id"].startswith(f"{user}:")]
        assert len({a["partition"] for a in mine}) == 1
        offsets = [a["offset"] for a in mine]
        assert offsets == sorted(offsets) and len(set(offsets)) == len(offsets)
    # a second request for the same users continues after the first
    more = client.post("/v1/messages", json={"messages": [msg(u, 100 + i) for i, u in enumerate(users)]},
                       headers=AUTH)
    assert more.status_code == 202
    records = read_all(settings, topic, 33)
    assert len(records) == 33
    for user in users:
        seen = [parse_chat_message(r.value()).data.message_id for r in records if r.key() == user.encode()]
        expected = [m["message_id"] for m in batch if m["user_id"] == user]
        assert seen == [*expected, f"{user}:c1:{100 + users.index(user)}"]


def test_bad_input_is_a_4xx_and_publishes_nothing(client: TestClient, settings: Settings, topic: str) -> None:
    cases: list[tuple[Any, int, str, str | None]] = [
        ({k: v for k, v in msg("alice", 1).items() if k != "content"}, 422, "missing_field", "content"),
        (msg("alice", 1, extra=1), 422, "unknown_field", "extra"),
        (msg("alice", 1, role="robot"), 422, "invalid_field", "role"),
        (msg("alice", 1, created_at="2026-12-01T09:00:00"), 422, "invalid_field", "created_at"),
        (msg("alice", 1, user_id="bad user"), 422, "invalid_field", "user_id"),
        (msg("alice", 1, content=7), 422, "invalid_field", "content"),
        ({"messages": []}, 422, "invalid_field", "messages"),
        ({"messages": [msg("alice", 1), msg("alice", 2, role=3)]}, 422, "invalid_field", "messages.1.role"),
        ({"messages": [msg("alice", i) for i in range(101)]}, 422, "invalid_field", "messages"),
        ([msg("alice", 1)], 422, "invalid_field", None),
    ]
    for body, status, code, field in cases:
        response = client.post("/v1/messages", json=body, headers=AUTH)
        assert response.status_code == status, (body, response.text)
        assert error_code(response) == code and response.json()["error"]["field"] == field, response.text
    broken = client.post("/v1/messages", content=b'{"message_id": ',
                         headers={**AUTH, "content-type": "application/json"})
    assert broken.status_code == 400 and error_code(broken) == "malformed_json"
    assert read_all(settings, topic, 0, timeout=2.0) == []


def test_scopes(client: TestClient, settings: Settings, topic: str) -> None:
    app = client.app
    app.dependency_overrides[principal_dep] = lambda: Principal("k-r", frozenset({"read"}), None, "reader")  # type: ignore[attr-defined]
    response = client.post("/v1/messages", json=msg("alice", 1), headers=AUTH)
    assert response.status_code == 403 and error_code(response) == "forbidden_scope"
    app.dependency_overrides[principal_dep] = lambda: Principal("k-a", frozenset({"write"}), "alice", "alice")  # type: ignore[attr-defined]
    response = client.post("/v1/messages", json={"messages": [msg("alice", 1), msg("bob", 2)]}, headers=AUTH)
    assert response.status_code == 403 and error_code(response) == "forbidden_user"
    assert read_all(settings, topic, 0, timeout=2.0) == []  # nothing of a refused batch is published
    assert client.post("/v1/messages", json=msg("alice", 3), headers=AUTH).status_code == 202


@pytest.mark.parametrize("fault", ["closed_port", "missing_topic"])
def test_no_2xx_without_the_brokers_confirmation(settings: Settings, clean_db: Engine,
                                                unique_name: Callable[[str], str], fault: str) -> None:
    update: dict[str, Any] = {"API_INGEST_TIMEOUT_SEC": 2.0}
    if fault == "closed_port":
        update["KAFKA_BOOTSTRAP_SERVERS"] = f"127.0.0.1:{free_port()}"  # nothing listens there
    else:
        update["TOPIC_CHAT_MESSAGES"] = unique_name("never_created")  # producers never auto-create topics
    with app_for(settings, **update) as client:
        for body in (msg("alice", 1), {"messages": [msg("alice", 2), msg("bob", 3)]}):
            started = time.monotonic()
            response = client.post("/v1/messages", json=body, headers=AUTH)
            took = time.monotonic() - started
            assert response.status_code == 503, response.text
            assert error_code(response) == "kafka_unavailable"
            assert int(response.headers["retry-after"]) >= 1
            assert "accepted" not in json.dumps(response.json())
            assert took < 30  # bounded by API_INGEST_TIMEOUT_SEC, not the producer's 120 s default
