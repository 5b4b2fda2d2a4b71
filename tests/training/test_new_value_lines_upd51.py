"""The new-value head's hand-written pairs (``training/new_value_lines_upd51.py``) with its shipped file
(``core/extraction/data/new_value.npz``): both labels in both languages, the look-alike families present, no
line copied from a user turn of a case file or a labelled public store, the shipped head fitted on the rows
``training.train_new_value`` reads."""

from __future__ import annotations

from pathlib import Path

from core.extraction.logistic_head import LogisticHead
from core.extraction.rules.new_value import DIM, NEW_VALUE_PATH
from training import new_value_lines_upd51
from training.hand_rows import copied_lines, has_cjk
from training.train_new_value import training_rows
from training.train_retraction_intent import rows_sha1

REPO = Path(__file__).resolve().parents[2]


def test_the_lines_hold_both_labels_in_both_languages() -> None:
    got = new_value_lines_upd51.rows()
    assert {(r["label"], has_cjk(r["text"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    groups = {r["group"] for r in got if r["label"] == 0}
    assert {"side", "other", "once", "maybe", "added", "trip", "end"} <= groups


def test_no_line_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    texts = [t for r in new_value_lines_upd51.rows() for t in (r["memory"], r["text"])]
    assert not copied_lines(list(dict.fromkeys(texts)), REPO)


def test_the_shipped_head_is_fitted_on_the_trainers_rows() -> None:
    head = LogisticHead.load(NEW_VALUE_PATH, dim=DIM)
    rows = training_rows()
    assert head.data_sha1 == rows_sha1(rows)
    assert {r["source"] for r in rows} == {"upd49", "upd50", "upd51"}
    assert 0.0 < head.bars["bar"] < 1.0
