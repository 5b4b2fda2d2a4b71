"""OpenTelemetry for the Kafka adapters: SDK set-up per process, W3C trace context in Kafka headers.

- ``setup_tracing(settings, process)``: with ``OTEL_ENABLED`` off it does nothing (tracing stays a
  no-op, no header is read or written). On, it installs an SDK tracer provider named
  ``OTEL_SERVICE_NAME`` (default ``pai-memory-<process>``) exporting in batches over OTLP/HTTP to
  ``OTEL_EXPORTER_OTLP_ENDPOINT``, sets it as the global provider when none is set and hands it to
  ``core.tracing`` (with an ``exporter`` given, tests: exported synchronously, not made global). An
  application that already set up its own SDK provider keeps it: its provider is used. Idempotent;
- ``kafka_headers(carrier)`` / ``context_from_headers(headers)``: the Kafka header form of the trace
  context (``traceparent``, ``tracestate``: ASCII values). A missing, non-ASCII or malformed
  ``traceparent`` gives ``None`` (new root), never an error: a bad header never sends a record to a DLQ;
- ``outbox_publish(payload, topic)``: the relay's step for one outbox row: the row's payload carries
  the trace context of the write that enqueued it (``core.memory.outbox``); it is taken out of the
  value, a PRODUCER span continues the trace, and that span's context goes into the headers.
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from opentelemetry.context import Context
from opentelemetry.trace import Span, StatusCode

from core import tracing
from core.config import ObservabilitySettings

log = logging.getLogger(__name__)

Headers = list[tuple[str, str | bytes | None]]

_lock = threading.Lock()
_installed: Any = None  # the SDK TracerProvider created here (flushed at exit)


def setup_tracing(settings: ObservabilitySettings, process: str, exporter: Any = None) -> bool:
    """Switch tracing on for this process when ``OTEL_ENABLED`` (see module docstring); True when on."""
    global _installed
    if not settings.OTEL_ENABLED:
        return False
    with _lock:
        if tracing.enabled():
            return True
        from opentelemetry import trace
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

        current = trace.get_tracer_provider()
        if isinstance(current, TracerProvider) and exporter is None:
            tracing.install(current)  # the host application's own SDK set-up
            return True
        name = settings.OTEL_SERVICE_NAME or f"pai-memory-{process}"
        provider = TracerProvider(resource=Resource.create({"service.name": name}))
        if exporter is not None:
            provider.add_span_processor(SimpleSpanProcessor(exporter))
        else:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

            base = settings.OTEL_EXPORTER_OTLP_ENDPOINT  # the standard base URL: traces go to /v1/traces
            otlp = OTLPSpanExporter(endpoint=f"{base.rstrip('/')}/v1/traces") if base else OTLPSpanExporter()
            provider.add_span_processor(BatchSpanProcessor(otlp))
            atexit.register(provider.shutdown)
        if exporter is None and not isinstance(current, TracerProvider):
            trace.set_tracer_provider(provider)  # once per process: libraries' own spans join ours
        tracing.install(provider)
        _installed = provider
        log.info("tracing on: service %s, OTLP endpoint %s", name,
                 "(given exporter)" if exporter is not None else settings.OTEL_EXPORTER_OTLP_ENDPOINT
                 or "(SDK default)")
        return True


def shutdown_tracing() -> None:
    """Flush and stop the provider installed by ``setup_tracing``; tracing is off afterwards."""
    global _installed
    with _lock:
        provider, _installed = _installed, None
        tracing.install(None)
    if provider is not None:
        provider.shutdown()


def kafka_headers(carrier: Mapping[str, str]) -> Headers:
    """Kafka headers of a W3C trace context (only the keys present)."""
    return [(k, carrier[k].encode("ascii")) for k in tracing.TRACE_KEYS if carrier.get(k)]


def context_from_headers(headers: Iterable[tuple[str, bytes | str | None]] | None) -> Context | None:
    """The trace context of a received record; ``None`` when off or absent/unreadable (new root)."""
    if not tracing.enabled() or not headers:
        return None
    values: dict[str, str] = {}
    for key, value in headers:
        if key in tracing.TRACE_KEYS and value is not None and key not in values:
            try:
                values[key] = value.decode("ascii") if isinstance(value, bytes) else value
            except UnicodeDecodeError:  # unreadable: as if absent (no traceparent: a new root)
                continue
    return tracing.context_of(values)


def contexts_of(records: Sequence[Any]) -> list[Context | None]:
    """``context_from_headers`` of each record (objects with ``headers``), empty when off."""
    if not tracing.enabled():
        return []
    return [context_from_headers(getattr(r, "headers", None)) for r in records]


def outbox_publish(payload: dict[str, Any], topic: str) -> tuple[dict[str, Any], Headers, Span | None]:
    """The relay's view of one outbox row: (value payload without trace keys, trace headers, span).

    The span (PRODUCER, child of the write's context stored in the row) is ``None`` when off; the
    caller ends it once the delivery is settled.
    """
    if not any(k in payload for k in tracing.TRACE_KEYS):
        if not tracing.enabled():
            return payload, [], None
        stored: dict[str, str] = {}
    else:
        stored = {k: v for k in tracing.TRACE_KEYS if isinstance(v := payload.get(k), str)}
        payload = {k: v for k, v in payload.items() if k not in tracing.TRACE_KEYS}
        if not tracing.enabled():
            return payload, [], None
    span = tracing.produce_span(f"{topic} publish", tracing.context_of(stored) or Context(),
                                {"messaging.system": "kafka", "messaging.destination.name": topic,
                                 "messaging.operation.type": "publish"})
    return payload, kafka_headers(tracing.carrier_of(span)), span


def end_publish_spans(spans: Mapping[int, Span | None], outcome: Mapping[int, str | None]) -> None:
    """End the relay's publish spans (outbox id -> span), each with its row's delivery error if any."""
    for oid, span in spans.items():
        if span is None:
            continue
        error = outcome.get(oid)
        if error is not None:
            span.set_status(StatusCode.ERROR, error)
        span.end()
