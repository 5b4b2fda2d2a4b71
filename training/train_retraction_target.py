"""Train the retraction-target model (``core.extraction.retraction_target``) on the written groups of
``training/retraction_target_rows_forget37.py`` (issue 24, session 20, helper forget37).

Each group gives one row a clause: ``target_features`` of the clause against the retraction's topic (the topic
the update judge reads, ``judge_retract.retraction_topic``) and sentence, label 1 for the clause it withdraws.
Class-balanced logistic regression on the standardised features, full-batch gradient descent from zero
(deterministic). Five folds by group (every fifth group held out in turn) give out-of-fold probabilities; from
them the two bars are calibrated (``accept``: the lowest 0.05 step at which >= 90 % of the clauses taken are
targets; ``veto``: the highest 0.05 step at which >= 95 % of the targets pass), and printed beside the fixed
cosine bars the resolver used before (``MIN_COSINE`` / ``MIN_COSINE_CJK`` within ``MARGIN`` of the best, ahead
of the second by ``MARGIN``) on the same held-out rows, and the two in the resolver's order (the bars, else
the model). Then the shipped fit on all rows, with the bars, is
written to ``core/extraction/data/retraction_target.npz``.

    python -m training.train_retraction_target [--out PATH] [--cache PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.extraction.logistic_head import LogisticHead, invocation
from core.extraction.retraction_target import FEATURES, TARGET_WEIGHTS_PATH, RetractionTarget, target_features
from core.extraction.rules.judge_retract import retraction_topic
from core.extraction.rules.segment import has_cjk
from training.retraction_target_rows_forget37 import GROUPS, TargetGroup
from training.train_memory_classifier import embed

STEPS = 2000
LEARNING_RATE = 0.5
L2 = 1e-2
FOLDS = 5
PRECISION = 0.90
TARGET_PASS = 0.95
STEP = 0.05
# the resolver's fixed bars before this model (``core.extraction.rules.retraction``), for the comparison
MIN_COSINE, MIN_COSINE_CJK, MARGIN = 0.85, 0.90, 0.02


def groups_sha1(groups: tuple[TargetGroup, ...]) -> str:
    """The SHA-1 of the written groups the weights were fitted on (a test checks the shipped weights')."""
    rows = [[g.retraction, list(g.clauses), sorted(g.targets)] for g in groups]
    return hashlib.sha1(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()


def featurise(groups: tuple[TargetGroup, ...], cache: Path | None, query_cache: Path | None
              ) -> tuple[list[npt.NDArray[np.float64]], list[npt.NDArray[np.int64]]]:
    """Per group, its clauses' feature rows and labels (topic and sentence as query vectors, the clauses as
    passage vectors, as ``retraction_target.clause_probabilities`` reads them)."""
    topics = [retraction_topic(g.retraction) for g in groups]
    asked = list(dict.fromkeys([*topics, *(g.retraction for g in groups)]))
    qvecs = dict(zip(asked, embed(asked, query_cache, prefix="query"), strict=True))
    texts = list(dict.fromkeys(c for g in groups for c in g.clauses))
    vecs = dict(zip(texts, embed(texts, cache), strict=True))
    xs, ys = [], []
    for g, topic in zip(groups, topics, strict=True):
        clause_vecs = np.stack([vecs[c] for c in g.clauses])
        xs.append(target_features(topic, qvecs[topic], qvecs[g.retraction], clause_vecs))
        ys.append(np.array([1 if i in g.targets else 0 for i in range(len(g.clauses))], dtype=np.int64))
    return xs, ys


def fit_standardised(x: npt.NDArray[np.float64], y: npt.NDArray[np.int64], features: tuple[str, ...],
                     steps: int, learning_rate: float, l2: float) -> LogisticHead:
    """Class-balanced logistic regression on ``x`` standardised per column (a column without spread keeps
    scale 1), by ``steps`` of full-batch gradient descent; deterministic."""
    mean = x.mean(axis=0)
    scale = np.where(x.std(axis=0) > 1e-9, x.std(axis=0), 1.0)
    xs = (x - mean) / scale
    pos, neg = max(int(y.sum()), 1), max(int(len(y) - y.sum()), 1)
    sw = np.where(y == 1, 0.5 / pos, 0.5 / neg)
    w = np.zeros(x.shape[1])
    b = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(xs @ w + b)))
        g = (p - y) * sw
        w -= learning_rate * (xs.T @ g + l2 * w)
        b -= learning_rate * float(g.sum())
    return LogisticHead(w, b, mean, scale, features)


def fit(x: npt.NDArray[np.float64], y: npt.NDArray[np.int64]) -> RetractionTarget:
    head = fit_standardised(x, y, FEATURES, STEPS, LEARNING_RATE, L2)
    return RetractionTarget(replace(head, bars={"accept": 0.5, "veto": 0.5}))


def out_of_fold(xs: list[npt.NDArray[np.float64]],
                ys: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.float64]:
    """Each clause's probability from the fit without its group's fold."""
    out = [np.zeros(len(y)) for y in ys]
    for k in range(FOLDS):
        train = [i for i in range(len(xs)) if i % FOLDS != k]
        model = fit(np.concatenate([xs[i] for i in train]), np.concatenate([ys[i] for i in train]))
        for i in range(len(xs)):
            if i % FOLDS == k:
                out[i] = model.predict_proba(xs[i])
    return np.concatenate(out)


def bars(p: npt.NDArray[np.float64], y: npt.NDArray[np.int64]) -> tuple[float, float]:
    """``accept`` and ``veto`` from out-of-fold probabilities (see the module doc)."""
    steps = [round(STEP * i, 2) for i in range(1, int(1 / STEP))]
    accept = next((t for t in steps if (p >= t).any() and float(y[p >= t].mean()) >= PRECISION), steps[-1])
    veto = max((t for t in steps if float((p[y == 1] >= t).mean()) >= TARGET_PASS), default=steps[0])
    return accept, veto


def fixed_bars(groups: tuple[TargetGroup, ...], cache: Path | None) -> npt.NDArray[np.bool_]:
    """The clauses the resolver's fixed cosine bars took (passage vectors: the best clause, at least the bar,
    ahead of the second by ``MARGIN``, and every clause within ``MARGIN`` of it)."""
    topics = [retraction_topic(g.retraction) for g in groups]
    out = []
    for g, topic in zip(groups, topics, strict=True):
        vecs = embed([topic, *g.clauses], cache)
        units = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)
        cos = units[1:] @ units[0]
        ranked = np.sort(cos)[::-1]
        bar = MIN_COSINE_CJK if has_cjk(topic) else MIN_COSINE
        ok = len(ranked) >= 2 and ranked[0] >= bar and ranked[0] - ranked[1] >= MARGIN
        out.append((cos >= ranked[0] - MARGIN) if ok else np.zeros(len(cos), dtype=bool))
    return np.concatenate(out)


def union(fixed: npt.NDArray[np.bool_], model: npt.NDArray[np.bool_],
          ys: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.bool_]:
    """Per group, the clauses the fixed bars take, else the model's (the resolver's order)."""
    out, off = [], 0
    for y in ys:
        f, m = fixed[off:off + len(y)], model[off:off + len(y)]
        out.append(f if f.any() else m)
        off += len(y)
    return np.concatenate(out)


def report(name: str, taken: npt.NDArray[np.bool_], y: npt.NDArray[np.int64]) -> str:
    tp = int((taken & (y == 1)).sum())
    return (f"{name}: takes {int(taken.sum())}, of them targets {tp} (precision "
            f"{tp / max(int(taken.sum()), 1):.3f}), targets found {tp}/{int(y.sum())} "
            f"(recall {tp / max(int(y.sum()), 1):.3f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=TARGET_WEIGHTS_PATH)
    parser.add_argument("--cache", type=Path, default=None, help="a passage vector cache")
    parser.add_argument("--query-cache", type=Path, default=None, help="a query vector cache")
    args = parser.parse_args(argv)
    xs, ys = featurise(GROUPS, args.cache, args.query_cache)
    y = np.concatenate(ys)
    p = out_of_fold(xs, ys)
    accept, veto = bars(p, y)
    print(f"groups {len(GROUPS)}, clauses {len(y)}, targets {int(y.sum())}")
    print(report("fixed cosine bars (no fit)", fixed_bars(GROUPS, args.cache), y))
    print(report(f"model at accept {accept} (out of fold)", p >= accept, y))
    print(report("the resolver's order: the bars, else the model", union(fixed_bars(GROUPS, args.cache),
                                                                       p >= accept, ys), y))
    print(f"veto {veto}: targets under it {int((p[y == 1] < veto).sum())}/{int(y.sum())}, "
          f"non-targets under it {int((p[y == 0] < veto).sum())}/{int((y == 0).sum())}")
    full = fit(np.concatenate(xs), y)
    head = replace(full.head, bars={"accept": accept, "veto": veto}, trainer=invocation(),
                   data_sha1=groups_sha1(GROUPS))
    RetractionTarget(head).save(args.out)
    print(f"weights {dict(zip(FEATURES, np.round(head.weights, 3).tolist(), strict=True))} bias "
          f"{head.bias:.3f} -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
