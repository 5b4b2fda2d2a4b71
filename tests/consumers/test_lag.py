"""The consumer-lag parser of librdkafka's statistics (``consumers.lag``)."""

from __future__ import annotations

import json

from consumers import metrics as consumer_metrics
from consumers.lag import record_librdkafka_stats


def _stats(partitions: dict[str, dict[str, object]]) -> str:
    return json.dumps({"topics": {"t-unit": {"partitions": {"-1": {"consumer_lag": -1}, **partitions}}}})


def test_lag_comes_from_committed_offsets_and_leaves_with_the_partition() -> None:
    """Unit check of the stats parser with librdkafka's shape for explicitly committed offsets
    (offset store unused: ``stored_offset`` -1001, ``consumer_lag_stored`` -1)."""
    group = "g-unit-lag"
    active = {"fetch_state": "active", "desired": True, "hi_offset": 5, "stored_offset": -1001,
              "committed_offset": 3, "consumer_lag": 2, "consumer_lag_stored": -1}
    fresh = {**active, "committed_offset": -1001, "consumer_lag": -1}  # nothing committed yet
    record_librdkafka_stats(group, _stats({"0": active, "1": fresh}))
    assert consumer_metrics.CONSUMER_LAG.labels(group, "t-unit", "0")._value.get() == 2
    collected = {s.labels["partition"] for fam in consumer_metrics.CONSUMER_LAG.collect() for s in fam.samples
                 if s.labels["group"] == group}
    assert collected == {"0"}
    revoked = {**active, "fetch_state": "none", "desired": False}
    record_librdkafka_stats(group, _stats({"0": revoked}))
    collected = {s.labels["partition"] for fam in consumer_metrics.CONSUMER_LAG.collect() for s in fam.samples
                 if s.labels["group"] == group}
    assert collected == set(), "a revoked partition must stop reporting lag from this member"
    record_librdkafka_stats(group, "not json")  # ignored
