"""The retraction-target trainer (``training/train_retraction_target.py``) and its written groups
(``training/retraction_target_rows_forget37.py``): groups in both languages with and without a target, none a
user turn of a case set, the shipped weights fitted on these groups, and the out-of-fold bars."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from core.extraction.retraction_target import TARGET_WEIGHTS_PATH, RetractionTarget
from training.hand_rows import has_cjk, user_turns
from training.retraction_target_rows_forget37 import GROUPS
from training.train_retraction_target import bars, fit, groups_sha1

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"


def test_groups_cover_both_languages_with_and_without_a_target() -> None:
    kinds = {(bool(g.targets), has_cjk(g.retraction)) for g in GROUPS}
    assert kinds == {(True, True), (True, False), (False, True), (False, False)}
    assert all(len(g.clauses) >= 2 and all(0 <= t < len(g.clauses) for t in g.targets) for g in GROUPS)
    assert len({g.retraction for g in GROUPS}) == len(GROUPS)


def test_no_group_is_a_user_turn_of_a_case_set() -> None:
    turns = user_turns(DATA.glob("*_cases.jsonl"))
    written = {g.retraction.lower() for g in GROUPS} | {c.lower() for g in GROUPS for c in g.clauses}
    assert not written & turns


def test_the_shipped_weights_are_fitted_on_these_groups() -> None:
    model = RetractionTarget.load(TARGET_WEIGHTS_PATH)
    assert model.head.data_sha1 == groups_sha1(GROUPS)
    assert 0.0 < model.veto < model.accept < 1.0


def test_bars_take_precise_clauses_and_keep_the_targets() -> None:
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    p = np.array([0.97, 0.92, 0.6, 0.3, 0.8, 0.5, 0.2, 0.1, 0.1, 0.05])
    accept, veto = bars(p, y)
    assert accept == 0.85  # from 0.85 up every clause taken is a target; at 0.8 a non-target is taken
    assert veto == 0.3  # the highest step at which every target (>= 95 %) still passes


def test_fit_ranks_the_separable_side_first() -> None:
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(1.0, 0.3, (20, 6)), rng.normal(-1.0, 0.3, (40, 6))])
    y = np.array([1] * 20 + [0] * 40)
    p = fit(x, y).predict_proba(x)
    assert p[:20].min() > p[20:].max()
