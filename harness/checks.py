"""The invariants a driven pipeline must hold after a fault (empty problem lists: all good).

Every delivered message PROCESSED; per user exactly one live memory per slot holding the last published
value; one history change per published statement, in publish order; truth and Milvus agree
(``verify``); nothing dead-lettered.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence

from confluent_kafka import Consumer, TopicPartition
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from core.config import Settings
from core.storage.models import LongTermMemory, MemoryHistory, Message, User
from core.vectorstore import MilvusMemoryIndex
from core.verify import TruthIndexVerifier, VerifyReport
from harness.traffic import SLOT_KEYS, Sent
from localstack.settle import PipelineProgress, pipeline_progress
from producers.kafka_config import client_config


def progress(sessions: sessionmaker[Session], sent: Sequence[Sent]) -> PipelineProgress:
    """Where the pipeline stands for the delivered messages ``sent`` and their users."""
    return pipeline_progress(sessions, [s.message_id for s in sent], sorted({s.user for s in sent}))


def expected_slots(sent: Sequence[Sent]) -> dict[str, dict[str, list[str]]]:
    """user -> slot key -> values in publish order (per user, publish order = partition order)."""
    out: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for s in sorted(sent, key=lambda x: x.at):
        out[s.user][SLOT_KEYS[s.kind]].append(s.value)
    return out


def _value_in(content: str | None, values: Sequence[str]) -> str:
    text_ = content or ""
    return next((v for v in values if v in text_), "?")


def check_truth(sessions: sessionmaker[Session], sent: Sequence[Sent], *,
                strict_history: bool = True) -> list[str]:
    """Problems with the truth for the delivered messages ``sent`` (empty list: all good).

    - every message stored and PROCESSED;
    - per user, exactly the expected slots live, one row each, holding the last published value;
    - history: per slot one change per published statement, in publish order (``strict_history``);
      otherwise the changes must be an in-order subsequence of the publish order ending with the last
      value (a statement superseded by a newer one before it was extracted may leave no change).
    """
    problems: list[str] = []
    ids = [s.message_id for s in sent]
    users = sorted({s.user for s in sent})
    expected = expected_slots(sent)
    with sessions() as s:
        rows = s.execute(select(Message.upstream_message_id, Message.memory_status, Message.memory_error)
                         .where(Message.upstream_message_id.in_(ids))).all()
        live = s.execute(select(User.external_id, LongTermMemory.memory_key, LongTermMemory.content)
                         .join(User, User.id == LongTermMemory.user_id)
                         .where(User.external_id.in_(users), LongTermMemory.is_active.is_(True))).all()
        history = s.execute(select(User.external_id, MemoryHistory.memory_key, MemoryHistory.operation,
                                   MemoryHistory.new_content)
                            .join(User, User.id == MemoryHistory.user_id)
                            .where(User.external_id.in_(users)).order_by(MemoryHistory.id)).all()
    status = {mid: (st, err) for mid, st, err in rows}
    missing = [m for m in ids if m not in status]
    if missing:
        problems.append(f"{len(missing)} published messages never stored, e.g. {missing[:3]}")
    not_done = {m: status[m] for m in ids if m in status and status[m][0] != "PROCESSED"}
    if not_done:
        sample = dict(list(not_done.items())[:3])
        problems.append(f"{len(not_done)} messages not PROCESSED, e.g. {sample}")
    live_by_user: dict[str, dict[str, list[str | None]]] = defaultdict(lambda: defaultdict(list))
    for user, key, content in live:
        live_by_user[user][key].append(content)
    hist_by_user: dict[str, dict[str, list[str | None]]] = defaultdict(lambda: defaultdict(list))
    for user, key, _op, content in history:
        hist_by_user[user][key].append(content)
    for user in users:
        want = expected[user]
        got = live_by_user[user]
        if set(got) != set(want):
            problems.append(f"{user}: live slots {sorted(got)} != expected {sorted(want)}")
        for key, values in want.items():
            contents = got.get(key, [])
            if len(contents) != 1:
                problems.append(f"{user}/{key}: {len(contents)} live rows {contents}")
                continue
            if values[-1] not in (contents[0] or ""):
                problems.append(f"{user}/{key}: live {contents[0]!r}, expected the last value {values[-1]!r}")
            changes = [_value_in(c, values) for c in hist_by_user[user].get(key, [])]
            if strict_history:
                if changes != values:
                    problems.append(f"{user}/{key}: history {changes} != published {values}")
            elif not _in_order_subsequence(changes, values) or not changes or changes[-1] != values[-1]:
                problems.append(f"{user}/{key}: history {changes} is not an in-order subsequence of "
                                f"{values} ending with the last value")
        extra = sorted(set(hist_by_user[user]) - set(want))
        if extra:
            problems.append(f"{user}: history for unexpected keys {extra}")
    return problems


def _in_order_subsequence(changes: Sequence[str], values: Sequence[str]) -> bool:
    position = 0
    for change in changes:
        try:
            position = values.index(change, position) + 1
        except ValueError:
            return False
    return True


def verify_index(settings: Settings, sessions: sessionmaker[Session]) -> VerifyReport:
    """``pai-memory verify`` over every user: truth vs the active Milvus collection."""
    index = MilvusMemoryIndex.from_settings(settings)
    try:
        return TruthIndexVerifier(sessions, index).verify(confirm=True, confirm_delay=0.3)
    finally:
        index.close()


def dead_letters(settings: Settings) -> dict[str, int]:
    """Records in each consumer group's dead-letter topic (high watermarks)."""
    consumer = Consumer({**client_config(settings), "group.id": f"dlq-check-{uuid.uuid4().hex[:6]}",
                         "enable.auto.commit": False})
    out: dict[str, int] = {}
    try:
        for group in (settings.GROUP_EXTRACTOR, settings.GROUP_INDEXER, settings.GROUP_COMMANDS):
            topic = settings.dlq_topic(group)
            meta = consumer.list_topics(topic, timeout=10)
            total = 0
            for p in meta.topics[topic].partitions:
                low, high = consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)
                total += high - low
            out[topic] = total
    finally:
        consumer.close()
    return out

