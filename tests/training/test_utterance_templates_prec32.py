"""The precision model's session-18 rows (``training.utterance_templates_prec32``): messages with the
assistant's turn before them, built into the precision corpus only with ``PAI_PRECISION_SETS=s18`` (beside
sessions 15's and 16's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from training import build_utterance_corpus as corpus
from training.utterance_templates_prec28 import prec28_template_rows
from training.utterance_templates_prec29 import prec29_template_rows
from training.utterance_templates_prec32 import FAMILIES, prec32_template_rows

REPO = Path(__file__).resolve().parents[2]


def _zh(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_rows_are_distinct_labelled_both_ways_and_carry_the_turn_before() -> None:
    rows = prec32_template_rows()
    texts = [r["text"] for r in rows]
    assert len(texts) == len(set(texts))
    assert all(r["source"] == "template_prec32" and r["prev"] and r["prev"] != r["text"] for r in rows)
    assert {r["keep"] for r in rows} == {True, False}
    assert all((r["type"] is None) is (not r["keep"]) for r in rows)
    for family, _, _, _ in FAMILIES:  # both languages in every family, the turn before in the row's language
        fam = [r for r in rows if r["family"] == family]
        assert any(_zh(r["text"]) for r in fam) and any(r["text"].isascii() for r in fam), family
        assert all(_zh(r["text"]) == _zh(r["prev"]) for r in fam), family


def test_precision_rows_add_the_three_context_sets_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAI_PRECISION_SETS", raising=False)
    without = corpus.precision_rows()
    monkeypatch.setenv("PAI_PRECISION_SETS", "s16")
    assert not any(r["source"] == "template_prec32" for r in corpus.precision_rows())
    monkeypatch.setenv("PAI_PRECISION_SETS", "s18")
    with_set = corpus.precision_rows()
    assert len(with_set) == len(without) + len(prec28_template_rows()) + len(prec29_template_rows()) + \
        len(prec32_template_rows())
    assert not any(r["source"] == "template_prec32" for r in without)


def test_no_row_is_a_sentence_of_a_case_file() -> None:
    hay = "".join(json.dumps(json.loads(line), ensure_ascii=False).casefold()
                  for path in sorted((REPO / "bench" / "data").glob("*_cases.jsonl"))
                  for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    assert not [r["text"] for r in prec32_template_rows() if r["text"].casefold() in hay]


def test_new_topic_openings_are_labelled_by_what_they_tell_and_plans_by_their_horizon() -> None:
    rows = prec32_template_rows()
    by = {f: [r for r in rows if r["family"] == f] for f, _, _, _ in FAMILIES}
    keeps = ("new_topic_durable_taste", "new_topic_durable_fact", "new_topic_long_run_aim", "long_run_goal")
    assert all(r["keep"] for f in keeps for r in by[f])
    assert not any(r["keep"] for f in ("new_topic_day", "plan_of_the_moment") for r in by[f])
    # the same closing turns open both a durable and a day message: the turn alone cannot decide
    closes = {r["prev"] for r in by["new_topic_day"]}
    assert len(closes & {r["prev"] for r in by["new_topic_durable_taste"]}) >= 10
