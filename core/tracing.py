"""Spans of the pipeline's stages, on the OpenTelemetry API only (no SDK, no Kafka; README "Traces").

Contract:
- tracing is off until an adapter installs a tracer provider (``producers.tracing.setup_tracing``
  when ``OTEL_ENABLED``); off, ``tracer()`` is the API's no-op tracer, ``enabled()`` is False,
  ``carrier()`` is empty and ``stage``/``current``/``consume_span`` return at once with the invalid
  span (no context switch), so nothing is recorded, exported or propagated;
- ``stage(name)`` is a span of one stage, child of the current span, current while the block runs
  (exceptions are recorded on it); ``start_stage(name)`` is the same span for code that ends it
  itself and makes nothing current;
- ``carrier()`` is the W3C trace context of the current span (``traceparent``, ``tracestate`` when
  set) as strings, for whatever carries it on (Kafka headers, an outbox row); ``context_of(carrier)``
  reads one back: ``None`` for a missing or malformed ``traceparent`` (the caller starts a new root);
- ``server_span(name, carrier)`` is the SERVER span of one incoming call (a REST request, an MCP tool
  call): child of the caller's W3C context in ``carrier`` when valid, else a new root.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import Link, Span, SpanKind, StatusCode
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator
from opentelemetry.util.types import AttributeValue

INSTRUMENTATION = "pai-memory"
TRACE_KEYS = ("traceparent", "tracestate")  # W3C trace context; CloudEvents distributed-tracing names

_PROPAGATOR = TraceContextTextMapPropagator()
_NOOP = trace.NoOpTracer()
_provider: trace.TracerProvider | None = None
_tracer: trace.Tracer = _NOOP


def install(provider: trace.TracerProvider | None) -> None:
    """Use ``provider`` for every pai-memory span from now on (``None``: tracing off)."""
    global _provider, _tracer
    _provider = provider
    _tracer = _NOOP if provider is None else provider.get_tracer(INSTRUMENTATION)


def enabled() -> bool:
    """True when a tracer provider is installed: only then is trace context read or written."""
    return _provider is not None


def tracer() -> trace.Tracer:
    return _tracer


@contextmanager
def stage(name: str, attributes: Mapping[str, AttributeValue] | None = None) -> Iterator[Span]:
    """A span of one stage, current for the block (child of the current span)."""
    if _provider is None:  # off: not even the no-op span's context switch
        yield trace.INVALID_SPAN
        return
    with _tracer.start_as_current_span(name, attributes=attributes) as span:
        yield span


@contextmanager
def current(span: Span) -> Iterator[Span]:
    """``span`` current for the block and ended after it (an exception is recorded on it)."""
    if _provider is None:
        yield span
        return
    with trace.use_span(span, end_on_exit=True):
        yield span


def start_stage(name: str, attributes: Mapping[str, AttributeValue] | None = None) -> Span:
    """A span of one stage, child of the current span, not made current: the caller calls ``end()``."""
    return _tracer.start_span(name, attributes=attributes)


def carrier() -> dict[str, str]:
    """The current span's W3C trace context (empty when off or without a valid current span)."""
    if _provider is None:
        return {}
    out: dict[str, str] = {}
    _PROPAGATOR.inject(out)
    return out


def context_of(values: Mapping[str, str]) -> Context | None:
    """The remote span context in ``values`` (W3C ``traceparent``/``tracestate``); ``None`` when the
    ``traceparent`` is missing or malformed (the propagator rejects it), never an exception."""
    if not values.get("traceparent"):
        return None
    try:
        ctx = _PROPAGATOR.extract(dict(values))
    except Exception:  # a hostile header must never fail the record that carries it
        return None
    return ctx if trace.get_current_span(ctx).get_span_context().is_valid else None


def consume_span(name: str, contexts: list[Context | None],
                 attributes: Mapping[str, AttributeValue] | None = None) -> Span:
    """A CONSUMER span for work on one or more received records (not made current).

    Parent: the first valid context (one message's trace continues through it); links: every valid
    context, so a burst or batch that folds several messages points at each of them. No valid
    context: a new root.
    """
    if _provider is None:
        return trace.INVALID_SPAN
    valid = [c for c in contexts if c is not None]
    links = [Link(trace.get_current_span(c).get_span_context()) for c in valid]
    parent = valid[0] if valid else Context()
    return _tracer.start_span(name, context=parent, kind=SpanKind.CONSUMER, links=links,
                              attributes=attributes)


def produce_span(name: str, parent: Context | None = None,
                 attributes: Mapping[str, AttributeValue] | None = None) -> Span:
    """A PRODUCER span (child of ``parent``, or of the current span when ``None``), not made current."""
    return _tracer.start_span(name, context=parent, kind=SpanKind.PRODUCER, attributes=attributes)


def server_span(name: str, carrier: Mapping[str, str],
                attributes: Mapping[str, AttributeValue] | None = None) -> Span:
    """A SERVER span for one incoming call (not made current): child of the caller's context in
    ``carrier`` (W3C ``traceparent``/``tracestate``), a new root when it has none or a malformed one;
    never a child of whatever is current in the server. The invalid span when off."""
    if _provider is None:
        return trace.INVALID_SPAN
    return _tracer.start_span(name, context=context_of(carrier) or Context(), kind=SpanKind.SERVER,
                              attributes=attributes)


def carrier_of(span: Span) -> dict[str, str]:
    """The W3C trace context of ``span`` (empty when off or when ``span`` is not recording)."""
    if _provider is None or not span.get_span_context().is_valid:
        return {}
    out: dict[str, str] = {}
    _PROPAGATOR.inject(out, context=trace.set_span_in_context(span))
    return out


def failed(span: Span, exc: BaseException) -> None:
    """Mark ``span`` failed with ``exc`` (for a failure the code handles without raising through it)."""
    span.record_exception(exc)
    span.set_status(StatusCode.ERROR, f"{type(exc).__name__}: {exc}")
