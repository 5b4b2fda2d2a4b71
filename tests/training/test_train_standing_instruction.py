"""The standing-instruction trainer: the shipped weights were fitted on today's rows (templates of sessions 13
and 15, the utterance corpus's train split, the retraction-intent templates' requests), the rows are labelled
both ways, and the question-ending threshold the trainer calibrates is the one the gate uses."""

from __future__ import annotations

from core.extraction.standing_instruction import (
    STANDING_ADDRESSED,
    STANDING_RESCUE,
    STANDING_WEIGHTS_PATH,
    StandingInstruction,
)
from training.instruction_templates_cons26 import corpus_rows
from training.instruction_templates_cons28 import rows as cons28_rows
from training.train_retraction_intent import rows_sha1
from training.train_standing_instruction import template_rows as rows


def test_the_shipped_weights_match_the_rows() -> None:
    shipped = StandingInstruction.load(STANDING_WEIGHTS_PATH).head.data_sha1
    assert shipped == rows_sha1(rows()), "rows changed: python -m training.train_standing_instruction"


def test_rows_are_labelled_both_ways_and_the_test_split_is_kept_out() -> None:
    every = rows()
    assert {r["label"] for r in every} == {0, 1}
    assert all(r["text"].strip() and r["group"] for r in every)
    train = {r["text"] for r in every}
    held = corpus_rows(split="test")
    assert held and sum(r["text"] in train for r in held) < 0.05 * len(held)


def test_the_gate_uses_the_calibrated_question_threshold() -> None:
    assert StandingInstruction.load(STANDING_WEIGHTS_PATH).head.bars["asked_threshold"] == STANDING_RESCUE


def test_the_rescue_uses_the_calibrated_threshold_for_what_speaks_to_the_assistant() -> None:
    bars = StandingInstruction.load(STANDING_WEIGHTS_PATH).head.bars
    assert bars["addressed_threshold"] == STANDING_ADDRESSED


def test_the_chat_families_hold_rules_and_look_alikes_of_both_languages() -> None:
    chat = cons28_rows()
    groups = {(r["group"].split("-")[1], r["label"]) for r in chat}
    assert groups == {("en", 0), ("en", 1), ("zh", 0), ("zh", 1)}
    assert {r["text"] for r in chat} <= {r["text"] for r in rows()}
