"""A warm start of the MLP trainer (``train_memory_mlp.fit_mlp(init=...)``, ``--init``; issue 24, session 20):
the fit starts from the given model's weights and keeps its centre, so it moves less than a fit from the
seed."""

from __future__ import annotations

import numpy as np

from training import train_memory_mlp as trainer


def test_a_warm_start_keeps_the_centre_and_moves_less_than_a_cold_fit() -> None:
    rng = np.random.default_rng(0)
    feats = rng.normal(size=(80, 8))
    y = rng.integers(0, len(trainer.LABELS), 80)
    first = trainer.fit_mlp(feats, y, False, hidden=4, epochs=1)
    shifted = feats + 3.0  # new rows whose own centre differs
    warm = trainer.fit_mlp(shifted, y, False, hidden=4, init=first)
    cold = trainer.fit_mlp(shifted, y, False, hidden=4)
    assert np.allclose(warm.mean, first.mean)  # the init's centre, not the new rows'
    assert not np.allclose(cold.mean, first.mean)
    assert np.abs(warm.w1 - first.w1).mean() < np.abs(cold.w1 - first.w1).mean()
