"""The companion-remark head's trainer (``training.train_companion_remark``) and its hand-written lines
(``training/companion_lines_prec47.py``): both labels in both languages, no line copied from a user turn of
a case file or a labelled public store, the shipped weights fitted on these rows with the shipped bar, and the
bar's rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from core.extraction.companion_remark import COMPANION_REMARK_DROP, COMPANION_REMARK_PATH, CompanionRemark
from training.companion_lines_prec47 import rows
from training.hand_rows import copied_lines, has_cjk
from training.train_companion_remark import calibrated_bar, training_rows
from training.train_retraction_intent import rows_sha1

REPO = Path(__file__).resolve().parents[2]


def test_the_lines_hold_both_labels_in_both_languages_and_are_named() -> None:
    got = rows()
    assert {(r["label"], has_cjk(r["text"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(str(r["group"]).startswith("prec47-") for r in got)
    assert len({r["text"] for r in got}) == len(got)


def test_no_line_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    assert not copied_lines([r["text"] for r in rows()], REPO)


def test_the_shipped_weights_are_the_fit_of_these_rows_with_the_shipped_bar() -> None:
    head = CompanionRemark.load(COMPANION_REMARK_PATH).head
    assert head.data_sha1 == rows_sha1(training_rows())
    assert head.bars["calibrated_bar"] == COMPANION_REMARK_DROP


def test_the_bar_is_the_lowest_step_with_few_enough_rules_over_it() -> None:
    y = np.array([0] * 300 + [1] * 3)
    p = np.concatenate([np.full(297, 0.1), [0.72, 0.82, 0.88], [0.95, 0.9, 0.6]])
    assert calibrated_bar(p, y) == 0.9  # at 0.85 one rule of 300 (0.33 % > 0.3 %); at 0.90 none
    one_of_401 = np.concatenate([np.full(400, 0.1), [0.88]])  # 0.25 %: already few enough at the first step
    assert calibrated_bar(one_of_401, np.zeros(401, dtype=np.int64)) == 0.5
