"""Key-level parallelism of the extractor (issue 12), with real Kafka and PostgreSQL.

The model is slow in these tests: ``SlowExtractor`` is a TEST DOUBLE around the real rules
extractor that sleeps before answering (random or fixed latency) and counts calls in flight; the
kill -9 test runs a real extractor process against the OpenAI-compatible TEST DOUBLE
(``tests/support/fake_openai.py``) answering after a delay.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from prometheus_client import REGISTRY
from sqlalchemy import Engine, func, select
from sqlalchemy.exc import DataError
from sqlalchemy.orm import Session

from consumers.dlq import DeadLetterPublisher
from consumers.extractor import ExtractorStrategy
from consumers.policies import RetryPolicy
from consumers.processes import extractor_loop
from consumers.runtime import ConsumerLoop, Record
from core.config import Settings
from core.extraction.candidates import ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.memory.processing import IngestResult, MessageProcessor
from core.memory.store import IncomingMessage
from core.storage.db import engine_for, session_factory
from core.storage.models import LongTermMemory, MemoryHistory, Message, User
from localstack.process import free_port, wait_until
from localstack.service import LocalService
from schemas import ChatMessageData
from schemas.codec import make_event
from tests.consumers.test_extractor import publish
from tests.support.env import PIPELINE_ENV, service_env
from tests.support.fake_openai import FakeOpenAIServer, Reply
from tests.support.pipeline import group_caught_up, isolated_settings, running

pytestmark = pytest.mark.services

CITIES = ["Wuhan", "Chengdu", "Lisbon", "Oslo", "Kyoto", "Quito", "Dakar", "Hanoi", "Perth", "Tunis"]


class SlowExtractor:
    """TEST DOUBLE: the rules extractor behind a model-like latency; counts calls in flight."""

    name = "rules"

    def __init__(self, latency: Callable[[], float]) -> None:
        self.inner = RulesExtractor()
        self.latency = latency
        self.in_flight = 0
        self.max_in_flight = 0
        self.calls = 0
        self.finished = 0
        self._lock = threading.Lock()

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        with self._lock:
            self.calls += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            time.sleep(self.latency())
            return self.inner.extract(data)
        finally:
            with self._lock:
                self.in_flight -= 1
                self.finished += 1

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        return self.inner.refine(data, candidates)


def slow_loop(cfg: Settings, extractor: SlowExtractor, **kwargs: float) -> ConsumerLoop:
    processor = MessageProcessor(cfg, session_factory(engine_for(cfg.database_url, 10)), extractor, None)
    strategy = ExtractorStrategy(processor, DeadLetterPublisher(cfg, cfg.GROUP_EXTRACTOR),
                                 debounce_sec=cfg.LONG_TERM_MEMORY_DEBOUNCE_SEC, group=cfg.GROUP_EXTRACTOR,
                                 max_in_flight=int(kwargs.get("max_in_flight", 32)),
                                 revoke_timeout_sec=kwargs.get("revoke_timeout_sec", 10.0))
    return extractor_loop(cfg, strategy=strategy)


def city_messages(users: int, rounds: int, prefix: str) -> list[ChatMessageData]:
    """``rounds`` messages per user, each in its own conversation, each naming a new city."""
    t0 = datetime.now(UTC) - timedelta(hours=1)
    return [
        ChatMessageData(message_id=f"{prefix}-u{u}-r{r}:0", user_id=f"{prefix}-u{u}",
                        conversation_id=f"{prefix}-u{u}-r{r}", role="user",  # type: ignore[arg-type]
                        content=f"I live in {CITIES[(r + u) % len(CITIES)]} now.",
                        created_at=t0 + timedelta(seconds=r))
        for r in range(rounds) for u in range(users)
    ]


def final_messages(engine: Engine) -> dict[str, tuple[str, int]]:
    with Session(engine) as s:
        return {m: (st, a) for m, st, a in s.execute(
            select(Message.upstream_message_id, Message.memory_status, Message.memory_attempts)).all()}


def per_user_state(engine: Engine) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(live memory contents, history contents in write order) per user."""
    with Session(engine) as s:
        live: dict[str, list[str]] = defaultdict(list)
        for ext, content in s.execute(
                select(User.external_id, LongTermMemory.content).join(User, User.id == LongTermMemory.user_id)
                .where(LongTermMemory.is_active.is_(True))).all():
            live[ext].append(content or "")
        history: dict[str, list[str]] = defaultdict(list)
        for ext, content in s.execute(
                select(User.external_id, MemoryHistory.new_content)
                .join(User, User.id == MemoryHistory.user_id).order_by(MemoryHistory.id)).all():
            history[ext].append(content or "")
    return live, history


def writes_per_message(engine: Engine) -> dict[str, int]:
    """Memory changes (history rows) made from each stored message."""
    with Session(engine) as s:
        return dict(s.execute(
            select(Message.upstream_message_id, func.count(MemoryHistory.id))
            .join(MemoryHistory, MemoryHistory.source_message_id == Message.id, isouter=True)
            .group_by(Message.upstream_message_id)).all())


def city_of(text: str) -> str:
    return next((c for c in CITIES if c in text), "?")


def test_per_user_order_holds_while_bursts_of_different_users_run_concurrently(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    users, rounds = 16, 4
    cfg = isolated_settings(settings, unique_name, LONG_TERM_MEMORY_DEBOUNCE_SEC=0.0)
    rng = random.Random(12)
    rng_lock = threading.Lock()

    def latency() -> float:
        with rng_lock:
            return rng.uniform(0.05, 0.6)

    extractor = SlowExtractor(latency)
    msgs = city_messages(users, rounds, "ord")
    publish(cfg, msgs)
    with running(slow_loop(cfg, extractor, max_in_flight=16)):
        wait_until(lambda: len(final_messages(clean_db)) == len(msgs)
                   and all(st == "PROCESSED" for st, _ in final_messages(clean_db).values()), 120,
                   what="every message processed")
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 30)
    assert extractor.max_in_flight >= 4, f"calls never overlapped (max {extractor.max_in_flight})"
    assert set(writes_per_message(clean_db).values()) == {1}, "a message was lost or applied twice"
    live, history = per_user_state(clean_db)
    for u in range(users):
        user = f"ord-u{u}"
        expected = [CITIES[(r + u) % len(CITIES)] for r in range(rounds)]
        assert [city_of(c) for c in live[user]] == [expected[-1]], (user, live[user])
        assert [city_of(c) for c in history[user]] == expected, (user, history[user])


def test_the_loop_keeps_polling_and_rebalances_during_a_long_model_call(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=2,
                            LONG_TERM_MEMORY_DEBOUNCE_SEC=0.0)
    long_call = 12.0
    slow = SlowExtractor(lambda: long_call)
    first = slow_loop(cfg, slow, revoke_timeout_sec=1.0)
    second = slow_loop(cfg, SlowExtractor(lambda: 0.0))
    publish(cfg, city_messages(1, 1, "resp"))
    with running(first):
        wait_until(lambda: slow.in_flight == 1, 30, what="the long call in flight")
        call_started = time.monotonic()
        turns = first.turns
        time.sleep(1.0)
        assert first.turns >= turns + 3, "the loop stopped polling during the model call"
        last_poll = REGISTRY.get_sample_value("pai_memory_consumer_last_poll_timestamp_seconds",
                                              {"group": cfg.GROUP_EXTRACTOR})
        in_flight = REGISTRY.get_sample_value("pai_memory_consumer_in_flight", {"group": cfg.GROUP_EXTRACTOR})
        assert last_poll is not None and time.time() - last_poll < 1.0 and in_flight == 1.0
        with running(second):
            wait_until(lambda: len(second.assignment) == 1 and len(first.assignment) == 1, 20,
                       what="the rebalance to complete")
            assert time.monotonic() - call_started < long_call and slow.in_flight == 1, \
                "the rebalance waited for the model call"
            wait_until(lambda: all(st == "PROCESSED" for st, _ in final_messages(clean_db).values())
                       and len(final_messages(clean_db)) == 1, 30, what="the message processed")
    live, history = per_user_state(clean_db)
    assert [city_of(c) for c in live["resp-u0"]] == ["Wuhan"] and len(history["resp-u0"]) == 1


def test_a_rebalance_with_32_calls_in_flight_loses_and_doubles_nothing(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    users = 40
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=4,
                            LONG_TERM_MEMORY_DEBOUNCE_SEC=0.0)
    slow = SlowExtractor(lambda: 8.0)
    first = slow_loop(cfg, slow, max_in_flight=32, revoke_timeout_sec=0.5)
    second = slow_loop(cfg, SlowExtractor(lambda: 0.2), max_in_flight=32)
    msgs = city_messages(users, 1, "rb")
    publish(cfg, msgs)
    with running(first):
        wait_until(lambda: slow.in_flight == 32, 30, what="32 calls in flight")
        with running(second):
            wait_until(lambda: second.assignment != set() and slow.finished < 32, 20,
                       what="the rebalance while the calls are in flight")
            wait_until(lambda: len(final_messages(clean_db)) == users
                       and all(st == "PROCESSED" for st, _ in final_messages(clean_db).values()), 120,
                       what="every message processed")
            wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 30)
    assert slow.max_in_flight == 32
    assert isinstance(first.strategy, ExtractorStrategy) and first.strategy.abandoned > 0, \
        "no in-flight record was abandoned: the rebalance did not happen while calls were in flight"
    assert writes_per_message(clean_db) == {f"rb-u{u}-r0:0": 1 for u in range(users)}, \
        "a message was lost or applied twice"
    live, history = per_user_state(clean_db)
    for u in range(users):
        user = f"rb-u{u}"
        assert [city_of(c) for c in live[user]] == [CITIES[u % len(CITIES)]], (user, live[user])
        assert len(history[user]) == 1, (user, history[user])


@pytest.fixture
def fake_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    """The OpenAI-compatible TEST DOUBLE, with a listen backlog for 32+ simultaneous connections
    (the standard library's default of 5 refuses some of them)."""
    import http.server

    monkeypatch.setattr(http.server.ThreadingHTTPServer, "request_queue_size", 128)
    server = FakeOpenAIServer().start()
    try:
        yield server
    finally:
        server.stop()


LLM_REPLY = {"candidates": [{"op": "upsert", "memory_type": "fact", "key": "location-home_city",
                             "content": "Lives in Oslo", "importance": 4, "confidence": 0.95,
                             "ttl_days": None}]}


def test_kill_9_with_32_model_calls_in_flight_loses_and_doubles_nothing(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], tmp_path: Path,
    fake_llm: FakeOpenAIServer
) -> None:
    users, delay = 40, 6.0
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=4, PAI_MEMORY_HOME=str(tmp_path))
    env = service_env(cfg, tmp_path, **PIPELINE_ENV)
    env.update({"MEMORY_EXTRACTOR_PROVIDER": "openai", "LLM_BASE_URL": fake_llm.base_url,
                "LLM_API_KEY": "test", "LLM_MAX_RETRIES": "0", "LONG_TERM_MEMORY_DEBOUNCE_SEC": "0",
                "CONSUMER_EXTRACTOR_MAX_IN_FLIGHT": "32",
                "MEMORY_INDEX_WORKER_ENABLED": "false", "MEMORY_MILVUS_ENABLED": "false"})
    service = LocalService(cfg, env)
    sup = service.supervisor
    fake_llm.default_chat = Reply(content=json.dumps(LLM_REPLY), delay=delay)
    try:
        publish(cfg, city_messages(users, 1, "k9"))
        sup.start("extractor", 0, extra_env={"METRICS_PORT": str(free_port())})
        wait_until(lambda: fake_llm.chat_calls >= 32, 90, interval=0.05, what="32 model calls")
        stamps = [r for r in fake_llm.requests if r.path.endswith("/chat/completions")]
        sup.kill("extractor-0")
        assert len(stamps) == 32, "more than 32 calls were started: the in-flight cap did not hold"
        wait_until(lambda: not sup.alive("extractor-0"), 10, what="the killed process gone")
        calls_at_kill = fake_llm.chat_calls
        with Session(clean_db) as s:  # the killed process committed nothing: all its calls were in flight
            assert s.scalar(select(func.count()).select_from(MemoryHistory)) == 0
        fake_llm.default_chat = Reply(content=json.dumps(LLM_REPLY))
        sup.start("extractor", 1, extra_env={"METRICS_PORT": str(free_port())})
        wait_until(lambda: len(final_messages(clean_db)) == users
                   and all(st == "PROCESSED" for st, _ in final_messages(clean_db).values()), 120,
                   what="every message processed after the restart")
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 30)
    finally:
        sup.stop_all(timeout=20)
    assert calls_at_kill == 32
    assert writes_per_message(clean_db) == {f"k9-u{u}-r0:0": 1 for u in range(users)}, \
        "a message was lost or applied twice"
    live, history = per_user_state(clean_db)
    for u in range(users):
        assert live[f"k9-u{u}"] == ["Lives in Oslo"] and history[f"k9-u{u}"] == ["Lives in Oslo"], u


def test_backpressure_pauses_the_partitions_and_bounds_what_is_held(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    users, max_buffered, batch = 150, 20, 10
    cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=1,
                            LONG_TERM_MEMORY_DEBOUNCE_SEC=0.0)
    slow = SlowExtractor(lambda: 0.05)
    processor = MessageProcessor(cfg, session_factory(engine_for(cfg.database_url, 10)), slow, None)
    strategy = ExtractorStrategy(processor, DeadLetterPublisher(cfg, cfg.GROUP_EXTRACTOR), debounce_sec=0.0,
                                 group=cfg.GROUP_EXTRACTOR, max_in_flight=4, max_buffered=max_buffered)
    loop = ConsumerLoop(cfg, cfg.GROUP_EXTRACTOR, [cfg.TOPIC_CHAT_MESSAGES], strategy, batch_size=batch)
    publish(cfg, city_messages(users, 1, "bp"))
    with running(loop):
        wait_until(lambda: len(final_messages(clean_db)) == users
                   and all(st == "PROCESSED" for st, _ in final_messages(clean_db).values()), 120,
                   what="every message processed")
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES), 30)
        wait_until(lambda: not loop.paused, 10, what="partitions resumed once drained")
    assert loop.pauses >= 1, "never paused"
    assert strategy.max_buffered_seen <= max_buffered + batch, strategy.max_buffered_seen
    assert slow.max_in_flight <= 4


def chat_record(cfg: Settings, msg: ChatMessageData, offset: int) -> Record:
    event = make_event(msg, source="test")
    return Record(cfg.TOPIC_CHAT_MESSAGES, 0, offset, msg.user_id.encode(),
                  event.model_dump_json().encode(), (), None)


@pytest.mark.parametrize(("latency", "revoke_timeout", "finished"), [(0.5, 10.0, True), (3.0, 0.2, False)],
                         ids=["finishes-within-the-timeout", "abandoned-after-the-timeout"])
def test_revoke_finishes_running_bursts_within_its_timeout_or_abandons_them(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str],
    latency: float, revoke_timeout: float, finished: bool
) -> None:
    cfg = isolated_settings(settings, unique_name)
    slow = SlowExtractor(lambda: latency)
    processor = MessageProcessor(cfg, session_factory(engine_for(cfg.database_url, 10)), slow, None)
    strategy = ExtractorStrategy(processor, DeadLetterPublisher(cfg, cfg.GROUP_EXTRACTOR), debounce_sec=0.0,
                                 group=cfg.GROUP_EXTRACTOR, revoke_timeout_sec=revoke_timeout)
    done: list[Record] = []
    strategy.bind(done.append)
    try:
        records = [chat_record(cfg, m, i) for i, m in enumerate(city_messages(2, 1, "rv"))]
        for r in records:
            strategy.submit(r)
        strategy.poll()
        wait_until(lambda: slow.in_flight == 2, 10, what="both bursts running")
        started = time.monotonic()
        strategy.revoke([(cfg.TOPIC_CHAT_MESSAGES, 0)])
        took = time.monotonic() - started
        if finished:
            assert sorted(r.offset for r in done) == [0, 1] and strategy.abandoned == 0
        else:
            assert took < latency and done == [] and strategy.abandoned == 2
            wait_until(lambda: slow.finished == 2, 10, what="the abandoned calls to end")
            time.sleep(0.3)
            strategy.poll()
            assert done == [], "an abandoned record was marked done after its partition was revoked"
        assert took < revoke_timeout + 1.0 and strategy.buffered == 0 and strategy.in_flight == 0
    finally:
        strategy.close()


class ClosableExtractor(SlowExtractor):
    """TEST DOUBLE: records that the strategy cancelled its calls on shutdown."""

    def __init__(self) -> None:
        super().__init__(lambda: 0.0)
        self.closed = 0

    def close(self) -> None:
        self.closed += 1


def test_close_cancels_the_providers_waiting_calls(settings: Settings) -> None:
    extractor = ClosableExtractor()
    sessions = session_factory(engine_for(settings.database_url, 2))
    processor = MessageProcessor(settings, sessions, extractor, None)
    strategy = ExtractorStrategy(processor, DeadLetterPublisher(settings, settings.GROUP_EXTRACTOR),
                                 debounce_sec=0.0, group=settings.GROUP_EXTRACTOR)
    strategy.close()
    assert extractor.closed == 1


class OneBadMessage(MessageProcessor):
    """The real processor, except that storing message ``bad`` raises ``DataError`` (alone or in a batch)."""

    def __init__(self, *args: Any, bad: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bad = bad
        self.batches: list[int] = []

    def _check(self, msgs: list[IncomingMessage]) -> None:
        if any(m.message_id == self.bad for m in msgs):
            raise DataError("INSERT", {}, psycopg.errors.StringDataRightTruncation("too long"))

    def ingest(self, msg: IncomingMessage) -> IngestResult:
        self._check([msg])
        return super().ingest(msg)

    def ingest_many(self, msgs: Sequence[IncomingMessage]) -> list[IngestResult]:
        self.batches.append(len(msgs))
        self._check(list(msgs))
        return super().ingest_many(msgs)


FAST_RETRY = RetryPolicy(initial_sec=0.05, max_sec=0.2)


def test_a_poll_is_stored_in_one_transaction_and_a_bad_record_only_costs_it_its_speed(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]
) -> None:
    cfg = isolated_settings(settings, unique_name)
    sessions = session_factory(engine_for(cfg.database_url, 10))
    messages = city_messages(3, 2, "batch")
    processor = OneBadMessage(cfg, sessions, RulesExtractor(), None, bad=messages[2].message_id)
    strategy = ExtractorStrategy(processor, DeadLetterPublisher(cfg, cfg.GROUP_EXTRACTOR), debounce_sec=0.0,
                                 group=cfg.GROUP_EXTRACTOR, retry=FAST_RETRY)
    done: list[Record] = []
    strategy.bind(done.append)
    try:
        good = [chat_record(cfg, m, i) for i, m in enumerate(messages[:2])]
        for r in good:
            strategy.submit(r)
        assert strategy.buffered == 2 and processor.batches == []  # stored at the turn's poll
        strategy.poll()
        assert processor.batches == [2]
        rest = [chat_record(cfg, m, i) for i, m in enumerate(messages[2:], start=2)]
        for r in rest:
            strategy.submit(r)
        strategy.poll()  # the batch fails on the bad record: stored one by one, the bad one dead-lettered
        assert processor.batches == [2, 4]
        wait_until(lambda: (strategy.poll(), len(done) == len(messages))[1], 60, what="every record done")
        assert strategy.dead_lettered == 1
        assert sorted(r.offset for r in done) == list(range(len(messages)))
        with sessions() as s:
            stored = set(s.scalars(select(Message.upstream_message_id)).all())
        assert stored == {m.message_id for m in messages} - {messages[2].message_id}
    finally:
        strategy.close()
