"""Issue 26's audit families that are neither an HTTP request nor a Kafka record of the corpora.

- **noisy neighbour**: one user floods the dense read path with 4,000-character questions from
  several threads while another user asks; the other user is served ``dense`` every time (real
  embedder, real Milvus, real PostgreSQL). The time budget is generous here (budgets are tested in
  ``tests/core/retrieval/test_retriever.py``; figures in ``bench/bench_noisy_neighbour.py``).
- **MCP duplicates**: hostile raw tool-call lines (duplicate keys at every depth, forged refusal
  markers, oversized lines) through ``refuse_ambiguous_tool_calls`` and the tool server: each is
  refused with the REST error and nothing is written; none reads another user's memories.

The other families of the audit live in the corpora: message ids reused across users and with other
content (``corpus/events.jsonl``, category ``ids``/``isolation``), unknown query parameters, empty
slugs, the injection reason and bidi text (``corpus/http.jsonl``), bidi in the console
(``tests/api/test_console.py``), MCP over stdio and HTTP (``tests/api/test_mcp_server.py``).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from api.app import build_services
from api.mcp_server import MemoryToolServer, ToolCallError
from api.strict import REFUSED_ARGUMENTS, refuse_ambiguous_tool_calls
from core.config import RetrieveMode, Settings
from core.embedding.local import LocalE5Embedder
from core.memory.text import embedding_text
from core.memory.tools import ToolWrite
from core.retrieval import ServedBy, build_retriever
from core.storage.db import session_factory, transaction
from core.storage.models import LongTermMemory
from core.vectorstore import IndexRow, MilvusMemoryIndex, ensure_active_collection

pytestmark = pytest.mark.services

EMBEDDER = LocalE5Embedder()


# --- noisy neighbour ------------------------------------------------------------------------------
@pytest.fixture
def dense_env(settings: Settings, clean_db: Engine, unique_name: Callable[[str], str]) -> Iterator[Settings]:
    cfg = settings.model_copy(update={
        "MEMORY_MILVUS_ENABLED": True, "MEMORY_MILVUS_COLLECTION": unique_name("t_audit26"),
        "LONG_TERM_MEMORY_RETRIEVE_MODE": RetrieveMode.DENSE, "RETRIEVAL_DENSE_TIMEOUT_SEC": 120.0})
    index = MilvusMemoryIndex.from_settings(cfg)
    sessions = session_factory(clean_db)
    with transaction(sessions) as session:
        ensure_active_collection(session, index, EMBEDDER.model, EMBEDDER.dim)
    try:
        yield cfg
    finally:
        index.drop_collection()
        index.close()


def test_one_user_flooding_long_questions_leaves_the_others_dense(dense_env: Settings,
                                                                 clean_db: Engine) -> None:
    services = build_services(dense_env)  # the services the API runs on
    try:
        for user in ("flooder", "bystander"):
            for key, content in (("movies", "Loves romantic comedies"), ("city", "Lives in Hangzhou"),
                                 ("food", "Allergic to peanuts")):
                services.tools.memory_save(ToolWrite(user, key, content, "preference", 3, 0.9, None, None))
        sessions = session_factory(clean_db)
        with sessions() as s:
            rows = s.scalars(select(LongTermMemory)).all()
        index = MilvusMemoryIndex.from_settings(dense_env)
        vectors = EMBEDDER.embed_passages([embedding_text(r.memory_type, r.memory_key, r.content)
                                           for r in rows])
        index.upsert([IndexRow(r.id, r.user_id, r.memory_type or "fact", v)
                      for r, v in zip(rows, vectors, strict=True)])
        index.close()
    finally:
        services.close()

    retriever = build_retriever(dense_env, session_factory(clean_db), EMBEDDER)
    stop = threading.Event()
    flood: Counter[str] = Counter()

    def flooder(k: int) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            question = f"flood {k}-{n}: " + "tell me everything about my preferences please " * 90
            flood[retriever.retrieve("flooder", question[:4000]).served_by.value] += 1

    threads = [threading.Thread(target=flooder, args=(k,), daemon=True) for k in range(4)]
    for t in threads:
        t.start()
    try:
        served = [retriever.retrieve("bystander", f"Any film suggestions for tonight? ({i})")
                  for i in range(12)]
    finally:
        stop.set()
        for t in threads:
            t.join(120)
        retriever.close()
    assert [r.served_by for r in served] == [ServedBy.DENSE] * 12, [r.fallback_reason for r in served]
    assert all(r.items and r.items[0].memory.key == "movies" for r in served)
    assert sum(flood.values()) > 0  # the flood really ran (mostly lexical: one slot, then it waits)


# --- MCP duplicates -------------------------------------------------------------------------------
HOSTILE_LINES: list[tuple[str, str, str | None]] = [
    ('{"user_id":"mcp-victim","user_id":"mcp-mallory","key":"k","content":"c"}', "duplicate_json_key",
     "user_id"),
    ('{"user_id":"mcp-mallory","key":"k","key":"secret","content":"c"}', "duplicate_json_key", "key"),
    ('{"user_id":"mcp-mallory","key":"k","content":"c","importance":1,"importance":5}', "duplicate_json_key",
     "importance"),
    ('{"user_id":"mcp-mallory","key":"k","content":"c","ttl_days":{"a":1,"a":2}}', "duplicate_json_key", "a"),
    ('{"user_id":"mcp-mallory","key":"k","content":"' + "x" * 70_000 + '"}', "payload_too_large", None),
]


@pytest.fixture
def tool_server(settings: Settings, clean_db: Engine) -> Iterator[MemoryToolServer]:
    cfg = settings.model_copy(update={"MEMORY_MILVUS_ENABLED": False})
    services = build_services(cfg)
    try:
        yield MemoryToolServer(cfg, services)
    finally:
        services.close()


def _through_transport(server: MemoryToolServer, name: str, arguments_json: str) -> dict[str, Any]:
    line = ('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"' + name
            + '","arguments":' + arguments_json + "}}")
    seen = json.loads(refuse_ambiguous_tool_calls(line, server.settings.API_MAX_BODY_BYTES))
    return server.call(seen["params"]["name"], seen["params"]["arguments"])


@pytest.mark.parametrize(("arguments", "code", "field"), HOSTILE_LINES,
                         ids=[f"{c}-{f}" for _, c, f in HOSTILE_LINES])
def test_hostile_mcp_lines_are_refused_like_rest(tool_server: MemoryToolServer, clean_db: Engine,
                                                 arguments: str, code: str, field: str | None) -> None:
    tool_server.services.tools.memory_save(ToolWrite("mcp-victim", "diary", "private note", "fact", 3, 0.9,
                                                     None, None))
    for tool in ("memory_save", "memory_list", "memory_retrieve"):
        with pytest.raises(ToolCallError) as refused:
            _through_transport(tool_server, tool, arguments)
        assert (refused.value.code, refused.value.field) == (code, field), tool
    with clean_db.connect() as conn:
        assert conn.execute(select(func.count()).select_from(LongTermMemory)).scalar_one() == 1


def test_a_forged_refusal_marker_only_refuses(tool_server: MemoryToolServer, clean_db: Engine) -> None:
    """A client that sends the transport's marker itself gets an error and nothing else."""
    forged = {REFUSED_ARGUMENTS: {"code": "ok", "message": "x", "field": None}, "user_id": "mcp-mallory"}
    with pytest.raises(ToolCallError):
        tool_server.call("memory_list", forged)
    with clean_db.connect() as conn:
        assert conn.execute(select(func.count()).select_from(LongTermMemory)).scalar_one() == 0
