"""The hand-written chat lines of session 31 (``training/instruction_lines_cons50.py``): labelled both ways,
both languages on both sides, every family named ``cons50-…``, weighted ``LINE_WEIGHT`` in the standing
model's fit beside session 30's lines (an arm: ``WITH_CONS50``), and no line a user turn of a case file or a
labelled store statement."""

from __future__ import annotations

from pathlib import Path

from training.hand_rows import copied_lines, has_cjk
from training.instruction_lines_cons49 import rows as cons49_rows
from training.instruction_lines_cons50 import rows
from training.train_standing_instruction import LINE_WEIGHT, WITH_CONS50, row_weights, template_rows

ROOT = Path(__file__).resolve().parents[2]


def test_lines_hold_both_labels_in_both_languages() -> None:
    every = rows()
    assert {(r["label"], has_cjk(r["text"])) for r in every} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(r["group"].startswith("cons50-") and r["text"].strip() for r in every)
    assert len({r["text"] for r in every}) == len(every)


def test_look_alikes_are_at_least_as_many_as_the_rules_of_both_sessions() -> None:
    both = rows() + cons49_rows()
    assert sum(r["label"] == 0 for r in both) >= sum(r["label"] == 1 for r in both)


def test_lines_weigh_as_the_other_written_lines_and_come_with_session_30s() -> None:
    assert not {r["text"] for r in rows()} & {r["text"] for r in template_rows()}
    arm = template_rows(with_cons50=True)
    texts = {r["text"] for r in arm}
    assert {r["text"] for r in rows()} <= texts and {r["text"] for r in cons49_rows()} <= texts
    weights = row_weights(arm)
    lines = {r["text"] for r in rows()}
    assert {float(w) for r, w in zip(arm, weights, strict=True) if r["text"] in lines} == {LINE_WEIGHT}
    if not WITH_CONS50:
        assert not lines & {r["text"] for r in template_rows()}


def test_no_line_is_a_user_turn_of_a_case_file_or_a_labelled_statement() -> None:
    assert not copied_lines([r["text"] for r in rows()], ROOT)
