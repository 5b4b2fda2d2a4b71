"""The hand-written chat lines of session 30 (``training/instruction_lines_cons49.py``): labelled both ways,
both languages on both sides, every family named ``cons49-…``, weighted ``LINE_WEIGHT`` in the standing
model's fit (an arm: ``WITH_CONS49`` is off), and no line a user turn of a case file."""

from __future__ import annotations

import json
from pathlib import Path

from training.hand_rows import has_cjk
from training.instruction_lines_cons49 import rows
from training.train_standing_instruction import LINE_WEIGHT, WITH_CONS49, row_weights, template_rows

ROOT = Path(__file__).resolve().parents[2]


def test_lines_hold_both_labels_in_both_languages() -> None:
    every = rows()
    assert {(r["label"], has_cjk(r["text"])) for r in every} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(r["group"].startswith("cons49-") and r["text"].strip() for r in every)
    assert len({r["text"] for r in every}) == len(every)


def test_lines_weigh_as_the_other_written_lines_and_are_an_arm() -> None:
    assert not WITH_CONS49  # measured and not shipped (bench/RESULTS.md, session 30)
    assert not {r["text"] for r in rows()} & {r["text"] for r in template_rows()}
    shipped = template_rows(with_cons49=True)
    weights = row_weights(shipped)
    lines = {r["text"] for r in rows()}
    assert {float(w) for r, w in zip(shipped, weights, strict=True) if r["text"] in lines} == {LINE_WEIGHT}


def test_no_line_is_a_user_turn_of_a_case_file() -> None:
    turns: set[str] = set()
    for path in (ROOT / "bench" / "data").glob("*_cases.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                turns |= {t["content"].strip().lower() for t in case.get("conversation", [])
                          if t.get("role") == "user"}
    assert not [r["text"] for r in rows() if r["text"].strip().lower() in turns]
