"""The precision model's session-14 template set (``training.utterance_templates_prec27``): what it adds to
the precision corpus with ``PAI_PRECISION_SETS=s14``, and that the default still builds session 13's set
(the shipped weights')."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from training import build_utterance_corpus as corpus
from training.utterance_templates_prec27 import FAMILIES, prec27_template_rows

REPO = Path(__file__).resolve().parents[2]


def test_rows_are_distinct_labelled_and_both_ways() -> None:
    rows = prec27_template_rows()
    texts = [r["text"] for r in rows]
    assert len(texts) == len(set(texts))
    assert all(r["source"] == "template_prec27" for r in rows)
    keeps = [r for r in rows if r["keep"]]
    drops = [r for r in rows if not r["keep"]]
    assert keeps and drops
    assert all(r["type"] in ("fact", "preference") for r in keeps)
    assert all(r["type"] is None for r in drops)
    # both languages in every family
    for family, _, _, _ in FAMILIES:
        fam = [r["text"] for r in rows if r["family"] == family]
        assert any(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in fam), family
        assert any(t.isascii() for t in fam), family


def test_precision_rows_add_the_set_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAI_PRECISION_SETS", raising=False)
    without = corpus.precision_rows()
    monkeypatch.setenv("PAI_PRECISION_SETS", "s14")
    with_set = corpus.precision_rows()
    assert len(with_set) == len(without) + len(prec27_template_rows())
    assert not any(r["source"] == "template_prec27" for r in without)


def test_no_row_is_a_sentence_of_the_prec27_cases() -> None:
    hay = "".join(
        json.dumps(json.loads(line), ensure_ascii=False).casefold()
        for name in ("prec27_tune_cases.jsonl", "prec27_check_cases.jsonl")
        for line in (REPO / "bench" / "data" / name).read_text(encoding="utf-8").splitlines())
    assert not [r["text"] for r in prec27_template_rows() if r["text"].casefold() in hay]
