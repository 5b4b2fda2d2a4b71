"""Ablation of the pair model's joint features (``core.extraction.pair_align``) on the written chat pairs of
``training/pair_chat_rows_upd29.py``: for each feature arm and seed, a model trained on the template pairs
alone (the template test split out) reads the 290 lines, and (``--folds``) models trained on the templates
plus the other group folds' lines (x4, as ``training.train_pair_model --chat-upd29``) read each fold's lines.
Printed per arm and seed: accuracy, supersede precision / recall, unrelated recall, refine precision, and
the template test split's accuracy. Arms: ``shipped`` (the 14 compact features), ``joint`` (all
``JOINT_FEATURES`` beside them) and ``NAME=i,j`` (the compact features and joint columns i, j).
The features are computed once into ``--feats`` (the texts' vectors from ``--cache``).

    .venv/bin/python -m bench.pair_joint_ablation --cache C [--folds] [--seeds 24,1,2] [NAME=i,j ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.extraction.pair_align import JOINT_FEATURES, span_texts
from core.extraction.pairs import FEATURES, RELATIONS, pair_features, topic_text
from training.pair_chat_rows_upd29 import chat_pair_rows
from training.pair_templates import all_pair_rows
from training.train_memory_classifier import embed
from training.train_pair_model import CHAT_FOLDS, CHAT_REPEAT, chat_fold, fit, is_test


def features(cache: Path | None, out: Path) -> dict[str, npt.NDArray[np.float64]]:
    if out.exists():
        with np.load(out) as data:
            return {k: np.asarray(data[k]) for k in data.files}
    rows = all_pair_rows() + chat_pair_rows()
    olds, news = [r["old"] for r in rows], [r["new"] for r in rows]
    texts = sorted(set(olds) | set(news) | {topic_text(n) for n in news} | set(span_texts(olds, news)))
    vec = embed(texts, cache)
    index = {t: i for i, t in enumerate(texts)}

    def lookup(batch: list[str]) -> npt.NDArray[np.float32]:
        return vec[[index[t] for t in batch]]

    center = vec.mean(axis=0).astype(np.float32)
    x = pair_features(lookup(olds), lookup(news), olds, news, center, False,
                      lookup([topic_text(n) for n in news]), False, True, lookup)
    n_chat = len(chat_pair_rows())
    arrays = {"x": x, "y": np.array([RELATIONS.index(r["relation"]) for r in rows]),
              "chat": np.arange(len(rows)) >= len(rows) - n_chat,
              "test": np.array([is_test(r) for r in rows]) & (np.arange(len(rows)) < len(rows) - n_chat),
              "center": center}
    np.savez(out, **arrays)
    return arrays


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--feats", type=Path, default=Path("/tmp/pair_joint_feats.npz"))
    parser.add_argument("--folds", action="store_true", help="also the group folds with the other lines")
    parser.add_argument("--seeds", default="24,1,2")
    parser.add_argument("arms", nargs="*")
    args = parser.parse_args(argv)
    d = features(args.cache, args.feats)
    x, chat, test = d["x"], d["chat"].astype(bool), d["test"].astype(bool)
    y = d["y"].astype(np.int64)
    center = d["center"].astype(np.float32)
    arms = {"shipped": list(range(FEATURES)), "joint": list(range(FEATURES + JOINT_FEATURES))}
    for a in args.arms:
        name, cols = a.split("=")
        arms[name] = list(range(FEATURES)) + [FEATURES + int(c) for c in cols.split(",")]
    ci, ti = np.where(chat)[0], np.where(~test & ~chat)[0]
    folds = np.array([chat_fold(r) for r in chat_pair_rows()])
    yy = y[ci]
    sup, unr, ref = (RELATIONS.index(r) for r in ("supersede", "unrelated", "refine"))

    def line(probs: npt.NDArray[np.float64]) -> str:
        pred = probs.argmax(axis=1)
        tp = int(((pred == sup) & (yy == sup)).sum())
        precision, recall = tp / max(int((pred == sup).sum()), 1), tp / int((yy == sup).sum())
        unrelated = float((pred[yy == unr] == unr).mean())
        return (f"acc {float((pred == yy).mean()):.3f}  supersede P {precision:.3f} R {recall:.3f}  "
                f"unrelated R {unrelated:.3f}  refine P {float((yy[pred == ref] == ref).mean()):.3f}")

    for name, cols in arms.items():
        for seed in (int(s) for s in args.seeds.split(",")):
            model = fit(x[ti][:, cols], y[ti], center, seed=seed)
            t_acc = float((model.predict_proba(x[test][:, cols]).argmax(axis=1) == y[test]).mean())
            print(f"{name:<10} seed {seed:>2} templates only: {line(model.predict_proba(x[ci][:, cols]))}"
                  f"  | template test {t_acc:.3f}", flush=True)
            if args.folds:
                oof = np.zeros((len(ci), len(RELATIONS)))
                for f in range(CHAT_FOLDS):
                    train = np.concatenate([ti, np.repeat(ci[folds != f], CHAT_REPEAT)])
                    m = fit(x[train][:, cols], y[train], center, seed=seed)
                    oof[folds == f] = m.predict_proba(x[ci[folds == f]][:, cols])
                print(f"{name:<10} seed {seed:>2} + other folds:  {line(oof)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
