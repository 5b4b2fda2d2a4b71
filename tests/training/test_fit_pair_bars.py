"""Issue 24, session 24: a retrained pair model ships with the judge's bars refitted on it
(``training.fit_pair_bars``, ``core.extraction.pairs.pair_bar``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from core.extraction.pairs import PAIR_WEIGHTS_PATH, pair_bar, shipped_pair_model
from training.fit_pair_bars import RETRACT_BARS, SUPERSEDE_BARS, carried


def test_a_bar_is_carried_to_the_count_it_passed() -> None:
    old = np.array([0.95, 0.9, 0.85, 0.81, 0.7, 0.6, 0.0])
    new = old - 0.1  # the same order, every probability lower
    assert carried(old, new, 0.80) == 0.71  # four pairs pass either way
    assert int((new >= carried(old, new, 0.80)).sum()) == int((old >= 0.80).sum())
    assert carried(old, old, 0.80) == 0.81  # the same model: the highest bar passing the same pairs


def test_the_bars_of_the_judge_are_the_fits_defaults() -> None:
    from core.extraction.rules import judge_retract, judge_supersede

    for name, value in SUPERSEDE_BARS.items():
        assert getattr(judge_supersede, name) == pair_bar(name, value)
    for name, value in RETRACT_BARS.items():
        assert getattr(judge_retract, name) == pair_bar(name, value)


def test_weights_carry_their_bars(tmp_path: Path) -> None:
    path = tmp_path / "pair.npz"
    shipped_pair_model().save(path, bars=json.dumps({"SUPERSEDE_P": 0.77}))
    assert pair_bar("SUPERSEDE_P", 0.80, path) == 0.77
    assert pair_bar("CROSS_P", 0.90, path) == 0.90  # a bar the file does not hold keeps its default
    assert pair_bar("SUPERSEDE_P", 0.80, tmp_path / "missing.npz") == 0.80
    assert PAIR_WEIGHTS_PATH.exists()


def test_an_ensemble_reads_the_mean_of_its_members() -> None:
    from core.extraction.pairs import FEATURES, PairEnsemble

    model = shipped_pair_model()
    if type(model) is not PairEnsemble:
        rng = np.random.default_rng(0)
        old, new = rng.normal(size=(3, 384)).astype(np.float32), rng.normal(size=(3, 384)).astype(np.float32)
        olds = ["I live in Lyon", "我养了一只猫", "I use vim"]
        news = ["moved to Oslo", "现在养两只了", "on emacs now"]
        twice = PairEnsemble.of((model, model))
        feats = twice.features(old, new, olds, news, new)
        assert feats.shape == (3, 2 * model.w1.shape[0])
        assert model.w1.shape[0] >= FEATURES
        np.testing.assert_allclose(twice.predict_proba(feats), model.predict_proba(
            model.features(old, new, olds, news, new)), atol=1e-12)
