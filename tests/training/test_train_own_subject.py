"""The own-subject head's hand-written clauses (``training/own_subject_lines_multi48.py`` and
``..._multi49.py``) and its shipped weights: both labels in both languages, no line copied from a user turn of
a case file or a labelled public store, the shipped weights fitted on these rows."""

from __future__ import annotations

from pathlib import Path

from core.extraction.own_subject import OWN_SUBJECT_BAR, OWN_SUBJECT_PATH, OwnSubject
from training.hand_rows import copied_lines, has_cjk
from training.own_subject_lines_multi48 import rows as multi48_rows
from training.train_own_subject import own_subject_rows as rows
from training.train_retraction_intent import rows_sha1

REPO = Path(__file__).resolve().parents[2]


def test_the_lines_hold_both_labels_in_both_languages_and_are_named() -> None:
    got = rows()
    assert {(r["label"], has_cjk(r["text"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(str(r["group"]).startswith(("multi48-", "multi49-")) for r in got)
    assert got[: len(multi48_rows())] == multi48_rows()
    assert len({r["text"] for r in got}) == len(got)


def test_no_line_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    assert not copied_lines([r["text"] for r in rows()], REPO)


def test_the_shipped_weights_are_the_fit_of_these_rows() -> None:
    head = OwnSubject.load(OWN_SUBJECT_PATH).head
    assert head.data_sha1 == rows_sha1(rows())
    assert head.bars["bar"] == OWN_SUBJECT_BAR
