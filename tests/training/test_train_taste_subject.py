"""The noun-subject taste head's hand-written clauses (``training/taste_subject_lines_multi51.py``) and its
shipped weights: both labels in both languages, no line copied from a user turn of a case file or a labelled
public store, the shipped weights fitted on these rows."""

from __future__ import annotations

from pathlib import Path

from core.extraction.taste_subject import TASTE_SUBJECT_BAR, TASTE_SUBJECT_PATH, TasteSubject
from training.hand_rows import copied_lines, has_cjk
from training.train_retraction_intent import rows_sha1
from training.train_taste_subject import taste_subject_rows as rows

REPO = Path(__file__).resolve().parents[2]


def test_the_lines_hold_both_labels_in_both_languages_and_are_unique() -> None:
    got = rows()
    assert {(r["label"], has_cjk(r["text"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    assert len({r["text"] for r in got}) == len(got)
    assert all(r["group"] for r in got)


def test_no_line_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    assert not copied_lines([r["text"] for r in rows()], REPO)


def test_the_shipped_weights_are_the_fit_of_these_rows() -> None:
    head = TasteSubject.load(TASTE_SUBJECT_PATH).head
    assert head.data_sha1 == rows_sha1(rows())
    assert head.bars["bar"] == TASTE_SUBJECT_BAR
