"""``pai-memory smoke``: one real round trip through Kafka, PostgreSQL and Milvus; prints OK.

Kafka: produce a unique message to ``pai-memory.smoke`` and read exactly it back. PostgreSQL: the
database answers and is migrated to the head revision. Milvus: a throw-away collection returns only
the queried user's vectors under a user filter. Exit code 1 with the failing step otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from collections.abc import Callable

from core.config import KafkaSettings, Settings, StorageSettings, load_settings
from producers.kafka_config import client_config

SMOKE_TOPIC = "pai-memory.smoke"


class SmokeError(RuntimeError):
    """A smoke step failed; the message says what was expected and what happened."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("smoke", help="round-trip a Kafka message, a PostgreSQL query, a Milvus search")
    parser.set_defaults(func=_smoke)


def kafka_round_trip(settings: KafkaSettings, timeout: float = 30.0) -> str:
    from confluent_kafka import Consumer, KafkaError, Message, Producer, TopicPartition

    from localstack.topics import ensure_topics

    ensure_topics(settings, {SMOKE_TOPIC: 1})
    token = uuid.uuid4().hex.encode()
    delivered: list[Message] = []

    def on_delivery(err: KafkaError | None, msg: Message) -> None:
        if err is not None:
            raise SmokeError(f"delivery failed: {err}")
        delivered.append(msg)

    producer = Producer({**client_config(settings), "enable.idempotence": True})
    producer.produce(SMOKE_TOPIC, key=b"smoke", value=token, on_delivery=on_delivery)
    if producer.flush(timeout) != 0 or not delivered:
        raise SmokeError(f"message not delivered to {SMOKE_TOPIC} within {timeout:.0f} s")
    offset = delivered[0].offset()
    if offset is None:
        raise SmokeError("delivery report without an offset")
    consumer = Consumer({**client_config(settings), "group.id": "pai-memory-smoke",
                         "enable.auto.commit": False})
    try:
        consumer.assign([TopicPartition(SMOKE_TOPIC, 0, offset)])
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            if msg.error() is not None:
                raise SmokeError(f"consume failed: {msg.error()}")
            if msg.value() == token:
                return f"{SMOKE_TOPIC}[0]@{offset}"
    finally:
        consumer.close()
    raise SmokeError(f"produced message not read back from {SMOKE_TOPIC} within {timeout:.0f} s")


def postgres_query(settings: Settings) -> str:
    from alembic.script import ScriptDirectory
    from sqlalchemy import text

    from core.storage import db

    url = settings.database_url
    head = ScriptDirectory.from_config(db.alembic_config(url)).get_current_head()
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            one = conn.execute(text("SELECT 1")).scalar_one()
            current = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one_or_none()
    except Exception as exc:
        raise SmokeError(f"PostgreSQL query failed: {exc}".splitlines()[0]) from exc
    finally:
        engine.dispose()
    if one != 1 or current != head:
        raise SmokeError(f"database at revision {current}, expected head {head}: run `pai-memory db upgrade`")
    return f"schema at head {head}"


def milvus_search(settings: StorageSettings) -> str:
    from pymilvus import DataType, MilvusClient

    token = settings.MEMORY_MILVUS_TOKEN.get_secret_value() if settings.MEMORY_MILVUS_TOKEN else ""
    client = MilvusClient(uri=settings.milvus_uri, token=token, timeout=settings.MEMORY_MILVUS_TIMEOUT_SEC)
    name = f"pai_memory_smoke_{uuid.uuid4().hex[:8]}"
    schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("id", DataType.INT64, is_primary=True)
    schema.add_field("user_id", DataType.INT64)
    schema.add_field("embedding", DataType.FLOAT_VECTOR, dim=4)
    index = MilvusClient.prepare_index_params()
    index.add_index(field_name="embedding", index_type="FLAT", metric_type="COSINE")
    try:
        client.create_collection(name, schema=schema, index_params=index)
        client.insert(name, [{"id": 1, "user_id": 1, "embedding": [1.0, 0.0, 0.0, 0.0]},
                             {"id": 2, "user_id": 2, "embedding": [1.0, 0.01, 0.0, 0.0]}])
        client.load_collection(name)
        hits = client.search(name, data=[[1.0, 0.01, 0.0, 0.0]], filter="user_id == 1", limit=5,
                             anns_field="embedding")[0]
        ids = [hit["id"] for hit in hits]
        if ids != [1]:
            raise SmokeError(f"user-filtered search returned ids {ids}, expected [1]")
    finally:
        if client.has_collection(name):
            client.drop_collection(name)
        client.close()
    return "user-filtered search returned only that user's vector"


def _smoke(args: argparse.Namespace) -> int:
    settings = load_settings()
    steps: list[tuple[str, Callable[[Settings], str]]] = [
        ("kafka", kafka_round_trip), ("postgres", postgres_query), ("milvus", milvus_search)]
    failed = False
    for name, step in steps:
        t0 = time.monotonic()
        try:
            detail = step(settings)
        except Exception as exc:  # report every step, then fail
            print(f"{name:<9} FAILED  {type(exc).__name__}: {exc}".splitlines()[0], file=sys.stderr)
            failed = True
            continue
        print(f"{name:<9} ok      {(time.monotonic() - t0) * 1000:7.0f} ms  {detail}")
    if failed:
        return 1
    print("OK")
    return 0
