"""The dead-letter limit without a broker: the share over a recent window, and a run in a row."""

from __future__ import annotations

import pytest

from consumers.errors import FatalConsumerError
from consumers.steps.dlq_limit import DlqLimit, DlqLimitExceeded, DlqLimitWindow
from core.config import Settings


def feed(window: DlqLimitWindow, outcomes: str) -> list[str | None]:
    """``outcomes``: ``d`` a dead-lettered record, ``.`` a record done otherwise."""
    return [window.observe(o == "d") for o in outcomes]


def test_the_share_trips_only_past_the_threshold_and_with_enough_records() -> None:
    w = DlqLimitWindow(DlqLimit(max_share=0.5, window=10, min_records=4, max_consecutive=0))
    assert feed(w, "dd.") == [None, None, None]  # 2/3 dead, but fewer than 4 records seen
    reason = w.observe(True)
    assert reason == "3 of the last 4 records dead-lettered (share 0.75 > limit 0.5)"


def test_exactly_the_share_does_not_trip() -> None:
    w = DlqLimitWindow(DlqLimit(max_share=0.5, window=4, min_records=4, max_consecutive=0))
    assert feed(w, "d.d.") == [None] * 4


def test_the_share_is_over_the_recent_window_only() -> None:
    w = DlqLimitWindow(DlqLimit(max_share=0.5, window=4, min_records=4, max_consecutive=0))
    assert feed(w, "dd") == [None, None]
    assert feed(w, "..") == [None, None]  # 2 of 4: not more than half
    assert feed(w, "dd") == [None, None]  # the oldest dead letters leave the window: still 2 of 4
    assert feed(w, "d") == ["3 of the last 4 records dead-lettered (share 0.75 > limit 0.5)"]


def test_a_run_of_dead_letters_trips_and_a_good_record_resets_it() -> None:
    w = DlqLimitWindow(DlqLimit(max_share=1.0, window=100, min_records=1, max_consecutive=3))
    assert feed(w, "dd.dd") == [None] * 5
    assert w.observe(True) == "3 records in a row dead-lettered (limit 3)"


def test_share_one_and_consecutive_zero_turn_the_limit_off() -> None:
    w = DlqLimitWindow(DlqLimit(max_share=1.0, window=10, min_records=1, max_consecutive=0))
    assert set(feed(w, "d" * 50)) == {None}


def test_the_defaults_are_those_of_the_settings_and_loose() -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert DlqLimit.from_settings(settings) == DlqLimit() == DlqLimit(0.9, 1000, 500, 500)
    w = DlqLimitWindow(DlqLimit())
    assert set(feed(w, ("d" * 8 + ".") * 200)) == {None}  # 8 in 9 dead-lettered: 0.89, never trips
    w = DlqLimitWindow(DlqLimit())
    outcomes = feed(w, ("d" * 19 + ".") * 25)  # 19 in 20: trips once 500 records were seen
    assert set(outcomes[:499]) == {None}
    assert outcomes[499] == "475 of the last 500 records dead-lettered (share 0.95 > limit 0.9)"
    w = DlqLimitWindow(DlqLimit())
    assert set(feed(w, "d" * 499)) == {None}
    assert w.observe(True) == "500 records in a row dead-lettered (limit 500)"


def test_the_limit_is_fatal_and_its_thresholds_are_checked() -> None:
    assert issubclass(DlqLimitExceeded, FatalConsumerError)
    for bad in ({"max_share": 1.5}, {"window": 0}, {"min_records": 0}, {"max_consecutive": -1}):
        with pytest.raises(ValueError):
            DlqLimit(**bad)  # type: ignore[arg-type]
