"""The slot reading's hand-written pairs (``training/slot_lines_upd49.py``) and its shipped centroids
(``core/extraction/data/slot_reading.npz``): both labels in both languages, no line copied from a user turn of
a case file or a labelled public store, and the shipped file holds one centroid per slot of the lines, fitted
on these lines, for the shipped embedding model."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from core.extraction.slot_reading import SLOT_READING_PATH, SlotReading
from training.hand_rows import copied_lines, has_cjk
from training.slot_lines_upd49 import rows, slot_texts

REPO = Path(__file__).resolve().parents[2]


def test_the_lines_hold_both_labels_in_both_languages() -> None:
    got = rows()
    assert {(r["label"], has_cjk(r["text"])) for r in got} == {(0, False), (0, True), (1, False), (1, True)}
    assert len({(r["memory"], r["text"]) for r in got}) == len(got)


def test_no_line_is_copied_from_a_user_turn_of_a_case_file_or_a_labelled_store() -> None:
    texts = [t for r in rows() for t in (r["memory"], r["text"])]
    assert not copied_lines(texts, REPO)


def test_the_shipped_centroids_are_fitted_on_these_lines() -> None:
    reading = SlotReading.load(SLOT_READING_PATH)
    lines = slot_texts()
    assert reading.slots == tuple(sorted({s for s, _ in lines}))
    assert reading.data_sha1 == hashlib.sha1(json.dumps(lines, ensure_ascii=False).encode()).hexdigest()
    assert np.allclose(np.linalg.norm(reading.centroids, axis=1), 1.0, atol=1e-4)
