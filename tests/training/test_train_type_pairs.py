"""The type-pair heads' trainer (``training.train_type_pairs``): their rows and the margin's calibration."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from core.extraction.rules.type_pairs import PAIRS, TypePair
from training.train_retraction_intent import rows_sha1
from training.train_type_pairs import calibrate_margin, sha_rows, training_rows

REPO = Path(__file__).resolve().parents[2]


def test_each_pair_has_both_types_distinct_texts_and_the_conventions() -> None:
    for name, *_ in PAIRS:
        got = training_rows(name)
        texts = [r["text"] for r in got]
        assert len(texts) == len(set(texts)) and {r["label"] for r in got} == {0, 1}
    taste = {r["text"]: r["label"] for r in training_rows("taste_fact")}
    assert taste["I'm vegetarian, no meat or fish"] == 1  # cls43's relabel: a chosen diet is a taste
    assert taste["no pork for me, I'm muslim"] == 0  # a diet of faith is a fact


def test_no_row_is_a_sentence_of_a_case_file() -> None:
    hay = "".join(json.dumps(json.loads(line), ensure_ascii=False).casefold()
                  for path in sorted((REPO / "bench" / "data").glob("*_cases.jsonl"))
                  for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    written = [r["text"] for name, *_ in PAIRS for r in training_rows(name)
               if r["family"].startswith(("conv43_", "ptype40_"))]  # written rows, not the corpus
    assert not [t for t in written if t.casefold() in hay]


def test_the_margin_is_the_one_of_most_net_gain_smallest_on_ties() -> None:
    y = np.array([1, 1, 0, 0, 1])
    oof = np.array([0.9, 0.8, 0.2, 0.7, 0.9])
    pair = np.array([True, True, True, True, False])
    gap = np.array([0.02, 0.3, 0.35, 0.6, 0.01])
    cls_first = np.array([0, 0, 0, 0, 0])
    got = calibrate_margin(oof, y, pair, gap, cls_first)
    assert got["chosen"] == {"margin": 0.35, "gain": 2, "read": 2}
    assert calibrate_margin(oof, y, pair, gap, cls_first, max_margin=0.1)["chosen"]["margin"] == 0.05


def test_the_shipped_weights_are_the_trainers_on_these_rows() -> None:
    for name, _, _, path in PAIRS:
        head = TypePair.load(path).head
        assert head.data_sha1 == rows_sha1(sha_rows(training_rows(name)))
        assert 0.0 <= head.bars["margin"] <= 1.0
