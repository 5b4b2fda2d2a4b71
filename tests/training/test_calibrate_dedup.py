"""The dedup calibration (``training.calibrate_dedup``) and the file it writes for the service
(``training.calibration_file``): the shipped rule comes from that file, ``--record`` writes it back."""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from core.config import DEDUP_CALIBRATION_PATH, LOCAL_EMBEDDING_MODEL, load_dedup_calibration
from training import calibrate_dedup
from training.calibration_file import ShippedRule, record, shipped_for


def test_the_shipped_rule_is_the_calibration_file() -> None:
    assert shipped_for(LOCAL_EMBEDDING_MODEL) == ShippedRule(0.96, 0.97, (0.90, 0.4), 0.5)
    assert shipped_for("text-embedding-3-small") == ShippedRule(0.82, 0.90, None, None)
    assert shipped_for("a-model-never-calibrated") == ShippedRule(0.82, 0.90, None, None)


def _measured_output() -> dict[str, Any]:
    row = {"threshold": 0.9, "recall": 0.5, "precision": 1.0}
    return {"form": "content", "pairs": {"dup": 2}, "at_reuse": row, "at_merge": row,
            "bootstrap": {}, "lexical_gate": {"shipped_gate": None},
            "shipped": {"all": {}, "updates_reused": 0, "updates": 1}, "source": {"dev_cases": None}}


def test_record_writes_one_model_and_keeps_the_others(tmp_path: Path) -> None:
    path = tmp_path / "dedup_calibration.json"
    shutil.copyfile(DEDUP_CALIBRATION_PATH, path)
    before = load_dedup_calibration(path)
    record(path, LOCAL_EMBEDDING_MODEL, ShippedRule(0.95, 0.98, None, 0.6), _measured_output())
    thresholds, lexical_reuse, lexical_merge = load_dedup_calibration(path)
    assert thresholds[LOCAL_EMBEDDING_MODEL] == (0.95, 0.98)
    assert LOCAL_EMBEDDING_MODEL not in lexical_reuse and lexical_merge[LOCAL_EMBEDDING_MODEL] == 0.6
    assert {m: v for m, v in thresholds.items() if m != LOCAL_EMBEDDING_MODEL} == {
        m: v for m, v in before[0].items() if m != LOCAL_EMBEDDING_MODEL}
    entry = json.loads(path.read_text(encoding="utf-8"))["models"][LOCAL_EMBEDDING_MODEL]
    assert entry["measured"]["form"] == "content" and entry["measured"]["dev_cases"] is False


def test_record_refuses_the_former_index_form() -> None:
    with pytest.raises(SystemExit) as exc:
        calibrate_dedup.main(["--record", "--form", "index"])
    assert exc.value.code == 2


@pytest.mark.parametrize("name", ["calibrate_dedup", "train_memory_classifier", "train_memory_mlp",
                                  "train_pair_model", "build_utterance_corpus"])
def test_every_script_imports_as_a_module_and_answers_help(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    module = importlib.import_module(f"training.{name}")
    with pytest.raises(SystemExit) as exc:
        module.main(["--help"])
    assert exc.value.code == 0
    assert "usage:" in capsys.readouterr().out
