"""The dated-change head's trainer (``training.train_dated_change``) and its hand-written lines
(``training/dated_change_lines_past51.py``): both labels in both languages, no line copied from a user turn of
a case file or a labelled public store, the shipped weights fitted on these rows with the shipped bar, and the
bar's rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from core.extraction.dated_change import DATED_CHANGE_BAR, DATED_CHANGE_PATH, DatedChange
from training.dated_change_lines_past51 import rows
from training.hand_rows import copied_lines, has_cjk
from training.train_dated_change import calibrated_bar, row_weights, training_rows
from training.train_retraction_intent import rows_sha1

REPO = Path(__file__).resolve().parents[2]


def test_the_lines_hold_both_labels_in_both_languages_and_are_named() -> None:
    got = rows()
    assert {(r["label"], has_cjk(r["text"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(str(r["group"]).startswith(("past51-change-", "past51-news-")) for r in got)
    assert len({r["text"] for r in got}) == len(got)


def test_no_line_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    assert not copied_lines([r["text"] for r in rows()], REPO)


def test_the_shipped_weights_are_the_fit_of_these_rows_with_the_shipped_bar() -> None:
    head = DatedChange.load(DATED_CHANGE_PATH).head
    assert head.data_sha1 == rows_sha1(training_rows())
    assert head.bars["calibrated_bar"] == DATED_CHANGE_BAR


def test_lines_weigh_more_than_weak_rows_and_the_bar_reads_the_news_lines_only() -> None:
    got = [{"text": "a", "label": 1, "group": "past51-change-move"},
           {"text": "b", "label": 0, "group": "past51-news-meal"},
           {"text": "c", "label": 0, "group": "store-mb-en-02"}]
    w = row_weights(got)
    assert w[0] == w[1] > w[2] == 1.0
    news = [{"text": str(i), "label": 0, "group": "past51-news-trip"} for i in range(20)]
    store = [{"text": "s", "label": 0, "group": "store-x"}]
    p = np.array([0.1] * 19 + [0.72] + [0.99])
    assert calibrated_bar(p, news + store) == 0.5  # 1 news line of 20 (5 %): few enough; store unread
    p2 = np.array([0.1] * 18 + [0.72, 0.66] + [0.99])
    assert calibrated_bar(p2, news + store) == 0.7
