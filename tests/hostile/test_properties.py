"""Property-based tests (hypothesis) for the event schemas, the hard filters and the rerank.

Adds to ``tests/schemas/test_events.py`` (which has the chat round trip, binary garbage and
wrong-typed chat fields) and ``tests/core/test_filters.py`` (normalisation and noise-key variants):

- schemas: arbitrary JSON *text* (huge integer literals, NaN/Infinity, lone surrogate escapes, deep
  nesting) and arbitrary JSON values grafted anywhere into valid events of every type only ever
  raise ``SchemaError`` from every parser; whatever parses round-trips; every valid command,
  dirty event and dead letter round-trips byte-exact;
- filters: noise keys disguised with full-width forms, zero-width characters, case and separators
  are still noise; at write time every tool write of a noise key is refused and at read time a
  noise row planted behind the writer's back is never listed nor retrieved (real PostgreSQL);
- rerank: scores are bounded, deterministic and independent of input order, monotone in each
  component, ordered by the weights when one weight dominates, and never crash or go non-finite
  on extreme inputs (inf/NaN scores, out-of-range importance/confidence, far past/future dates).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from sqlalchemy import Engine, insert

from core.config import RetrieveMode, Settings
from core.filters import is_noise_key, normalise_key, passes_read_filters
from core.lexical import key_terms, tokenize
from core.memory.errors import InvalidMemoryInput
from core.memory.store import get_or_create_user
from core.memory.tools import MemoryTools, MemoryView, ToolWrite
from core.memory.writer import MemoryWriter
from core.retrieval import Candidate, RerankWeights, Retriever, rerank
from core.storage.db import session_factory, transaction
from core.storage.models import LongTermMemory
from core.types import MemoryOperation, MemoryType
from schemas import (
    ID_PATTERN,
    MemoryAppendData,
    MemoryDeleteData,
    MemoryDirtyData,
    MemorySaveData,
    SchemaError,
    make_dead_letter,
    make_event,
    parse_chat_message,
    parse_event,
    parse_memory_command,
    parse_memory_dirty,
    to_bytes,
    to_dict,
)

PARSERS = (parse_event, parse_chat_message, parse_memory_command, parse_memory_dirty)
T0 = datetime(2025, 6, 1, 8, 0, tzinfo=UTC)


# --- schemas: garbage only ever raises SchemaError -------------------------------------------------
def _json_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=True)  # lone surrogates become \ud800-style escapes


json_scalar_text = st.one_of(
    st.sampled_from(["null", "true", "false", "NaN", "Infinity", "-Infinity", "1e999", "-0", "0.0e-999"]),
    st.integers(-(2**70), 2**70).map(str),
    st.integers(4290, 4400).map(lambda n: "9" * n),  # past Python's int-digit limit
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.text(max_size=40).map(_json_string),
    st.sampled_from(['"pai.chat.message.v1"', '"pai.memory.command.v1"', '"pai.memory.dirty.v1"',
                     '"pai.chat.message.v2"', '"1.0"', '"memory_save"', '"\\ud800"', '"\\udfff\\ud800"']),
)
json_text = st.recursive(
    json_scalar_text,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda xs: "[" + ",".join(xs) + "]"),
        st.lists(st.tuples(st.sampled_from(["type", "specversion", "schemaversion", "data", "subject", "id",
                                            "time", "source", "user_id", "content", "tool", "key"])
                           | st.text(max_size=8), inner), max_size=5)
        .map(lambda kvs: "{" + ",".join(f"{_json_string(k)}:{v}" for k, v in kvs) + "}"),
    ),
    max_leaves=25,
)


def only_schema_errors(raw: bytes | str) -> list[Any]:
    """Run every parser on ``raw``; anything but an event or a ``SchemaError`` fails the test."""
    parsed = []
    for parse in PARSERS:
        with contextlib.suppress(SchemaError):
            parsed.append(parse(raw))
    return parsed


@hsettings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(json_text)
def test_any_json_text_only_raises_schema_errors(text: str) -> None:
    only_schema_errors(text)
    only_schema_errors(text.encode("utf-8"))


@hsettings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(depth=st.integers(900, 60000), opener=st.sampled_from(["[", '{"a":', '{"data":[']))
def test_deep_nesting_only_raises_schema_errors(depth: int, opener: str) -> None:
    only_schema_errors(opener * depth)


def valid_event_dicts() -> list[dict[str, Any]]:
    from core.types import MessageRole
    from schemas import ChatMessageData

    payloads: list[Any] = [
        ChatMessageData(message_id="m-1", user_id="u-1", conversation_id="c-1", role=MessageRole.USER,
                        content="我喜欢乌龙茶", created_at=T0, conversation_summary="s"),
        MemorySaveData(command_id="c-1", user_id="u-1", key="drink", content="乌龙茶", importance=4,
                       confidence=0.9, ttl_days=30),
        MemoryAppendData(command_id="c-2", user_id="u-1", key="drink", content="jasmine"),
        MemoryDeleteData(command_id="c-3", user_id="u-1", key="drink", reason="asked"),
        MemoryDirtyData(memory_id=7, user_id="u-1", user_pk=3, memory_key="drink",
                        operation=MemoryOperation.OVERWRITE, outbox_id=11, changed_at=T0),
    ]
    return [to_dict(make_event(p, source="props", time=T0)) for p in payloads]


VALID_EVENTS = valid_event_dicts()
python_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**80), 2**80) | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)


def _paths(obj: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield (*prefix, key)
            yield from _paths(value, (*prefix, key))


@hsettings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(index=st.integers(0, len(VALID_EVENTS) - 1), data=st.data(), value=python_json,
       drop=st.booleans())
def test_grafted_garbage_parses_or_raises_schema_error_and_parsed_events_round_trip(
        index: int, data: st.DataObject, value: Any, drop: bool) -> None:
    event = json.loads(json.dumps(VALID_EVENTS[index]))
    path = data.draw(st.sampled_from(list(_paths(event))))
    parent = event
    for part in path[:-1]:
        parent = parent[part]
    if drop:
        parent.pop(path[-1])
    else:
        parent[path[-1]] = value
    raw = json.dumps(event, ensure_ascii=True, allow_nan=True)
    for parsed in only_schema_errors(raw):
        again = to_bytes(parsed)
        assert parse_event(again) == parsed  # whatever is accepted is a canonical, valid event


ids = st.from_regex(ID_PATTERN, fullmatch=True)
keys = st.from_regex(r"^[^\x00-\x20\x7f](?:[^\x00-\x1f\x7f]{0,60}[^\x00-\x20\x7f])?$", fullmatch=True).filter(
    lambda k: all(not 0xD800 <= ord(c) <= 0xDFFF for c in k))
memory_texts = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"),
                       min_size=1, max_size=300)
optional_importance = st.none() | st.integers(1, 5)
optional_confidence = st.none() | st.floats(0.0, 1.0)
optional_ttl = st.none() | st.integers(1, 36500)


@hsettings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["save", "append", "delete"]), command_id=ids, user_id=ids, key=keys,
       content=memory_texts, memory_type=st.sampled_from(MemoryType), importance=optional_importance,
       confidence=optional_confidence, ttl=optional_ttl, conversation=st.none() | ids)
def test_every_valid_command_round_trips(kind: str, command_id: str, user_id: str, key: str, content: str,
                                         memory_type: MemoryType, importance: int | None,
                                         confidence: float | None, ttl: int | None,
                                         conversation: str | None) -> None:
    common: dict[str, Any] = {"command_id": command_id, "user_id": user_id, "key": key,
                              "conversation_id": conversation}
    if kind == "save":
        data: Any = MemorySaveData(**common, memory_type=memory_type, content=content, importance=importance,
                                   confidence=confidence, ttl_days=ttl)
    elif kind == "append":
        data = MemoryAppendData(**common, memory_type=memory_type, content=content, importance=importance,
                                confidence=confidence, ttl_days=ttl)
    else:
        data = MemoryDeleteData(**common, reason=content[:500])
    event = make_event(data, source="agent")
    raw = to_bytes(event)
    back = parse_memory_command(raw)
    assert back == event and back.data == data and to_bytes(back) == raw
    assert parse_event(raw.decode("utf-8")) == event


@hsettings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memory_id=st.integers(1, 2**63 - 1), user_pk=st.integers(1, 2**63 - 1),
       outbox_id=st.integers(1, 2**63 - 1), user_id=ids, key=memory_texts.filter(lambda t: len(t) <= 160),
       op=st.sampled_from(MemoryOperation), reason=memory_texts, value=st.none() | st.binary(max_size=300),
       key_bytes=st.none() | st.binary(max_size=40), offset=st.integers(0, 2**62))
def test_dirty_events_and_dead_letters_round_trip(memory_id: int, user_pk: int, outbox_id: int, user_id: str,
                                                  key: str, op: MemoryOperation, reason: str,
                                                  value: bytes | None, key_bytes: bytes | None,
                                                  offset: int) -> None:
    dirty = make_event(MemoryDirtyData(memory_id=memory_id, user_id=user_id, user_pk=user_pk, memory_key=key,
                                       operation=op, outbox_id=outbox_id, changed_at=T0), source="outbox")
    assert parse_memory_dirty(to_bytes(dirty)) == dirty
    letter = make_dead_letter(reason=reason, error_type="InvalidEvent", topic="t.in", partition=0,
                              offset=offset, key=key_bytes, value=value, consumer_group="g")
    back = parse_event(to_bytes(letter))
    assert back == letter
    assert letter.data.original_value() == value and letter.data.original_key() == key_bytes


# --- filters ----------------------------------------------------------------------------------
NOISE_PREFIXES = ["weather-date_", "tool-", "tools_", "system-", "reminder-last_", "finance-monthly_",
                  "finance-weekly_", "finance-daily_"]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@st.composite
def disguised_noise_keys(draw: st.DrawFn) -> str:
    key = draw(st.sampled_from(NOISE_PREFIXES)) + draw(st.from_regex(r"^[a-z0-9_]{0,12}$", fullmatch=True))
    if draw(st.booleans()):
        key = key.upper()
    if draw(st.booleans()):
        key = _fullwidth(key)
    if draw(st.booleans()):  # an invisible character inside a word
        at = draw(st.integers(1, max(1, len(key) - 1)))
        key = key[:at] + draw(st.sampled_from(INVISIBLE)) + key[at:]
    return draw(st.sampled_from(["", "fact-", "Preference_", "goal."])) + key


@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(disguised_noise_keys())
def test_disguised_noise_keys_are_still_noise(key: str) -> None:
    assert is_noise_key(key), (key, normalise_key(key))
    assert is_noise_key(normalise_key(key))
    assert not passes_read_filters(key, "ordinary content")


@pytest.fixture
def tools(settings: Settings, clean_db: Engine) -> MemoryTools:
    writer = MemoryWriter(dirty_topic="memory.dirty", default_ttl_days=30)
    return MemoryTools(session_factory(clean_db), writer)


@pytest.mark.services
@hsettings(max_examples=15, deadline=None,
           suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(key=disguised_noise_keys(),  # PostgreSQL text cannot hold NUL, so neither can the planted row
       content=st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=40)
       .filter(str.strip),
       data=st.data())
def test_noise_keys_are_refused_at_write_and_excluded_at_read(
        tools: MemoryTools, settings: Settings, key: str, content: str, data: st.DataObject) -> None:
    user = f"noise-{time.monotonic_ns()}"  # examples share the database
    with pytest.raises(InvalidMemoryInput):
        tools.memory_save(ToolWrite(user, key, content))
    with pytest.raises(InvalidMemoryInput):
        tools.memory_append(ToolWrite(user, key, content))
    keep = tools.memory_save(ToolWrite(user, "favourite_tea", "Prefers oolong tea", "preference"))
    now = datetime.now(UTC)
    with transaction(tools.sessions) as session:  # an old dirty row written before the filter existed
        pk = get_or_create_user(session, user)
        session.execute(insert(LongTermMemory).values(
            user_id=pk, memory_key=key[:160], memory_type="fact", content=content, importance=5,
            confidence=1.0, is_active=True, expires_at=now + timedelta(days=30), created_at=now,
            updated_at=now))
    assert [m.id for m in tools.memory_list(user)] == [keep.memory_id]
    lexical_only = settings.model_copy(update={"MEMORY_MILVUS_ENABLED": False})
    retriever = Retriever(lexical_only, tools.sessions, None, None)
    try:
        question = data.draw(st.sampled_from([content, key, f"{key} {content}", "tea"]))
        for mode in RetrieveMode:
            got = [i.memory.id for i in retriever.retrieve(user, question, mode=mode, limit=50).items]
            assert got == [keep.memory_id], (mode, got)
    finally:
        retriever.close()


# --- rerank -------------------------------------------------------------------------------------
NOW = datetime(2026, 1, 1, tzinfo=UTC)
KEY_WORDS = ["tea", "coffee", "home", "city", "cat", "job", "goal", "project"]


@st.composite
def memory_views(draw: st.DrawFn, extreme: bool = False) -> MemoryView:
    if extreme:
        importance = draw(st.integers(-10**6, 10**6))
        confidence = draw(st.floats(allow_nan=True, allow_infinity=True))
        updated = NOW + timedelta(days=draw(st.floats(-700_000, 700_000)))
    else:
        importance = draw(st.integers(1, 5))
        confidence = draw(st.floats(0.0, 1.0))
        updated = NOW - timedelta(days=draw(st.floats(0, 3650)))
    words = draw(st.lists(st.sampled_from(KEY_WORDS), min_size=0, max_size=3))
    return MemoryView(id=draw(st.integers(1, 10**9)), key="-".join(words) or "note", memory_type="fact",
                      content="c", importance=importance, confidence=confidence, created_at=updated,
                      updated_at=updated, expires_at=None, last_accessed_at=None)


raw_scores = st.floats(-1.0, 1.0)
extreme_scores = st.floats(allow_nan=True, allow_infinity=True)
weights_strategy = st.builds(RerankWeights, retrieval=st.floats(0, 5), importance=st.floats(0, 5),
                             confidence=st.floats(0, 5), recency=st.floats(0, 5), exact_key=st.floats(0, 5),
                             retrieval_window=st.floats(0.01, 2), recency_half_life_days=st.floats(0.5, 5000))
normalisations = st.sampled_from(["window", "max", "none"])


def unique_ids(cands: list[Candidate]) -> list[Candidate]:
    return [replace(c, memory=replace(c.memory, id=i + 1)) for i, c in enumerate(cands)]


@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cands=st.lists(st.builds(Candidate, memory_views(extreme=True), extreme_scores), max_size=12),
       weights=weights_strategy, normalise=normalisations, limit=st.integers(-3, 20),
       terms=st.sets(st.sampled_from(KEY_WORDS)))
def test_rerank_is_bounded_and_total_on_extreme_inputs(cands: list[Candidate], weights: RerankWeights,
                                                       normalise: str, limit: int, terms: set[str]) -> None:
    cands = unique_ids(cands)
    out = rerank(cands, terms, weights, NOW, limit, normalise=normalise)
    assert len(out) == (min(limit, len(cands)) if limit >= 1 else 0)
    ceiling = (weights.retrieval + weights.importance + weights.confidence + weights.recency
               + weights.exact_key)
    for item in out:
        comps = item.components
        for value in (comps.retrieval, comps.importance, comps.confidence, comps.recency, comps.exact_key):
            assert 0.0 <= value <= 1.0, comps
        assert math.isfinite(item.score) and 0.0 <= item.score <= ceiling + 1e-6, (item.score, ceiling)
    assert [i.score for i in out] == sorted((i.score for i in out), reverse=True)


@hsettings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cands=st.lists(st.builds(Candidate, memory_views(), raw_scores), min_size=1, max_size=10),
       normalise=normalisations, permutation=st.randoms(use_true_random=False),
       terms=st.sets(st.sampled_from(KEY_WORDS)))
def test_rerank_is_deterministic_and_order_independent(cands: list[Candidate], normalise: str,
                                                       permutation: Any, terms: set[str]) -> None:
    cands = unique_ids(cands)
    first = rerank(cands, terms, RerankWeights(), NOW, len(cands), normalise=normalise)
    shuffled = list(cands)
    permutation.shuffle(shuffled)
    again = rerank(shuffled, terms, RerankWeights(), NOW, len(cands), normalise=normalise)
    assert [(i.memory.id, i.score) for i in first] == [(i.memory.id, i.score) for i in again]
    assert first == rerank(cands, terms, RerankWeights(), NOW, len(cands), normalise=normalise)


def _score_of(target: Candidate, others: list[Candidate], terms: set[str], normalise: str) -> float:
    out = rerank([target, *others], terms, RerankWeights(), NOW, len(others) + 1, normalise=normalise)
    return next(i.score for i in out if i.memory.id == target.memory.id)


@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=memory_views(), others=st.lists(st.builds(Candidate, memory_views(), raw_scores), max_size=5),
       raw=raw_scores, bump=st.floats(0.0, 1.0), normalise=normalisations,
       component=st.sampled_from(["importance", "confidence", "recency", "retrieval", "exact_key"]),
       words=st.lists(st.sampled_from(KEY_WORDS), max_size=4))
def test_rerank_score_is_monotone_in_each_component(base: MemoryView, others: list[Candidate], raw: float,
                                                    bump: float, normalise: str, component: str,
                                                    words: list[str]) -> None:
    terms = set(tokenize(" ".join(words)))
    others = [replace(c, memory=replace(c.memory, id=100 + i)) for i, c in enumerate(others)]
    low = Candidate(replace(base, id=1), raw)
    if component == "importance":
        more = min(5, low.memory.importance + 1 + int(bump * 3))
        high = Candidate(replace(low.memory, importance=more), raw)
    elif component == "confidence":
        high = Candidate(replace(low.memory, confidence=min(1.0, low.memory.confidence + bump)), raw)
    elif component == "recency":
        newer = low.memory.updated_at + timedelta(days=bump * 100)
        high = Candidate(replace(low.memory, updated_at=min(newer, NOW)), raw)
    elif component == "retrieval":
        high = Candidate(low.memory, raw + bump * 0.5)
    else:  # a key made of the query's own words matches fully
        high = Candidate(replace(low.memory, key="-".join(sorted(words)) or "note"), raw)
        assume(key_terms(high.memory.key) and key_terms(high.memory.key) <= terms)
    assert _score_of(high, others, terms, normalise) >= _score_of(low, others, terms, normalise) - 1e-9


@hsettings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cands=st.lists(st.builds(Candidate, memory_views(), raw_scores), min_size=2, max_size=10),
       dominant=st.sampled_from(["importance", "confidence", "recency"]))
def test_rerank_order_follows_a_dominant_weight(cands: list[Candidate], dominant: str) -> None:
    cands = unique_ids(cands)
    weights = RerankWeights(**{name: (1.0 if name == dominant else 0.0)
                               for name in ("retrieval", "importance", "confidence", "recency", "exact_key")})
    out = rerank(cands, set(), weights, NOW, len(cands), normalise="max")
    values = [getattr(i.components, dominant) for i in out]
    assert all(a >= b - 1e-6 for a, b in itertools.pairwise(values)), values


@hsettings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cands=st.lists(st.builds(Candidate, memory_views(), raw_scores), min_size=2, max_size=10))
def test_rerank_best_match_gets_full_retrieval_component(cands: list[Candidate]) -> None:
    cands = unique_ids(cands)
    for normalise in ("window", "max"):
        out = rerank(cands, set(), RerankWeights(), NOW, len(cands), normalise=normalise)
        best = max(c.raw for c in cands)
        tops = [i for i in out if i.components.raw_retrieval == best]
        if normalise == "window" or best > 0:
            assert all(i.components.retrieval == 1.0 for i in tops)


