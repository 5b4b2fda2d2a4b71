"""Bursts of many users extracted concurrently through one shared ``openai`` provider (worker threads,
as the parallel extractor runs them) against a rate-limiting OpenAI TEST DOUBLE, on real PostgreSQL:
a 429 storm loses nothing (every message PROCESSED, every user's last statement is their memory),
the shared limiter backs off, and the token bill per message is exported."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from core import metrics
from core.config import Settings
from core.extraction.instrumented import InstrumentedExtractor, record_tokens
from core.extraction.openai_provider import OpenAIExtractor
from core.memory.processing import MessageProcessor
from core.memory.store import IncomingMessage
from core.storage.db import session_factory
from core.storage.models import LongTermMemory, Message, User
from tests.reliability.llm_double import SwitchableLLM
from tests.support.fake_openai import Latency

pytestmark = pytest.mark.services

USERS = 16
CITIES = ("Oslo", "Lima", "Kyoto")
T0 = datetime.now(UTC) - timedelta(hours=1)


def _histogram_count(provider: str) -> float:
    for family in metrics.LLM_TOKENS_PER_MESSAGE.collect():
        for sample in family.samples:
            if sample.name.endswith("_count") and sample.labels.get("provider") == provider:
                return sample.value
    return 0.0


def test_429_storm_through_the_processor_loses_nothing(settings: Settings, clean_db: Engine) -> None:
    llm = SwitchableLLM().start()
    try:
        # 30 % of the requests are refused with a Retry-After, the rest take 20-150 ms
        llm.configure(latency=Latency.lognormal(0.02, 0.15), rate_limit_rate=0.3, retry_after=0.05,
                      endpoints=("chat",), seed=1)
        cfg = settings.model_copy(update={"LLM_BASE_URL": llm.base_url, "MEMORY_EXTRACTOR_PROVIDER": "openai",
                                          "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC": 60.0,
                                          "LLM_MAX_CONCURRENCY": 8})
        provider = OpenAIExtractor.from_settings(cfg, on_usage=record_tokens("openai"))
        provider.backoff_base = 0.02
        processor = MessageProcessor(cfg, session_factory(clean_db), InstrumentedExtractor(provider), None)
        tokens_before = _histogram_count("openai")

        def one_user(u: int) -> None:  # one user's bursts strictly in order, users in parallel
            for n, city in enumerate(CITIES):
                msg = IncomingMessage(message_id=f"storm-{u}-{n}", user_id=f"storm-u{u}",
                                      conversation_id=f"storm-c{u}", role="user",
                                      content=f"I live in {city} now.", created_at=T0 + timedelta(minutes=n))
                processor.process([processor.ingest(msg).message_pk])

        with ThreadPoolExecutor(USERS) as pool:
            list(pool.map(one_user, range(USERS)))  # any exception would surface here

        with Session(clean_db) as s:
            statuses = s.scalars(select(Message.memory_status)).all()
            live = dict(s.execute(select(User.external_id, LongTermMemory.content)
                                  .join(LongTermMemory, LongTermMemory.user_id == User.id)
                                  .where(LongTermMemory.is_active.is_(True))).all())
        assert len(statuses) == USERS * len(CITIES) and set(statuses) == {"PROCESSED"}
        assert live == {f"storm-u{u}": "I live in Kyoto now" for u in range(USERS)}
        assert llm.rate_limited > 10 and provider.limiter.cuts > 0 and provider.limiter.limit < 8
        assert llm.max_in_flight_seen <= 8  # the hard cap LLM_MAX_CONCURRENCY
        assert _histogram_count("openai") - tokens_before == USERS * len(CITIES)
        # every burst after the first of a user made an extract and a refine call
        assert provider.usage.calls == USERS * (2 * len(CITIES) - 1)
    finally:
        llm.stop()
