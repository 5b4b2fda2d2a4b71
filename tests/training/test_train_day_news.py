"""The day's-news head's trainer (``training.train_day_news``): its rows, its split and its bar."""

from __future__ import annotations

import numpy as np

from core.extraction.day_news import DAY_NEWS_DROP, DAY_NEWS_PATH, DayNews
from training.train_day_news import calibrated_bar, half, store_rows, training_rows
from training.train_retraction_intent import rows_sha1


def test_the_held_out_half_is_never_fitted_and_the_halves_are_by_user_number() -> None:
    assert half("memorybank-cn", "mb-cn-04") == "dev" and half("memorybank-en", "mb-en-07") == "held"
    assert half("persona", "pc-3") == "all"
    rows = store_rows()
    assert {r["half"] for r in rows} >= {"dev", "held", "all"}
    assert all(r["label"] in (0, 1) for r in rows) and any(r["label"] == 1 for r in rows)


def test_the_shipped_weights_are_the_fit_of_the_development_rows_with_the_shipped_bar() -> None:
    fitted = [r for r in training_rows() if r["half"] != "held"]
    head = DayNews.load(DAY_NEWS_PATH).head
    assert head.data_sha1 == rows_sha1(fitted)
    assert head.bars["calibrated_bar"] == DAY_NEWS_DROP


def test_the_bar_is_the_lowest_step_with_the_precision_and_no_lasting_horizon_row() -> None:
    y = np.array([1, 1, 1, 0, 0, 0])
    p = np.array([0.97, 0.9, 0.6, 0.55, 0.2, 0.88])
    store = np.array([True, True, True, True, True, False])
    horizon = ~store  # a lasting horizon row at 0.88: the bar must pass it
    assert calibrated_bar(p, y, store, horizon)["bar"] == 0.9
