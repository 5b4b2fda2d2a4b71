"""Embed once: the vector the extractor computed for a memory's embedded text (its content) travels with the
row (``write_vector*``) and the indexer uses it instead of calling the model again, only when model,
dimension and text match; the memory classifier's vector of a candidate is the one dedup and the write
use (one model call per kept candidate from message to index). Real PostgreSQL and Milvus (Lite), the
real local model."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from consumers.processes import build_tools
from core import metrics
from core.config import Settings
from core.embedding.base import Embedder, Vectors
from core.embedding.cache import PassageVectorCache
from core.embedding.instrumented import InstrumentedEmbedder
from core.embedding.local import LocalE5Embedder
from core.extraction.candidates import CandidateOp, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor
from core.indexing import MemoryIndexer
from core.memory.dedup import SemanticDeduper
from core.memory.processing import MessageProcessor
from core.memory.store import IncomingMessage, get_or_create_user, lock_user
from core.memory.text import embedding_text, text_hash
from core.memory.tools import ToolWrite
from core.memory.upsert import apply_candidates
from core.memory.writer import MemoryWrite, MemoryWriter, WriteContext
from core.storage.db import session_factory, transaction
from core.storage.models import LongTermMemory
from core.types import MemoryType, WriteSource
from tests.support.indexing import running_indexer

pytestmark = pytest.mark.services

_LOCAL = LocalE5Embedder()


@dataclass
class Counting:
    """The real local embedder, counting the texts it is asked for; ``model`` may be renamed."""

    inner: Embedder = field(default_factory=lambda: _LOCAL)
    texts: list[str] = field(default_factory=list)
    model: str = _LOCAL.model
    dim: int = _LOCAL.dim

    def embed_passages(self, texts: list[str]) -> Vectors:
        self.texts.extend(texts)
        return self.inner.embed_passages(texts)

    def embed_queries(self, texts: list[str]) -> Vectors:
        return self.inner.embed_queries(texts)


@dataclass
class Env:
    settings: Settings
    engine: Engine
    index_embedder: Counting
    indexer: MemoryIndexer

    def row(self, memory_id: int) -> LongTermMemory:
        with Session(self.engine) as s:
            row = s.get(LongTermMemory, memory_id)
            assert row is not None
            return row

    def writer(self, vectors: SemanticDeduper | None) -> MemoryWriter:
        return MemoryWriter.from_settings(self.settings, vectors=vectors)

    def save(self, writer: MemoryWriter, user: str, key: str, content: str) -> int:
        with transaction(session_factory(self.engine)) as s:
            pk = get_or_create_user(s, user)
            lock_user(s, pk)
            ctx = WriteContext(pk, WriteSource.TOOL)
            res = writer.save(s, ctx, MemoryWrite(key, MemoryType.FACT, content))
        assert res.memory_id is not None
        return res.memory_id


@pytest.fixture
def env(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Env]:
    embedder = Counting()
    with running_indexer(settings, clean_db, unique_name("t_once"), embedder) as (cfg, indexer):
        yield Env(cfg, clean_db, embedder, indexer)


def test_the_indexer_reuses_the_write_side_vector(env: Env) -> None:
    deduper = SemanticDeduper(Counting(), 0.82, 0.9, cache=PassageVectorCache())
    mid = env.save(env.writer(deduper), "once-a", "fact-city", "lives in Wuhan near the river")
    text = embedding_text("fact", "fact-city", "lives in Wuhan near the river")
    row = env.row(mid)
    assert row.write_vector_hash == text_hash(text) and row.write_vector_model == _LOCAL.model
    assert row.write_vector is not None and len(row.write_vector) == 4 * _LOCAL.dim

    report = env.indexer.sync([mid])

    assert report.upserted == [mid] and report.reused_vectors == 1 and report.embedded_texts == 0
    assert report.embed_calls == 0 and env.index_embedder.texts == []
    row = env.row(mid)
    assert row.vector_status == "SYNCED" and row.vector_text_hash == text_hash(text)
    assert row.write_vector is None and row.write_vector_hash is None  # cleared once used
    assert env.indexer.target is not None
    hits = env.indexer.target.view.search(row.user_id, _LOCAL.embed_passages([text])[0], 5)
    assert hits[0][0] == mid and hits[0][1] == pytest.approx(1.0, abs=1e-3)


def test_another_model_or_dimension_is_embedded_again(env: Env) -> None:
    other = SemanticDeduper(Counting(model="another-model"), 0.82, 0.9, cache=PassageVectorCache())
    a = env.save(env.writer(other), "once-m", "fact-pet", "has a cat named Mochi")

    @dataclass
    class Short(Counting):
        def embed_passages(self, texts: list[str]) -> Vectors:
            return super().embed_passages(texts)[:, :8].copy()

    short = SemanticDeduper(Short(), 0.82, 0.9, cache=PassageVectorCache())
    b = env.save(env.writer(short), "once-m", "fact-car", "drives a red bicycle")
    assert len(env.row(b).write_vector or b"") == 4 * 8

    report = env.indexer.sync([a, b])

    assert sorted(report.upserted) == sorted([a, b]) and report.reused_vectors == 0
    assert sorted(env.index_embedder.texts) == sorted([
        embedding_text("fact", "fact-pet", "has a cat named Mochi"),
        embedding_text("fact", "fact-car", "drives a red bicycle")])


def test_a_write_without_a_vector_clears_the_stale_one(env: Env) -> None:
    deduper = SemanticDeduper(Counting(), 0.82, 0.9, cache=PassageVectorCache())
    mid = env.save(env.writer(deduper), "once-s", "fact-job", "works as a backend engineer")
    build_tools(env.settings, dedup=False).memory_save(  # a tool write that carries no vector
        ToolWrite("once-s", "fact-job", "teaches at a primary school", "fact"))
    row = env.row(mid)
    assert row.write_vector is None and row.write_vector_hash is None and row.write_vector_model is None

    report = env.indexer.sync([mid])

    assert report.reused_vectors == 0
    assert env.index_embedder.texts == [embedding_text("fact", "fact-job", "teaches at a primary school")]


def test_reuse_off_stores_no_vector(env: Env) -> None:
    cfg = env.settings.model_copy(update={"MEMORY_INDEX_REUSE_WRITE_VECTORS": False})
    deduper = SemanticDeduper(Counting(), 0.82, 0.9, cache=PassageVectorCache())
    writer = MemoryWriter.from_settings(cfg, vectors=deduper)
    assert writer.vectors is None
    mid = env.save(writer, "once-o", "fact-town", "grew up in Yichang")
    assert env.row(mid).write_vector is None
    assert env.indexer.sync([mid]).reused_vectors == 0 and len(env.index_embedder.texts) == 1


def test_extraction_writes_cost_one_embedding_per_stored_text(env: Env) -> None:
    """Through the upsert stage with semantic dedup: every stored text is embedded once in total,
    across the write side and the indexer (before: twice, once on each side)."""
    dedup_embedder = Counting()
    deduper = SemanticDeduper(InstrumentedEmbedder(dedup_embedder, "local", "dedup"), 0.82, 0.9,
                              cache=PassageVectorCache())
    writer = env.writer(deduper)
    cands = [
        MemoryCandidate(op=CandidateOp.UPSERT, key="fact-city", memory_type=MemoryType.FACT,
                        content="lives in Chengdu", importance=3, confidence=0.9),
        MemoryCandidate(op=CandidateOp.UPSERT, key="preference-drink", memory_type=MemoryType.PREFERENCE,
                        content="prefers green tea to coffee", importance=3, confidence=0.9),
        MemoryCandidate(op=CandidateOp.UPSERT, key="goal-exam", memory_type=MemoryType.GOAL,
                        content="wants to pass the JLPT N1 exam", importance=3, confidence=0.9),
    ]
    before = metrics.EMBEDDED_TEXTS_BY_CALLER.labels("dedup")._value.get()
    with transaction(session_factory(env.engine)) as s:
        pk = get_or_create_user(s, "once-x")
        lock_user(s, pk)
        results = apply_candidates(s, writer, deduper, WriteContext(pk, WriteSource.EXTRACTOR), cands)
    ids = [r.memory_id for r in results if r.changed and r.memory_id is not None]
    assert [r.operation.value for r in results if r.operation] == ["create"] * 3 and len(set(ids)) == 3

    report = env.indexer.sync(ids)

    stored = [embedding_text(c.memory_type.value, c.key, c.content) for c in cands]
    assert sorted(report.upserted) == sorted(ids) and report.reused_vectors == 3
    assert env.index_embedder.texts == []
    assert sorted(dedup_embedder.texts) == sorted(stored)  # each stored text once, nothing else
    assert metrics.EMBEDDED_TEXTS_BY_CALLER.labels("dedup")._value.get() - before == 3


# --- from chat message to index: the classifier's vector is the one dedup, the write and the index use
@dataclass
class ChatPath:
    """The in-process message path (ingest, extract, dedup, write) with counting embedders; the process
    pipeline of the service is ``harness.pipeline.Pipeline``."""

    processor: MessageProcessor
    classifier_embedder: Counting
    dedup_embedder: Counting


@pytest.fixture
def pipeline(env: Env) -> ChatPath:
    cache = PassageVectorCache()  # this test's own: texts embedded by other tests must not hide calls
    classifier_embedder, dedup_embedder = Counting(), Counting()
    extractor = RulesExtractor(MemoryClassifier(classifier_embedder, cache=cache))
    deduper = SemanticDeduper(dedup_embedder, *env.settings.dedup_thresholds, cache=cache)
    return ChatPath(MessageProcessor(env.settings, session_factory(env.engine), extractor, deduper),
                    classifier_embedder, dedup_embedder)


def _chat(pipe: ChatPath, user: str, text: str) -> list[int]:
    msg = pipe.processor.ingest(IncomingMessage(f"{user}-m1", user, f"{user}-c1", "user", text,
                                                datetime.now(UTC) - timedelta(minutes=5)))
    outcome = pipe.processor.process([msg.message_pk])
    return [w.memory_id for w in outcome.writes if w.operation is not None and w.memory_id is not None]


def test_a_chat_message_costs_one_model_call_per_kept_candidate(env: Env, pipeline: ChatPath) -> None:
    ids = _chat(pipeline, "once-chat", "I live in Chengdu. I am allergic to peanuts. "
                                       "Remind me tomorrow at 8 to call the bank.")
    assert len(ids) >= 2
    with Session(env.engine) as s:
        stored = s.scalars(select(LongTermMemory.content).where(LongTermMemory.id.in_(ids))).all()

    report = env.indexer.sync(ids)

    assert sorted(report.upserted) == sorted(ids) and report.reused_vectors == len(ids)
    assert env.index_embedder.texts == []  # the indexer called no model
    assert pipeline.dedup_embedder.texts == []  # dedup read the classifier's vectors (new user)
    texts = pipeline.classifier_embedder.texts
    assert len(texts) == len(set(texts))  # each text reached the model once
    assert set(stored) <= set(texts)  # every stored memory's text is one the classifier embedded
    assert not any("remind" in t.lower() or "bank" in t.lower() for t in texts)  # hard-filtered: no call


def test_a_message_the_hard_filters_drop_costs_no_model_call(pipeline: ChatPath) -> None:
    ids = _chat(pipeline, "once-drop", "Remind me tomorrow at 8 to call the bank. What's the weather today?")
    assert ids == []
    assert pipeline.classifier_embedder.texts == [] and pipeline.dedup_embedder.texts == []
