"""The MLP classifier's trainer (``training.train_memory_mlp``): a deterministic fit and its ECE."""

from __future__ import annotations

import numpy as np
import pytest

from core.extraction.classifier import LABELS
from training import train_memory_mlp as trainer


def test_mlp_training_is_deterministic() -> None:
    rng = np.random.default_rng(5)
    x = rng.normal(size=(90, 384))
    y = (np.arange(90) % len(LABELS)).astype(np.int64)
    x[np.arange(90), y] += 3.0
    a = trainer.fit_mlp(x, y, context=False, hidden=8, epochs=5)
    b = trainer.fit_mlp(x, y, context=False, hidden=8, epochs=5)
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    assert trainer.ece(np.array([0.9, 0.9]), np.array([True, False])) == pytest.approx(0.4)
