"""The retraction-intent trainer: the shipped weights were fitted on today's rows and carry the calibrated cue
floor the resolver uses; the fit is deterministic and separates a retraction frame from a statement on vectors
it is given (no model needed)."""

from __future__ import annotations

import numpy as np

from core.extraction.retraction_intent import INTENT_WEIGHTS_PATH, RetractionIntent
from training.train_retraction_intent import fit, rows_sha1
from training.train_retraction_intent import training_rows as rows


def test_the_shipped_weights_match_the_template_rows() -> None:
    with np.load(INTENT_WEIGHTS_PATH, allow_pickle=False) as data:
        shipped = str(data["rows_sha1"])
    assert shipped == rows_sha1(rows()), "templates changed: python -m training.train_retraction_intent"
    RetractionIntent.load()  # and they load for the classifier's model and prefix


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
    assert np.array_equal(a.weights, b.weights) and a.bias == b.bias
    p = a.predict_proba(x)
    assert float(((p >= 0.5) == (y == 1)).mean()) > 0.95


def test_the_resolver_uses_the_calibrated_cue_floor() -> None:
    from core.extraction.retraction_intent import INTENT_CUE_FLOOR

    with np.load(INTENT_WEIGHTS_PATH, allow_pickle=False) as data:
        assert float(str(data["cue_floor"])) == INTENT_CUE_FLOOR


def test_the_cue_floor_lets_most_cued_withdrawals_through() -> None:
    from training.train_retraction_intent import cue_floor

    rows_ = [{"text": "forget that", "label": 1}, {"text": "nvm, scrap the bit about my loan", "label": 1},
             {"text": "forget it, the bus came", "label": 0}]
    out = cue_floor(rows_, np.array([0.9, 0.6, 0.2]))
    assert out["cue_positive_pass"] >= 0.95 and 0.2 < out["cue_floor"] <= 0.6
    assert out["cue_negative_stopped"] == 1.0
