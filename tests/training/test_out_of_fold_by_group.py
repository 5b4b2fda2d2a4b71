"""The out-of-fold split the logistic-head trainers share (``training.train_retraction_intent``)."""

from __future__ import annotations

import zlib

import numpy as np

from training.train_retraction_intent import fit, out_of_fold_by_group


def test_each_row_is_read_by_a_fit_that_never_saw_its_group() -> None:
    rng = np.random.default_rng(0)
    rows = [{"group": f"g{i % 23}"} for i in range(200)]
    x = rng.normal(size=(200, 8)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int64)
    weights = rng.random(200) + 0.5
    p = out_of_fold_by_group(rows, x, y, 50, 0.5, 1e-3, weights)
    fold = np.array([zlib.crc32(r["group"].encode()) % 5 for r in rows])
    for k in range(5):
        unseen = fit(x[fold != k], y[fold != k], 50, 0.5, 1e-3, weights[fold != k])
        assert np.allclose(p[fold == k], unseen.predict_proba(x[fold == k]))
    assert ((p >= 0.5) == (y == 1)).mean() > 0.8  # a learnable label is learned out of fold
