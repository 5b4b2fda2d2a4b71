"""Traces across Kafka: one message's trace through the extractor, the outbox relay and the indexer;
a tool write's through the command consumer (or the REST API, the MCP server) the same way.

The three consumer roles run in-process (the real consumer loops and relay, on the real Kafka,
PostgreSQL and Milvus), sharing one SDK tracer provider with the SDK's in-memory exporter; the
trace context crosses every hop the way it does between processes: Kafka headers, the outbox row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import anyio
import mcp_types
import pytest
from confluent_kafka import Producer
from fastapi.testclient import TestClient
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from api.app import create_app
from api.mcp_server import build_server
from consumers.processes import commands_loop, extractor_loop
from core import tracing
from core.config import Settings
from core.storage.models import LongTermMemory, Message, OutboxEvent
from localstack.process import wait_until
from producers.client import MemoryEventProducer
from producers.kafka_config import client_config
from producers.tracing import setup_tracing, shutdown_tracing
from schemas import MemorySaveData, make_event, parse_memory_dirty, to_bytes
from tests.support.ops import drop_collections, index_pipeline, relay_running, wait_settled
from tests.support.pipeline import conversation, group_caught_up, isolated_settings, read_topic, running

pytestmark = pytest.mark.services

FACT = "I'm allergic to peanuts, so please never suggest recipes with peanuts."


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    spans = InMemorySpanExporter()
    try:
        yield spans
    finally:
        shutdown_tracing()


def traced(settings: Settings, unique_name: Callable[[str], str], exporter: InMemorySpanExporter,
           *, on: bool = True, **extra: object) -> Settings:
    cfg = isolated_settings(settings, unique_name, OTEL_ENABLED=on, **extra)
    assert setup_tracing(cfg, "test", exporter=exporter) is on
    assert tracing.enabled() is on
    return cfg


def final_count(engine: Engine) -> int:
    with Session(engine) as s:
        return int(s.scalar(select(func.count()).select_from(Message)
                            .where(Message.memory_status.in_(("PROCESSED", "SKIPPED", "FAILED")))) or 0)


def by_name(spans: Sequence[ReadableSpan], name: str) -> list[ReadableSpan]:
    return [s for s in spans if s.name == name]


def parent_of(span: ReadableSpan, spans: list[ReadableSpan]) -> ReadableSpan:
    assert span.parent is not None, f"{span.name} has no parent"
    found = [s for s in spans if s.context is not None and s.context.span_id == span.parent.span_id]
    assert len(found) == 1, f"parent of {span.name} not among the exported spans"
    return found[0]


def test_one_message_trace_holds_every_stage_with_parent_links(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], exporter: InMemorySpanExporter
) -> None:
    cfg = traced(settings, unique_name, exporter, MEMORY_MILVUS_COLLECTION=unique_name("t_tr"),
                 MEMORY_INDEX_WORKER_ENABLED=True)
    chat, dirty = cfg.TOPIC_CHAT_MESSAGES, cfg.TOPIC_MEMORY_DIRTY
    try:
        with MemoryEventProducer(cfg) as producer:
            producer.publish_message(conversation("tr-one", "c-tr-one", [("user", FACT)])[0]).result(30)
        with running(extractor_loop(cfg)), index_pipeline(cfg):
            wait_until(lambda: final_count(clean_db) == 1, 90, what="the message final")
            wait_settled(clean_db)
            wait_until(lambda: bool(by_name(exporter.get_finished_spans(), "mark synced")), 30,
                       what="the indexer's spans")
        with Session(clean_db) as s:
            assert s.scalar(select(func.count()).select_from(LongTermMemory)
                            .where(LongTermMemory.vector_status == "SYNCED")), "nothing was indexed"
        # the outbox row carried the trace context; the relay moved it to headers, not into the value
        records = read_topic(cfg, dirty, 1)
        assert records
        headers = dict(records[0].headers() or [])
        assert "traceparent" in headers
        assert b"traceparent" not in records[0].value()
        parse_memory_dirty(records[0].value())  # still exactly the contract's event
        with Session(clean_db) as s:
            stored = s.scalars(select(OutboxEvent.payload)).first()
        assert stored is not None and "traceparent" in stored
    finally:
        drop_collections(cfg, clean_db)

    spans = list(exporter.get_finished_spans())
    publish = by_name(spans, f"{chat} publish")
    assert len(publish) == 1 and publish[0].kind is SpanKind.PRODUCER and publish[0].parent is None
    root = publish[0]
    assert root.context is not None
    trace_spans = [s for s in spans if s.context is not None and s.context.trace_id == root.context.trace_id]
    names = {s.name for s in trace_spans}
    for stage in (f"{chat} publish", f"{chat} process", "extract", "refine", "upsert",
                  f"{dirty} publish", f"{dirty} process", "embed", "milvus", "mark synced"):
        assert stage in names, f"stage {stage!r} missing from the trace: {sorted(names)}"

    burst = by_name(trace_spans, f"{chat} process")
    assert len(burst) == 1 and burst[0].kind is SpanKind.CONSUMER
    assert parent_of(burst[0], spans) is root
    assert [link.context.span_id for link in burst[0].links] == [root.context.span_id]
    for stage in ("extract", "refine", "upsert"):
        assert parent_of(by_name(trace_spans, stage)[0], spans) is burst[0]
    upsert = by_name(trace_spans, "upsert")[0]
    relays = by_name(trace_spans, f"{dirty} publish")
    assert relays and all(r.kind is SpanKind.PRODUCER and parent_of(r, spans) is upsert for r in relays)
    indexes = by_name(trace_spans, f"{dirty} process")
    assert indexes and all(i.kind is SpanKind.CONSUMER and parent_of(i, spans) in relays for i in indexes)
    for stage in ("embed", "milvus", "mark synced"):
        assert all(parent_of(s, spans) in indexes for s in by_name(trace_spans, stage))
    # every span of the pipeline belongs to this one trace
    assert len(trace_spans) == len(spans), sorted(s.name for s in spans if s not in trace_spans)


def test_a_burst_folding_several_messages_links_each_message(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], exporter: InMemorySpanExporter
) -> None:
    cfg = traced(settings, unique_name, exporter, LONG_TERM_MEMORY_DEBOUNCE_SEC=1.5)
    turns = [("user", "I live in Chengdu."), ("user", "My dog is called Lucky.")]
    with MemoryEventProducer(cfg) as producer:
        futures = [producer.publish_message(m) for m in conversation("tr-burst", "c-tr-burst", turns)]
        for f in futures:
            f.result(30)
    with running(extractor_loop(cfg)):
        wait_until(lambda: final_count(clean_db) == 2, 90, what="both messages final")
        wait_until(lambda: bool(by_name(exporter.get_finished_spans(), "upsert")), 30, what="the burst span")
    spans = list(exporter.get_finished_spans())
    publishes = by_name(spans, f"{cfg.TOPIC_CHAT_MESSAGES} publish")
    bursts = by_name(spans, f"{cfg.TOPIC_CHAT_MESSAGES} process")
    assert len(publishes) == 2 and len(bursts) == 1, "the two messages were not folded into one burst"
    burst = bursts[0]
    linked = {link.context.span_id for link in burst.links}
    assert linked == {p.context.span_id for p in publishes if p.context is not None}
    assert parent_of(burst, spans) in publishes
    assert burst.attributes is not None and burst.attributes["messaging.batch.message_count"] == 2


def test_tracing_off_emits_nothing_and_adds_no_headers(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], exporter: InMemorySpanExporter
) -> None:
    cfg = traced(settings, unique_name, exporter, on=False)
    with MemoryEventProducer(cfg) as producer:
        producer.publish_message(conversation("tr-off", "c-tr-off", [("user", FACT)])[0]).result(30)
    with running(extractor_loop(cfg)):
        wait_until(lambda: final_count(clean_db) == 1, 90, what="the message final")
    [chat_record] = read_topic(cfg, cfg.TOPIC_CHAT_MESSAGES, 1)
    assert [k for k, _ in chat_record.headers() or []] == ["content-type"]
    with Session(clean_db) as s:
        payloads = s.scalars(select(OutboxEvent.payload)).all()
    assert payloads, "the message wrote no memory"
    assert not any(k in p for p in payloads for k in tracing.TRACE_KEYS)
    assert exporter.get_finished_spans() == ()


@pytest.mark.parametrize("garbage", [
    b"garbage",
    b"\xff\xfe not ascii",
    b"00-00000000000000000000000000000000-0000000000000000-01",  # all-zero ids: invalid per W3C
    b"ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",  # version ff is forbidden
    b"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra",
    b"",
])
def test_a_bad_traceparent_header_starts_a_new_root_and_never_dead_letters(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], exporter: InMemorySpanExporter,
    garbage: bytes,
) -> None:
    cfg = traced(settings, unique_name, exporter, KAFKA_TOPIC_PARTITIONS=1)
    event = make_event(conversation("tr-bad", "c-tr-bad", [("user", FACT)])[0], source="test")
    raw = Producer(client_config(cfg))
    raw.produce(cfg.TOPIC_CHAT_MESSAGES, key=b"tr-bad", value=to_bytes(event),
                headers=[("traceparent", garbage), ("tracestate", b"\x00\xff=,,")])
    assert raw.flush(30) == 0
    loop = extractor_loop(cfg)
    with running(loop):
        wait_until(lambda: final_count(clean_db) == 1, 90, what="the message final")
        wait_until(lambda: bool(by_name(exporter.get_finished_spans(), "upsert")), 30, what="the burst span")
    assert loop.strategy.dead_lettered == 0  # type: ignore[attr-defined]
    with Session(clean_db) as s:
        assert s.scalars(select(Message.memory_status)).one() == "PROCESSED"
    [burst] = by_name(list(exporter.get_finished_spans()), f"{cfg.TOPIC_CHAT_MESSAGES} process")
    assert burst.parent is None and not burst.links


def test_a_publish_continues_the_callers_trace_in_the_record_headers(
    settings: Settings, unique_name: Callable[[str], str], exporter: InMemorySpanExporter
) -> None:
    cfg = traced(settings, unique_name, exporter)
    message = conversation("tr-pub", "c-tr-pub", [("user", FACT)])[0]
    with tracing.stage("chat request") as caller, MemoryEventProducer(cfg) as producer:
        producer.publish_message(message).result(30)
    [record] = read_topic(cfg, cfg.TOPIC_CHAT_MESSAGES, 1)
    [publish] = by_name(exporter.get_finished_spans(), f"{cfg.TOPIC_CHAT_MESSAGES} publish")
    assert publish.context is not None and publish.parent is not None
    assert publish.parent.span_id == caller.get_span_context().span_id
    assert publish.attributes is not None
    assert publish.attributes["messaging.destination.name"] == cfg.TOPIC_CHAT_MESSAGES
    headers = dict(record.headers() or [])
    version, trace_id, span_id, flags = headers["traceparent"].decode().split("-")
    assert (version, trace_id, span_id) == ("00", f"{publish.context.trace_id:032x}",
                                            f"{publish.context.span_id:016x}")
    assert int(flags, 16) & 1  # sampled


# --- tool writes: the command consumer, the REST API, the MCP server ----------------------------
def assert_write_continues(spans: list[ReadableSpan], parent: ReadableSpan, dirty: str) -> ReadableSpan:
    """``parent`` -> upsert -> relay publish (one per outbox row); the upsert span."""
    trace_spans = [s for s in spans if s.context is not None and parent.context is not None
                   and s.context.trace_id == parent.context.trace_id]
    [upsert] = by_name(trace_spans, "upsert")
    assert parent_of(upsert, spans) is parent
    relays = by_name(trace_spans, f"{dirty} publish")
    assert relays and all(r.kind is SpanKind.PRODUCER and parent_of(r, spans) is upsert for r in relays)
    return upsert


def test_a_tool_command_trace_runs_from_its_publish_to_mark_synced(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], exporter: InMemorySpanExporter
) -> None:
    cfg = traced(settings, unique_name, exporter, MEMORY_MILVUS_COLLECTION=unique_name("t_trc"),
                 MEMORY_INDEX_WORKER_ENABLED=True)
    commands, dirty = cfg.TOPIC_MEMORY_COMMANDS, cfg.TOPIC_MEMORY_DIRTY
    try:
        with MemoryEventProducer(cfg) as producer:
            producer.publish_command(MemorySaveData(command_id="trc-1", user_id="tr-cmd", key="diet",
                                                    content="Vegetarian: never suggest meat")).result(30)
        with running(commands_loop(cfg)), index_pipeline(cfg):
            wait_until(lambda: group_caught_up(cfg, cfg.GROUP_COMMANDS, commands), 60, what="the command")
            wait_settled(clean_db)
            wait_until(lambda: bool(by_name(exporter.get_finished_spans(), "mark synced")), 30,
                       what="the indexer's spans")
        with Session(clean_db) as s:
            [stored] = s.scalars(select(OutboxEvent.payload)).all()
        assert "traceparent" in stored  # the command's write carried its trace into the outbox row
    finally:
        drop_collections(cfg, clean_db)

    spans = list(exporter.get_finished_spans())
    [root] = by_name(spans, f"{commands} publish")
    assert root.kind is SpanKind.PRODUCER and root.parent is None and root.context is not None
    [process] = by_name(spans, f"{commands} process")
    assert process.kind is SpanKind.CONSUMER and parent_of(process, spans) is root
    assert [link.context.span_id for link in process.links] == [root.context.span_id]
    assert_write_continues(spans, process, dirty)
    [index] = by_name(spans, f"{dirty} process")
    assert index.kind is SpanKind.CONSUMER and parent_of(index, spans) in by_name(spans, f"{dirty} publish")
    for stage in ("embed", "milvus", "mark synced"):
        assert all(parent_of(s, spans) is index for s in by_name(spans, stage))
    assert root.context is not None
    assert all(s.context is not None and s.context.trace_id == root.context.trace_id for s in spans), \
        sorted(s.name for s in spans)


def test_a_batch_of_commands_continues_the_first_and_links_each_command(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], exporter: InMemorySpanExporter
) -> None:
    cfg = traced(settings, unique_name, exporter, KAFKA_TOPIC_PARTITIONS=1)
    with MemoryEventProducer(cfg) as producer:
        for i, key in enumerate(("city", "pet")):
            producer.publish_command(MemorySaveData(command_id=f"trb-{i}", user_id="tr-batch", key=key,
                                                    content=f"the user's {key} is stated"))
        producer.flush(30)
    loop = commands_loop(cfg)
    with running(loop), relay_running(cfg):
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_COMMANDS, cfg.TOPIC_MEMORY_COMMANDS), 60,
                   what="the commands")
        wait_until(lambda: len(by_name(exporter.get_finished_spans(), f"{cfg.TOPIC_MEMORY_DIRTY} publish"))
                   == 2, 30, what="the relay's spans")
    assert loop.strategy.batches == 1, "the two commands were not applied in one transaction"  # type: ignore[attr-defined]
    spans = list(exporter.get_finished_spans())
    publishes = by_name(spans, f"{cfg.TOPIC_MEMORY_COMMANDS} publish")
    [batch] = by_name(spans, f"{cfg.TOPIC_MEMORY_COMMANDS} process")
    assert len(publishes) == 2 and parent_of(batch, spans) in publishes
    assert {link.context.span_id for link in batch.links} == {p.context.span_id for p in publishes
                                                             if p.context is not None}
    assert batch.attributes is not None and batch.attributes["messaging.batch.message_count"] == 2
    assert_write_continues(spans, batch, cfg.TOPIC_MEMORY_DIRTY)


TRACE_ID, CALLER_SPAN = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"


def test_a_rest_save_continues_the_callers_traceparent(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], exporter: InMemorySpanExporter
) -> None:
    cfg = traced(settings, unique_name, exporter, MEMORY_MILVUS_ENABLED=False)
    body = {"user_id": "tr-rest", "key": "diet", "content": "Vegetarian: never suggest meat"}
    with TestClient(create_app(cfg)) as client, relay_running(cfg):
        response = client.post("/v1/memories/save", json=body,
                               headers={"traceparent": f"00-{TRACE_ID}-{CALLER_SPAN}-01"})
        assert response.status_code == 200, response.text
        assert client.post("/v1/memories/save", json={**body, "key": "city", "content": "Lives in Lyon"},
                           headers={"traceparent": "00-not-a-trace-01"}).status_code == 200
        wait_until(lambda: len(by_name(exporter.get_finished_spans(), f"{cfg.TOPIC_MEMORY_DIRTY} publish"))
                   == 2, 30, what="the relay's spans")
    spans = list(exporter.get_finished_spans())
    continued, fresh = by_name(spans, "POST /v1/memories/save")
    assert continued.kind is SpanKind.SERVER and continued.parent is not None
    assert continued.context is not None
    assert (f"{continued.parent.trace_id:032x}", f"{continued.parent.span_id:016x}") == (TRACE_ID,
                                                                                          CALLER_SPAN)
    assert f"{continued.context.trace_id:032x}" == TRACE_ID and continued.parent.is_remote
    assert continued.attributes is not None and continued.attributes["http.response.status_code"] == 200
    assert_write_continues(spans, continued, cfg.TOPIC_MEMORY_DIRTY)
    # a malformed traceparent starts a new root, and the request succeeds all the same
    assert fresh.parent is None and fresh.context is not None and f"{fresh.context.trace_id:032x}" != TRACE_ID
    assert_write_continues(spans, fresh, cfg.TOPIC_MEMORY_DIRTY)


def test_an_mcp_tool_call_continues_the_trace_in_its_meta(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], exporter: InMemorySpanExporter
) -> None:
    cfg = traced(settings, unique_name, exporter, MEMORY_MILVUS_ENABLED=False)
    tool_server = build_server(cfg)
    params = mcp_types.CallToolRequestParams.model_validate(
        {"name": "memory_save", "_meta": {"traceparent": f"00-{TRACE_ID}-{CALLER_SPAN}-01"},
         "arguments": {"user_id": "tr-mcp", "key": "diet", "content": "Vegetarian: never suggest meat"}})
    try:
        result = anyio.run(tool_server._call_tool, None, params)
    finally:
        tool_server.services.close()
    assert not result.is_error, result
    [call] = by_name(list(exporter.get_finished_spans()), "tools/call memory_save")
    assert call.kind is SpanKind.SERVER and call.parent is not None
    assert (f"{call.parent.trace_id:032x}", f"{call.parent.span_id:016x}") == (TRACE_ID, CALLER_SPAN)
    [upsert] = by_name(list(exporter.get_finished_spans()), "upsert")
    assert parent_of(upsert, list(exporter.get_finished_spans())) is call
    with Session(clean_db) as s:
        [stored] = s.scalars(select(OutboxEvent.payload)).all()
    assert stored["traceparent"].split("-")[1] == TRACE_ID


def test_tracing_off_a_tool_write_reads_no_trace_context_and_records_nothing(
    settings: Settings, clean_db: Engine, unique_name: Callable[[str], str], exporter: InMemorySpanExporter
) -> None:
    cfg = traced(settings, unique_name, exporter, on=False, MEMORY_MILVUS_ENABLED=False)
    with MemoryEventProducer(cfg) as producer:
        producer.publish_command(MemorySaveData(command_id="tro-1", user_id="tr-off", key="diet",
                                                content="Vegetarian: never suggest meat")).result(30)
    with running(commands_loop(cfg)):
        wait_until(lambda: group_caught_up(cfg, cfg.GROUP_COMMANDS, cfg.TOPIC_MEMORY_COMMANDS), 60,
                   what="the command")
    with TestClient(create_app(cfg)) as client:
        assert client.post("/v1/memories/save", json={"user_id": "tr-off", "key": "city", "content": "Lyon"},
                           headers={"traceparent": f"00-{TRACE_ID}-{CALLER_SPAN}-01"}).status_code == 200
    with Session(clean_db) as s:
        payloads = s.scalars(select(OutboxEvent.payload)).all()
    assert len(payloads) == 2
    assert not any(k in p for p in payloads for k in tracing.TRACE_KEYS)
    assert exporter.get_finished_spans() == ()
