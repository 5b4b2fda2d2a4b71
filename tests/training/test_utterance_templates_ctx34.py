"""The precision model's session-19 rows (``training.utterance_templates_ctx34``): messages after a short
acknowledgement and answers in the words of the assistant's question, built into the precision corpus only
with ``PAI_PRECISION_SETS=s19``; its short acknowledgements join the trainer's neutral turns only when
asked."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from training import build_utterance_corpus as corpus
from training import train_memory_mlp as trainer
from training.utterance_templates_ctx34 import FAMILIES, SHORT_ACKS_EN, SHORT_ACKS_ZH, ctx34_template_rows
from training.utterance_templates_prec28 import NEUTRAL_PREVS_EN, NEUTRAL_PREVS_ZH, prec28_template_rows
from training.utterance_templates_prec29 import prec29_template_rows
from training.utterance_templates_prec32 import prec32_template_rows

REPO = Path(__file__).resolve().parents[2]


def _zh(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_rows_are_distinct_typed_when_kept_and_carry_the_turn_before() -> None:
    rows = ctx34_template_rows()
    texts = [r["text"] for r in rows]
    assert len(texts) == len(set(texts))
    assert all(r["source"] == "template_ctx34" and r["prev"] and r["prev"] != r["text"] for r in rows)
    assert all((r["type"] is None) is (not r["keep"]) for r in rows)
    for family, _, _, _ in FAMILIES:  # both languages in every family, the turn before in the row's language
        fam = [r for r in rows if r["family"] == family]
        assert any(_zh(r["text"]) for r in fam) and any(r["text"].isascii() for r in fam), family
        assert all(_zh(r["text"]) == _zh(r["prev"]) for r in fam), family


def test_the_same_short_acknowledgements_open_durable_and_day_messages() -> None:
    rows = ctx34_template_rows()
    durable = {r["prev"] for r in rows if r["family"] == "short_ack_durable"}
    day = {r["prev"] for r in rows if r["family"] == "short_ack_day"}
    assert len(durable & day) >= 12  # the turn alone cannot decide
    assert durable | day <= {*SHORT_ACKS_EN, *SHORT_ACKS_ZH}
    assert all(len(a.split()) <= 5 and len(a) <= 20 for a in SHORT_ACKS_EN)
    assert all(len(a) <= 6 for a in SHORT_ACKS_ZH)


def test_echoes_of_the_question_are_kept_for_the_long_run_and_dropped_for_the_moment() -> None:
    rows = ctx34_template_rows()
    by = {f: [r for r in rows if r["family"] == f] for f, _, _, _ in FAMILIES}
    assert all(r["keep"] and r["type"] == "goal" for r in by["wish_in_question_words"])
    assert all(r["keep"] and r["type"] == "preference" for r in by["taste_in_question_words"])
    assert not any(r["keep"] for r in by["echo_of_the_moment"])


def test_precision_rows_add_the_four_context_sets_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAI_PRECISION_SETS", raising=False)
    without = corpus.precision_rows()
    monkeypatch.setenv("PAI_PRECISION_SETS", "s18")
    assert not any(r["source"] == "template_ctx34" for r in corpus.precision_rows())
    monkeypatch.setenv("PAI_PRECISION_SETS", "s19")
    assert len(corpus.precision_rows()) == len(without) + len(prec28_template_rows()) + \
        len(prec29_template_rows()) + len(prec32_template_rows()) + len(ctx34_template_rows())


def test_no_row_is_a_sentence_of_a_case_file() -> None:
    hay = "".join(json.dumps(json.loads(line), ensure_ascii=False).casefold()
                  for path in sorted((REPO / "bench" / "data").glob("*_cases.jsonl"))
                  for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    assert not [r["text"] for r in ctx34_template_rows() if r["text"].casefold() in hay]


def test_neutral_turns_hold_the_short_acknowledgements_only_when_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_embed(texts: list[str], cache: object) -> np.ndarray:  # one-hot per text: which turn was chosen
        return np.eye(len(texts), dtype=np.float32)

    monkeypatch.setattr(trainer, "embed", fake_embed)
    rows = [{"id": f"r{i}", "lang": "zh" if i % 2 else "en"} for i in range(400)]
    sentences = len(NEUTRAL_PREVS_EN)
    for short_acks in (False, True):
        chosen = trainer._neutral_prevs(rows, None, short_acks).argmax(axis=1)
        en, zh = chosen[::2], chosen[1::2]
        n_en = sentences + (len(SHORT_ACKS_EN) if short_acks else 0)
        assert (en < n_en).all() and (zh >= n_en).all()
        assert bool((en >= sentences).any()) is short_acks  # a short acknowledgement among the English turns
        assert bool((zh - n_en >= len(NEUTRAL_PREVS_ZH)).any()) is short_acks
