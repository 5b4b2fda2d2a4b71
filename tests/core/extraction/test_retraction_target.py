"""``core.extraction.retraction_target``: the features of a retraction against the live clauses, and the
weights' loading (a missing or foreign file is refused; the shipped loader then gives None)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.extraction.logistic_head import HeadShapeError, LogisticHead
from core.extraction.retraction_target import FEATURES, RetractionTarget, shipped_target, target_features


def test_features_read_a_clause_against_the_others() -> None:
    topic = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    sentence = np.array([0.0, 1.0, 0.0], dtype=np.float32)
    clauses = np.array([[2.0, 0.0, 0.0], [0.0, 1.0, 1.0], [0.0, 0.0, 3.0]], dtype=np.float32)
    x = target_features("medical stuff", topic, sentence, clauses)
    assert x.shape == (3, len(FEATURES))
    cos, lead = x[:, FEATURES.index("cos")], x[:, FEATURES.index("lead")]
    assert cos == pytest.approx([1.0, 0.0, 0.0])  # unit vectors
    assert lead == pytest.approx([1.0, -1.0, -1.0])  # the best other clause's cosine taken away
    assert x[:, FEATURES.index("cjk")].tolist() == [0.0, 0.0, 0.0]
    assert target_features("病的事", topic, sentence, clauses)[0, FEATURES.index("cjk")] == 1.0


def test_a_single_clause_stands_out_from_nothing() -> None:
    one = np.array([[1.0, 0.0]], dtype=np.float32)
    x = target_features("x", one[0], one[0], one)
    assert x[0, FEATURES.index("lead")] == 0.0 and x[0, FEATURES.index("sentence_lead")] == 0.0


def test_weights_of_other_features_are_refused(tmp_path: Path) -> None:
    model = RetractionTarget(LogisticHead.of(np.zeros(len(FEATURES)), 0.0, features=FEATURES,
                                             bars={"accept": 0.9, "veto": 0.25}))
    good = tmp_path / "good.npz"
    model.save(good)
    assert RetractionTarget.load(good).accept == pytest.approx(0.9)
    with np.load(good) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["features"] = np.array(("cos",))
    bad = tmp_path / "bad.npz"
    np.savez(bad, **arrays)
    with pytest.raises(HeadShapeError):
        RetractionTarget.load(bad)
    assert shipped_target(tmp_path / "missing.npz") is None
