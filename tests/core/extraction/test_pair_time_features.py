"""Issue 24, session 23: a time word is not a change word (``pairs.time_features``). Sentences written for
this test, none from an evaluation set."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from core.extraction.pairs import (
    FEATURES,
    RELATIONS,
    TIME_FEATURES,
    PairModel,
    pair_features,
    shipped_pair_model,
    time_features,
    time_word_only,
)
from core.extraction.update_intent import shipped_update_intent


@pytest.mark.parametrize("text", ["最近我在学做面包，挺好玩的", "现在要去接孩子了，回头聊",
                                  "Lately I've been sleeping badly", "just bought a new lamp for the desk",
                                  "actually the weather is lovely today"])
def test_a_time_word_as_the_only_cue_is_flagged(text: str) -> None:
    assert time_word_only(text) == 1.0


@pytest.mark.parametrize("text", ["最近不喝奶茶了，改喝豆浆", "我已经不在那家公司了",
                                  "switched to oat milk now", "got a new bike last week", "I'm a nurse now",
                                  "no longer doing keto", "今天天气不错", "hello there"])
def test_a_change_word_or_no_cue_is_not(text: str) -> None:
    assert time_word_only(text) == 0.0


def test_the_time_columns_follow_the_compact_ones() -> None:
    rng = np.random.default_rng(5)
    center = shipped_pair_model().center
    v = rng.normal(size=(3, center.shape[0])).astype(np.float32)
    olds, news = ["我喜欢看电影", "I live in Tulsa"], ["最近在看一部老电影", "moved to Boise instead"]
    plain = pair_features(v[:2], v[1:], olds, news, center)
    timed = pair_features(v[:2], v[1:], olds, news, center, time=True)
    assert timed.shape == (2, FEATURES + TIME_FEATURES)
    assert np.allclose(timed[:, :FEATURES], plain)
    assert timed[:, FEATURES].tolist() == [1.0, 0.0]
    intent = shipped_update_intent()
    assert intent is not None
    assert np.allclose(timed[:, FEATURES + 1], intent.predict_proba(v[1:]))


def test_the_intent_column_tells_a_change_from_news() -> None:
    from training.train_memory_classifier import embed

    texts = ["我已经不在上海住了，搬到杭州了", "I quit my bank job and I'm teaching high school now",
             "最近在看一部很长的电视剧", "Lately I've been reading a lot on the train"]
    vectors = embed(texts, None)
    p = time_features(vectors, texts)[:, 1]
    assert min(p[:2]) > max(p[2:])


def test_time_weights_round_trip_and_read_the_columns(
        saved_random_pair_model: Callable[[int], PairModel]) -> None:
    loaded = saved_random_pair_model(FEATURES + TIME_FEATURES)
    assert loaded.time and not loaded.script and not loaded.joint and not loaded.extra and not loaded.full
    rng = np.random.default_rng(6)
    v = rng.normal(size=(2, loaded.center.shape[0])).astype(np.float32)
    feats = loaded.features(v[:1], v[1:], ["我喜欢看电影"], ["最近在看一部老电影"])
    assert feats.shape == (1, FEATURES + TIME_FEATURES)
    probs = loaded.predict_proba(feats)
    assert probs.shape == (1, len(RELATIONS)) and abs(float(probs.sum()) - 1.0) < 1e-9


def test_an_ablation_arm_ignores_its_masked_column() -> None:
    from training.train_pair_model import ignoring

    rng = np.random.default_rng(7)
    shipped = shipped_pair_model()
    width = FEATURES + TIME_FEATURES
    k = len(RELATIONS)
    model = PairModel(rng.normal(size=(width, 8)).astype(np.float32), np.zeros(8, np.float32),
                      rng.normal(size=(8, k)).astype(np.float32), np.zeros(k, np.float32),
                      np.full(width, 0.3, np.float32), np.ones(width, np.float32), shipped.center)
    masked = ignoring(model, [width - 1])
    feats = rng.normal(size=(4, width))
    low, high = feats.copy(), feats.copy()
    low[:, -1], high[:, -1] = 0.0, 1.0
    assert np.allclose(masked.predict_proba(low), masked.predict_proba(high))
    assert not np.allclose(model.predict_proba(low), model.predict_proba(high))
