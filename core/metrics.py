"""Every Prometheus metric pai-memory exports, defined once (prefix ``pai_memory_``, base units).

The Kafka consumer groups' own metrics (lag, rebalances, offsets, errors, backpressure) are the
adapters' and live in ``consumers/metrics.py``, same registry, same ``pai_memory_`` names.
Processes serve them on ``METRICS_PORT`` (``serve_metrics``); the API also serves ``/metrics``.
Label values are bounded sets (group, topic, partition, stage, status, operation...), never user
ids or free text. ``deploy/grafana`` and ``deploy/prometheus/alerts.yml`` use only these names
(a test checks it).
"""

from __future__ import annotations

import logging
import threading

from prometheus_client import REGISTRY, Counter, Gauge, Histogram, start_http_server

log = logging.getLogger(__name__)

_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
_FRESHNESS = (0.5, 1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 1800)

STAGE_DURATION = Histogram(
    "pai_memory_stage_duration_seconds", "Processing time per pipeline stage", ["stage"], buckets=_LATENCY
)
STAGE_THREAD_CPU = Counter(
    "pai_memory_stage_thread_cpu_seconds",
    "CPU time of the processing thread itself per stage (load, upsert); the rest of the stage's duration "
    "is waiting: database round trips, row locks, the GIL, model threads",
    ["stage"],
)
OUTBOX_BACKLOG = Gauge("pai_memory_outbox_backlog", "Unpublished outbox rows")
OUTBOX_OLDEST_AGE = Gauge("pai_memory_outbox_oldest_age_seconds", "Age of the oldest unpublished outbox row")
OUTBOX_PUBLISHED = Counter(
    "pai_memory_outbox_published_total", "Outbox rows published and confirmed", ["topic"]
)
OUTBOX_PUBLISH_FAILURES = Counter("pai_memory_outbox_publish_failures_total", "Outbox deliveries that failed")
REDRIVES = Counter("pai_memory_redrives_total", "Rows re-driven by the sweeper", ["kind"])
RETENTION_PRUNED = Counter("pai_memory_retention_pruned_total",
                           "Rows deleted by the expiry pass for being older than their retention "
                           "(table: audit_log, AUDIT_LOG_RETENTION_DAYS; console_sessions, expired or "
                           "revoked logins)", ["table"])
MESSAGES_BY_STATUS = Gauge("pai_memory_messages", "Stored messages by memory status", ["status"])
MEMORIES_BY_VECTOR_STATUS = Gauge(
    "pai_memory_memories", "Memory rows by vector status and activity", ["vector_status", "active"]
)
# One "call" is one extraction stage (extract/refine) of one burst, retries included; one "request"
# is one HTTP request to the endpoint.
LLM_CALLS = Counter(
    "pai_memory_llm_calls_total", "LLM stage calls by outcome", ["provider", "stage", "outcome"]
)
LLM_LATENCY = Histogram(
    "pai_memory_llm_call_duration_seconds", "LLM stage call latency (retries and waits included)",
    ["provider", "stage"], buckets=_LATENCY
)
LLM_TOKENS = Counter(
    "pai_memory_llm_tokens_total", "LLM tokens by stage and kind", ["provider", "stage", "kind"]
)
LLM_REQUESTS = Counter(
    "pai_memory_llm_requests_total",
    "LLM HTTP requests by stage and outcome (ok, malformed, rate_limited, timeout, error, cancelled)",
    ["provider", "stage", "outcome"],
)
LLM_REQUEST_DURATION = Histogram(
    "pai_memory_llm_request_duration_seconds", "One LLM HTTP request's latency", ["provider", "stage"],
    buckets=_LATENCY
)
LLM_TOKENS_PER_MESSAGE = Histogram(
    "pai_memory_llm_tokens_per_message",
    "LLM tokens (prompt + completion) spent per processed user message (a burst's tokens / its messages)",
    ["provider"], buckets=(0, 100, 250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000),
)
# Endpoint etiquette (core.concurrency), label client = "llm" or "embedding"
MODEL_IN_FLIGHT = Gauge(
    "pai_memory_model_requests_in_flight", "Model endpoint requests in flight", ["client"]
)
MODEL_CONCURRENCY_LIMIT = Gauge(
    "pai_memory_model_concurrency_limit", "Current adaptive concurrency limit (AIMD, hard cap in config)",
    ["client"]
)
MODEL_RETRIES = Counter(
    "pai_memory_model_retries_total", "Model requests retried, by reason", ["client", "reason"]
)
MODEL_RATE_LIMIT_PAUSES = Counter(
    "pai_memory_model_rate_limit_pauses_total", "Retry-After pauses applied to all requests", ["client"]
)
MODEL_RATE_LIMIT_WAIT_SECONDS = Counter(
    "pai_memory_model_rate_limit_wait_seconds_total", "Seconds requests waited for rate-limit pauses",
    ["client"]
)
EMBEDDING_CALLS = Counter(
    "pai_memory_embedding_calls_total", "Embedding calls by outcome", ["provider", "outcome"]
)
EMBEDDING_LATENCY = Histogram(
    "pai_memory_embedding_call_duration_seconds", "Embedding call latency", ["provider"], buckets=_LATENCY
)
EMBEDDED_TEXTS = Counter("pai_memory_embedded_texts_total", "Texts embedded", ["provider"])
EMBEDDING_CALLS_BY_CALLER = Counter(
    "pai_memory_embedding_caller_calls_total",
    "Successful embedding calls (one model call each) by the component that made them", ["caller"]
)
EMBEDDED_TEXTS_BY_CALLER = Counter(
    "pai_memory_embedding_caller_texts_total", "Texts embedded by the component that asked", ["caller"]
)
EMBEDDING_VECTORS_REUSED = Counter(
    "pai_memory_embedding_vectors_reused_total",
    "Index vectors taken from the write side's vector instead of a model call", ["caller"]
)
MEMORY_WRITES = Counter(
    "pai_memory_memory_writes_total", "Memory changes by operation and source", ["operation", "source"]
)
EXTRACTION_STALE_RERUNS = Counter(
    "pai_memory_extraction_stale_reruns_total",
    "Bursts extracted again because the user's memories changed between their read and their commit",
)
MEMORIES_RETIRED = Counter(
    "pai_memory_memories_retired_total",
    "Memories deactivated because their user reached LONG_TERM_MEMORY_MAX_ACTIVE_PER_USER",
    ["source"],
)
FRESHNESS = Histogram(
    "pai_memory_freshness_seconds",
    "Creation of the chat message or command that caused a memory change to the change synced in Milvus "
    "(from the commit for lifecycle jobs and re-drives)",
    buckets=_FRESHNESS,
)
INDEX_SYNCED = Counter("pai_memory_index_rows_total", "Indexer row results", ["result"])
# episodes (core.episodes): passages of what the user said, in their own Milvus collection
EPISODES_BY_VECTOR_STATUS = Gauge(
    "pai_memory_episodes", "Episode rows by vector status (DIRTY + FAILED: the episode index's lag; "
    "SYNCED: its size)", ["vector_status"]
)
EPISODE_INDEX_SYNCED = Counter(
    "pai_memory_episode_index_rows_total", "Episode indexer row results", ["result"]
)
EPISODE_FRESHNESS = Histogram(
    "pai_memory_episode_freshness_seconds",
    "Creation of the chat message to its episode synced in (or removed from) the episodes' Milvus collection",
    buckets=_FRESHNESS,
)
RETRIEVAL_DURATION = Histogram(
    "pai_memory_retrieval_duration_seconds",
    "Retrieval latency by mode and path",
    ["mode", "path"],
    buckets=_LATENCY,
)
RETRIEVAL_EMBED_COALESCED = Counter(
    "pai_memory_retrieval_embed_coalesced_total",
    "Dense retrievals that waited for an identical query's in-flight embedding instead of a model call",
)
MESSAGE_ID_CONFLICTS = Counter(
    "pai_memory_message_id_conflicts_total",
    "Chat messages whose id was already stored for the same user with other content, role or "
    "conversation: not a redelivery, so dead-lettered (reason message_id_conflict), never dropped silently",
    ["group"],
)
API_REQUESTS = Counter("pai_memory_api_requests_total", "HTTP API requests", ["route", "status"])
API_RATE_LIMITED = Counter("pai_memory_api_rate_limited_total", "HTTP requests refused with 429", ["scope"])

_server_lock = threading.Lock()
_served: set[int] = set()


def serve_metrics(port: int | None, addr: str = "127.0.0.1") -> None:
    """Serve ``/metrics`` on ``port`` in a background thread (once per port; None disables)."""
    if port is None:
        return
    with _server_lock:
        if port in _served:
            return
        start_http_server(port, addr=addr, registry=REGISTRY)
        _served.add(port)
    log.info("metrics on http://%s:%d/metrics", addr, port)
