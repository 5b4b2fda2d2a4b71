"""The written groups of the list-item reader of retractions (``training/retraction_item_rows_forget41.py``):
each memory is a list the reader splits, every label names an item of it or the whole list or nothing, no
memory is a user turn of a case set, and the trainer's whole-list bar lets the whole-list phrases through."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from core.extraction.rules.retract_items import memory_list
from training.hand_rows import user_turns
from training.retraction_item_rows_forget41 import GROUPS, NONE, WHOLE
from training.train_retraction_item import whole_bar

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"


def test_every_group_is_a_list_with_labels_of_its_items() -> None:
    for g in GROUPS:
        ml = memory_list(g.content)
        assert ml is not None and len(ml.items) >= 2, g.content
        labels = [label for _, label in g.phrases]
        assert all(label in (WHOLE, NONE) or 0 <= label < len(ml.items) for label in labels), g.content
        assert WHOLE in labels and NONE in labels
    assert len({g.content for g in GROUPS}) == len(GROUPS)


def test_no_memory_is_a_user_turn_of_a_case_set() -> None:
    turns = user_turns(DATA.glob("*_cases.jsonl"))
    assert not {g.content.lower() for g in GROUPS} & turns


def test_the_whole_bar_lets_the_whole_list_phrases_through() -> None:
    p = np.array([0.9, 0.8, 0.3, 0.1, 0.6, 0.05])
    y = np.array([1, 1, 1, 0, 0, 0])
    bar = whole_bar(p, y)
    assert float((p[y == 1] >= bar).mean()) >= 0.95 and bar == 0.3
