"""The update-intent model's rows (``training.update_intent_rows_intent40``) and trainer
(``training.train_update_intent``): its out-of-fold bar and the shipped weights' record of it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from training.hand_rows import has_cjk
from training.train_retraction_intent import held_out
from training.train_update_intent import bar_at, fold_of, training_rows
from training.update_intent_rows_intent40 import rows

REPO = Path(__file__).resolve().parents[2]


def test_the_rows_are_distinct_both_labels_every_script_on_each_side() -> None:
    got = rows()
    texts = [r["text"] for r in got]
    assert len(texts) == len(set(texts))
    assert all(r["group"].startswith("i40-") for r in got)
    for label in (0, 1):
        side = [r["text"] for r in got if r["label"] == label]
        assert any(has_cjk(t) for t in side) and any(t.isascii() for t in side)
    assert any(has_cjk(t) and any(c.isascii() and c.isalpha() for c in t)
               for t in (r["text"] for r in got if r["label"] == 1))  # mixed lines


def test_no_row_is_a_sentence_of_a_case_file() -> None:
    hay = "".join(json.dumps(json.loads(line), ensure_ascii=False).casefold()
                  for path in sorted((REPO / "bench" / "data").glob("*_cases.jsonl"))
                  for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    assert not [r["text"] for r in rows() if r["text"].casefold() in hay]


def test_the_rows_are_an_arm_not_the_shipped_fit() -> None:
    shipped = {r["text"] for r in training_rows()}
    assert not shipped & {r["text"] for r in rows()}
    assert {r["text"] for r in rows()} <= {r["text"] for r in training_rows(intent39=True, intent40=True)}


def test_the_bar_is_the_lowest_step_with_the_asked_precision() -> None:
    y = np.array([1, 1, 1, 0, 1, 0, 0, 0] + [1] * 9 + [0])
    p = np.array([0.95, 0.9, 0.8, 0.7, 0.6, 0.4, 0.3, 0.1] + [0.85] * 9 + [0.5])
    bar = bar_at(p, y)
    # 0.50 also takes the negative at 0.5 (13 of 15 right); from 0.51 only the one at 0.7 (13 of 14)
    assert bar["bar"] == 0.51 and bar["precision"] == round(13 / 14, 4) and bar["recall"] == 1.0
    assert bar_at(np.array([0.9, 0.8]), np.array([0, 0]))["bar"] == 0.95  # no bar holds it


def test_seed_zero_splits_as_the_single_held_out_fifth_did() -> None:
    groups = [f"g{i}" for i in range(200)]
    assert [fold_of(g, 0) == 0 for g in groups] == [held_out(g) for g in groups]
    assert [fold_of(g, 0) for g in groups] != [fold_of(g, 1) for g in groups]  # another seed, another split
