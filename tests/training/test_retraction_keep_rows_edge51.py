"""edge51's keep-clause rows (``training.retraction_keep_rows_edge51``) and the head fitted on them
(``core/extraction/data/retraction_keep_edge51.npz``)."""

from __future__ import annotations

from pathlib import Path

from core.extraction.retraction_intent import RetractionIntent
from core.extraction.retraction_keep import KEEP_WEIGHTS_PATH
from training.hand_rows import copied_lines, has_cjk
from training.retraction_keep_rows_edge51 import rows
from training.train_retraction_intent import rows_sha1

REPO = Path(__file__).resolve().parents[2]


def test_rows_are_distinct_both_labels_both_scripts() -> None:
    got = rows()
    texts = [r["text"] for r in got]
    assert len(texts) == len(set(texts))
    for label in (0, 1):
        side = [r["text"] for r in got if r["label"] == label]
        assert len(side) >= 100 and any(has_cjk(t) for t in side) and any(t.isascii() for t in side)
    assert all(r["group"] for r in got)


def test_no_row_is_a_line_of_a_case_file_or_a_labelled_store() -> None:
    assert not copied_lines([r["text"] for r in rows()], REPO)


def test_the_shipped_head_is_the_trainers_on_these_rows_with_both_bars() -> None:
    head = RetractionIntent.load(KEEP_WEIGHTS_PATH).head
    assert head.data_sha1 == rows_sha1(rows())
    assert 0.5 <= head.bars["keep"] <= 0.95 and 0.2 <= head.bars["veto"] < head.bars["keep"]
