"""Tenant isolation: no path returns or touches another user's memory; Milvus is always user-scoped.

Extends ``tests/core/retrieval/test_retriever.py`` (which has the random-users property over full_inject,
dense and lexical retrieval and ``memory_list``, the scope of retrieval's vector searches, and
foreign ids injected by a broken index) with:

- the write tools: random sequences of ``memory_save``/``memory_append``/``memory_delete`` by random
  users over a shared key space never change another user's rows, and results only ever name the
  caller's memories; a command id already used by another user is refused instead of answering with
  that user's result;
- external ids that look like other users' internal ids (``"1"``, ``"2"``), and hostile strings as
  user ids, through every retrieval mode, the tools and the HTTP API;
- Milvus filter injection via user ids: ``user_scope_filter``/``validated_int64`` accept only plain
  INT64 ints, and every ``MilvusMemoryIndex`` method refuses anything else *before* any call
  reaches the Milvus client;
- every Milvus search/query the service makes (retrieval, the HTTP API, the indexer, erasure) is
  recorded at the ``pymilvus.MilvusClient`` class and carries ``user_id == <the served user>``;
  every entity the indexer writes carries its owner's id.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from pydantic import SecretStr
from pymilvus import MilvusClient
from sqlalchemy import Engine, select

from api.app import create_app
from core.config import RetrieveMode, Settings
from core.embedding.local import LocalE5Embedder
from core.erasure import UserEraser
from core.indexing import MemoryIndexer
from core.memory.errors import InvalidMemoryInput, MemoryNotFound
from core.memory.store import find_user
from core.memory.tools import MemoryTools, ToolWrite
from core.memory.writer import MemoryWriter
from core.retrieval import ServedBy, build_retriever
from core.storage.db import session_factory, transaction
from core.storage.models import LongTermMemory
from core.vectorstore import (
    INT64_MAX,
    INT64_MIN,
    IndexRow,
    MilvusMemoryIndex,
    ensure_active_collection,
    user_scope_filter,
    validated_int64,
)

pytestmark = pytest.mark.services

EMBEDDER = LocalE5Embedder()
HOSTILE_USER_IDS = ["0 or user_id > 0", "1) || (user_id != 0", "1 OR 1=1", "'; DROP TABLE users; --", "*",
                    "%", "_", "1", "2", "-1", "99999999999999999999", "user_id", "alice\u200b", "ALICE",
                    " alice", "alice ", "al\u0131ce"]
SCOPE_RE = re.compile(r"^user_id == (-?\d+)$")


def tools_for(engine: Engine) -> MemoryTools:
    return MemoryTools(session_factory(engine), MemoryWriter(dirty_topic="memory.dirty", default_ttl_days=30))


def rows_by_user(engine: Engine) -> dict[int, set[tuple[Any, ...]]]:
    with session_factory(engine)() as s:
        out: dict[int, set[tuple[Any, ...]]] = {}
        for r in s.scalars(select(LongTermMemory)):
            out.setdefault(r.user_id, set()).add(
                (r.id, r.memory_key, r.content, r.is_active, r.updated_at, r.importance, r.confidence))
        return out


# --- the write tools ------------------------------------------------------------------------------
USERS = ["iso-a", "iso-b", "iso-c"]
KEYS = ["tea", "home_city", "pet", "goal_run"]
CONTENTS = ["oolong", "Berlin", "a cat", "a marathon", "更多"]
operation = st.tuples(st.sampled_from(USERS), st.sampled_from(["save", "append", "delete"]),
                      st.sampled_from(KEYS), st.sampled_from(CONTENTS),
                      st.none() | st.sampled_from(["cmd-1", "cmd-2", "cmd-3"]))


@pytest.fixture
def iso_engine(settings: Settings, clean_db: Engine) -> Engine:
    return clean_db


@hsettings(max_examples=20, deadline=None,
           suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, min_size=1, max_size=12))
def test_write_tools_only_ever_touch_the_callers_memories(iso_engine: Engine,
                                                          ops: list[tuple[Any, ...]]) -> None:
    tools = tools_for(iso_engine)
    suffix = str(time.monotonic_ns())  # examples share the database: fresh users and command ids each
    pks: dict[str, int] = {}
    owners: dict[str, str] = {}  # command id -> first user that used it
    for user, op, key, content, command_id in ops:
        user = f"{user}-{suffix}"
        cid = f"{command_id}-{suffix}" if command_id else None
        before = rows_by_user(iso_engine)
        try:
            if op == "save":
                result = tools.memory_save(ToolWrite(user, key, content, command_id=cid))
            elif op == "append":
                result = tools.memory_append(ToolWrite(user, key, content, command_id=cid))
            else:
                result = tools.memory_delete(user, key, command_id=cid)
        except MemoryNotFound:
            result = None
        except InvalidMemoryInput as exc:
            # the only refusal here: a command id first used by another user
            assert cid is not None and owners.get(cid) not in (None, user), exc
            assert rows_by_user(iso_engine) == before
            continue
        if cid is not None and result is not None:  # a failed delete registers no command id
            owners.setdefault(cid, user)
        with session_factory(iso_engine)() as s:
            pks[user] = find_user(s, user) or -1
        after = rows_by_user(iso_engine)
        for pk in set(before) | set(after):
            if pk != pks[user]:
                assert before.get(pk, set()) == after.get(pk, set()), (user, op, key)  # nobody else touched
        if result is not None:
            assert result.user_id == user
            if result.memory_id is not None:
                assert result.memory_id in {r[0] for r in after.get(pks[user], set())}
        listed = tools.memory_list(user)
        assert {m.id for m in listed} <= {r[0] for r in after.get(pks[user], set())}


def test_a_command_id_of_another_user_is_refused_not_answered(iso_engine: Engine) -> None:
    tools = tools_for(iso_engine)
    first = tools.memory_save(ToolWrite("victim", "secret_plan", "the vault code is 4417",
                                        command_id="shared-cmd"))
    before = rows_by_user(iso_engine)
    for attempt in (lambda: tools.memory_save(ToolWrite("mallory", "x", "y", command_id="shared-cmd")),
                    lambda: tools.memory_append(ToolWrite("mallory", "x", "y", command_id="shared-cmd")),
                    lambda: tools.memory_delete("mallory", "secret_plan", command_id="shared-cmd")):
        with pytest.raises(InvalidMemoryInput, match="command_id") as info:
            attempt()
        assert "secret_plan" not in str(info.value) and "victim" not in str(info.value)
    assert rows_by_user(iso_engine) == before
    again = tools.memory_save(ToolWrite("victim", "secret_plan", "the vault code is 4417",
                                        command_id="shared-cmd"))
    assert again.duplicate_command and again.memory_id == first.memory_id  # the owner still gets it


# --- retrieval and the API with confusable and hostile user ids -----------------------------------
@dataclass
class MilvusSpy:
    """Records every call of the data-plane methods of ``pymilvus.MilvusClient`` (all instances)."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        for name in ("search", "query", "query_iterator", "get", "delete", "upsert", "insert"):
            original = getattr(MilvusClient, name)

            def spy(client: Any, *args: Any, _name: str = name, _orig: Any = original, **kwargs: Any) -> Any:
                self.calls.append((_name, {"args": args, **kwargs}))
                return _orig(client, *args, **kwargs)

            monkeypatch.setattr(MilvusClient, name, spy)

    def of(self, *names: str) -> list[dict[str, Any]]:
        return [kw for n, kw in self.calls if n in names]


@pytest.fixture
def milvus(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str],
           monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Settings, MilvusSpy]]:
    s = settings.model_copy(update={
        "MEMORY_MILVUS_ENABLED": True, "MEMORY_MILVUS_COLLECTION": unique_name("t_iso"),
        "LONG_TERM_MEMORY_RETRIEVE_MODE": RetrieveMode.DENSE, "RETRIEVAL_DENSE_TIMEOUT_SEC": 60.0,
        "RETRIEVAL_DENSE_COOLDOWN_SEC": 0.0, "API_TOKEN": SecretStr("iso-token")})
    index = MilvusMemoryIndex.from_settings(s, dim=EMBEDDER.dim)
    with transaction(session_factory(clean_db)) as session:
        ensure_active_collection(session, index, EMBEDDER.model, EMBEDDER.dim)
    spy = MilvusSpy()
    spy.install(monkeypatch)
    try:
        yield s, spy
    finally:
        monkeypatch.undo()
        index.drop_collection()
        index.close()


MEMS = [("tea", "Prefers oolong tea, never coffee", "preference"), ("home", "Lives in Lisbon", "fact"),
        ("pet", "Has a cat named Miso", "fact"), ("goal", "Wants to run a marathon", "goal")]


def seed_and_index(s: Settings, engine: Engine, users: list[str]) -> dict[str, set[int]]:
    """Save MEMS for each user, then index every memory with the real indexer."""
    tools = tools_for(engine)
    owned: dict[str, set[int]] = {}
    for user in users:
        for key, content, mtype in MEMS:
            res = tools.memory_save(ToolWrite(user, key, f"{content} ({user})", mtype))
            assert res.memory_id is not None
            owned.setdefault(user, set()).add(res.memory_id)
    index = MilvusMemoryIndex.from_settings(s, dim=EMBEDDER.dim)
    indexer = MemoryIndexer(session_factory(engine), EMBEDDER, index)
    try:
        with session_factory(engine)() as session:
            ids = sorted(session.scalars(select(LongTermMemory.id)))
        assert sorted(indexer.sync(ids).upserted) == ids
    finally:
        indexer.close()
    return owned


def test_every_milvus_call_is_scoped_to_the_served_user(milvus: tuple[Settings, MilvusSpy],
                                                        clean_db: Engine) -> None:
    s, spy = milvus
    tools_for(clean_db).memory_save(ToolWrite("alice", "seed", "first memory of alice"))
    tools_for(clean_db).memory_save(ToolWrite("bob", "seed", "first memory of bob"))
    with session_factory(clean_db)() as session:
        internal = [find_user(session, "alice"), find_user(session, "bob")]
    # two more users whose *external* ids are alice's and bob's *internal* ids
    confusable = [str(i) for i in internal]
    users = ["alice", "bob", *confusable]
    owned = seed_and_index(s, clean_db, users)
    with session_factory(clean_db)() as session:
        pk = {u: find_user(session, u) for u in users}
        owner_of = dict(session.execute(select(LongTermMemory.id, LongTermMemory.user_id)).all())
        for user in ("alice", "bob"):
            owned[user] |= set(session.scalars(select(LongTermMemory.id).where(
                LongTermMemory.user_id == pk[user], LongTermMemory.memory_key == "seed")))
    assert [pk["alice"], pk["bob"]] == [int(c) for c in confusable] and pk[confusable[0]] != pk["alice"]

    # the indexer wrote every entity with its owner's id
    written = [e for kw in spy.of("upsert") for e in (kw["args"][1] if len(kw["args"]) > 1 else kw["data"])]
    assert written and all(e["user_id"] == owner_of[e["id"]] for e in written)
    spy.calls.clear()

    retriever = build_retriever(s, session_factory(clean_db), EMBEDDER)
    try:
        served = []
        for user in [*users, *HOSTILE_USER_IDS]:
            for mode in RetrieveMode:
                result = retriever.retrieve(user, "Where do I live and what do I drink?", mode=mode, limit=10)
                got = {i.memory.id for i in result.items}
                assert got <= owned.get(user, set()), (user, mode, got)
                if user in owned and mode is RetrieveMode.DENSE:
                    assert result.served_by is ServedBy.DENSE, result.fallback_reason
                    assert got == owned[user]
                    served.append(pk[user])
        lexical = build_retriever(s.model_copy(update={"MEMORY_MILVUS_ENABLED": False}),
                                  session_factory(clean_db), EMBEDDER)
        try:
            for user in [*users, *HOSTILE_USER_IDS]:
                got = {i.memory.id for i in lexical.retrieve(user, "Lisbon tea cat", limit=10).items}
                assert got <= owned.get(user, set()), (user, got)
        finally:
            lexical.close()
    finally:
        retriever.close()
    searches = spy.of("search")
    # the memories' searches, one per dense retrieval; the episodes' collection (core.episodes) is searched
    # beside them, scoped to the same users
    memory_searches = [kw for kw in searches if kw["args"][0] != s.episode_collection]
    assert [kw["filter"] for kw in memory_searches] == [f"user_id == {p}" for p in served]
    assert {kw["filter"] for kw in searches if kw["args"][0] == s.episode_collection} <= {
        f"user_id == {p}" for p in served}
    assert not spy.of("query", "query_iterator", "get")  # retrieval never scans the index

    # the HTTP door: the same through the API, dense by default
    spy.calls.clear()
    with TestClient(create_app(s)) as client:
        auth = {"Authorization": "Bearer iso-token"}
        for user in users:
            body = client.post("/v1/retrieve", headers=auth,
                               json={"user_id": user, "question": "tea?"}).json()
            assert body["served_by"] == "dense"
            assert {i["memory"]["id"] for i in body["items"]} <= owned[user]
            listed = client.get("/v1/memories", params={"user_id": user}, headers=auth).json()
            assert {m["id"] for m in listed["memories"]} == owned[user]
    assert [kw["filter"] for kw in spy.of("search") if kw["args"][0] != s.episode_collection] == [
        f"user_id == {pk[u]}" for u in users]
    assert {kw["filter"] for kw in spy.of("search") if kw["args"][0] == s.episode_collection} <= {
        f"user_id == {pk[u]}" for u in users}

    # erasure of one user: every query it makes is scoped to that user, the others keep their entries
    spy.calls.clear()
    index = MilvusMemoryIndex.from_settings(s, dim=EMBEDDER.dim)
    try:
        victim = confusable[1]
        proof = UserEraser(session_factory(clean_db), index).erase(victim)
        assert proof.ok
        for kw in spy.of("query", "query_iterator"):
            assert kw["filter"] == f"user_id == {pk[victim]}", kw
        for kw in spy.of("delete"):
            assert set(kw["ids"]) <= owned[victim]
        for user in ("alice", "bob", confusable[0]):
            assert index.count(pk[user]) == len(owned[user])
        assert index.count(pk[victim]) == 0
    finally:
        index.close()
    every_filter = [kw.get("filter") for kw in spy.of("search", "query", "query_iterator")]
    assert all(f and SCOPE_RE.match(f) for f in every_filter), every_filter


# --- Milvus filter injection via user ids ----------------------------------------------------------
class EvilInt(int):
    """An int whose text form is a filter expression."""

    def __str__(self) -> str:
        return "0 or user_id > 0"

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return "0 or user_id > 0"


HOSTILE_SCOPES: list[Any] = ["0 or user_id > 0", "1) || (user_id != 0", "1", b"1", 1.0, float("nan"), True,
                             None, [1], {"user_id": 1}, INT64_MAX + 1, INT64_MIN - 1, 2**200, EvilInt(5),
                             np.float64(3.0), np.uint64(2**64 - 1), np.bool_(True)]


@hsettings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(INT64_MIN, INT64_MAX))
def test_scope_filter_is_exactly_one_int(user_id: int) -> None:
    text = user_scope_filter(user_id)
    match = SCOPE_RE.match(text)
    assert match and int(match.group(1)) == user_id
    assert user_scope_filter(np.int64(user_id)) == text  # type: ignore[arg-type]


@hsettings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(), st.floats(), st.booleans(), st.none(), st.binary(),
                 st.integers().filter(lambda i: not INT64_MIN <= i <= INT64_MAX),
                 st.lists(st.integers(), max_size=2)))
def test_anything_but_an_int64_is_refused(value: Any) -> None:
    with pytest.raises(ValueError):
        user_scope_filter(value)
    with pytest.raises(ValueError):
        validated_int64(value)


@pytest.mark.parametrize("value", HOSTILE_SCOPES, ids=repr)
def test_hostile_user_ids_never_reach_milvus(value: Any, settings: Settings, monkeypatch: pytest.MonkeyPatch,
                                             unique_name: Callable[[str], str]) -> None:
    spy = MilvusSpy()
    spy.install(monkeypatch)
    index = MilvusMemoryIndex(settings.milvus_uri, unique_name("t_never"), 8)
    attempts: list[Callable[[], Any]] = [
        lambda: index.search(value, np.ones(8, dtype=np.float32), 5),
        lambda: index.get_user_ids([value]),
        lambda: index.delete([value]),
        lambda: index.upsert([IndexRow(1, value, "fact", np.ones(8, dtype=np.float32))]),
    ]
    if value is not None:  # None means "every user" for these two admin reads (verify, erasure proof)
        attempts += [lambda: index.count(value), lambda: index.list_ids(value)]
    try:
        for attempt in attempts:
            with pytest.raises(ValueError):
                attempt()
    finally:
        index.close()
    assert spy.calls == []  # refused before anything was sent
