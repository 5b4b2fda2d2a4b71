"""The rescue-turn head's trainer (``training.train_rescue_turn``) and its hand-written chat turns
(``training/rescue_turn_lines_prec48.py``; session 30, ``training/rescue_turn_lines_prec49.py``): both labels
in both languages, each statement cut from its turn, no turn or statement copied from a user turn of a case
file or a labelled public store, the shipped weights fitted on these rows with the shipped bar, and the bar's
rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from core.extraction.rescue_turn import RESCUE_TURN_DROP, RESCUE_TURN_PATH, RescueTurn
from training.hand_rows import copied_lines, has_cjk
from training.rescue_turn_lines_prec48 import rows
from training.rescue_turn_lines_prec49 import rows as prec49_rows
from training.rescue_turn_lines_prec50 import rows as prec50_rows
from training.train_rescue_turn import calibrated_bar, training_rows
from training.train_retraction_intent import rows_sha1

REPO = Path(__file__).resolve().parents[2]


def test_the_lines_hold_both_labels_in_both_languages_and_each_statement_is_cut_from_its_turn() -> None:
    got = rows()
    assert {(r["label"], has_cjk(r["turn"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(r["text"] in r["turn"] for r in got)
    assert all(str(r["group"]).startswith("prec48-") for r in got)
    assert len({r["turn"] for r in got}) == len(got)


def test_no_line_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    texts = [t for r in rows() for t in (r["text"], r["turn"])]
    assert not copied_lines(texts, REPO)


def test_the_session_30_lines_hold_both_labels_in_both_languages_long_turns_included() -> None:
    got = prec49_rows()
    assert {(r["label"], has_cjk(r["turn"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(r["text"] in r["turn"] for r in got)
    assert all(str(r["group"]).startswith("prec49-") for r in got)
    assert len({r["turn"] for r in got} | {r["turn"] for r in rows()}) == len(got) + len(rows())
    # the lasting clauses of long list-style introductions are lines of their own (prec48's guard loss)
    intros = [str(r["turn"]) for r in got if r["label"] == 0 and str(r["group"]).endswith("intro")]
    assert len(intros) >= 20
    assert all(sum(t.count(sep) for sep in ",，、") >= 2 for t in intros)  # three topics or more


def test_no_session_30_line_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    texts = [t for r in prec49_rows() for t in (r["text"], r["turn"])]
    assert not copied_lines(texts, REPO)


def test_the_session_31_lines_hold_both_labels_in_both_languages_and_share_no_turn() -> None:
    got = prec50_rows()
    assert {(r["label"], has_cjk(r["turn"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(r["text"] in r["turn"] for r in got)
    assert all(str(r["group"]).startswith("prec50-") for r in got)
    earlier = {r["turn"] for r in rows() + prec49_rows()}
    assert len({r["turn"] for r in got}) == len(got) and not earlier & {r["turn"] for r in got}
    # the rule paths' families: trips being planned and moods of these days, each beside lasting lines
    groups = {str(r["group"]) for r in got}
    assert {"prec50-zh-plan", "prec50-en-plan", "prec50-zh-mood", "prec50-zh-lasting3"} <= groups


def test_no_session_31_line_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    texts = [t for r in prec50_rows() for t in (r["text"], r["turn"])]
    assert not copied_lines(texts, REPO)


def test_the_shipped_weights_are_the_fit_of_these_rows_with_the_shipped_bar() -> None:
    head = RescueTurn.load(RESCUE_TURN_PATH).head
    assert head.data_sha1 == rows_sha1(training_rows())
    assert head.bars["calibrated_bar"] == RESCUE_TURN_DROP


def test_the_bar_is_the_lowest_step_with_few_enough_lasting_lines_over_it() -> None:
    y = np.array([0] * 40 + [1] * 3)
    p = np.concatenate([np.full(37, 0.1), [0.62, 0.68, 0.72], [0.95, 0.9, 0.6]])
    assert calibrated_bar(p, y) == 0.7  # at 0.65 two of 40 (5 % > 2.5 %); at 0.70 one (2.5 %)
    assert calibrated_bar(np.full(40, 0.1), np.zeros(40, dtype=np.int64)) == 0.5
