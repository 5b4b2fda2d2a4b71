"""The precision model's template sets (``training.build_utterance_corpus.precision_rows``): each set is
well formed, enters the precision corpus only under its ``PAI_PRECISION_SETS`` key (beside the sets before
it), and (the context sets) holds no sentence of a case file (prec27's rows are checked against its own
cases only, beside it). The context sets carry the assistant's turn before each row, in the
row's language. What is particular to one set is tested beside it (``test_utterance_templates_<set>.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from training import build_utterance_corpus as corpus
from training import (
    utterance_templates_ctx34,
    utterance_templates_prec27,
    utterance_templates_prec28,
    utterance_templates_prec29,
    utterance_templates_prec32,
    utterance_templates_prec37,
)
from training.hand_rows import has_cjk

REPO = Path(__file__).resolve().parents[2]
Rows = Callable[[], list[dict[str, Any]]]

# (name, its rows, its families, whether its rows carry the turn before)
SETS: dict[str, tuple[Rows, list[tuple[Any, ...]], bool]] = {
    "prec27": (utterance_templates_prec27.prec27_template_rows, utterance_templates_prec27.FAMILIES, False),
    "prec28": (utterance_templates_prec28.prec28_template_rows, utterance_templates_prec28.FAMILIES, True),
    "prec29": (utterance_templates_prec29.prec29_template_rows, utterance_templates_prec29.FAMILIES, True),
    "prec32": (utterance_templates_prec32.prec32_template_rows, utterance_templates_prec32.FAMILIES, True),
    "ctx34": (utterance_templates_ctx34.ctx34_template_rows, utterance_templates_ctx34.FAMILIES, True),
    "prec37": (utterance_templates_prec37.prec37_template_rows, utterance_templates_prec37.FAMILIES, True),
}
# what each key adds to the shipped base rows
KEYS = {"s14": ("prec27",), "s15": ("prec28",), "s16": ("prec28", "prec29"),
        "s18": ("prec28", "prec29", "prec32"), "s19": ("prec28", "prec29", "prec32", "ctx34"),
        "s20": ("prec28", "prec29", "prec32", "ctx34", "prec37")}


@pytest.mark.parametrize("name", SETS)
def test_rows_are_distinct_labelled_both_ways_in_both_languages(name: str) -> None:
    make, families, context = SETS[name]
    rows = make()
    texts = [r["text"] for r in rows]
    assert len(texts) == len(set(texts))
    assert all(r["source"] == f"template_{name}" for r in rows)
    assert {r["keep"] for r in rows} == {True, False}
    assert all((r["type"] is None) is (not r["keep"]) for r in rows)
    for family, *_ in families:  # both languages in every family
        fam = [r for r in rows if r["family"] == family]
        assert any(has_cjk(r["text"]) for r in fam) and any(r["text"].isascii() for r in fam), family
        if context:  # the turn before, in the row's language
            assert all(r["prev"] and r["prev"] != r["text"] for r in fam), family
            assert all(has_cjk(r["text"]) == has_cjk(r["prev"]) for r in fam), family


@pytest.mark.parametrize("key", KEYS)
def test_a_set_enters_the_precision_corpus_only_under_its_key(key: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAI_PRECISION_SETS", raising=False)
    without = corpus.precision_rows()
    monkeypatch.setenv("PAI_PRECISION_SETS", key)
    with_sets = corpus.precision_rows()
    assert len(with_sets) == len(without) + sum(len(SETS[name][0]()) for name in KEYS[key])
    assert {r["source"] for r in with_sets} - {r["source"] for r in without} == \
        {f"template_{name}" for name in KEYS[key]}


@pytest.mark.parametrize("name", [name for name, (_, _, context) in SETS.items() if context])
def test_no_row_of_a_context_set_is_a_sentence_of_a_case_file(name: str) -> None:
    hay = "".join(json.dumps(json.loads(line), ensure_ascii=False).casefold()
                  for path in sorted((REPO / "bench" / "data").glob("*_cases.jsonl"))
                  for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    assert not [r["text"] for r in SETS[name][0]() if r["text"].casefold() in hay]
