"""``bench/run_all.py``'s per-benchmark runner: a timed-out run keeps its finished phases and does not
erase the last complete result."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bench import common, run_all

_SLOW = """
import subprocess, sys, time
from bench.common import save_partial
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
open({pidfile!r}, "w").write(str(child.pid))
save_partial({{"write_2k": {{"ours_per_sec": 12.5}}}})
time.sleep(60)
"""


@pytest.fixture()
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    out = tmp_path / "results"
    monkeypatch.setattr(common, "RESULTS", out)
    monkeypatch.setattr(run_all, "RESULTS", out)
    monkeypatch.setattr(run_all, "BENCH", tmp_path)
    return out


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting for its (re)parent to reap it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _slow_script(tmp_path: Path) -> str:
    script = tmp_path / "slow_bench.py"
    script.write_text(_SLOW.format(repo=str(common.REPO), pidfile=str(tmp_path / "child.pid")))
    return str(script)


def _env() -> dict[str, str]:
    """The environment of a toy benchmark run as a script: it imports ``bench`` from the repository root
    (a real benchmark runs as ``-m bench.NAME`` from there)."""
    return {**os.environ, "PYTHONPATH": str(common.REPO)}


def test_timeout_reports_the_partial_result(results: Path, tmp_path: Path) -> None:
    data = run_all.run_one("toy", [_slow_script(tmp_path)], _env(), timeout=5)
    assert data["error"] == "timed out after 5s"
    assert data["partial"] == {"write_2k": {"ours_per_sec": 12.5}}
    assert json.loads((results / "toy.json").read_text())["partial"]["write_2k"]["ours_per_sec"] == 12.5
    # the service processes a benchmark starts die with it (a leftover API once answered the next run)
    child = int((tmp_path / "child.pid").read_text())
    assert not _running(child)


def test_a_failed_run_keeps_the_last_complete_result(results: Path, tmp_path: Path) -> None:
    results.mkdir(parents=True)
    (results / "toy.json").write_text(json.dumps({"benchmark": "toy", "headline": {"x": 1}}))
    data = run_all.run_one("toy", [_slow_script(tmp_path)], _env(), timeout=5)
    assert "error" in data
    assert json.loads((results / "toy.json").read_text()) == {"benchmark": "toy", "headline": {"x": 1}}
    assert json.loads((results / "toy.failed.json").read_text())["error"] == "timed out after 5s"


def test_save_partial_writes_only_where_run_all_asks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "partial.json"
    monkeypatch.delenv("BENCH_PARTIAL_RESULT", raising=False)
    common.save_partial({"a": 1})
    assert not target.exists()
    monkeypatch.setenv("BENCH_PARTIAL_RESULT", str(target))
    common.save_partial({"a": 2})
    assert json.loads(target.read_text()) == {"a": 2}


def test_a_benchmark_runs_as_a_module_of_the_bench_package() -> None:
    assert common.module_argv(["bench/bench_mem0.py", "--memories", "2"]) == [
        "-m", "bench.bench_mem0", "--memories", "2"]
    assert common.module_argv(["/tmp/toy.py", "--x"]) == ["/tmp/toy.py", "--x"]
