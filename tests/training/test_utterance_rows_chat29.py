"""The session-16 chat rows (written, not built in): appended with their labels, removed again, no copies."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.corpus_rows import appended_rows
from training.hand_rows import flat
from training.train_memory_classifier import CORPUS
from training.utterance_rows_chat29 import ROWS, check, main

REPO = Path(__file__).resolve().parents[2]


def test_append_adds_the_rows_with_their_labels_and_remove_restores_the_corpus(tmp_path: Path) -> None:
    corpus = tmp_path / "utterances.jsonl"
    original = CORPUS.read_text(encoding="utf-8")
    added = appended_rows(main, corpus, original)
    assert len(added) >= 300  # a few are already in the corpus under older families
    labels = {flat(t): k for t, k, _ in ROWS}
    for row in added:
        kind = labels[flat(row["text"])]
        assert row["keep"] is (kind is not None) and row["type"] == kind and row["source"] == "hand"
        assert str(row["family"]).startswith("chat29_")
    assert main(["--append", "--corpus", str(corpus)]) == 0  # idempotent
    assert len(corpus.read_text(encoding="utf-8").splitlines()) == len(original.splitlines()) + len(added)
    assert main(["--remove", "--corpus", str(corpus)]) == 0
    assert corpus.read_text(encoding="utf-8") == original


def test_rows_are_no_copies_of_the_case_files() -> None:
    cases = sorted((REPO / "bench" / "data").glob("*_cases.jsonl"))
    assert cases
    assert check(cases) == []


def test_check_finds_a_copy(tmp_path: Path) -> None:
    text, _, _ = ROWS[0]
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"conversation": [{"role": "user", "content": "so. " + text.upper()}]}),
                    encoding="utf-8")
    assert check([path]) == [text]
