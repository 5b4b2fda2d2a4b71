"""Metrics of the Kafka consumer groups (consumer lag, rebalances, offsets, errors, backpressure).

Kafka knowledge belongs to the adapters, so these are defined here rather than in ``core.metrics``;
they register in the same process-wide Prometheus registry with the ``pai_memory_`` prefix, so a
consumer process's ``METRICS_PORT`` (``core.metrics.serve_metrics``) serves them beside the domain's.
Labels: ``group``, ``topic``, ``partition``, ``kind``, ``class``, ``outcome``: bounded sets.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge

EVENTS_CONSUMED = Counter(
    "pai_memory_events_consumed_total", "Kafka records consumed, by outcome", ["group", "topic", "outcome"]
)
CONSUMER_LAG = Gauge(
    "pai_memory_consumer_lag",
    "Consumer lag in records (librdkafka statistics)",
    ["group", "topic", "partition"],
)
REBALANCES = Counter("pai_memory_rebalances_total", "Consumer group rebalance callbacks", ["group", "kind"])
ASSIGNED_PARTITIONS = Gauge("pai_memory_assigned_partitions", "Partitions assigned to this member", ["group"])
DLQ_EVENTS = Counter("pai_memory_dlq_events_total", "Records sent to a dead-letter topic", ["group"])
CONSUMER_ERRORS = Counter(
    "pai_memory_consumer_errors_total",
    "Processing errors by class (transient, permanent, fatal, unknown; dlq = a failed dead-letter publish)",
    ["group", "class"],
)
CONSUMER_RETRIES = Counter("pai_memory_consumer_retries_total", "Work retried with backoff", ["group"])
OFFSET_COMMIT_FAILURES = Counter(
    "pai_memory_offset_commit_failures_total", "Offset commits the broker did not confirm", ["group"]
)
CONSUMER_REJOINS = Counter(
    "pai_memory_consumer_rejoins_total",
    "Fresh clients after a member held nothing while partitions had no owner",
    ["group"],
)
CONSUMER_LAST_POLL = Gauge(
    "pai_memory_consumer_last_poll_timestamp_seconds", "Unix time of the consumer loop's latest poll",
    ["group"],
)
CONSUMER_IN_FLIGHT = Gauge(
    "pai_memory_consumer_in_flight", "Units of work (bursts) running in workers", ["group"]
)
CONSUMER_BUFFERED = Gauge(
    "pai_memory_consumer_buffered_records", "Records held by the strategy and not yet done", ["group"]
)
PAUSED_PARTITIONS = Gauge(
    "pai_memory_consumer_paused_partitions", "Partitions paused for backpressure", ["group"]
)
