"""The asked-turn head's trainer (``training.train_asked_turn``) and its written (question, answer) pairs
(``training/asked_turn_lines_prec51.py``): both labels in both languages, for questions about now and about
lasting things; no line copied from a user turn of a case file or a labelled public store; the weak rows keep
their lines' labels and give the day's news a question about now; the shipped weights are the fit of these
rows (the polite-register pairs left out, ``POLITE``), their calibrated bar at or over the shipped one."""

from __future__ import annotations

from pathlib import Path

from core.extraction.asked_turn import ASKED_TURN_DROP, ASKED_TURN_PATH, AskedTurn
from training.asked_turn_lines_prec51 import LAST_EN, LAST_ZH, NOW_EN, NOW_ZH, rows, weak_rows
from training.hand_rows import copied_lines, has_cjk
from training.rescue_turn_lines_prec48 import rows as prec48_rows
from training.train_asked_turn import training_rows
from training.train_retraction_intent import rows_sha1

REPO = Path(__file__).resolve().parents[2]


def test_the_pairs_hold_both_labels_in_both_languages_after_both_kinds_of_question() -> None:
    got = rows()
    assert {(r["label"], has_cjk(r["text"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(str(r["question"]).rstrip().endswith(("?", "？")) for r in got)
    groups = {str(r["group"]) for r in got}
    # a question about now answered with a lasting thing (0) and a lasting question answered with news (1)
    assert {"prec51-zh-now-lasting", "prec51-en-now-lasting",
            "prec51-zh-last-news", "prec51-en-last-news"} <= groups
    assert len({(r["question"], r["text"]) for r in got}) == len(got)


def test_no_pair_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    assert not copied_lines([str(r["text"]) for r in rows(polite=True)], REPO)


def test_the_weak_rows_keep_their_labels_and_ask_the_days_news_about_now() -> None:
    lines = prec48_rows()
    weak = weak_rows(lines)
    assert [r["label"] for r in weak] == [r["label"] for r in lines]
    now = set(NOW_ZH + NOW_EN)
    assert all(r["question"] in now for r in weak if r["label"] == 1)
    lasting_questions = {r["question"] for r in weak if r["label"] == 0}
    assert lasting_questions & now and lasting_questions & set(LAST_ZH + LAST_EN)


def test_the_shipped_weights_are_the_fit_of_these_rows() -> None:
    head = AskedTurn.load(ASKED_TURN_PATH).head
    assert head.data_sha1 == rows_sha1(training_rows())
    assert head.bars["calibrated_bar"] >= ASKED_TURN_DROP  # the shipped bar is under it (see ASKED_TURN_DROP)
