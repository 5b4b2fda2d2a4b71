"""The semantic-dedup thresholds come from the calibration data file (``core/memory/data/``), with the
values that were written in ``core/config.py`` before the file existed."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import (
    DEDUP_CALIBRATION_PATH,
    DEDUP_LEXICAL_MERGE,
    DEDUP_LEXICAL_REUSE,
    DEDUP_THRESHOLDS,
    LOCAL_EMBEDDING_MODEL,
    ConfigError,
    load_dedup_calibration,
)


def test_the_shipped_file_holds_the_calibrated_values() -> None:
    shipped = {"text-embedding-3-small": (0.82, 0.90), "text-embedding-3-large": (0.82, 0.90),
               LOCAL_EMBEDDING_MODEL: (0.96, 0.97)}
    assert shipped == DEDUP_THRESHOLDS
    assert DEDUP_LEXICAL_REUSE == {LOCAL_EMBEDDING_MODEL: (0.90, 0.4)}
    assert DEDUP_LEXICAL_MERGE == {LOCAL_EMBEDDING_MODEL: 0.5}
    assert all(isinstance(v, tuple) for v in (*DEDUP_THRESHOLDS.values(), *DEDUP_LEXICAL_REUSE.values()))
    assert load_dedup_calibration(DEDUP_CALIBRATION_PATH) == (DEDUP_THRESHOLDS, DEDUP_LEXICAL_REUSE,
                                                              DEDUP_LEXICAL_MERGE)


@pytest.mark.parametrize("text", [None, "{", '{"models": {"m": {"reuse": 0.9}}}',
                                  '{"models": {"m": {"reuse": "high", "merge": 0.9}}}'])
def test_an_unreadable_file_is_a_config_error(tmp_path: Path, text: str | None) -> None:
    path = tmp_path / "dedup_calibration.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="dedup calibration"):
        load_dedup_calibration(path)
