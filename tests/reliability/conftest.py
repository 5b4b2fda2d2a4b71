"""Fixtures of the fault-injection suite: a private stack and the running service on it.

The suite stops, crashes and restarts Kafka, PostgreSQL and Milvus, so it never uses the session's
services (which may be external developer instances): ``private_stack`` starts its own set through
``localstack`` on free ports under ``var/reliability/stack-<id>`` and stops it afterwards (the data
directory is kept when a test failed, for the logs).

``PAI_MEMORY_FAULT_SEED`` fixes the seed of every random choice (fault points, victims, outage
lengths); the seed is printed and written to ``var/reliability/last_run.json`` with the measured
recovery times.
"""

from __future__ import annotations

import json
import os
import platform
import random
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from harness.pipeline import Pipeline
from harness.private_stack import PrivateStack
from harness.scenario import RESULTS_DIR, RUN_RESULTS, write_results

_SUMMARY: dict[str, Any] = {}


@pytest.fixture(scope="module")
def fault_seed() -> int:
    raw = os.environ.get("PAI_MEMORY_FAULT_SEED")
    seed = int(raw) if raw else random.SystemRandom().randrange(1, 2**31)
    print(f"\nfault-injection seed: {seed} (rerun with PAI_MEMORY_FAULT_SEED={seed})")
    return seed


@pytest.fixture(scope="module")
def private_stack(request: pytest.FixtureRequest, fault_seed: int) -> Iterator[PrivateStack]:
    """The private stack; at the end the scenarios' results go to ``var/reliability/last_run.json``."""
    stack = PrivateStack.create(RESULTS_DIR / f"stack-{uuid.uuid4().hex[:8]}")
    failed_before = request.session.testsfailed
    started = datetime.now(UTC)
    t0 = time.monotonic()
    try:
        stack.up()
    except Exception:
        stack.down(timeout=10)
        raise
    _SUMMARY["stack_up_sec"] = round(time.monotonic() - t0, 1)
    try:
        yield stack
    finally:
        stack.down(timeout=20)
        results = list(RUN_RESULTS)
        write_results(RESULTS_DIR / "last_run.json", {
            "seed": fault_seed,
            "started_at": started.isoformat(),
            "suite_sec": round(time.monotonic() - t0, 1),
            "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "load_avg": os.getloadavg()},
            **{k: v for k, v in _SUMMARY.items() if k != "recovery"},
            "scenarios": [r.as_dict() for r in results],
        })
        _SUMMARY["recovery"] = {r.name: {"ok": r.ok, "recovery_sec": r.recovery_sec,
                                         "verify_clean_sec": r.verify_clean_sec,
                                         "fault_duration_sec": r.fault_duration_sec, "messages": r.messages}
                                for r in results}
        _SUMMARY["seed"] = fault_seed
        if request.session.testsfailed == failed_before:
            stack.remove()
        else:
            print(f"\nprivate stack data and logs kept in {stack.home}")


@pytest.fixture(scope="module")
def pipeline(private_stack: PrivateStack, fault_seed: int) -> Iterator[Pipeline]:
    """The five service processes on the private stack, warmed up (every user has a job and an
    allergy stored and indexed)."""
    pipe = Pipeline.on_private_stack(private_stack, f"rel-{uuid.uuid4().hex[:6]}", users=6, rate=1.0,
                                     seed=fault_seed)
    try:
        _SUMMARY["processes_start_sec"] = round(pipe.start_all(), 1)
        _SUMMARY["warm_up_sec"] = round(pipe.warm_up(), 1)
        yield pipe
    finally:
        _SUMMARY["logs"] = str(pipe.supervisor.log_dir)
        pipe.close()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if "recovery" in _SUMMARY:
        terminalreporter.section("fault injection: recovery times (fault end -> settled), seconds")
        terminalreporter.write_line(json.dumps(_SUMMARY["recovery"], indent=1))
        terminalreporter.write_line(f"seed {_SUMMARY['seed']}; details in {RESULTS_DIR / 'last_run.json'}")
