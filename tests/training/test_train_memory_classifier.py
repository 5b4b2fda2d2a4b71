"""The logistic classifier's trainer (``training.train_memory_classifier``): a deterministic fit and the
corpus normaliser."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.extraction.classifier import LABELS
from training import train_memory_classifier as trainer


def test_training_is_deterministic(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)  # synthetic separable data: the fit itself is under test
    x = rng.normal(size=(120, 384)).astype(np.float32)
    y = (np.arange(120) % len(LABELS)).astype(np.int64)
    x[np.arange(120), y] += 3.0
    monkeypatch.setattr(trainer, "STEPS", 50)
    a, b = trainer.fit(x, y, 1e-5), trainer.fit(x, y, 1e-5)
    assert np.array_equal(a.weights, b.weights) and np.array_equal(a.bias, b.bias)
    assert float((a.predict_proba(x).argmax(axis=1) == y).mean()) > 0.9


def test_normalise_corpus_refuses_duplicates(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    row = ('{"text": "I like tea", "keep": true, "type": "preference", "family": "preference", '
           '"relation": null}\n')
    corpus.write_text(row + row.replace("I like tea", "I  LIKE tea"), encoding="utf-8")
    with pytest.raises(SystemExit):
        trainer.normalise_corpus(corpus)
    corpus.write_text(row, encoding="utf-8")
    assert trainer.normalise_corpus(corpus) == 1
    text = corpus.read_text(encoding="utf-8")
    assert '"split": ' in text and '"id": "u-' in text
