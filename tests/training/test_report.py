"""The trainers' shared report pieces: out-of-fold errors and the printed, written JSON report."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from training.report import emit_report, out_of_fold_errors


def test_out_of_fold_errors_lists_the_wrong_side_of_half_most_confident_first() -> None:
    rows = [{"text": "right keep", "label": 1}, {"text": "missed keep", "label": 1},
            {"text": "false keep", "label": 0}, {"text": "right drop", "label": 0}]
    oof = np.array([0.9, 0.4, 0.95, 0.1])
    assert out_of_fold_errors(rows, oof) == ["false keep (0.95, label 0)", "missed keep (0.4, label 1)"]


def test_emit_report_prints_and_writes_the_same_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "report.json"
    emit_report({"rows": 3, "text": "吃素"}, path)
    printed = capsys.readouterr().out
    assert json.loads(printed) == {"rows": 3, "text": "吃素"}
    assert path.read_text(encoding="utf-8") == printed
    emit_report({"rows": 1}, None)
    assert json.loads(capsys.readouterr().out) == {"rows": 1}
