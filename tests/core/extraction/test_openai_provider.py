"""The OpenAI-compatible extraction provider against the local OpenAI TEST DOUBLE server."""

from __future__ import annotations

import json
import time

import pytest
from pydantic import SecretStr

from core.config import load_settings
from core.extraction.candidates import (
    CandidateExtractor,
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionError,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.openai_provider import OpenAIExtractor, parse_candidates
from core.prompt_data import read_block
from core.types import MemoryType
from tests.support.fake_openai import FakeOpenAIServer  # the `fake_openai` fixture: tests/core/conftest.py

GOOD = {"candidates": [
    {"op": "upsert", "memory_type": "fact", "key": "location-home_city", "content": "用户住在杭州",
     "importance": 4, "confidence": 0.95, "ttl_days": None},
    {"op": "upsert", "memory_type": "preference", "key": "food-favorite_cuisine", "content": "用户喜欢川菜",
     "importance": 3, "confidence": 0.9, "ttl_days": None},
]}

INPUT = ExtractionInput(
    user_message="我住在杭州，平时最爱吃川菜。明天提醒我带伞。",
    context=(ContextMessage("user", "你好"), ContextMessage("assistant", "你好！你住在上海对吧？")),
    summary="用户在闲聊饮食。",
)


def _extractor(server: FakeOpenAIServer, **kw: object) -> OpenAIExtractor:
    params: dict[str, object] = {"base_url": server.base_url, "model": "fake-llm", "timeout": 5.0,
                                 "max_retries": 2, "backoff_base": 0.01, "api_key": SecretStr("sk-test")}
    params.update(kw)
    return OpenAIExtractor(**params)  # type: ignore[arg-type]


def test_valid_structured_reply_gives_candidates(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat_json(GOOD)
    usage: list[tuple[str, int, int]] = []
    extractor: CandidateExtractor = _extractor(fake_openai, on_usage=lambda *a: usage.append(a))
    got = extractor.extract(INPUT)
    assert [(c.memory_type, c.key, c.content) for c in got] == [
        (MemoryType.FACT, "location-home_city", "用户住在杭州"),
        (MemoryType.PREFERENCE, "food-favorite_cuisine", "用户喜欢川菜"),
    ]
    assert got[0].ttl_days is None and got[0].confidence == 0.95
    assert fake_openai.chat_calls == 1
    req = fake_openai.chat_requests()[0]
    assert req["model"] == "fake-llm"
    assert req["response_format"]["type"] == "json_schema"
    assert req["response_format"]["json_schema"]["schema"]["required"] == ["candidates"]
    assert fake_openai.requests[0].headers.get("authorization") == "Bearer sk-test"
    system, user = req["messages"][0]["content"], req["messages"][1]["content"]
    assert "助手回复只是上下文" in system and "昵称" in system  # the design's keep/drop boundaries are stated
    # the user message is the final block, JSON-encoded (core.prompt_data)
    assert user.rstrip().endswith("</current_user_message>")
    assert read_block(user, "current_user_message") == [{"content": INPUT.user_message}]
    assert "assistant（仅上下文）" in user
    assert usage == [("extract", 11, 7)] and isinstance(extractor, OpenAIExtractor)
    assert extractor.usage.total_tokens == 18 and extractor.usage.calls == 1


def test_fenced_and_prose_wrapped_json_is_accepted(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat("```json\n" + json.dumps(GOOD, ensure_ascii=False) + "\n```")
    fake_openai.chat("Here you go: " + json.dumps(GOOD, ensure_ascii=False) + " hope it helps")
    extractor = _extractor(fake_openai)
    assert len(extractor.extract(INPUT)) == 2
    assert len(extractor.extract(INPUT)) == 2
    assert fake_openai.chat_calls == 2


def test_malformed_then_valid_is_retried(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat("I think the user lives in Hangzhou.")
    fake_openai.chat_json({"memories": []})
    fake_openai.chat_json(GOOD)
    got = _extractor(fake_openai, max_retries=2).extract(INPUT)
    assert len(got) == 2
    assert fake_openai.chat_calls == 3


def test_persistent_garbage_raises_extraction_error(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat("not json at all", repeat=10)
    with pytest.raises(ExtractionError, match="malformed"):
        _extractor(fake_openai, max_retries=2).extract(INPUT)
    assert fake_openai.chat_calls == 3


def test_http_500_is_retried_then_succeeds(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat(status=500)
    fake_openai.chat(status=503)
    fake_openai.chat_json(GOOD)
    assert len(_extractor(fake_openai, max_retries=3).extract(INPUT)) == 2
    assert fake_openai.chat_calls == 3


def test_non_json_http_body_is_an_error_not_a_crash(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat(raw=b"<html>bad gateway</html>", status=502, repeat=5)
    with pytest.raises(ExtractionError):
        _extractor(fake_openai, max_retries=1).extract(INPUT)


def test_http_200_with_a_non_json_body_is_retried_not_a_crash(fake_openai: FakeOpenAIServer) -> None:
    """Found by the fault suite: the client raises json.JSONDecodeError (not an OpenAIError) for a 200
    whose body is not JSON; it must count as a malformed reply, be retried, then be ExtractionError."""
    fake_openai.chat(raw=b"<html>upstream hiccup</html>", status=200, repeat=2)
    with pytest.raises(ExtractionError, match="unreadable reply body"):
        _extractor(fake_openai, max_retries=1).extract(INPUT)
    assert fake_openai.chat_calls == 2
    fake_openai.chat(raw=b"not json", status=200)
    fake_openai.chat_json(GOOD)
    assert len(_extractor(fake_openai, max_retries=1).extract(INPUT)) == 2


def test_auth_error_fails_without_retrying(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat(status=401, repeat=5)
    with pytest.raises(ExtractionError, match="401"):
        _extractor(fake_openai, max_retries=3).extract(INPUT)
    assert fake_openai.chat_calls == 1


def test_timeout_raises_within_the_bound(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat_json(GOOD, delay=8.0, repeat=5)  # every attempt would hang past the 1 s deadline
    extractor = _extractor(fake_openai, timeout=1.0, max_retries=3)
    started = time.monotonic()
    with pytest.raises(ExtractionError, match="timed out"):
        extractor.extract(INPUT)
    assert time.monotonic() - started < 6.0  # the deadline ended it, not one attempt's answer (8 s)


def test_slow_first_attempt_then_fast_reply_within_budget(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat(status=500, delay=0.3)
    fake_openai.chat_json(GOOD)
    assert len(_extractor(fake_openai, timeout=3.0).extract(INPUT)) == 2


def test_json_schema_rejected_falls_back_to_json_object(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat(status=400)  # e.g. a server without structured-output support
    fake_openai.chat_json(GOOD)
    fake_openai.chat_json(GOOD)
    extractor = _extractor(fake_openai, max_retries=0)
    assert len(extractor.extract(INPUT)) == 2
    formats = [r.get("response_format", {}).get("type") for r in fake_openai.chat_requests()]
    assert formats == ["json_schema", "json_object"]
    extractor.extract(INPUT)  # the fallback is remembered
    assert fake_openai.chat_requests()[-1]["response_format"]["type"] == "json_object"


def test_invalid_items_are_dropped_valid_ones_kept(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat_json({"candidates": [
        {"memory_type": "profile", "key": "profile-nickname", "content": "小明"},
        {"memory_type": "goal", "key": "goal-marathon", "content": "用户想跑全马", "confidence": 0.9},
    ]})
    extractor = _extractor(fake_openai)
    got = extractor.extract(INPUT)
    assert [c.key for c in got] == ["goal-marathon"]
    assert got[0].op is CandidateOp.UPSERT and got[0].importance == 3  # defaults filled
    assert extractor.dropped_candidates == 1


def test_empty_candidate_list_is_valid(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat_json({"candidates": []})
    assert _extractor(fake_openai).extract(INPUT) == []
    assert _extractor(fake_openai).extract(ExtractionInput(user_message="   ")) == []
    assert fake_openai.chat_calls == 1  # the blank message made no call


def test_refine_sends_existing_and_candidates(fake_openai: FakeOpenAIServer) -> None:
    existing = (ExistingMemory("location-home_city", "fact", "用户住在上海"),)
    data = ExtractionInput(user_message="我搬到杭州了", existing=existing)
    cands = [MemoryCandidate(memory_type=MemoryType.FACT, key="location-city", content="用户住在杭州")]
    fake_openai.chat_json({"candidates": [
        {"op": "upsert", "memory_type": "fact", "key": "location-home_city", "content": "用户住在杭州"}]})
    extractor = _extractor(fake_openai)
    got = extractor.refine(data, cands)
    assert [(c.key, c.content) for c in got] == [("location-home_city", "用户住在杭州")]
    req = fake_openai.chat_requests()[0]
    user = req["messages"][1]["content"]
    assert "用户住在上海" in user and "location-city" in user
    assert "复用 key" in req["messages"][0]["content"]
    # Nothing existing to judge against, or nothing to judge: no call.
    assert extractor.refine(ExtractionInput(user_message="x"), cands) == cands
    assert extractor.refine(data, []) == []
    assert fake_openai.chat_calls == 1
    # a stage-1 retraction under a guessed key is mapped to the existing key, with supersedes
    fake_openai.chat_json({"candidates": [
        {"op": "delete", "memory_type": "fact", "key": "location-home_city", "content": "",
         "supersedes": "location-home_city"}]})
    guess = [MemoryCandidate(op=CandidateOp.DELETE, memory_type=MemoryType.FACT, key="location-shanghai")]
    got = extractor.refine(ExtractionInput(user_message="忘掉我住在上海这件事", existing=existing), guess)
    assert [(c.op.value, c.key, c.supersedes) for c in got] == [
        ("delete", "location-home_city", "location-home_city")]
    assert fake_openai.chat_calls == 2


def test_context_is_bounded(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.chat_json({"candidates": []})
    long_ctx = tuple(ContextMessage("user", f"旧消息{i} " + "啊" * 300) for i in range(100))
    _extractor(fake_openai, max_context_chars=1000).extract(
        ExtractionInput(user_message="我养了一只猫", context=long_ctx))
    user = fake_openai.chat_requests()[0]["messages"][1]["content"]
    assert "旧消息99" in user and "旧消息0 " not in user
    assert len(user) < 1000 + 200


def test_built_from_settings(fake_openai: FakeOpenAIServer) -> None:
    settings = load_settings(LLM_BASE_URL=fake_openai.base_url, LLM_MODEL="qwen-test",
                             LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC=7, LLM_MAX_RETRIES=1)
    extractor = OpenAIExtractor(settings)
    assert (extractor.name, extractor.model, extractor.timeout, extractor.max_retries) == (
        "openai", "qwen-test", 7, 1)
    fake_openai.chat_json(GOOD)
    assert len(extractor.extract(INPUT)) == 2
    assert fake_openai.chat_requests()[0]["model"] == "qwen-test"


def test_parse_candidates_rejects_non_candidate_json() -> None:
    for bad in ("", "null", "42", '{"candidates": 3}', "[1, 2", "{}"):
        with pytest.raises(ValueError):
            parse_candidates(bad)
    assert parse_candidates('[{"memory_type": "fact", "key": "k", "content": "c"}]')[0][0].key == "k"
    assert parse_candidates('{"candidates": null}') == ([], 0)
