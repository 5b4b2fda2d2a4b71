"""Endpoint etiquette of the openai provider against the OpenAI TEST DOUBLE server: 429 and
Retry-After, adaptive concurrency shared by threads (backs off in a 429 storm, recovers, nothing
lost), per-request and per-burst deadlines, cancellation."""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from pydantic import SecretStr

from core import metrics
from core.extraction.burst import burst_scope
from core.extraction.candidates import (
    ExistingMemory,
    ExtractionCancelled,
    ExtractionError,
    ExtractionInput,
)
from core.extraction.openai_provider import OpenAIExtractor
from tests.support.fake_openai import (  # the `fake_openai` fixture: tests/core/conftest.py
    FakeOpenAIServer,
    Latency,
    Reply,
)

GOOD = {"candidates": [{"op": "upsert", "memory_type": "fact", "key": "location-home_city",
                        "content": "用户住在杭州", "importance": 4, "confidence": 0.95, "ttl_days": None}]}
INPUT = ExtractionInput(user_message="我住在杭州。")


def _extractor(server: FakeOpenAIServer, **kw: object) -> OpenAIExtractor:
    params: dict[str, object] = {"base_url": server.base_url, "model": "fake-llm", "timeout": 10.0,
                                 "max_retries": 2, "backoff_base": 0.01, "api_key": SecretStr("sk-test")}
    params.update(kw)
    extractor = OpenAIExtractor(**params)  # type: ignore[arg-type]
    extractor._get_client()  # created (and openai imported) before anything is timed
    return extractor


def _count(stage: str, outcome: str) -> float:
    return metrics.LLM_REQUESTS.labels("openai", stage, outcome)._value.get()


def test_retry_after_is_honoured_and_429s_are_not_attempts(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat(status=429, retry_after=0.6)
    fake_openai.chat(status=429, retry_after=0.1, repeat=3)
    fake_openai.chat_json(GOOD)
    before = _count("extract", "rate_limited")
    extractor = _extractor(fake_openai, max_retries=0)  # 429s do not use up the retries
    assert len(extractor.extract(INPUT)) == 1
    times = [r.at for r in fake_openai.requests]
    assert len(times) == 5
    assert times[1] - times[0] >= 0.55  # waited what the endpoint asked for
    assert all(b - a >= 0.08 for a, b in itertools.pairwise(times[1:]))
    assert _count("extract", "rate_limited") - before == 4
    assert extractor.limiter.rate_limit_pauses >= 1 and extractor.limiter.cuts >= 1


def test_retry_after_past_the_deadline_fails_at_once_with_the_reason(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat(status=429, retry_after=20, repeat=3)
    started = time.monotonic()
    with pytest.raises(ExtractionError, match="retry after 20s, past the deadline"):
        _extractor(fake_openai, timeout=2.0, retry_after_max=60).extract(INPUT)
    assert time.monotonic() - started < 1.0 and fake_openai.chat_calls == 1


def test_a_long_retry_after_is_capped(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat(status=429, retry_after=3600)
    fake_openai.chat_json(GOOD)
    started = time.monotonic()
    assert len(_extractor(fake_openai, timeout=5.0, retry_after_max=0.3).extract(INPUT)) == 1
    assert 0.25 <= time.monotonic() - started < 3.0


def test_per_request_timeout_retries_within_the_stage_deadline(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat_json(GOOD, delay=6.0)  # a request that hangs past the whole stage deadline
    fake_openai.chat_json(GOOD)
    started = time.monotonic()
    extractor = _extractor(fake_openai, timeout=5.0, call_timeout=0.4)
    assert len(extractor.extract(INPUT)) == 1  # answered by the retry, within the 5 s deadline
    assert time.monotonic() - started >= 0.35 and fake_openai.chat_calls == 2
    assert extractor.limiter.cuts == 1  # a timeout is an overload signal


def test_the_burst_deadline_covers_extract_and_refine(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat_json(GOOD, delay=0.5)  # extract
    fake_openai.chat_json(GOOD, delay=3.0, repeat=3)  # refine would end after the burst's deadline
    extractor = _extractor(fake_openai, timeout=30.0, max_retries=3)
    data = ExtractionInput(user_message="我住在杭州。",
                           existing=(ExistingMemory("location-home_city", "fact", "用户住在上海"),))
    started = time.monotonic()
    with burst_scope(2.5) as scope, pytest.raises(ExtractionError, match=r"timed out after 2\.5s"):
        candidates = extractor.extract(data)
        extractor.refine(data, candidates)
    assert 2.4 <= time.monotonic() - started < 3.4  # the burst's 2.5 s, not 30 s per stage
    assert scope.requests == 1 and scope.total_tokens == 18  # the extract reply's usage


def test_close_cancels_waiting_and_retrying_calls(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat(status=429, retry_after=30, repeat=5)  # the caller waits in a 30 s pause
    fake_openai.chat_json(GOOD, delay=1.0, repeat=5)
    extractor = _extractor(fake_openai, timeout=60.0, retry_after_max=60, max_concurrency=1)
    errors: list[BaseException] = []

    def call() -> None:
        try:
            extractor.extract(INPUT)
        except ExtractionError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=call) for _ in range(3)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    started = time.monotonic()
    extractor.close()
    for t in threads:
        t.join(10)
    assert not any(t.is_alive() for t in threads)
    assert time.monotonic() - started < 2.0
    assert len(errors) == 3 and all(isinstance(e, ExtractionCancelled) for e in errors), errors
    with pytest.raises(ExtractionCancelled):
        extractor.extract(INPUT)


def test_429_storm_backs_off_loses_nothing_and_recovers(fake_openai: FakeOpenAIServer) -> None:
    """32 worker threads share one provider; the endpoint answers 429 whenever more than 6 requests
    are in flight (no Retry-After). Every call still succeeds, the limit comes down, and once the
    endpoint accepts everything again the limit grows back."""
    fake_openai.default_chat = None
    fake_openai.chat_handler = lambda body: Reply(content='{"candidates": []}')
    fake_openai.configure(latency=Latency.lognormal(0.03, 0.12), max_in_flight=6, endpoints=("chat",), seed=7)
    extractor = _extractor(fake_openai, max_concurrency=32, timeout=120.0, max_retries=0, backoff_base=0.02)
    with ThreadPoolExecutor(32) as pool:
        results = list(pool.map(lambda _: extractor.extract(INPUT), range(400)))
    assert len(results) == 400 and all(r == [] for r in results)  # nothing lost
    assert fake_openai.rate_limited > 0 and extractor.limiter.cuts > 0
    low = extractor.limiter.limit
    assert low < 16, low  # backed off from the cap of 32
    assert fake_openai.max_in_flight_seen <= 32  # the hard cap holds

    fake_openai.configure(latency=0.005, endpoints=("chat",))  # the storm is over
    with ThreadPoolExecutor(32) as pool:
        list(pool.map(lambda _: extractor.extract(INPUT), range(300)))
    assert extractor.limiter.limit > low + 2  # recovering (about +1 per window of successes)
    assert metrics.MODEL_CONCURRENCY_LIMIT.labels("llm")._value.get() > 0


def test_many_calls_in_flight_at_once(fake_openai: FakeOpenAIServer) -> None:
    """With a slow endpoint, 32 threads keep up to 32 requests in flight through one provider."""
    fake_openai.chat_handler = lambda body: Reply(content='{"candidates": []}')
    fake_openai.configure(latency=0.5, endpoints=("chat",))
    extractor = _extractor(fake_openai, max_concurrency=32)
    started = time.monotonic()
    with ThreadPoolExecutor(32) as pool:
        out = list(pool.map(lambda _: extractor.extract(INPUT), range(64)))
    elapsed = time.monotonic() - started
    assert len(out) == 64 and fake_openai.max_in_flight_seen >= 24
    assert elapsed < 64 * 0.5 / 4  # far from one call at a time (32 s)
    assert all(x == [] for x in out)


def test_a_500_naming_response_format_falls_back_to_json_object(fake_openai: FakeOpenAIServer) -> None:
    """Found against llama-cpp-python's server: it answers ``response_format: json_schema`` with an
    HTTP 500 validation error naming ``response_format``; that is a rejected format, not an outage."""
    fake_openai.chat(raw=b'{"error": {"message": "1 validation error: body.response_format.type: Input '
                         b'should be \'text\' or \'json_object\'"}}', status=500)
    fake_openai.chat_json(GOOD)
    fake_openai.chat(status=500)  # a plain 500 is an ordinary failed attempt
    fake_openai.chat_json(GOOD)
    extractor = _extractor(fake_openai, max_retries=0)
    assert len(extractor.extract(INPUT)) == 1
    with pytest.raises(ExtractionError, match="HTTP 500"):
        extractor.extract(INPUT)
    formats = [r.get("response_format", {}).get("type") for r in fake_openai.chat_requests()]
    assert formats == ["json_schema", "json_object", "json_object"]
