"""The classifier's bench scripts: default paths are repo-relative (the corpus is the trainer's,
``training/``) and absent data skips cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import ablation_memory_classifier, eval_rules_offline
from training import train_memory_classifier

REPO = Path(__file__).resolve().parents[2]


def test_default_paths_are_repo_relative() -> None:
    shared = (REPO / ".." / "shared").resolve()
    assert eval_rules_offline.DEFAULT_CASES.resolve() == shared / "eval" / "dev_cases.jsonl"
    assert ablation_memory_classifier.LOCOMO.resolve() == shared / "benchmarks" / "locomo10.json"
    assert train_memory_classifier.CORPUS == ablation_memory_classifier.CORPUS
    assert train_memory_classifier.CORPUS.exists()


def test_absent_cases_skip_cleanly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_rules_offline.main(["--cases", str(tmp_path / "absent.jsonl"), "--classifier", "off"]) == 0
    assert "skipping" in capsys.readouterr().out

