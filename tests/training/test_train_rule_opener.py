"""The rule-opener head's hand-written lines (``training/opener_lines_cons51.py``) and its shipped weights:
both labels in both languages, every group named ``cons51-…``, no line copied from a user turn of a case file
or a labelled public store, the shipped weights fitted on these rows."""

from __future__ import annotations

from pathlib import Path

from core.extraction.rule_opener import RULE_OPENER_BAR, RULE_OPENER_PATH, RuleOpener
from training.hand_rows import copied_lines, has_cjk
from training.train_retraction_intent import rows_sha1
from training.train_rule_opener import rule_opener_rows as rows

REPO = Path(__file__).resolve().parents[2]


def test_the_lines_hold_both_labels_in_both_languages_and_are_named() -> None:
    got = rows()
    assert {(r["label"], has_cjk(r["text"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(str(r["group"]).startswith("cons51-") for r in got)
    assert len({r["text"] for r in got}) == len(got)


def test_complete_messages_outnumber_the_openers() -> None:
    assert sum(r["label"] == 0 for r in rows()) > sum(r["label"] == 1 for r in rows())


def test_no_line_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    assert not copied_lines([r["text"] for r in rows()], REPO)


def test_the_shipped_weights_are_the_fit_of_these_rows() -> None:
    head = RuleOpener.load(RULE_OPENER_PATH).head
    assert head.data_sha1 == rows_sha1(rows())
    assert head.bars["bar"] == RULE_OPENER_BAR
