"""Faults of a three-node Kafka cluster (``PrivateStack.create(home, brokers=3)``) under steady load.

Each function returns a fault for ``Pipeline.scenario`` (it marks the fault's begin and end, and puts
what it did in ``ctx.details``):
- ``kill_chat_leader``: ``kill -9`` the node that leads most partitions of the chat topic, start it again
  after a short downtime (``stack up kafka-<id>``);
- ``node_down``: stop a node cleanly (SIGTERM) for ``seconds``, then start it;
- ``kill_active_controller``: ``kill -9`` the KRaft quorum's leader (read from the nodes'
  ``quorum-state`` files), start it again;
- ``rolling_restart``: stop and start every node in turn, each time waiting until every partition is
  fully in sync again before the next.
Used by ``bench/bench_cluster_faults.py`` and ``tests/reliability/test_cluster_failover.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections import Counter
from collections.abc import Callable

from core.config import Settings
from harness.private_stack import PrivateStack
from harness.scenario import ScenarioContext
from localstack.process import is_alive, wait_until
from localstack.topics import admin_client

Fault = Callable[[ScenarioContext], None]


def partition_leaders(settings: Settings, topic: str) -> dict[int, int]:
    """Partition -> leader node id of ``topic`` (-1 while a partition has no leader)."""
    metadata = admin_client(settings).list_topics(topic, timeout=20)
    return {p.id: p.leader for p in metadata.topics[topic].partitions.values()}


def under_replicated(settings: Settings, nodes: int) -> int:
    """Partitions of every topic whose in-sync replicas are fewer than ``min(3, nodes)``."""
    metadata = admin_client(settings).list_topics(timeout=20)
    want = min(3, nodes)
    return sum(1 for t in metadata.topics.values() for p in t.partitions.values() if len(p.isrs) < want)


def wait_in_sync(settings: Settings, nodes: int, timeout: float = 180.0) -> float:
    """Wait until no partition is under-replicated; return the seconds it took."""
    t0 = time.monotonic()
    wait_until(lambda: under_replicated(settings, nodes) == 0, timeout, interval=0.5,
               what="every partition fully in sync")
    return time.monotonic() - t0


def active_controller(stack: PrivateStack) -> int:
    """Node id of the KRaft quorum's leader (the active controller), from the nodes' ``quorum-state``
    files (``<node>/data/__cluster_metadata-0/quorum-state``: the leader id and epoch each voter last
    saw; the highest epoch is the current one)."""
    best: tuple[int, int] | None = None
    for node in stack.stack.kafka_nodes:
        path = node.dir / "data" / "__cluster_metadata-0" / "quorum-state"
        with contextlib.suppress(OSError, ValueError):
            state = json.loads(path.read_text())
            leader, epoch = int(state.get("leaderId", -1)), int(state.get("leaderEpoch", -1))
            if leader > 0 and (best is None or epoch > best[1]):
                best = (leader, epoch)
    if best is None:
        raise RuntimeError("no node's quorum-state names a leader")
    return best[0]


def _kill9(stack: PrivateStack, node: int) -> None:
    pid = stack.kafka_node_pid(node)
    if pid is None or not is_alive(pid, "kafka.Kafka"):
        raise RuntimeError(f"Kafka node {node} is not running")
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: not is_alive(pid), 20, what=f"Kafka node {node} to die")


def _restart(ctx: ScenarioContext, node: int) -> None:
    stack = ctx.pipeline.stack
    ctx.details[f"restart_node{node}_sec"] = round(stack.up([f"kafka-{node}"]), 2)


def kill_chat_leader(downtime: tuple[float, float] = (1.0, 3.0)) -> Fault:
    def fault(ctx: ScenarioContext) -> None:
        pipe = ctx.pipeline
        leaders = partition_leaders(pipe.settings, pipe.settings.TOPIC_CHAT_MESSAGES)
        node, led = Counter(leaders.values()).most_common(1)[0]
        ctx.details.update(victim=f"kafka-{node}", chat_partitions_led=led, leaders_before=leaders)
        ctx.begin()
        _kill9(pipe.stack, node)
        t_kill = time.monotonic()
        wait_until(lambda: node not in partition_leaders(pipe.settings, pipe.settings.TOPIC_CHAT_MESSAGES)
                   .values(), 60, interval=0.2, what="the chat partitions to elect new leaders")
        ctx.details["leader_failover_sec"] = round(time.monotonic() - t_kill, 2)
        pause = ctx.rng.uniform(*downtime)
        time.sleep(pause)
        ctx.details["downtime_sec"] = round(time.monotonic() - t_kill, 2)
        _restart(ctx, node)
        ctx.end()
        ctx.details["back_in_sync_sec"] = round(wait_in_sync(pipe.settings, pipe.stack.brokers), 2)

    return fault


def node_down(seconds: float = 60.0, node: int = 2) -> Fault:
    def fault(ctx: ScenarioContext) -> None:
        stack = ctx.pipeline.stack
        ctx.details["victim"] = f"kafka-{node}"
        ctx.begin()
        stack.down([f"kafka-{node}"])
        time.sleep(seconds)
        ctx.details["downtime_sec"] = seconds
        _restart(ctx, node)
        ctx.end()
        ctx.details["back_in_sync_sec"] = round(wait_in_sync(ctx.pipeline.settings, stack.brokers), 2)

    return fault


def kill_active_controller(downtime: tuple[float, float] = (1.0, 3.0)) -> Fault:
    def fault(ctx: ScenarioContext) -> None:
        stack = ctx.pipeline.stack
        node = active_controller(stack)
        ctx.details["victim"] = f"kafka-{node} (active controller)"
        ctx.begin()
        _kill9(stack, node)
        time.sleep(ctx.rng.uniform(*downtime))
        _restart(ctx, node)
        ctx.end()
        ctx.details["new_controller"] = active_controller(stack)
        ctx.details["back_in_sync_sec"] = round(wait_in_sync(ctx.pipeline.settings, stack.brokers), 2)

    return fault


def rolling_restart() -> Fault:
    def fault(ctx: ScenarioContext) -> None:
        stack = ctx.pipeline.stack
        ctx.begin()
        for node in range(1, stack.brokers + 1):
            stack.down([f"kafka-{node}"])
            _restart(ctx, node)
            ctx.details[f"in_sync_after_node{node}_sec"] = round(
                wait_in_sync(ctx.pipeline.settings, stack.brokers), 2)
        ctx.end()

    return fault
