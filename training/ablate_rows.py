"""Two classifiers on the same held-out rows: did rows added to the corpus teach anything beyond themselves?

Reads ``--corpus`` (with the new rows) and ``--old-corpus`` (without), and reports for each model
(``--model NAME=PATH``, an MLP or the logistic ``memory_classifier.npz`` shape) the 6-class accuracy,
keep/drop accuracy and type accuracy on kept rows of: the old corpus's test split, the new rows' test split
(never fitted by any arm), and all new rows (fitted, except their test split), with per-family counts.

    .venv/bin/python -m training.ablate_rows --corpus NEW.jsonl --old-corpus OLD.jsonl --cache C \\
        --model shipped=OLD_mlp.npz --model arm=NEW_mlp.npz
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from core.extraction.classifier import LinearModel, MLPModel
from training.train_memory_classifier import embed, label_of, load_corpus
from training.train_memory_mlp import report


def _load(path: Path) -> LinearModel | MLPModel:
    with np.load(path) as data:
        mlp = "w1" in data
    return MLPModel.load(path) if mlp else LinearModel.load(path)


def ablate(corpus: Path, old_corpus: Path, models: dict[str, Path], cache: Path | None) -> dict[str, Any]:
    rows = load_corpus(corpus)
    old_ids = {r["id"] for r in load_corpus(old_corpus)}
    x = embed([r["text"] for r in rows], cache)
    selections = {
        "old_test": [i for i, r in enumerate(rows) if r["split"] == "test" and r["id"] in old_ids],
        "new_rows_test": [i for i, r in enumerate(rows) if r["split"] == "test" and r["id"] not in old_ids],
        "new_rows_all": [i for i, r in enumerate(rows) if r["id"] not in old_ids],
    }
    out: dict[str, Any] = {}
    for name, path in models.items():
        model = _load(path)
        for sel, idx in selections.items():
            chosen = [rows[i] for i in idx]
            probs = model.predict_proba(x[idx])
            rep = report(probs, chosen)
            entry = {k: rep[k] for k in ("n", "accuracy", "keep_drop_accuracy", "type_accuracy_on_kept")}
            if sel == "new_rows_all":
                fam: dict[str, list[int]] = {}
                for row, pred in zip(chosen, probs.argmax(axis=1), strict=True):
                    fam.setdefault(str(row["family"]), []).append(int(pred == label_of(row)))
                entry["by_family"] = {k: f"{sum(v)}/{len(v)}" for k, v in sorted(fam.items())}
            out[f"{name}/{sel}"] = entry
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--old-corpus", type=Path, required=True)
    parser.add_argument("--model", action="append", required=True, metavar="NAME=PATH")
    parser.add_argument("--cache", type=Path, default=None)
    args = parser.parse_args(argv)
    models = {k: Path(v) for k, v in (m.split("=", 1) for m in args.model)}
    print(json.dumps(ablate(args.corpus, args.old_corpus, models, args.cache), indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
