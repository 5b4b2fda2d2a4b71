"""``bench/capacity_model.py``: the per-figure median of several unit-cost runs, and the model built on it."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bench.capacity_model import deployment, load, median_of, partition_count, per_process_rate


def _run(extractor: float, wal: int, load: float) -> dict[str, Any]:
    return {"started_at": f"run-{extractor}", "args": {"rate": 20.0, "rules_only": False},
            "llm_message": {"units": 320, "cpu_ms_per_unit": {"extractor": extractor, "postgres": 3.0},
                            "wal_bytes_per_unit": wal},
            "machine": {"cpus": 2, "load_avg": [load, load, load]}}


def test_median_of_takes_each_figure_apart_and_names_the_runs() -> None:
    runs = [_run(18.0, 15000, 10.0), _run(12.0, 11000, 20.0), _run(30.0, 13000, 15.0)]
    m = median_of(runs)
    assert m["llm_message"]["cpu_ms_per_unit"]["extractor"] == 18.0
    assert m["llm_message"]["wal_bytes_per_unit"] == 13000
    assert isinstance(m["llm_message"]["wal_bytes_per_unit"], int)
    assert m["llm_message"]["cpu_ms_per_unit"]["postgres"] == 3.0
    assert m["args"] == {"rate": 20.0, "rules_only": False}  # not numbers-as-flags averaged away
    assert m["machine"]["load_avg"] == [15.0, 15.0, 15.0]
    assert [r["started_at"] for r in m["median_of"]] == ["run-18.0", "run-12.0", "run-30.0"]


def test_median_of_two_is_their_mean_and_the_process_rate_follows_it() -> None:
    m = median_of([_run(10.0, 1, 1.0), _run(30.0, 3, 1.0)])
    assert m["llm_message"]["cpu_ms_per_unit"]["extractor"] == 20.0
    # 60 % of a core / 20 ms = 30 msgs/s, under the 32-in-flight bound
    assert per_process_rate(m) == 30.0


def test_partition_rule_and_the_deployment_thresholds_follow_the_settings() -> None:
    assert [partition_count(n) for n in (1, 3, 4, 5, 33, 477)] == [6, 8, 8, 16, 128, 1024]
    data = load()
    slow = deployment(data, debounce_sec=12, index_flush_wait_sec=0.2, index_batch_size=32)
    fast = deployment(data, debounce_sec=0, index_flush_wait_sec=0.2, index_batch_size=32)
    # a record waits the debounce before its burst is extracted and its offset committed: a shorter
    # debounce holds less lag per process, so KEDA must scale out at a smaller lag
    assert slow["extractor"]["hold_sec"] - fast["extractor"]["hold_sec"] == 12
    assert fast["extractor"]["lag_threshold"] == math.ceil(per_process_rate(data) * 1.5)
    assert slow["extractor"]["lag_threshold"] > 8 * fast["extractor"]["lag_threshold"]
    assert slow["indexer"] == fast["indexer"] and slow["partitions"] == fast["partitions"]
    with pytest.raises(ValueError, match="no row"):
        deployment(data, debounce_sec=12, index_flush_wait_sec=0.2, index_batch_size=32, rate=7)
