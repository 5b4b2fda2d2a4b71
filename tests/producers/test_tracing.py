"""producers.tracing: trace context in Kafka headers and the outbox payload; the OTLP set-up of a process."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from core import tracing
from core.config import Settings
from producers.tracing import (
    context_from_headers,
    end_publish_spans,
    kafka_headers,
    outbox_publish,
    setup_tracing,
    shutdown_tracing,
)

TRACE_ID = "0af7651916cd43dd8448eb211c80319c"
PARENT = f"00-{TRACE_ID}-b7ad6b7169203331-01"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    spans = InMemorySpanExporter()
    assert setup_tracing(Settings(OTEL_ENABLED=True), "unit", exporter=spans)
    try:
        yield spans
    finally:
        shutdown_tracing()
    assert not tracing.enabled()


def test_headers_round_trip_the_w3c_context(exporter: InMemorySpanExporter) -> None:
    ctx = context_from_headers([("content-type", b"x"), ("traceparent", PARENT.encode()),
                                ("tracestate", b"vendor=1")])
    assert ctx is not None
    with tracing.tracer().start_as_current_span("child", context=ctx):
        carrier = tracing.carrier()
    assert carrier["traceparent"].split("-")[1] == TRACE_ID
    assert carrier["tracestate"] == "vendor=1"
    assert kafka_headers(carrier) == [("traceparent", carrier["traceparent"].encode()),
                                      ("tracestate", b"vendor=1")]


@pytest.mark.parametrize("headers", [
    None, [], [("traceparent", None)], [("traceparent", b"")], [("traceparent", b"nonsense")],
    [("traceparent", b"\xff\xfe")], [("tracestate", b"vendor=1")],
    [("traceparent", b"00-00000000000000000000000000000000-b7ad6b7169203331-01")],
    [("traceparent", f"00-{TRACE_ID}-0000000000000000-01".encode())],
    [("traceparent", PARENT[:-1].encode())],
])
def test_missing_or_malformed_context_is_none(exporter: InMemorySpanExporter,
                                              headers: list[tuple[str, bytes | None]] | None) -> None:
    assert context_from_headers(headers) is None


def test_a_valid_parent_with_an_unreadable_tracestate_is_kept(exporter: InMemorySpanExporter) -> None:
    assert context_from_headers([("traceparent", PARENT.encode()), ("tracestate", b"\xff")]) is not None


def test_nothing_is_read_or_written_when_off() -> None:
    assert not setup_tracing(Settings(OTEL_ENABLED=False), "unit", exporter=InMemorySpanExporter())
    assert not tracing.enabled()
    assert context_from_headers([("traceparent", PARENT.encode())]) is None
    with tracing.stage("upsert"):
        assert tracing.carrier() == {}
    payload = {"id": "outbox-1", "traceparent": PARENT}
    value, headers, span = outbox_publish(payload, "memory.dirty")
    assert value == {"id": "outbox-1"} and headers == [] and span is None  # stored context never leaks out


def test_outbox_publish_continues_the_stored_trace(exporter: InMemorySpanExporter) -> None:
    payload = {"id": "outbox-7", "data": {"memory_id": 7}, "traceparent": PARENT, "tracestate": "v=1"}
    value, headers, span = outbox_publish(payload, "memory.dirty")
    assert value == {"id": "outbox-7", "data": {"memory_id": 7}}
    assert payload["traceparent"] == PARENT  # the row's payload itself is not changed
    assert span is not None
    end_publish_spans({7: span, 8: None}, {7: "MSG_TIMED_OUT: delivery failed"})
    [done] = exporter.get_finished_spans()
    assert done.kind is SpanKind.PRODUCER and done.name == "memory.dirty publish"
    assert done.parent is not None and f"{done.parent.trace_id:032x}" == TRACE_ID
    assert done.status.description == "MSG_TIMED_OUT: delivery failed"
    assert done.context is not None
    assert dict(headers)["traceparent"] == f"00-{TRACE_ID}-{done.context.span_id:016x}-01".encode()
    # a row without a stored context (written before tracing was on): a new root
    _, headers, span = outbox_publish({"id": "outbox-9"}, "memory.dirty")
    assert span is not None and headers
    span.end()
    assert exporter.get_finished_spans()[-1].parent is None


class _Receiver(BaseHTTPRequestHandler):
    bodies: ClassVar[list[tuple[str, bytes]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).bodies.append((self.path, body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.end_headers()
        self.wfile.write(b"")

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_a_process_exports_its_spans_over_otlp_http_to_the_configured_endpoint() -> None:
    """A process with OTEL_ENABLED sends its spans (flushed at exit) as OTLP/HTTP protobuf to
    ``$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces`` under ``OTEL_SERVICE_NAME``."""
    _Receiver.bodies = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    code = ("from core import tracing\nfrom core.config import Settings\n"
            "from producers.tracing import setup_tracing\n"
            "assert setup_tracing(Settings(), 'extractor')\n"
            "with tracing.stage('extract'):\n    pass\n")
    env = {"PATH": "/usr/bin:/bin", "OTEL_ENABLED": "true", "OTEL_SERVICE_NAME": "pai-memory-test",
           "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{server.server_address[1]}"}
    try:
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=60)
    finally:
        server.shutdown()
        thread.join(10)
    assert done.returncode == 0, done.stderr
    assert [path for path, _ in _Receiver.bodies] == ["/v1/traces"]
    request = ExportTraceServiceRequest.FromString(_Receiver.bodies[0][1])
    [resource] = request.resource_spans
    attrs = {a.key: a.value.string_value for a in resource.resource.attributes}
    assert attrs["service.name"] == "pai-memory-test"
    assert [s.name for scope in resource.scope_spans for s in scope.spans] == ["extract"]
