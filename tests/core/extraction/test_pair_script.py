"""Issue 24, session 19: which script each side of a pair is written in (``pairs.script_features``).
Sentences written for this test, none from an evaluation set."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import numpy as np

from core.extraction.pairs import (
    FEATURES,
    RELATIONS,
    SCRIPT_FEATURES,
    PairModel,
    cue_features,
    pair_features,
    script_centred,
    script_centres,
    script_features,
    script_share,
    shipped_pair_model,
)


def test_the_share_of_chinese_is_0_for_english_1_for_chinese_and_between_for_mixed() -> None:
    assert script_share("i moved to Boise last spring") == 0.0
    assert script_share("我搬到福州了") == 1.0
    mixed = script_share("搬去 Boise 了")
    assert 0.0 < mixed < 1.0
    assert script_share("🙂 !!") == 0.0


def test_a_chinese_memory_against_a_mixed_line_is_no_longer_the_same_script() -> None:
    old, new = "我住在福州", "上个月 moved to Boise 了"
    # the compact cue reads "same script" (both hold a Chinese character)
    assert cue_features(old, new)[6] == 1.0
    feats = script_features([old, "i live in Tulsa"], [new, "moved to Boise"])
    assert feats.shape == (2, SCRIPT_FEATURES)
    assert feats[0, 0] == 1.0 and 0.0 < feats[0, 1] < 1.0 and feats[0, 2] > 0.0
    assert feats[1].tolist() == [0.0, 0.0, 0.0]


def test_the_script_columns_follow_the_compact_ones() -> None:
    rng = np.random.default_rng(1)
    v = rng.normal(size=(2, shipped_pair_model().center.shape[0])).astype(np.float32)
    center = shipped_pair_model().center
    olds, news = ["我住在福州"], ["moved to Boise"]
    plain = pair_features(v[:1], v[1:], olds, news, center)
    both = pair_features(v[:1], v[1:], olds, news, center, script=True)
    assert both.shape == (1, FEATURES + SCRIPT_FEATURES)
    assert np.allclose(both[:, :FEATURES], plain)
    assert both[0, FEATURES:].tolist() == [1.0, 0.0, 1.0]


def test_script_weights_round_trip_and_read_the_script(
        saved_random_pair_model: Callable[[int], PairModel]) -> None:
    loaded = saved_random_pair_model(FEATURES + SCRIPT_FEATURES)
    assert loaded.script and not loaded.joint and not loaded.extra and not loaded.full
    rng = np.random.default_rng(2)
    v = rng.normal(size=(2, loaded.center.shape[0])).astype(np.float32)
    feats = loaded.features(v[:1], v[1:], ["我住在福州"], ["moved to Boise"])
    assert feats.shape == (1, FEATURES + SCRIPT_FEATURES)
    probs = loaded.predict_proba(feats)
    assert probs.shape == (1, len(RELATIONS)) and abs(float(probs.sum()) - 1.0) < 1e-9


def test_script_centring_takes_each_side_to_its_own_script_centre() -> None:
    rng = np.random.default_rng(3)
    dim = shipped_pair_model().center.shape[0]
    en_dir, zh_dir = rng.normal(size=dim), rng.normal(size=dim)
    meaning = rng.normal(size=(2, dim))
    texts = ["i live in Tulsa", "搬到福州了"]
    # the same meaning in two scripts: the language's own direction added to each side
    vectors = np.stack([meaning[0] + 3 * en_dir, meaning[0] + 3 * zh_dir]).astype(np.float32)
    centres = script_centres(np.stack([3 * en_dir, 3 * zh_dir]).astype(np.float32), texts)
    assert centres.shape == (2, dim)
    own = script_centred(vectors[:1], vectors[1:], vectors[1:], texts[:1], texts[1:], centres)
    assert own.shape == (1, 2) and own[0, 0] > 0.99  # the language gone, one meaning left
    shared = pair_features(vectors[:1], vectors[1:], texts[:1], texts[1:], centres.mean(axis=0))
    assert shared[0, 1] < own[0, 0]


def test_weights_with_script_centres_round_trip(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    shipped = shipped_pair_model()
    centres = rng.normal(size=(2, shipped.center.shape[0])).astype(np.float32)
    model = dataclasses.replace(shipped, centres=centres)
    model.save(tmp_path / "pair.npz")
    loaded = PairModel.load(tmp_path / "pair.npz")
    assert loaded.centres is not None and np.allclose(loaded.centres, centres)
    v = rng.normal(size=(2, shipped.center.shape[0])).astype(np.float32)
    olds, news = ["我住在福州"], ["moved to Boise"]
    with_centres = loaded.features(v[:1], v[1:], olds, news)
    plain = dataclasses.replace(shipped, centres=None).features(v[:1], v[1:], olds, news)
    # only the two centred cosines read the script centres
    assert not np.allclose(with_centres[:, [1, 3]], plain[:, [1, 3]])
    assert np.allclose(np.delete(with_centres, [1, 3], axis=1), np.delete(plain, [1, 3], axis=1))
