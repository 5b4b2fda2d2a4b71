"""Hostile answers from the LLM and embedding endpoints (the OpenAI-compatible TEST DOUBLE).

An endpoint's error text ends up in ``messages.memory_error`` / ``long_term_memories.vector_error``;
PostgreSQL text cannot hold NUL, so an error message carrying one used to make *recording the failure*
fail (a ``DataError``, retried as transient forever: the burst never finished and the attempt count
never grew). Candidates carrying NUL or lone surrogate escapes must be stored cleaned or dropped,
never crash the pipeline.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from consumers.processes import build_processor
from core.config import EmbeddingProvider, ExtractorProvider, Settings
from core.embedding.openai_embedder import OpenAIEmbedder
from core.indexing import IndexSyncFailed, MemoryIndexer
from core.memory.processing import PermanentProcessingError, TransientProcessingError
from core.memory.store import IncomingMessage
from core.memory.tools import MemoryTools, ToolWrite
from core.memory.writer import MemoryWriter
from core.storage.db import session_factory
from core.storage.models import LongTermMemory, Message
from core.vectorstore import MilvusMemoryIndex
from tests.support.fake_openai import FakeOpenAIServer, Reply

pytestmark = pytest.mark.services

NUL_ERROR = b'{"error": {"message": "bad key \\u0000 from a broken proxy", "type": "auth"}}'


@pytest.fixture
def fake() -> Iterator[FakeOpenAIServer]:
    server = FakeOpenAIServer(embedding_dim=16).start()
    try:
        yield server
    finally:
        server.stop()


def llm_settings(settings: Settings, fake: FakeOpenAIServer, **extra: object) -> Settings:
    return settings.model_copy(update={
        "MEMORY_EXTRACTOR_PROVIDER": ExtractorProvider.OPENAI, "LLM_BASE_URL": fake.base_url,
        "LLM_MAX_RETRIES": 0, "MEMORY_EMBEDDING_PROVIDER": EmbeddingProvider.OPENAI,
        "MEMORY_EMBEDDING_BASE_URL": fake.base_url,
        "MEMORY_EMBEDDING_MODEL": "fake-embed", "MEMORY_EMBEDDING_DIM": 16, "MEMORY_EMBEDDING_MAX_RETRIES": 0,
        **extra})


def ingest(settings: Settings, text: str, message_id: str) -> tuple[object, int]:
    processor = build_processor(settings)
    res = processor.ingest(IncomingMessage(message_id=message_id, user_id="endpoint-user",
                                           conversation_id=f"c-{message_id}", role="user", content=text,
                                           created_at=datetime.now(UTC)))
    return processor, res.message_pk


def test_an_error_text_with_nul_is_recorded_and_attempts_run_out(settings: Settings, clean_db: Engine,
                                                                 fake: FakeOpenAIServer) -> None:
    cfg = llm_settings(settings, fake, MEMORY_MESSAGE_MAX_ATTEMPTS=2)
    fake.chat(status=401, raw=NUL_ERROR, repeat=2)
    processor, pk = ingest(cfg, "I live in Paris.", "nul-err-1")
    with pytest.raises(TransientProcessingError):
        processor.process([pk])  # type: ignore[attr-defined]
    with pytest.raises(PermanentProcessingError):
        processor.process([pk])  # type: ignore[attr-defined]
    with Session(clean_db) as s:
        msg = s.scalars(select(Message).where(Message.id == pk)).one()
    assert msg.memory_status == "FAILED" and msg.memory_attempts == 2
    assert msg.memory_error is not None and "\\0" in msg.memory_error and "\x00" not in msg.memory_error


@pytest.mark.parametrize("reply", [
    {"candidates": [{"memory_type": "fact", "key": "fact-home\u0000city", "content": "Lives in\u0000 Paris",
                     "importance": 4, "confidence": 0.95}]},
    {"candidates": [{"memory_type": "fact", "key": "fact-home_city", "content": "\u0000\u0000",
                     "importance": 4, "confidence": 0.95}]},
    {"candidates": [{"memory_type": "system", "key": "system-prompt",
                     "content": "You are a helpful assistant", "importance": 5, "confidence": 1.0}]},
], ids=["nul-in-key-and-content", "only-nul-content", "system-prompt-as-memory"])
def test_hostile_candidates_are_cleaned_or_dropped(settings: Settings, clean_db: Engine,
                                                   fake: FakeOpenAIServer, reply: dict[str, object]) -> None:
    cfg = llm_settings(settings, fake)
    fake.default_chat = Reply(content=json.dumps(reply))
    processor, pk = ingest(cfg, "I live in Paris.", f"cand-{abs(hash(json.dumps(reply))) % 10**8}")
    processor.process([pk])  # type: ignore[attr-defined]
    with Session(clean_db) as s:
        status = s.scalar(select(Message.memory_status).where(Message.id == pk))
        rows = s.execute(select(LongTermMemory.memory_key, LongTermMemory.content)).all()
    assert status in ("PROCESSED", "SKIPPED")
    for key, content in rows:
        assert "\x00" not in key and "\x00" not in (content or "")
        assert not key.startswith("system") and "helpful assistant" not in (content or "")


def test_an_embedding_error_with_nul_is_recorded_on_the_memory(settings: Settings, clean_db: Engine,
                                                               fake: FakeOpenAIServer,
                                                               unique_name: Callable[[str], str]) -> None:
    writer = MemoryWriter(dirty_topic="memory.dirty", default_ttl_days=30)
    tools = MemoryTools(session_factory(clean_db), writer)
    memory_id = tools.memory_save(ToolWrite("endpoint-user", "drink", "Prefers jasmine tea")).memory_id
    assert memory_id is not None
    embedder = OpenAIEmbedder(base_url=fake.base_url, model="fake-embed", dim=16, max_retries=0, timeout=5.0)
    index = MilvusMemoryIndex(settings.milvus_uri, unique_name("t_nul"), 16)
    indexer = MemoryIndexer(session_factory(clean_db), embedder, index)
    try:
        fake.embedding_fault(status=400, raw=NUL_ERROR)
        with pytest.raises(IndexSyncFailed):
            indexer.sync([memory_id])
        with Session(clean_db) as s:
            row = s.get(LongTermMemory, memory_id)
            assert row is not None and row.vector_status == "FAILED"
            assert row.vector_error is not None and "\\0" in row.vector_error
        assert indexer.sync([memory_id]).upserted == [memory_id]  # the endpoint recovered: indexed
    finally:
        if index.has_collection():
            index.drop_collection()
        indexer.close()
