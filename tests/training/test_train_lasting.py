"""The lasting-statement head's rows (``training.lasting_rows_miss41``) and trainer
(``training.train_lasting``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from core.extraction.lasting import LASTING_KEEP, LASTING_PATH, Lasting
from training.hand_rows import has_cjk
from training.lasting_rows_miss41 import rows
from training.train_lasting import calibrated_bar, readable, training_rows
from training.train_retraction_intent import rows_sha1

REPO = Path(__file__).resolve().parents[2]


def test_rows_are_distinct_both_labels_both_scripts() -> None:
    got = rows()
    texts = [str(r["text"]) for r in got]
    assert len(texts) == len(set(texts))
    for label in (0, 1):
        side = [str(r["text"]) for r in got if r["label"] == label]
        assert any(has_cjk(t) for t in side) and any(t.isascii() for t in side)
    assert all(str(r["group"]).startswith("miss41_") for r in got)


def test_no_row_is_a_sentence_of_a_case_file() -> None:
    hay = "".join(json.dumps(json.loads(line), ensure_ascii=False).casefold()
                  for path in sorted((REPO / "bench" / "data").glob("*_cases.jsonl"))
                  for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    assert not [r["text"] for r in training_rows() if str(r["text"]).casefold() in hay]


def test_the_bar_is_the_lowest_step_with_the_asked_precision() -> None:
    y = np.array([1] * 9 + [0, 1, 0, 0])
    p = np.array([0.95, 0.9, 0.9, 0.85, 0.8, 0.8, 0.75, 0.7, 0.7, 0.65, 0.6, 0.4, 0.3])
    bar = calibrated_bar(p, y)
    assert bar["bar"] == 0.45 and bar["precision"] == 0.9091 and bar["other_kept"] == 0.3333


def test_the_head_reads_only_what_the_gate_lets_it() -> None:
    assert readable("i mostly work from a tiny desk in the spare room")
    assert not readable("can you recommend a good desk lamp?")  # a question: never a rescue at the plain bar
    assert not readable("I work as a nurse")  # a rule fires


def test_the_shipped_weights_are_the_trainers_on_these_rows_at_their_bar() -> None:
    head = Lasting.load(LASTING_PATH).head
    assert head.data_sha1 == rows_sha1(training_rows())
    assert head.bars["calibrated_bar"] == LASTING_KEEP
