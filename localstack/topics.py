"""Kafka topics of the service and a cheap "does the broker answer" probe.

``ensure_topics`` works against any cluster (the local broker or an external one): it creates the
missing topics and leaves existing ones as they are (it never changes partition counts: adding partitions
moves users' keys, an operator's step, docs/operations.md "Adding partitions"); ``fewer_partitions``
names the existing topics that have fewer partitions than wanted, so ``stack up`` can say so.
"""

from __future__ import annotations

from collections.abc import Mapping

from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient, NewTopic

from core.config import KafkaSettings
from localstack.process import StackError
from producers.kafka_config import client_config


def service_topics(settings: KafkaSettings) -> dict[str, int]:
    """Topic name -> partition count for every topic the service uses (inputs, outbox, DLQs)."""
    partitions = settings.KAFKA_TOPIC_PARTITIONS
    topics = {
        settings.TOPIC_CHAT_MESSAGES: partitions,
        settings.TOPIC_MEMORY_COMMANDS: partitions,
        settings.TOPIC_MEMORY_DIRTY: partitions,
    }
    for group in (settings.GROUP_EXTRACTOR, settings.GROUP_COMMANDS, settings.GROUP_INDEXER):
        topics[settings.dlq_topic(group)] = partitions
    return topics


def admin_client(settings: KafkaSettings, timeout: float = 10.0) -> AdminClient:
    conf = client_config(settings)
    conf.setdefault("socket.timeout.ms", int(timeout * 1000))
    return AdminClient(conf)


def kafka_probe(settings: KafkaSettings, timeout: float = 3.0) -> str | None:
    """None when a broker answers a metadata request within ``timeout`` s, else the reason."""
    admin = AdminClient({**client_config(settings), "socket.connection.setup.timeout.ms": 2000,
                         "reconnect.backoff.max.ms": 500, "log_level": 0})
    try:
        metadata = admin.list_topics(timeout=timeout)
    except KafkaException as exc:
        return str(exc.args[0]) if exc.args else repr(exc)
    if not metadata.brokers:
        return "no broker in metadata"
    return None


def ensure_topics(settings: KafkaSettings, topics: Mapping[str, int] | None = None,
                  timeout: float = 30.0) -> list[str]:
    """Create the missing ``topics`` (default: ``service_topics``); return the names created.

    Replication factor is ``KAFKA_TOPIC_REPLICATION``. Topics that already exist are left alone.
    Raises ``StackError`` when a topic can be neither created nor found.
    """
    wanted = dict(service_topics(settings) if topics is None else topics)
    admin = admin_client(settings, timeout)
    try:
        existing = set(admin.list_topics(timeout=timeout).topics)
    except KafkaException as exc:
        raise StackError(f"Kafka at {settings.KAFKA_BOOTSTRAP_SERVERS} does not answer: {exc}") from exc
    missing = [NewTopic(name, num_partitions=n, replication_factor=settings.KAFKA_TOPIC_REPLICATION)
               for name, n in wanted.items() if name not in existing]
    if not missing:
        return []
    created: list[str] = []
    futures = admin.create_topics(missing, operation_timeout=timeout, request_timeout=timeout)
    for name, future in futures.items():
        try:
            future.result(timeout=timeout)
            created.append(name)
        except KafkaException as exc:
            error = exc.args[0] if exc.args else None
            if getattr(error, "name", lambda: "")() == "TOPIC_ALREADY_EXISTS":
                continue  # created concurrently by someone else: fine
            raise StackError(f"cannot create Kafka topic {name}: {exc}") from exc
    return created


def fewer_partitions(settings: KafkaSettings, topics: Mapping[str, int] | None = None,
                     timeout: float = 30.0) -> dict[str, tuple[int, int]]:
    """Existing ``topics`` (default: ``service_topics``) with fewer partitions than wanted:
    name -> (partitions it has, partitions wanted). Missing topics are not listed."""
    wanted = dict(service_topics(settings) if topics is None else topics)
    try:
        metadata = admin_client(settings, timeout).list_topics(timeout=timeout).topics
    except KafkaException as exc:
        raise StackError(f"Kafka at {settings.KAFKA_BOOTSTRAP_SERVERS} does not answer: {exc}") from exc
    return {name: (len(metadata[name].partitions), n) for name, n in wanted.items()
            if name in metadata and len(metadata[name].partitions) < n}
