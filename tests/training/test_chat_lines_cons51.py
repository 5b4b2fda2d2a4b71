"""The hand-written chat lines of session 32 (``training/instruction_lines_cons51.py``): labelled both ways,
both languages on both sides, every family named ``cons51-…``, weighted ``LINE_WEIGHT`` in the standing
model's arm (``WITH_CONS51``, off: not in the shipped rows), and no line a user turn of a case file or a
labelled store statement."""

from __future__ import annotations

from pathlib import Path

from training.hand_rows import copied_lines, has_cjk
from training.instruction_lines_cons51 import rows
from training.train_standing_instruction import LINE_WEIGHT, WITH_CONS51, row_weights, template_rows

ROOT = Path(__file__).resolve().parents[2]


def test_lines_hold_both_labels_in_both_languages() -> None:
    every = rows()
    assert {(r["label"], has_cjk(r["text"])) for r in every} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(r["group"].startswith("cons51-") and r["text"].strip() for r in every)
    assert sum(r["label"] == 0 for r in every) > sum(r["label"] == 1 for r in every)


def test_the_arm_holds_the_lines_at_the_line_weight() -> None:
    arm = template_rows(with_cons51=True)
    lines = {r["text"] for r in rows()}
    assert lines <= {r["text"] for r in arm}
    weights = row_weights(arm)
    assert {float(w) for r, w in zip(arm, weights, strict=True) if r["text"] in lines} == {LINE_WEIGHT}
    if not WITH_CONS51:
        assert not lines & {r["text"] for r in template_rows()}


def test_no_line_is_a_user_turn_of_a_case_file_or_a_labelled_statement() -> None:
    assert not copied_lines([r["text"] for r in rows()], ROOT)
