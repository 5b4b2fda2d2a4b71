"""Horizontal scaling: several extractor and indexer processes in one group, one added and one
removed mid-stream; every message processed exactly once in effect and per-user order kept."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core.config import Settings
from core.storage.models import LongTermMemory, MemoryHistory, Message, User
from core.vectorstore import MilvusMemoryIndex
from localstack.process import wait_until
from localstack.service import LocalService
from producers.client import MemoryEventProducer
from schemas import ChatMessageData
from tests.support.env import PIPELINE_ENV, private_service
from tests.support.pipeline import isolated_settings

pytestmark = pytest.mark.services

CITIES = ["Wuhan", "Chengdu", "Lisbon", "Oslo", "Kyoto", "Quito", "Dakar", "Hanoi", "Perth", "Tunis"]
USERS = 12


@pytest.fixture
def cluster(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], tmp_path: Path
) -> Iterator[tuple[Settings, LocalService]]:
    cfg = isolated_settings(
        settings,
        unique_name,
        KAFKA_TOPIC_PARTITIONS=4,
        MEMORY_MILVUS_COLLECTION=unique_name("scale"),
        PAI_MEMORY_HOME=str(tmp_path),
    )
    service = private_service(cfg, tmp_path, **PIPELINE_ENV)  # free metrics ports: runs beside the demo
    try:
        yield cfg, service
    finally:
        service.supervisor.stop_all(timeout=20)


def messages_for(round_no: int) -> list[ChatMessageData]:
    t0 = datetime.now(UTC) - timedelta(hours=1)
    out = []
    for u in range(USERS):
        city = CITIES[(round_no + u) % len(CITIES)]
        conv = f"scale-u{u}-r{round_no}"
        out.append(
            ChatMessageData(
                message_id=f"{conv}:0",
                user_id=f"scale-u{u}",
                conversation_id=conv,
                role="user",
                content=f"I live in {city} now.",  # type: ignore[arg-type]
                created_at=t0 + timedelta(seconds=round_no),
            )
        )
    return out


def test_two_extractors_two_indexers_scale_out_and_in_mid_stream(
    cluster: tuple[Settings, LocalService], clean_db: Engine
) -> None:
    cfg, service = cluster
    sup = service.supervisor
    for name in ("extractor", "indexer"):
        sup.start(name, 0)
        sup.start(name, 1)
    sup.start("relay", 0)

    rounds = 8
    published: list[ChatMessageData] = []
    with MemoryEventProducer(cfg) as producer:
        for r in range(rounds):
            batch = messages_for(r)
            for m in batch:
                producer.publish_message(m)
            producer.flush(30)
            published.extend(batch)
            if r == 2:
                sup.start("extractor", 2)  # scale out
                sup.start("indexer", 2)
            if r == 5:
                sup.stop("extractor-0", timeout=30)  # scale in: graceful drain on SIGTERM
                sup.stop("indexer-0", timeout=30)
            time.sleep(1.0)

    ids = [m.message_id for m in published]
    users = sorted({m.user_id for m in published})
    service.wait_settled(ids, users, timeout=240)
    assert not [n for n in sup.dead() if n not in ("extractor-0", "indexer-0")], "a process crashed"

    with Session(clean_db) as s:
        statuses = s.execute(
            select(Message.upstream_message_id, Message.memory_status, Message.memory_attempts).where(
                Message.upstream_message_id.in_(ids)
            )
        ).all()
        assert len(statuses) == len(ids)
        assert {st for _, st, _ in statuses} == {"PROCESSED"}
        assert {a for _, _, a in statuses} == {1}, "a message was extracted more than once"

        rows = s.execute(
            select(User.external_id, LongTermMemory)
            .join(User, User.id == LongTermMemory.user_id)
            .where(LongTermMemory.is_active.is_(True))
        ).all()
        live: dict[str, list[LongTermMemory]] = defaultdict(list)
        for ext, mem in rows:
            live[ext].append(mem)
        history = s.execute(
            select(User.external_id, MemoryHistory.operation, MemoryHistory.new_content)
            .join(User, User.id == MemoryHistory.user_id)
            .order_by(MemoryHistory.id)
        ).all()
    per_user_history: dict[str, list[str]] = defaultdict(list)
    for ext, _op, content in history:
        per_user_history[ext].append(content or "")

    for u in range(USERS):
        user = f"scale-u{u}"
        last_city = CITIES[(rounds - 1 + u) % len(CITIES)]
        assert len(live[user]) == 1, (
            f"{user}: expected one live memory, got {[m.content for m in live[user]]}"
        )
        assert last_city in (live[user][0].content or ""), f"{user}: order broken: {live[user][0].content}"
        # exactly one change per published message, in publish order: nothing lost, nothing doubled
        expected = [CITIES[(r + u) % len(CITIES)] for r in range(rounds)]
        got = [next((c for c in CITIES if c in content), "?") for content in per_user_history[user]]
        assert got == expected, f"{user}: history {got} != published order {expected}"
        assert live[user][0].vector_status == "SYNCED"

    index = MilvusMemoryIndex.from_settings(cfg)
    try:
        wait_until(lambda: index.count() == USERS, 30, what="one vector per live memory")
    finally:
        index.close()
