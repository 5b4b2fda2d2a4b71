"""Semantic-dedup calibration per embedding model (``core.memory.dedup``): the cosine thresholds and the
lexical gates, read from the data file the calibration writes; why each value was chosen is in the
``DATASHEET.md`` beside that file."""

from __future__ import annotations

import json
from pathlib import Path

from core.config.errors import ConfigError

# Semantic-dedup thresholds per embedding model (``docs/design.md#semantic-dedup``), read from the data
# file the calibration writes (``python -m training.calibrate_dedup --record``); why each value was
# chosen is in the DATASHEET.md beside it, not here.
DEDUP_CALIBRATION_PATH = Path(__file__).parents[1] / "memory" / "data" / "dedup_calibration.json"


def load_dedup_calibration(
    path: Path = DEDUP_CALIBRATION_PATH,
) -> tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float]], dict[str, float]]:
    """The three per-model tables of ``path``: ``(reuse, merge)`` cosine thresholds, the lexically gated
    reuse rule ``(cosine, overlap)`` and the merge's salient-word overlap (models without a gate or
    merge overlap are absent from those two). Raises ``ConfigError`` naming the file and what is wrong
    when it is missing, is not JSON, lacks a field or holds a value that is not a number."""
    try:
        models = json.loads(path.read_text(encoding="utf-8"))["models"]
        thresholds = {m: (float(v["reuse"]), float(v["merge"])) for m, v in models.items()}
        lexical_reuse = {m: (float(v["lexical_reuse"]["cosine"]), float(v["lexical_reuse"]["overlap"]))
                         for m, v in models.items() if "lexical_reuse" in v}
        lexical_merge = {m: float(v["merge_overlap"]) for m, v in models.items() if "merge_overlap" in v}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"the dedup calibration {path} is unreadable: {exc!r}") from None
    return thresholds, lexical_reuse, lexical_merge


# (reuse, merge) per model: a new candidate at least ``reuse`` close to a memory of the same type reuses
# its key; live copies at least ``merge`` close are merged.
# DEDUP_LEXICAL_REUSE: a second, lexically gated reuse rule per model, (cosine, overlap) - a candidate also
# reuses an existing memory's key when their cosine is at least ``cosine`` AND at least ``overlap`` of the
# salient words of the shorter content are shared (``core.text.salient.overlap``); models absent: no gate.
# DEDUP_LEXICAL_MERGE: the merge's share of salient words besides cosine >= merge, per model.
DEDUP_THRESHOLDS, DEDUP_LEXICAL_REUSE, DEDUP_LEXICAL_MERGE = load_dedup_calibration()

