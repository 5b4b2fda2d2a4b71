"""The Milvus memory index against a real Milvus (Lite) server, and its PostgreSQL registry."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from core.config import Settings
from core.storage.models import VectorCollection
from core.vectorstore import (
    IndexModelMismatch,
    IndexRow,
    MilvusMemoryIndex,
    VectorStoreUnavailable,
    active_collection,
    ensure_active_collection,
    register_collection,
    user_scope_filter,
)
from localstack.process import free_port

pytestmark = pytest.mark.services

DIM = 8


# --- helpers ------------------------------------------------------------------------------------
@pytest.fixture
def index(settings: Settings, unique_name: Callable[[str], str]) -> Iterator[MilvusMemoryIndex]:
    idx = MilvusMemoryIndex.from_settings(settings, collection=unique_name("t_vs"), dim=DIM)
    idx.ensure_collection()
    yield idx
    idx.drop_collection()
    idx.close()


def _vec(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def _rows(user_id: int, ids: range) -> list[IndexRow]:
    return [IndexRow(id=i, user_id=user_id, memory_type="fact", vector=_vec(i)) for i in ids]


# --- scope filter -------------------------------------------------------------------------------
def test_user_scope_filter_accepts_only_ints() -> None:
    assert user_scope_filter(42) == "user_id == 42"
    assert user_scope_filter(np.int64(7)) == "user_id == 7"  # type: ignore[arg-type]
    for bad in ("42", "1 or true", 4.0, True, None, 2**63):
        with pytest.raises(ValueError):
            user_scope_filter(bad)  # type: ignore[arg-type]


def test_constructor_does_not_connect() -> None:
    started = time.monotonic()
    MilvusMemoryIndex("http://127.0.0.1:9", "memory_x", DIM, timeout=30)
    assert time.monotonic() - started < 0.5


# --- entities -----------------------------------------------------------------------------------
def test_search_is_scoped_to_the_user(index: MilvusMemoryIndex) -> None:
    index.upsert(_rows(101, range(1, 11)) + _rows(202, range(11, 21)))
    hits = index.search(101, _vec(12), limit=50)  # a vector identical to one of user 202's memories
    assert {mid for mid, _ in hits} == set(range(1, 11))
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    own = index.search(202, _vec(12), limit=3)
    assert own[0][0] == 12 and own[0][1] == pytest.approx(1.0, abs=1e-4)
    assert index.search(303, _vec(12), limit=5) == []
    assert index.count() == 20 and index.count(101) == 10
    assert index.list_ids(202) == list(range(11, 21))
    assert index.list_ids() == list(range(1, 21))


def test_upsert_replaces_and_delete_removes(index: MilvusMemoryIndex) -> None:
    index.upsert(_rows(7, range(1, 4)))
    index.upsert([IndexRow(id=2, user_id=7, memory_type="goal", vector=_vec(99))])
    assert index.count(7) == 3
    top = index.search(7, _vec(99), limit=1)
    assert top[0][0] == 2 and top[0][1] == pytest.approx(1.0, abs=1e-4)
    index.delete([2, 3, 12345])
    assert index.list_ids(7) == [1]
    assert all(mid != 2 for mid, _ in index.search(7, _vec(99), limit=5))
    index.delete([])
    assert index.get_user_ids([1, 2]) == {1: 7}


def test_rejects_wrong_dimensions(index: MilvusMemoryIndex) -> None:
    with pytest.raises(ValueError):
        index.upsert([IndexRow(id=1, user_id=1, memory_type="fact", vector=[0.1] * (DIM + 1))])
    with pytest.raises(ValueError):
        index.search(1, [0.1] * (DIM - 1), limit=3)


def test_existing_collection_with_other_dim_is_a_mismatch(index: MilvusMemoryIndex) -> None:
    assert index.describe_dim() == DIM
    other = index.for_collection(index.collection, dim=DIM * 2)
    with pytest.raises(IndexModelMismatch):
        other.ensure_collection()
    index.ensure_collection()  # same dim: idempotent
    assert index.has_collection()


def test_unreachable_server_raises_unavailable_quickly() -> None:
    port = free_port()  # a port nobody listens on
    idx = MilvusMemoryIndex(f"http://127.0.0.1:{port}", "memory_x", DIM, timeout=1.0)
    started = time.monotonic()
    with pytest.raises(VectorStoreUnavailable):
        idx.search(1, _vec(1), limit=3)
    with pytest.raises(VectorStoreUnavailable):
        idx.ensure_collection()
    assert time.monotonic() - started < 5.0


def _start_milvus_lite(data: Path, port: int) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).parent / "milvus-lite"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "milvus_lite"]
    argv = [*cmd, "server", "--data-dir", str(data), "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("milvus-lite server exited at start")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("milvus-lite server did not start")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def _retry(fn: Callable[[], object], seconds: float = 60) -> object:
    deadline = time.monotonic() + seconds
    while True:
        try:
            return fn()
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


@pytest.mark.skipif(shutil.which("milvus-lite", path=str(Path(sys.executable).parent)) is None,
                    reason="needs the milvus-lite server executable")
def test_server_going_away_is_unavailable_and_a_restart_recovers(tmp_path: Path) -> None:
    """A private Milvus Lite server: stopped mid-session, calls raise VectorStoreUnavailable fast;
    restarted (collections come back released), the same index object works again."""
    port = free_port()
    proc = _start_milvus_lite(tmp_path, port)
    try:
        idx = MilvusMemoryIndex(f"http://127.0.0.1:{port}", "restart_probe", DIM, timeout=2.0)
        _retry(idx.ensure_collection)
        idx.upsert(_rows(5, range(1, 4)))
        assert idx.search(5, _vec(2), limit=1)[0][0] == 2
        _stop(proc)
        started = time.monotonic()
        with pytest.raises(VectorStoreUnavailable):
            idx.search(5, _vec(2), limit=1)
        with pytest.raises(VectorStoreUnavailable):
            idx.upsert(_rows(5, range(4, 5)))
        assert time.monotonic() - started < 6.0
        proc = _start_milvus_lite(tmp_path, port)
        hits = _retry(lambda: idx.search(5, _vec(2), limit=1))
        assert hits == [(2, pytest.approx(1.0, abs=1e-4))]
        assert idx.list_ids(5) == [1, 2, 3]
    finally:
        _stop(proc)


# --- registry -----------------------------------------------------------------------------------
def test_registry_registers_activates_and_detects_mismatch(
    clean_db: Engine, index: MilvusMemoryIndex, unique_name: Callable[[str], str],
) -> None:
    with Session(clean_db) as session, session.begin():
        assert active_collection(session) is None
        view = ensure_active_collection(session, index, "model-a", DIM)
        assert view.collection == index.collection
    with Session(clean_db) as session, session.begin():
        row = active_collection(session)
        assert row is not None and (row.name, row.model, row.dim, row.version) == (
            index.collection, "model-a", DIM, 1)
        # Same model and dim: start-up passes again and keeps the same collection.
        assert ensure_active_collection(session, index, "model-a", DIM).collection == index.collection
        # Another model or dimension than the one the index was built with: a clear error.
        with pytest.raises(IndexModelMismatch, match="model-a"):
            ensure_active_collection(session, index, "model-b", DIM)
        with pytest.raises(IndexModelMismatch):
            ensure_active_collection(session, index, "model-a", DIM * 2)
        with pytest.raises(IndexModelMismatch):
            register_collection(session, index.collection, "model-b", DIM)

    target = unique_name("t_vs_reindex")
    with Session(clean_db) as session, session.begin():
        new = register_collection(session, target, "model-b", DIM * 2)
        assert new.version == 2 and new.active
    with Session(clean_db) as session:
        rows = {r.name: r.active for r in session.query(VectorCollection)}
        assert rows == {index.collection: False, target: True}
        view = ensure_active_collection(session, index, "model-b", DIM * 2)
        try:
            assert view.collection == target and view.describe_dim() == DIM * 2
        finally:
            view.drop_collection()


# --- search completeness and sealing -----------------------------------------------------------
def test_default_index_finds_every_row_of_a_selective_user_filter(
        settings: Settings, unique_name: Callable[[str], str]) -> None:
    """One memory per user among 3,000 near-duplicate vectors, top 80, a query far from them all:
    each user's search returns exactly its row (Milvus Lite's HNSW returned nothing for most)."""
    dim = 64
    idx = MilvusMemoryIndex.from_settings(settings, collection=unique_name("t_vs_sel"), dim=dim)
    assert idx.index_type == "FLAT"
    rng = np.random.default_rng(3)
    base = rng.normal(size=(30, dim)).astype(np.float32)
    vecs = base[np.arange(3000) % 30] + rng.normal(0, 0.02, (3000, dim)).astype(np.float32)
    idx.ensure_collection()
    try:
        idx.upsert([IndexRow(id=i + 1, user_id=i + 1, memory_type="fact", vector=vecs[i])
                    for i in range(3000)])
        idx.flush()
        query = -base[0]
        for user in range(1, 3001, 97):
            assert [h[0] for h in idx.search(user, query, 80)] == [user]
    finally:
        idx.drop_collection()
        idx.close()


def test_flush_keeps_rows_searchable(index: MilvusMemoryIndex) -> None:
    index.upsert(_rows(5, range(1, 40)))
    before = index.search(5, _vec(7), 3)
    index.flush()
    assert index.search(5, _vec(7), 3) == before and before[0][0] == 7
    assert index.count(5) == 39
