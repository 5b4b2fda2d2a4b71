"""The wide slot reading's hand-written pairs (``training/slot_lines_upd50.py``) and the value-clause head's
written clauses (``training/value_clause_lines_upd50.py``) with their shipped files
(``core/extraction/data/slot_reading_wide.npz``, ``value_clause.npz``): both labels in both languages, no line
copied from a user turn of a case file or a labelled public store, each shipped file fitted on its lines."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from core.extraction.logistic_head import LogisticHead
from core.extraction.rules.value_clause import DIM, VALUE_CLAUSE_PATH
from core.extraction.slot_reading import SLOT_READING_WIDE_PATH, SlotReading
from training import slot_lines_upd50, value_clause_lines_upd50
from training.hand_rows import copied_lines, has_cjk
from training.train_retraction_intent import rows_sha1

REPO = Path(__file__).resolve().parents[2]


def test_the_slot_lines_hold_both_labels_in_both_languages() -> None:
    got = slot_lines_upd50.rows()
    assert {(r["label"], has_cjk(r["text"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    assert {"pet", "instrument"} <= {r["group"] for r in got}


def test_the_clause_lines_hold_both_labels_in_both_languages() -> None:
    got = value_clause_lines_upd50.rows()
    assert {(r["label"], has_cjk(r["text"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    for group in {r["group"] for r in got}:  # every message has its value clause
        assert any(r["label"] == 1 for r in got if r["group"] == group), group


def test_no_line_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    texts = [t for r in slot_lines_upd50.rows() for t in (r["memory"], r["text"])]
    texts += [t for r in value_clause_lines_upd50.rows() for t in (r["memory"], r["text"], r["message"])]
    assert not copied_lines(list(dict.fromkeys(texts)), REPO)


def test_the_shipped_wide_centroids_are_fitted_on_these_lines() -> None:
    reading = SlotReading.load(SLOT_READING_WIDE_PATH)
    lines = slot_lines_upd50.slot_texts()
    assert reading.slots == tuple(sorted({s for s, _ in lines}))
    assert reading.data_sha1 == hashlib.sha1(json.dumps(lines, ensure_ascii=False).encode()).hexdigest()
    assert np.allclose(np.linalg.norm(reading.centroids, axis=1), 1.0, atol=1e-4)


def test_the_shipped_value_clause_head_is_fitted_on_these_lines() -> None:
    head = LogisticHead.load(VALUE_CLAUSE_PATH, dim=DIM)
    assert head.data_sha1 == rows_sha1(value_clause_lines_upd50.rows())
    assert 0.0 < head.bars["bar"] < 1.0
