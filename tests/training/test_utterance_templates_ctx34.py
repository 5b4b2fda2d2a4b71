"""The precision model's session-19 rows (``training.utterance_templates_ctx34``): messages after a short
acknowledgement and answers in the words of the assistant's question, built into the precision corpus only
with ``PAI_PRECISION_SETS=s19``; its short acknowledgements join the trainer's neutral turns only when
asked."""

from __future__ import annotations

import numpy as np
import pytest

from training import train_memory_mlp as trainer
from training.utterance_templates_ctx34 import FAMILIES, SHORT_ACKS_EN, SHORT_ACKS_ZH, ctx34_template_rows
from training.utterance_templates_prec28 import NEUTRAL_PREVS_EN, NEUTRAL_PREVS_ZH


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
