"""``stack up --brokers 3``: a KRaft cluster of three nodes whose topics are replicated three times with
``min.insync.replicas=2``; ``status`` and ``down`` find the cluster from the state file."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka.admin import ConfigResource

from core.config import LOCAL_KAFKA_PORT, load_settings
from localstack.base import LocalPorts, StackPaths
from localstack.kafka import KafkaService
from localstack.manager import LocalStack
from localstack.process import free_ports, is_alive
from localstack.topics import admin_client, service_topics

pytestmark = [pytest.mark.services, pytest.mark.timeout(420)]


def cluster_ports() -> LocalPorts:
    """Free ports for three nodes (broker and controller each) and the unused PostgreSQL / Milvus."""
    p = free_ports(8)
    return LocalPorts(kafka=p[0], kafka_controller=p[1], postgres=p[6], milvus=p[7],
                      kafka_nodes=((p[2], p[3]), (p[4], p[5])))


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalStack]:
    home = Path(tempfile.mkdtemp(prefix="pai-kafka-cluster-"))
    settings = load_settings(KAFKA_BOOTSTRAP_SERVERS=f"127.0.0.1:{LOCAL_KAFKA_PORT}",
                             PAI_MEMORY_HOME=str(home))
    paths = StackPaths(home=home, cache=StackPaths.from_settings(settings).cache)
    stack = LocalStack(settings, cluster_ports(), paths, brokers=3)
    try:
        stack.up(["kafka"])
        yield stack
    finally:
        stack.down(["kafka"], timeout=20)
        shutil.rmtree(home, ignore_errors=True)


def test_node_configuration_names_the_quorum_and_replication() -> None:
    ports = cluster_ports()
    settings = load_settings()
    paths = StackPaths(home=Path("/nonexistent"), cache=Path("/nonexistent"))
    node = KafkaService(settings, paths, ports, node_id=2, nodes=3)
    props = dict(line.split("=", 1) for line in node.server_properties().splitlines() if line)
    assert node.name == "kafka-2"
    assert props["node.id"] == "2"
    assert props["controller.quorum.voters"] == ",".join(
        f"{i}@127.0.0.1:{ports.kafka_node(i)[1]}" for i in (1, 2, 3))
    assert props["listeners"].startswith(f"PLAINTEXT://127.0.0.1:{ports.kafka_node(2)[0]},")
    for key in ("default.replication.factor", "offsets.topic.replication.factor",
                "transaction.state.log.replication.factor"):
        assert props[key] == "3", key
    assert props["min.insync.replicas"] == props["transaction.state.log.min.isr"] == "2"
    single = KafkaService(settings, paths, ports)
    assert single.name == "kafka" and "default.replication.factor=1" in single.server_properties()


def test_default_ports_of_later_nodes_follow_the_first() -> None:
    ports = LocalPorts()
    assert ports.kafka_node(1) == (ports.kafka, ports.kafka_controller)
    assert ports.kafka_node(3) == (ports.kafka + 4, ports.kafka_controller + 4)


def test_cluster_comes_up_with_every_topic_replicated_three_times(cluster: LocalStack) -> None:
    statuses = {s.name: s for s in cluster.status(["kafka"])}
    assert set(statuses) == {"kafka-1", "kafka-2", "kafka-3"}
    assert all(s.ok and s.pid is not None and is_alive(s.pid) for s in statuses.values()), statuses
    assert len({s.pid for s in statuses.values()}) == 3

    settings = cluster.settings.model_copy(update={"KAFKA_BOOTSTRAP_SERVERS": cluster.kafka_bootstrap})
    admin = admin_client(settings)
    metadata = admin.list_topics(timeout=20)
    assert sorted(metadata.brokers) == [1, 2, 3]
    for name in service_topics(settings):
        topic = metadata.topics[name]
        assert topic.partitions, name
        for partition in topic.partitions.values():
            assert sorted(partition.replicas) == [1, 2, 3], (name, partition.id)
            assert sorted(partition.isrs) == [1, 2, 3], (name, partition.id)
    chat = ConfigResource(ConfigResource.Type.TOPIC, settings.TOPIC_CHAT_MESSAGES)
    config = admin.describe_configs([chat])[chat].result(timeout=20)
    assert config["min.insync.replicas"].value == "2"


def test_status_and_down_find_the_cluster_without_the_option(cluster: LocalStack) -> None:
    again = LocalStack(cluster.settings, cluster.ports, cluster.paths)  # no ``brokers``: from the state file
    assert again.brokers == 3
    assert [s.name for s in again.status(["kafka"])] == ["kafka-1", "kafka-2", "kafka-3"]
