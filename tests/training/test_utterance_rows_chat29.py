"""The session-16 chat rows: in the corpus with their labels, and no copy of an evaluation case."""

from __future__ import annotations

import json
from pathlib import Path

from training.train_memory_classifier import CORPUS
from training.utterance_rows_chat29 import ROWS, _flat, check, rows

REPO = Path(__file__).resolve().parents[2]


def test_every_row_is_in_the_corpus_with_its_label() -> None:
    corpus = {_flat(r["text"]): r for r in map(json.loads, CORPUS.read_text(encoding="utf-8").splitlines())}
    missing = [r["text"] for r in rows() if _flat(str(r["text"])) not in corpus]
    assert not missing
    mine = [corpus[_flat(str(r["text"]))] for r in rows()]
    chat = [m for m in mine if str(m["family"]).startswith("chat29_")]
    assert len(chat) >= 300  # a few were already in the corpus under older families
    for row in chat:
        kind = next(k for t, k, _ in ROWS if _flat(t) == _flat(row["text"]))
        assert row["keep"] is (kind is not None) and row["type"] == kind and row["source"] == "hand"


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
