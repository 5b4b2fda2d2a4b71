"""Leader failover on a three-node Kafka cluster under load: the shortest cluster scenario, in CI.

A private cluster (``stack up --brokers 3`` through ``localstack`` on free ports: replication 3,
``min.insync.replicas=2``) carries the pipeline's topics; PostgreSQL and Milvus are the session's
(a private database and collection). While chat messages flow, the node leading most partitions of
the chat topic is killed with ``kill -9`` and started again. The producers (``acks=all``,
idempotent) and consumers ride through the leader election; ``Pipeline.scenario`` then checks that
every published message was processed, each user holds exactly the last value per slot, history has
one change per statement in publish order (nothing lost, nothing doubled, per-user order kept),
truth and index agree, nothing was dead-lettered. No timing is asserted. The other cluster faults
(a node down for 60 s, the active controller killed, a rolling restart) run in
``bench/bench_cluster_faults.py``.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Iterator

import pytest

from core.config import Settings
from core.vectorstore import MilvusMemoryIndex
from harness.cluster_faults import kill_chat_leader, partition_leaders
from harness.pipeline import Pipeline
from harness.private_stack import PrivateStack
from harness.scenario import RESULTS_DIR

pytestmark = [pytest.mark.services, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def cluster_pipeline(settings: Settings, fault_seed: int) -> Iterator[Pipeline]:
    stack = PrivateStack.create(RESULTS_DIR / f"cluster-{uuid.uuid4().hex[:8]}", brokers=3,
                                database_url=settings.database_url, milvus_uri=settings.milvus_uri)
    try:
        stack.up(["kafka"])
        pipe = Pipeline.on_private_stack(stack, f"clu-{uuid.uuid4().hex[:6]}", users=6, rate=2.0,
                                         seed=fault_seed, max_per_scenario=40)
        try:
            pipe.start_all()
            pipe.warm_up()
            yield pipe
        finally:
            pipe.close()
            with contextlib.suppress(Exception):
                index = MilvusMemoryIndex.from_settings(pipe.settings, dim=8)
                try:
                    name = pipe.settings.MEMORY_MILVUS_COLLECTION
                    if index.has_collection(name):
                        index.drop_collection(name)
                finally:
                    index.close()
    finally:
        stack.down(["kafka"], timeout=20)
        stack.remove()


def test_chat_topic_is_replicated_on_the_three_nodes(cluster_pipeline: Pipeline) -> None:
    leaders = partition_leaders(cluster_pipeline.settings, cluster_pipeline.settings.TOPIC_CHAT_MESSAGES)
    assert len(leaders) == 3 and set(leaders.values()) <= {1, 2, 3}


def test_kill_9_of_the_chat_partitions_leader_loses_and_doubles_nothing(
        cluster_pipeline: Pipeline, fault_seed: int) -> None:
    result = cluster_pipeline.scenario("kill -9 chat leader (3-node cluster)", kill_chat_leader((1.0, 2.0)),
                                       seed=fault_seed, tail=3.0)
    print(json.dumps({result.name: {"recovery_sec": result.recovery_sec, "messages": result.messages,
                                    "details": result.details}}, default=str))
    assert result.messages > 0
    assert result.details["leader_failover_sec"] is not None
    assert result.ok, json.dumps(result.as_dict(), indent=1, default=str)
