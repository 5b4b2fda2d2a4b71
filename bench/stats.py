"""Statistics of the benchmark suite: percentiles (numpy's default method), latency summaries, ratios.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile ``q`` in [0, 100] (numpy's default method)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def latency_summary(values_ms: Sequence[float]) -> dict[str, float]:
    """p50/p95/p99/mean/max (ms, 3 decimals) and n of a latency sample."""
    if not values_ms:
        return {"n": 0}
    return {
        "n": len(values_ms),
        "p50": round(percentile(values_ms, 50), 3),
        "p95": round(percentile(values_ms, 95), 3),
        "p99": round(percentile(values_ms, 99), 3),
        "mean": round(statistics.fmean(values_ms), 3),
        "max": round(max(values_ms), 3),
    }


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


def ratio(a: float | None, b: float | None, digits: int = 3) -> float | None:
    if a is None or b is None or not b or math.isnan(a) or math.isnan(b):
        return None
    return round(a / b, digits)
