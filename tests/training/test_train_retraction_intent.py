"""The retraction-intent trainer: the shipped weights were fitted on today's rows and carry the calibrated cue
floor the resolver uses; the fit is deterministic and separates a retraction frame from a statement on vectors
it is given (no model needed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from core.extraction.retraction_intent import INTENT_WEIGHTS_PATH, RetractionIntent
from training.train_retraction_intent import fit, rows_sha1
from training.train_retraction_intent import training_rows as rows


def test_the_shipped_weights_match_the_template_rows() -> None:
    shipped = RetractionIntent.load(INTENT_WEIGHTS_PATH)  # they load for the classifier's model and prefix
    assert shipped.head.data_sha1 == rows_sha1(rows()), "templates changed: retrain (training/README.md)"


def test_rows_are_labelled_both_ways_with_frame_groups() -> None:
    every = rows()
    assert {r["label"] for r in every} == {0, 1}
    assert all(r["text"].strip() and r["group"] for r in every)
    assert len({r["text"] for r in every}) > 0.9 * len(every)


def test_the_fit_is_deterministic_and_separates() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(200, 384)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int64)
    a, b = fit(x, y), fit(x, y)
    assert np.array_equal(a.head.weights, b.head.weights) and a.head.bias == b.head.bias
    p = a.predict_proba(x)
    assert float(((p >= 0.5) == (y == 1)).mean()) > 0.95


def test_the_resolver_uses_the_calibrated_cue_floor() -> None:
    from core.extraction.retraction_intent import INTENT_CUE_FLOOR

    assert RetractionIntent.load().head.bars["cue_floor"] == INTENT_CUE_FLOOR


def test_the_cue_floor_lets_most_cued_withdrawals_through() -> None:
    from training.train_retraction_intent import cue_floor

    rows_ = [{"text": "forget that", "label": 1}, {"text": "nvm, scrap the bit about my loan", "label": 1},
             {"text": "forget it, the bus came", "label": 0}]
    out = cue_floor(rows_, np.array([0.9, 0.6, 0.2]))
    assert out["cue_positive_pass"] >= 0.95 and 0.2 < out["cue_floor"] <= 0.6
    assert out["cue_negative_stopped"] == 1.0


def test_a_fit_saves_in_the_heads_format_with_its_provenance(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    x = rng.normal(size=(60, 384)).astype(np.float32)
    model = fit(x, (x[:, 1] > 0).astype(np.int64), steps=50)
    model.save(tmp_path / "i.npz", "f" * 40, {"cue_floor": 0.45}, rows="60")
    again = RetractionIntent.load(tmp_path / "i.npz")
    head = again.head
    assert head.data_sha1 == "f" * 40 and head.bars == {"cue_floor": 0.45} and head.notes == {"rows": "60"}
    assert head.trainer.startswith("python")  # this process's command line
    assert np.allclose(again.predict_proba(x), model.predict_proba(x))  # the bias kept at float32
