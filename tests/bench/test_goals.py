"""The issue 14 goals table (``bench/reporting/goals.py``): each verdict follows the measured value
against the goal's threshold, a goal not met carries its evidence, and a missing measurement says so
instead of passing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.reporting.goals import section_goals

REPO = Path(__file__).resolve().parents[2]


def _ours(per_sec: float) -> dict[str, Any]:
    return {
        "per_sec": per_sec,
        "total_sec": 2000 / per_sec,
        "indexer_stage_sec": {"index_embed": 20.0},
        "cpu_core_sec": {"indexer-0": 30.0, "commands-0": 4.0},
        "cpu_core_sec_available": 80.0,
    }


def _mem0(
    ours_rate: float, bare: float, mem0_rate: float, ours_p50: float, mem0_p50: float
) -> dict[str, Any]:
    write = {
        "memories": 2000,
        "repeats": [{"ours": _ours(ours_rate), "bare_batch_cpu_core_sec": 25.0}],
        "ours_per_sec": ours_rate,
        "mem0_per_sec": mem0_rate,
        "mem0_qdrant_per_sec": mem0_rate,
        "bare_batch_per_sec": bare,
        "ratio_ours_over_mem0": ours_rate / mem0_rate,
        "ratio_ours_over_mem0_qdrant": ours_rate / mem0_rate,
        "ratio_ours_over_bare_batch": ours_rate / bare,
    }
    ms = {"p50": ours_p50, "p95": 0.0, "p99": 0.0}
    search = {
        "ours_inproc_ms": ms,
        "mem0_ms": {"p50": mem0_p50},
        "mem0_qdrant_ms": {"p50": mem0_p50},
        "bare_query_inproc_ms": {"p50": 17.0},
        "ratio_inproc_over_mem0_p50": ours_p50 / mem0_p50,
        "ratio_inproc_over_mem0_qdrant_p50": ours_p50 / mem0_p50,
    }
    return {"params": {"big": 0}, "write_2k": write, "search": search, "command": "bench_mem0 --big 0"}


def _scale(p99: float) -> dict[str, Any]:
    lat = {"p50": 20.0, "p99": p99}
    return {
        "command": "bench_scale --sizes 100000",
        "loadavg_at_start": [3.0, 2.0, 1.0],
        "loadavg_at_end": [4.0, 2.5, 1.5],
        "points": [
            {
                "memories": 100000,
                "milvus_standalone": {
                    "retrieve_ms": lat,
                    "served_by": {"dense": 60},
                    "bare_query_embed_ms": lat,
                    "bare_milvus_search_ms": lat,
                },
            }
        ],
    }


def _rows(text: str) -> dict[str, str]:
    """goal -> its whole table row."""
    return {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines() if line.startswith("| ")}


def test_goals_met_and_not_met_follow_the_measured_values() -> None:
    machine = {
        "nproc": 2,
        "later_partial_runs": [
            {
                "suite_command": "run_all --only mem0",
                "date_utc": "d",
                "suite_seconds": 600,
                "loadavg_at_start": [5.0, 4.0, 3.0],
                "loadavg_at_end": [6.0, 5.0, 4.0],
            }
        ],
    }
    good = _rows(
        section_goals(_mem0(95.0, 100.0, 30.0, 10.0, 200.0), _scale(40.0), None, None, None, None, machine)
    )
    bare_goal = "write path at 2,000 >= 0.9 of the bare embedder in batches"
    assert "| 0.95 | **met** |" in good[bare_goal]
    assert "**met**" in good["write path at 2,000 >= 3x the fair mem0"]
    assert (
        "| 0.050 (10.0 vs 200.0 ms)"
        in good["dense retrieval p50 in process <= 0.1 of the fair mem0 search p50"]
    )
    assert "**met**" in good["dense p99 <= 50 ms at 100k memories on Milvus standalone"]
    fresh_goal = next(k for k in good if k.startswith("freshness p99"))
    assert "not measured" in good[fresh_goal]  # no freshness file: said, not passed
    big = next(k for k in good if k.startswith("write path at 20,000"))
    assert "not run in this run (`--big 0`)" in good[big]

    bad = _rows(
        section_goals(_mem0(50.0, 100.0, 40.0, 30.0, 100.0), _scale(80.0), None, None, None, None, machine)
    )
    assert "| 0.50 | **not met** |" in bad[bare_goal] and "the bare embedder 25.0 core-s" in bad[bare_goal]
    mem0_row = bad["write path at 2,000 >= 3x the fair mem0"]
    assert "**not met**" in mem0_row and "would be 2.50" in mem0_row  # bare 100/s over mem0's 40/s
    search_row = bad["dense retrieval p50 in process <= 0.1 of the fair mem0 search p50"]
    assert "**not met**" in search_row and "p50 17.0 ms) is 0.170 of mem0's best p50" in search_row
    assert "**not met**" in bad["dense p99 <= 50 ms at 100k memories on Milvus standalone"]
    text = section_goals(None, None, None, None, None, None, {})
    assert text.count("not measured") == 3 and "**met**" not in text
    assert "load average 5.0/4.0/3.0" in section_goals(None, _scale(40), None, None, None, None, machine)
