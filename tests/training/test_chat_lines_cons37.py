"""The hand-written chat lines of session 20 (``training/instruction_lines_cons37.py``): labelled both ways,
both languages on both sides, every family named ``cons37-…``, weighted ``LINE_WEIGHT`` in the standing
model's fit while template rows weigh 1."""

from __future__ import annotations

from training.hand_rows import has_cjk
from training.instruction_lines_cons37 import rows
from training.train_standing_instruction import LINE_WEIGHT, row_weights, template_rows


def test_lines_hold_both_labels_in_both_languages() -> None:
    every = rows()
    assert {(r["label"], has_cjk(r["text"])) for r in every} == {(0, False), (0, True), (1, False), (1, True)}
    assert all(r["group"].startswith("cons37-") and r["text"].strip() for r in every)
    assert len({r["text"] for r in every}) == len(every)


def test_lines_weigh_more_than_template_rows() -> None:
    shipped = template_rows()
    weights = row_weights(shipped)
    lines = {r["text"] for r in rows()}
    assert LINE_WEIGHT > 1
    assert {float(w) for r, w in zip(shipped, weights, strict=True) if r["text"] in lines} == {LINE_WEIGHT}
    assert set(weights[: len(template_rows(with_lines=False))].tolist()) == {1.0}
