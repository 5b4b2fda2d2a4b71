"""Fault scenarios on a driven ``Pipeline`` (``harness/pipeline.py``): the context a fault function
uses, the result it leaves, the run that inflicts it while traffic flows and checks every invariant
afterwards (``harness/checks.py``, ``harness/probe.py``), and where the results go.

Used by ``tests/reliability`` and the fault benchmarks (``bench/soak.py``, ``bench/bench_cluster_faults.py``,
``bench/bench_unit_costs.py``).
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.verify import VerifyReport
from harness.checks import check_truth, dead_letters, progress, verify_index
from harness.probe import Probe, Window, retrieval_problems, summarise_probes

if TYPE_CHECKING:
    from harness.pipeline import Pipeline

REPO = Path(__file__).resolve().parents[1]
RESULTS_DIR = REPO / "var" / "reliability"
RUN_RESULTS: list[ScenarioResult] = []  # every scenario of this process, for the results file


@dataclass
class ScenarioResult:
    name: str
    fault: str
    seed: int
    ok: bool = False
    fault_at_sec: float = 0.0  # after the scenario's traffic started
    fault_duration_sec: float = 0.0
    recovery_sec: float | None = None  # fault end -> every message final and indexed
    verify_clean_sec: float | None = None  # fault end -> verify reports no drift
    messages: int = 0  # delivered in this scenario
    messages_total: int = 0
    undelivered: int = 0
    retrieval: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class ScenarioContext:
    """What a fault function uses: the pipeline, a seeded rng, and marks of the fault's timeline."""

    def __init__(self, pipeline: Pipeline, rng: random.Random) -> None:
        self.pipeline = pipeline
        self.rng = rng
        self.fault_start: float | None = None
        self.fault_end: float | None = None
        self.windows: list[Window] = []
        self.details: dict[str, Any] = {}

    def begin(self) -> None:
        self.fault_start = time.monotonic()

    def end(self) -> None:
        self.fault_end = time.monotonic()

    def window(self, kind: str) -> Window:
        w = Window(kind, time.monotonic())
        self.windows.append(w)
        return w

    # ready-made faults -------------------------------------------------------------------------------
    def kill_and_restart(self, names: Sequence[str], downtime: tuple[float, float] = (0.5, 2.0)) -> None:
        """``kill -9`` the named children at once, wait a random downtime, start them again."""
        sup = self.pipeline.supervisor
        api_window = None
        self.begin()
        for name in names:
            if name.startswith("api"):
                api_window = self.window("api_down")
            sup.kill(name)
        pause = self.rng.uniform(*downtime)
        self.details["killed"] = list(names)
        self.details["downtime_sec"] = round(pause, 2)
        time.sleep(pause)
        for name in names:
            process, index = name.rsplit("-", 1)
            sup.start(process, int(index), extra_env=self.pipeline.extra_env.get(name))
        self.end()
        if api_window is not None:
            self.pipeline.wait_api(90)
            api_window.end = time.monotonic() + 0.5


def warm_up(pipeline: Pipeline, timeout: float = 240.0) -> float:
    """Every user states job and allergy; wait until processed (the consumers have joined)."""
    t0 = time.monotonic()
    pipeline.traffic.publish_round()
    pipeline.traffic.publish_round()
    pipeline.traffic.settle_deliveries(60)
    ok, state, _ = pipeline.wait_settled(pipeline.traffic.delivered, timeout)
    if not ok:
        raise AssertionError(f"pipeline did not settle at warm-up: {state} "
                             f"(logs: {pipeline.supervisor.log_dir})")
    problems = check_truth(pipeline.sessions, pipeline.traffic.delivered)
    if problems:
        raise AssertionError("warm-up: " + "; ".join(problems[:10]))
    pipeline.checked_upto = len(pipeline.traffic.sent)
    return time.monotonic() - t0


def run_scenario(pipeline: Pipeline, name: str, fault: Callable[[ScenarioContext], None], *, seed: int,
                 description: str = "", lead: tuple[float, float] = (1.0, 3.0), tail: float = 0.0,
                 settle_timeout: float = 180.0,
                 strict_history: bool = True, drift_timeout: float = 60.0,
                 check_retrieval: Callable[[ScenarioContext, list[Probe]], list[str]] | None = None
                 ) -> ScenarioResult:
    """Traffic on; after a random lead inflict ``fault`` (it marks begin/end); ``tail`` more seconds of
    traffic; traffic off; measure recovery; check every invariant. Never raises for a failed
    invariant: the result lists the problems (the test asserts on them)."""
    rng = random.Random(seed)
    ctx = ScenarioContext(pipeline, rng)
    result = ScenarioResult(name, description or name, seed)
    first = len(pipeline.traffic.sent)
    t_start = time.monotonic()
    pipeline.traffic.start()
    lead_sec = rng.uniform(*lead)
    time.sleep(lead_sec)
    try:
        fault(ctx)
    finally:
        if ctx.fault_start is None:
            ctx.begin()
        if ctx.fault_end is None:
            ctx.end()
        for w in ctx.windows:
            if w.end is None:
                w.end = time.monotonic()
    with contextlib.suppress(Exception):  # the database may still be recovering
        at_end = progress(pipeline.sessions, pipeline.traffic.sent)
        result.details["backlog_at_fault_end"] = at_end.messages - at_end.processed
    if tail:
        time.sleep(tail)
    pipeline.traffic.pause()
    assert ctx.fault_start is not None and ctx.fault_end is not None
    result.fault_at_sec = round(ctx.fault_start - t_start, 2)
    result.fault_duration_sec = round(ctx.fault_end - ctx.fault_start, 2)
    result.details.update(ctx.details)
    delivered = pipeline.traffic.delivered
    result.messages = sum(1 for s in pipeline.traffic.sent[first:] if s.delivered)
    result.messages_total = len(delivered)
    result.undelivered = len(pipeline.traffic.undelivered)
    if pipeline.traffic.undelivered:
        result.problems.append(f"{len(pipeline.traffic.undelivered)} messages not accepted by Kafka: "
                               f"{pipeline.traffic.undelivered[0].error}")

    ok, state, peaks = pipeline.wait_settled(delivered, settle_timeout)
    settled_at = time.monotonic()
    result.details["peaks_while_recovering"] = peaks
    if ok:
        result.recovery_sec = round(settled_at - ctx.fault_end, 2)
    else:
        result.problems.append(f"not settled {settle_timeout:.0f}s after the fault: {state}")
    pipeline.strict_history = pipeline.strict_history and strict_history
    result.problems.extend(check_truth(pipeline.sessions, delivered, strict_history=pipeline.strict_history))

    # PostgreSQL and Milvus agree, within a bound
    deadline = time.monotonic() + drift_timeout
    report: VerifyReport | None = None
    while True:
        try:
            report = verify_index(pipeline.settings, pipeline.sessions)
        except Exception as exc:  # Milvus/PostgreSQL still coming back
            result.details["verify_error"] = f"{type(exc).__name__}: {exc}"[:300]
            report = None
        if report is not None and report.clean:
            result.verify_clean_sec = round(time.monotonic() - ctx.fault_end, 2)
            break
        if time.monotonic() > deadline:
            result.problems.append("verify still finds drift: "
                                   f"{report.as_dict() if report is not None else 'verify failed'}")
            break
        time.sleep(1.0)
    if report is not None:
        result.details["verify"] = {"rows": report.rows, "indexable": report.indexable,
                                    "entries": report.entries, "drift": report.drift}
    dlq = dead_letters(pipeline.settings)
    if any(dlq.values()):
        result.problems.append(f"valid events were dead-lettered: {dlq}")

    probes = pipeline.probe.between(t_start, time.monotonic())
    result.retrieval = summarise_probes(probes, ctx.windows)
    result.problems.extend(retrieval_problems(probes, ctx.windows))
    if check_retrieval is not None:
        result.problems.extend(check_retrieval(ctx, probes))
    result.details.update(ctx.details)
    crashed = [n for n in pipeline.crashed()]
    if crashed:
        result.problems.append(f"service processes died: {crashed} (logs: {pipeline.supervisor.log_dir})")
    result.ok = not result.problems
    pipeline.results.append(result)
    RUN_RESULTS.append(result)
    pipeline.checked_upto = len(pipeline.traffic.sent)
    return result


def write_results(path: Path, payload: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(payload, indent=2, default=str))
    tmp.replace(path)


@contextlib.contextmanager
def pg_watch(url: str) -> Iterator[Any]:
    """An autocommit psycopg connection to watch ``pg_stat_activity``."""
    import psycopg

    from localstack.postgres import libpq_url

    conn = psycopg.connect(libpq_url(url), autocommit=True, connect_timeout=5)
    try:
        yield conn
    finally:
        with contextlib.suppress(Exception):
            conn.close()


def backend_ports(pid: int, pg_port: int) -> set[int]:
    """Local ports of ``pid``'s TCP connections to PostgreSQL (to recognise its backends)."""
    import psutil

    try:
        conns = psutil.Process(pid).net_connections(kind="tcp")
    except (psutil.Error, OSError):
        return set()
    return {c.laddr.port for c in conns if c.raddr and c.raddr.port == pg_port}
