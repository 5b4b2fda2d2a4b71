"""The hand-written chat lines of session 16 (``training/instruction_lines_cons29.py``,
``training/retraction_lines_cons29.py``): labelled both ways, both languages on both sides, every family
named, the instruction lines in the standing model's shipped rows (since session 20), the retraction lines
in the intent trainer's arm, and no line is a user turn of
an evaluation case set."""

from __future__ import annotations

from pathlib import Path

import pytest

from training.hand_rows import has_cjk, user_turns
from training.instruction_lines_cons29 import rows as instruction_lines
from training.instruction_lines_cons37 import rows as cons37_lines
from training.retraction_lines_cons29 import rows as retraction_lines
from training.train_retraction_intent import training_rows
from training.train_standing_instruction import template_rows

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"


@pytest.mark.parametrize("lines", [instruction_lines, retraction_lines])
def test_lines_hold_both_labels_in_both_languages(lines) -> None:  # type: ignore[no-untyped-def]
    every = lines()
    assert {(r["label"], has_cjk(r["text"])) for r in every} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(r["group"].startswith("cons29-") and r["text"].strip() for r in every)
    assert len({r["text"] for r in every}) == len(every)


def test_the_trainers_read_the_lines() -> None:
    # the instruction lines are in the standing model's shipped rows since session 20; the retraction lines
    # are an arm, not in the shipped rows
    shipped_lines = instruction_lines() + cons37_lines()
    assert template_rows()[-len(shipped_lines):] == shipped_lines
    assert template_rows(with_lines=False) == template_rows()[:-len(shipped_lines)]
    lines = {r["text"] for r in retraction_lines()}
    assert lines <= {r["text"] for r in training_rows(with_lines=True)}
    assert training_rows(with_lines=True) == training_rows() + retraction_lines()


def test_no_line_is_a_user_turn_of_a_case_set() -> None:
    turns = user_turns(DATA.glob("*_cases.jsonl"))
    lines = {r["text"].strip().lower() for r in [*instruction_lines(), *retraction_lines(), *cons37_lines()]}
    assert not lines & turns
