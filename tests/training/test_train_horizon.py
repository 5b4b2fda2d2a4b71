"""The horizon model's rows (``training.horizon_rows_prec34``, the held-out near-date rows of
``training.horizon_rows_hz35``) and trainer (``training.train_horizon``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from core.extraction.horizon import HORIZON_DROP, HORIZON_KEEP, HORIZON_PATH, Horizon
from training.hand_rows import has_cjk
from training.horizon_rows_hz35 import LASTING as NEAR_LASTING
from training.horizon_rows_hz35 import MOMENT as NEAR_MOMENT
from training.horizon_rows_hz35 import rows as near_date_rows
from training.horizon_rows_prec34 import LASTING, MOMENT, rows
from training.train_horizon import calibrated_bar, lasting_bar, near_dated, training_rows
from training.train_retraction_intent import rows_sha1

REPO = Path(__file__).resolve().parents[2]


def test_rows_are_distinct_both_labels_both_scripts_one_group_per_family() -> None:
    got = rows()
    texts = [r["text"] for r in got]
    assert len(texts) == len(set(texts)) == sum(len(v) for v in (*MOMENT.values(), *LASTING.values()))
    assert {r["label"] for r in got} == {0, 1}
    assert {r["group"] for r in got} == {f"h34-{f}" for f in (*MOMENT, *LASTING)}
    for label in (0, 1):
        side = [r["text"] for r in got if r["label"] == label]
        assert any(has_cjk(t) for t in side) and any(t.isascii() for t in side)
        assert any(has_cjk(t) and any(c.isascii() and c.isalpha() for c in t) for t in side)  # mixed lines


def test_no_row_is_a_sentence_of_a_case_file() -> None:
    hay = "".join(json.dumps(json.loads(line), ensure_ascii=False).casefold()
                  for path in sorted((REPO / "bench" / "data").glob("*_cases.jsonl"))
                  for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    assert not [r["text"] for r in training_rows() if r["text"].casefold() in hay]


def test_the_bar_is_the_lowest_step_with_the_asked_precision() -> None:
    y = np.array([1, 1, 1, 0, 1, 0, 0, 0])
    p = np.array([0.95, 0.9, 0.8, 0.7, 0.6, 0.4, 0.3, 0.1])
    bar = calibrated_bar(p, y)
    assert bar["bar"] == 0.75 and bar["precision"] == 1.0 and bar["recall"] == 0.75
    assert bar["lasting_dropped"] == 0.0


def test_the_shipped_weights_are_the_trainers_on_these_rows_at_their_bar() -> None:
    head = Horizon.load(HORIZON_PATH).head
    assert head.data_sha1 == rows_sha1(training_rows())
    assert head.bars["calibrated_bar"] == HORIZON_DROP


def test_the_near_date_rows_are_distinct_both_labels_all_scripts_all_near_dated() -> None:
    got = near_date_rows()
    texts = [r["text"] for r in got]
    families = (*NEAR_MOMENT.values(), *NEAR_LASTING.values())
    assert len(texts) == len(set(texts)) == sum(len(v) for v in families)
    assert {r["group"] for r in got} == {f"hz35-{f}" for f in (*NEAR_MOMENT, *NEAR_LASTING)}
    for label in (0, 1):
        side = [r["text"] for r in got if r["label"] == label]
        assert any(has_cjk(t) for t in side) and any(t.isascii() for t in side)
        assert any(has_cjk(t) and any(c.isascii() and c.isalpha() for c in t) for t in side)
    assert near_dated(texts).all()  # each carries a word of the rules' hard time filter
    assert not set(texts) & {r["text"] for r in training_rows()}  # never fitted: held out whole


def test_no_near_date_row_is_a_sentence_of_a_case_file() -> None:
    hay = "".join(json.dumps(json.loads(line), ensure_ascii=False).casefold()
                  for path in sorted((REPO / "bench" / "data").glob("*_cases.jsonl"))
                  for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    assert not [r["text"] for r in near_date_rows() if r["text"].casefold() in hay]


def test_the_keep_bar_is_the_highest_step_with_the_asked_precision() -> None:
    y = np.array([0, 0, 0, 1, 0, 1, 1])
    p = np.array([0.05, 0.1, 0.2, 0.3, 0.35, 0.6, 0.9])
    bar = lasting_bar(p, y)
    assert bar["bar"] == 0.25 and bar["precision"] == 1.0 and bar["recall"] == 0.75
    assert bar["moment_kept"] == 0.0
    assert lasting_bar(np.array([0.05]), np.array([1]))["bar"] == 0.0


def test_the_shipped_weights_carry_the_keep_bar_on_these_rows() -> None:
    head = Horizon.load(HORIZON_PATH).head
    assert head.notes["calibration_rows_sha1"] == rows_sha1(near_date_rows())
    assert head.bars["lasting_bar"] == HORIZON_KEEP
