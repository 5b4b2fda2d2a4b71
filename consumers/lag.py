"""Consumer lag from librdkafka's statistics (the ``stats_cb`` JSON) into ``CONSUMER_LAG``."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from consumers.metrics import CONSUMER_LAG


def record_librdkafka_stats(group: str, stats_json: str) -> None:
    """Update consumer lag gauges from a librdkafka statistics JSON (``stats_cb``).

    Lag is librdkafka's ``consumer_lag``: high watermark minus the group's committed offset (the
    consumer loops commit explicit offsets and never use the offset store, so ``stored_offset`` is
    unset and ``consumer_lag_stored`` is -1). A partition with nothing committed yet has no known
    lag and no series. A partition this member no longer fetches (revoked, lost) loses its series,
    so each partition is reported by its current owner only.
    """
    try:
        stats: dict[str, Any] = json.loads(stats_json)
    except ValueError:
        return
    for topic, tdata in (stats.get("topics") or {}).items():
        for part, pdata in (tdata.get("partitions") or {}).items():
            if part == "-1" or not isinstance(pdata, dict):
                continue
            if pdata.get("fetch_state") in ("none", "stopped") or pdata.get("desired") is False:
                with contextlib.suppress(KeyError):
                    CONSUMER_LAG.remove(group, topic, part)
                continue
            lag = pdata.get("consumer_lag", -1)
            if not isinstance(lag, int) or lag < 0:
                lag = pdata.get("consumer_lag_stored", -1)
            if isinstance(lag, int) and lag >= 0:
                CONSUMER_LAG.labels(group, topic, part).set(lag)
