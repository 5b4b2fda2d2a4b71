"""A real consumer process serves Prometheus metrics that exist and move; SIGTERM drains it cleanly.

``python -m cli.main run commands`` (and ``run extractor``) runs as a child process on private
topics and groups, with ``METRICS_PORT`` on a free port. The tests scrape ``/metrics`` (text
exposition format, parsed with prometheus_client's parser), publish events, and watch the
consumed-events and memory-writes counters and the consumer-lag gauge (librdkafka statistics,
every 5 s): it appears once the group has committed on a partition, rises while the extractor holds
a debounced burst, and falls back to 0. Both processes must exit 0 on SIGTERM.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from core.config import Settings
from localstack.process import free_port, wait_until
from producers.client import MemoryEventProducer
from schemas import MemorySaveData
from tests.support.env import clean_env, service_env
from tests.support.pipeline import conversation, isolated_settings

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(port: int) -> Samples:
    """Every sample of ``/metrics`` as {(name, labels): value}; empty when nothing answers yet."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
            text = resp.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return {}
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def series(samples: Samples, name: str, **labels: str) -> dict[frozenset[tuple[str, str]], float]:
    """Samples of ``name`` whose labels include ``labels``."""
    want = set(labels.items())
    return {lab: v for (n, lab), v in samples.items() if n == name and want <= lab}


def total(samples: Samples, name: str, **labels: str) -> float:
    return sum(series(samples, name, **labels).values())


Child = tuple[subprocess.Popen[bytes], Settings, int, Path]


@pytest.fixture
def start_process(
    settings: Settings, unique_name: Callable[[str], str], tmp_path: Path
) -> Iterator[Callable[..., Child]]:
    """``start_process(name, **env)`` runs ``pai-memory run <name>`` on private topics and groups
    (2 partitions each); returns (process, its settings, metrics port, log path). Killed at the end
    if still running."""
    children: list[subprocess.Popen[bytes]] = []

    def start(name: str, **extra_env: str) -> Child:
        cfg = isolated_settings(settings, unique_name, KAFKA_TOPIC_PARTITIONS=2)
        port = free_port()
        log = tmp_path / f"{name}.log"
        env = clean_env(service_env(cfg, tmp_path, METRICS_PORT=str(port), **extra_env))
        with log.open("wb") as out:
            proc = subprocess.Popen([sys.executable, "-m", "cli.main", "run", name], cwd=tmp_path, env=env,
                                    stdout=out, stderr=subprocess.STDOUT)
        children.append(proc)
        return proc, cfg, port, log

    try:
        yield start
    finally:
        for proc in children:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


def wait_assigned(child: Child, group: str) -> None:
    proc, cfg, port, log = child

    def assigned() -> bool:
        assert proc.poll() is None, f"process exited with {proc.returncode}:\n{log.read_text()[-3000:]}"
        owned = total(scrape(port), "pai_memory_assigned_partitions", group=group)
        return owned == cfg.KAFKA_TOPIC_PARTITIONS

    wait_until(assigned, 180, 0.5, "the process to serve /metrics and own every partition")


def lag(child: Child, group: str, topic: str) -> dict[int, float]:
    """Consumer lag per partition as the process exports it (no series: lag not known yet)."""
    proc, _, port, log = child
    assert proc.poll() is None, f"process exited with {proc.returncode}:\n{log.read_text()[-3000:]}"
    found = series(scrape(port), "pai_memory_consumer_lag", group=group, topic=topic)
    return {int(dict(labels)["partition"]): value for labels, value in found.items()}


def terminate_gracefully(child: Child) -> str:
    """SIGTERM, then the exit code must be 0 within 45 s (drain, commit, close); returns the log."""
    proc, _, _, log = child
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(45)
    except subprocess.TimeoutExpired:
        pytest.fail(f"no exit 45 s after SIGTERM:\n{log.read_text()[-3000:]}")
    text = log.read_text()
    assert code == 0, text[-3000:]
    assert "draining and stopping" in text
    return text


MEMORIES = {
    "drink": "Prefers green tea over coffee",
    "project": "Works on the Atlas billing project",
    "allergy": "Allergic to peanuts",
    "pet": "Has a cat named Mochi",
}


def _publish(cfg: Settings, user: str, keys: list[str]) -> set[int]:
    """Publish one ``memory_save`` per key for ``user``; the partitions they landed on."""
    with MemoryEventProducer(cfg) as producer:
        futures = [producer.publish_command(MemorySaveData(
            command_id=f"{user}-{key}", user_id=user, key=key, content=MEMORIES[key])) for key in keys]
        return {future.result(timeout=30).partition for future in futures}


@pytest.mark.services
def test_running_consumer_exports_moving_metrics_and_drains_on_sigterm(
    start_process: Callable[..., Child],
) -> None:
    child = start_process("commands")
    _, cfg, port, _ = child
    group, topic = cfg.GROUP_COMMANDS, cfg.TOPIC_MEMORY_COMMANDS

    def consumed(samples: Samples, **labels: str) -> float:
        return total(samples, "pai_memory_events_consumed_total", group=group, topic=topic, **labels)

    def tool_creates(samples: Samples) -> float:
        return total(samples, "pai_memory_memory_writes_total", operation="create", source="tool")

    def lag_at_zero(partitions: set[int]) -> Callable[[], bool]:
        def check() -> bool:
            current = lag(child, group, topic)
            return current.keys() == partitions and not any(current.values())
        return check

    wait_assigned(child, group)
    before = scrape(port)
    assert total(before, "pai_memory_rebalances_total", group=group, kind="assign") >= 1
    assert consumed(before) == 0 and tool_creates(before) == 0
    assert lag(child, group, topic) == {}  # nothing committed yet: lag unknown, no series

    # a first wave of commands: the counters appear and move; the partition used gets a lag series
    used = _publish(cfg, "scrape-u1", ["drink", "project", "allergy"])
    assert len(used) == 1  # keyed by user id: one user, one partition
    wait_until(lambda: consumed(scrape(port)) >= 3, 60, 0.5, "three commands consumed")
    first = scrape(port)
    assert consumed(first) == consumed(first, outcome="processed") == 3, series(
        first, "pai_memory_events_consumed_total", group=group)  # not dead-lettered
    assert tool_creates(first) == 3
    wait_until(lag_at_zero(used), 30, 1.0, "lag of the used partition (statistics every 5 s)")

    # a second wave on other users until every partition got records: the counters move on, and
    # every partition reports its lag, at 0 once consumed
    sent = 3
    for i in range(2, 40):
        used |= _publish(cfg, f"scrape-u{i}", ["pet"])
        sent += 1
        if len(used) == cfg.KAFKA_TOPIC_PARTITIONS:
            break
    assert len(used) == cfg.KAFKA_TOPIC_PARTITIONS
    wait_until(lambda: consumed(scrape(port)) >= sent, 60, 0.5, f"{sent} commands consumed")
    second = scrape(port)
    assert consumed(second) == sent and tool_creates(second) == sent
    wait_until(lag_at_zero(used), 30, 1.0, "lag 0 on every partition")

    terminate_gracefully(child)


@pytest.mark.services
def test_extractor_lag_rises_while_a_burst_is_held_and_falls_once_processed(
    start_process: Callable[..., Child],
) -> None:
    """The extractor holds a conversation's messages for the debounce window before extracting and
    committing, so lag (high watermark - committed offset) is visibly > 0 in that window."""
    child = start_process("extractor", LONG_TERM_MEMORY_DEBOUNCE_SEC="12")
    _, cfg, port, _ = child
    group, topic = cfg.GROUP_EXTRACTOR, cfg.TOPIC_CHAT_MESSAGES
    wait_assigned(child, group)

    def consumed() -> float:
        return total(scrape(port), "pai_memory_events_consumed_total", group=group, topic=topic)

    def publish(conversation_id: str, text: str) -> int:
        (message,) = conversation("lag-user", conversation_id, [("user", text)])
        with MemoryEventProducer(cfg) as producer:
            return producer.publish_message(message).result(timeout=30).partition

    # wave 1: processed after the debounce and committed -> the partition's lag is known, 0
    part = publish("lag-c1", "I'm allergic to peanuts, so please never suggest recipes with peanuts.")
    wait_until(lambda: consumed() >= 1, 60, 0.5, "the first message processed after the debounce")
    wait_until(lambda: lag(child, group, topic) == {part: 0}, 30, 1.0, "lag 0 after the first commit")
    writes = total(scrape(port), "pai_memory_memory_writes_total", source="extractor")
    assert writes >= 1, "the allergy was not written"
    extract = series(scrape(port), "pai_memory_stage_duration_seconds_count", stage="extract")
    assert sum(extract.values()) >= 1
    upsert_cpu = series(scrape(port), "pai_memory_stage_thread_cpu_seconds_total", stage="upsert")
    assert sum(upsert_cpu.values()) > 0, "the upsert stage's own CPU was not counted"

    # wave 2, same user so same partition: held for 12 s -> lag 1 seen, then 0 once done
    assert publish("lag-c2", "I work as a backend engineer at a logistics company.") == part
    wait_until(lambda: lag(child, group, topic).get(part, 0) >= 1, 20, 0.5, "lag > 0 while the burst waits")
    wait_until(lambda: consumed() >= 2, 40, 0.5, "the second message processed")
    wait_until(lambda: lag(child, group, topic) == {part: 0}, 30, 1.0, "lag back to 0")

    terminate_gracefully(child)
