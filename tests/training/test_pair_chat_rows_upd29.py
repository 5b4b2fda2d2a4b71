"""The written chat pairs of ``training/pair_chat_rows_upd29.py`` and the trainer's fold helpers."""

from __future__ import annotations

import numpy as np

from core.extraction.pairs import RELATIONS
from training.pair_chat_rows_upd29 import GROUPS, chat_pair_rows
from training.train_pair_model import CHAT_FOLDS, chat_fold, fitted_bar


def test_every_line_is_a_labelled_pair_of_its_group() -> None:
    rows = chat_pair_rows()
    assert len({g for g, _, _ in GROUPS}) == len(GROUPS)
    assert len(rows) == sum(len(lines.strip().splitlines()) for _, _, lines in GROUPS)
    assert all(r["relation"] in RELATIONS and r["new"] and r["old"] for r in rows)
    assert len({(r["old"], r["new"]) for r in rows}) == len(rows)  # no line twice
    # every group holds a hard negative: a line of the same thing that replaces nothing
    assert sum(any(r["relation"] in ("refine", "unrelated") and r["slot"] == f"chat_{g}" for r in rows)
               for g, _, _ in GROUPS) == len(GROUPS)


def test_folds_keep_a_group_together_and_use_every_fold() -> None:
    rows = chat_pair_rows()
    by_group: dict[str, set[int]] = {}
    for r in rows:
        by_group.setdefault(r["slot"], set()).add(chat_fold(r))
    assert all(len(f) == 1 for f in by_group.values())
    assert {f for fs in by_group.values() for f in fs} == set(range(CHAT_FOLDS))


def test_fitted_bar_is_the_lowest_bar_reaching_the_precision() -> None:
    sup = RELATIONS.index("supersede")
    # ten rows read as supersede: the two least sure are wrong, the eight above 0.7 right
    p = np.zeros((10, len(RELATIONS)))
    p[:, sup] = [0.55, 0.6, 0.72, 0.75, 0.8, 0.85, 0.9, 0.92, 0.95, 0.99]
    p[:, 0] = 1 - p[:, sup]
    y = np.array([0, 0, *([sup] * 8)])
    assert fitted_bar(p, y, sup, precision=0.9) == 0.61
    assert fitted_bar(p, y, sup, precision=0.8) == 0.5  # 8 of 10 right at any bar
    assert fitted_bar(p, np.zeros(10, dtype=np.int64), sup) is None
