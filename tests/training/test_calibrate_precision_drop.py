"""The precision model's drop threshold read on its corpus's held-out split
(``training.calibrate_precision_drop``), on a small corpus with known vectors (no embedding model)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from core.config import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL
from core.extraction.classifier import LABELS, PREFIX, MLPModel
from training.calibrate_precision_drop import GRID, calibrate


def _setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    rng = np.random.default_rng(3)
    rows, texts = [], []
    for i in range(40):
        keep = i % 2 == 0
        text = f"row {i}"
        rows.append({"id": f"r{i:02d}", "text": text, "keep": keep, "type": "preference" if keep else None,
                     "split": "test" if i < 30 else "train", "prev": "How are you?" if i % 3 == 0 else ""})
        texts.append(text)
    corpus = tmp_path / "u.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    every = sorted([*texts, "How are you?"])
    vectors = rng.normal(size=(len(every), LOCAL_EMBEDDING_DIM)).astype(np.float32)
    # the first coordinate tells keep from drop, so a threshold separates them
    for j, t in enumerate(every):
        if t.startswith("row "):
            vectors[j, 0] = 5.0 if int(t.split()[1]) % 2 == 0 else -5.0
    cache = tmp_path / "c.npz"
    np.savez(cache, texts=np.array(every), vectors=vectors, prefix=np.array(PREFIX))
    w1 = np.zeros((LOCAL_EMBEDDING_DIM * 3, 2), dtype=np.float32)
    w1[0, 0], w1[0, 1] = 1.0, -1.0
    w2 = np.array([[-1.0, 1.0, 0.0, 0.0, 0.0, 0.0], [1.0, -1.0, 0.0, 0.0, 0.0, 0.0]], dtype=np.float32)
    model = MLPModel(w1=w1, b1=np.zeros(2, dtype=np.float32), w2=w2[:, :6], b2=np.zeros(6, dtype=np.float32),
                     mean=np.zeros(LOCAL_EMBEDDING_DIM * 3, dtype=np.float32), temperature=1.0, context=True,
                     labels=LABELS,
                     embedding_model=LOCAL_EMBEDDING_MODEL)
    path = tmp_path / "p.npz"
    model.save(path)
    return corpus, path, cache


def test_held_out_rows_only_and_a_separating_threshold_is_chosen(tmp_path: Path) -> None:
    corpus, model, cache = _setup(tmp_path)
    out = calibrate(corpus, model, cache)
    assert out["n_heldout"] == 30 and out["n_heldout_with_turn"] == 10
    assert [r["threshold"] for r in out["grid"]] == list(GRID)
    assert out["chosen"] in GRID
    best = next(r for r in out["grid"] if r["threshold"] == out["chosen"])
    assert best["all"]["balanced"] == max(r["all"]["balanced"] for r in out["grid"]) == 1.0
    keep_recall = [r["all"]["keep_recall"] for r in out["grid"]]
    assert keep_recall == sorted(keep_recall)  # a higher bar drops fewer keeps
