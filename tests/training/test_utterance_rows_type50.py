"""type50's home rows (``training.utterance_rows_type50``) and the two fits that read them: the
``fact_project`` type-pair head and the horizon model, each to its own weights (``type_pairs.HOME_ROWS_HEAD``,
``horizon.HOME_ROWS_HORIZON``)."""

from __future__ import annotations

from pathlib import Path

from core.extraction.horizon import HOME_HORIZON_PATH, Horizon
from core.extraction.rules.type_pairs import HOME_ROWS_WEIGHTS, TypePair
from training.hand_rows import copied_lines, has_cjk
from training.train_horizon import home_rows
from training.train_horizon import training_rows as horizon_rows
from training.train_retraction_intent import rows_sha1
from training.train_type_pairs import sha_rows, training_rows
from training.utterance_rows_type50 import ROWS, rows

REPO = Path(__file__).resolve().parents[2]


def test_rows_are_distinct_both_types_both_scripts_about_forty_a_side() -> None:
    texts = [t for t, _, _ in ROWS]
    assert len(texts) == len(set(texts))
    for kind in ("fact", "project"):
        side = [t for t, k, _ in ROWS if k == kind]
        assert len(side) >= 40 and any(has_cjk(t) for t in side) and any(t.isascii() for t in side)
    assert {r["family"] for r in rows()} == {"type50_home", "type50_making"}


def test_no_row_is_a_line_of_a_case_file_or_a_labelled_store() -> None:
    assert not copied_lines([t for t, _, _ in ROWS], REPO)


def test_the_home_rows_head_is_the_trainers_on_its_rows() -> None:
    got = training_rows("fact_project", home_rows=True)
    plain = {r["text"] for r in training_rows("fact_project")}
    added = [r for r in got if r["text"] not in plain]
    assert {t for t, _, _ in ROWS} <= {r["text"] for r in got} and added
    kinds = {t: k for t, k, _ in ROWS}
    assert all(r["label"] == int(kinds[r["text"]] == "project") for r in got if r["text"] in kinds)
    head = TypePair.load(HOME_ROWS_WEIGHTS).head
    assert head.data_sha1 == rows_sha1(sha_rows(got))
    assert 0.0 <= head.bars["margin"] <= 0.5


def test_the_home_rows_horizon_is_the_trainers_with_the_homes_as_lasting() -> None:
    homes = home_rows()
    assert homes and all(r["label"] == 0 for r in homes)
    assert {r["text"] for r in homes} >= {t for t, k, _ in ROWS if k == "fact"}
    head = Horizon.load(HOME_HORIZON_PATH).head
    assert head.data_sha1 == rows_sha1(horizon_rows(True))
    assert head.bars["calibrated_bar"] == 0.7  # the shipped drop bar stays HORIZON_DROP (0.65): stricter
