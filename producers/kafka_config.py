"""librdkafka configuration of every pai-memory Kafka client, derived from ``core.config.KafkaSettings``.

``client_config`` is the base all clients share (producers, consumers, admin clients: brokers,
security, ``KAFKA_CLIENT_OPTIONS``); ``producer_config`` adds the producer defaults and invariants.
The domain (``core``) knows the variables, never the librdkafka property names: those live here.

Invariants every producer built here satisfies, whatever ``KAFKA_CLIENT_OPTIONS`` says:
``enable.idempotence=true`` and ``acks=all`` (no loss or duplication from producer retries, and
per-partition order is kept). Topics are never auto-created by a producer (a mistyped topic fails
delivery instead of silently creating a one-partition topic).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.config import KafkaSettings
from schemas import MAX_EVENT_BYTES

PRODUCER_DEFAULTS: dict[str, Any] = {
    "client.id": "pai-memory-producer",
    "linger.ms": 5,
    "compression.type": "lz4",
    # Same key -> partition mapping as the Java client, so a Java chat service and this library
    # put one user's events on the same partition.
    "partitioner": "murmur2_random",
    "allow.auto.create.topics": False,
    "message.max.bytes": MAX_EVENT_BYTES + 64 * 1024,  # room for key, headers and record overhead
    "message.timeout.ms": 120_000,
}

ENFORCED: dict[str, Any] = {"enable.idempotence": True, "acks": "all"}


def client_config(settings: KafkaSettings) -> dict[str, Any]:
    """Base librdkafka configuration shared by producers, consumers and admin clients."""
    conf: dict[str, Any] = {
        "bootstrap.servers": settings.KAFKA_BOOTSTRAP_SERVERS,
        "security.protocol": settings.KAFKA_SECURITY_PROTOCOL,
    }
    if settings.KAFKA_SASL_MECHANISM:
        conf["sasl.mechanism"] = settings.KAFKA_SASL_MECHANISM
    if settings.KAFKA_SASL_USERNAME:
        conf["sasl.username"] = settings.KAFKA_SASL_USERNAME
    if settings.KAFKA_SASL_PASSWORD is not None:
        conf["sasl.password"] = settings.KAFKA_SASL_PASSWORD.get_secret_value()
    conf.update(settings.KAFKA_CLIENT_OPTIONS)
    return conf


def producer_config(settings: KafkaSettings, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Full librdkafka producer config: defaults < KAFKA_CLIENT_OPTIONS < ``overrides`` < enforced."""
    conf: dict[str, Any] = dict(PRODUCER_DEFAULTS)
    conf.update(client_config(settings))
    conf.update(overrides or {})
    conf.update(ENFORCED)
    return conf
