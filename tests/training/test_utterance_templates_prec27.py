"""The precision model's session-14 template set (``training.utterance_templates_prec27``): what it adds to
the precision corpus with ``PAI_PRECISION_SETS=s14``, and that the default still builds session 13's set
(the shipped weights')."""

from __future__ import annotations

import json
from pathlib import Path

from training.utterance_templates_prec27 import prec27_template_rows

REPO = Path(__file__).resolve().parents[2]


def test_kept_rows_are_facts_or_tastes() -> None:
    assert all(r["type"] in ("fact", "preference") for r in prec27_template_rows() if r["keep"])


def test_no_row_is_a_sentence_of_the_prec27_cases() -> None:
    hay = "".join(
        json.dumps(json.loads(line), ensure_ascii=False).casefold()
        for name in ("prec27_tune_cases.jsonl", "prec27_check_cases.jsonl")
        for line in (REPO / "bench" / "data" / name).read_text(encoding="utf-8").splitlines())
    assert not [r["text"] for r in prec27_template_rows() if r["text"].casefold() in hay]
