"""Ablation of the pair model's feature arms on the written chat pairs of ``training/pair_chat_rows_upd29.py``
(290 lines) and ``training/pair_chat_rows_upd34.py`` (the two sides in different scripts; a second memory
naming the old value): for each feature arm and seed, a model trained on the template pairs alone (the
template test split out) reads the written lines, and (``--folds``) models trained on the templates plus the
other group folds' lines of both sets (x4, as ``training.train_pair_model --chat-upd29 --chat-upd34``) read
each fold's lines. Printed per arm, seed and set of lines (``upd29``, ``script``: upd34's cross-script
groups, ``second``: upd34's second-memory groups): accuracy, supersede precision / recall, unrelated recall,
refine precision, and the template test split's accuracy. Arms: ``shipped`` (the 14 compact features),
``joint`` (all ``JOINT_FEATURES`` beside them), ``script`` (``pairs.script_features`` beside them) and
``NAME=i,j`` (the compact features and joint columns i, j). The features are computed once into ``--feats``
(the texts' vectors from ``--cache``).

    .venv/bin/python -m bench.pair_joint_ablation --cache C [--folds] [--seeds 24,1,2] [--arms shipped,script]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.pair_align import JOINT_FEATURES, span_texts
from core.extraction.pairs import (
    FEATURES,
    RELATIONS,
    SCRIPT_FEATURES,
    pair_features,
    script_centred,
    script_centres,
    script_features,
    topic_text,
)
from training import pair_chat_rows_upd29, pair_chat_rows_upd34
from training.pair_templates import all_pair_rows
from training.train_memory_classifier import embed
from training.train_pair_model import CHAT_FOLDS, CHAT_REPEAT, chat_fold, fit, is_test


def chat_rows() -> list[dict[str, Any]]:
    """The written lines of both sets, upd29's first; ``family`` names the set of a line."""
    return ([dict(r, family="upd29") for r in pair_chat_rows_upd29.chat_pair_rows()]
            + pair_chat_rows_upd34.chat_pair_rows())


def features(cache: Path | None, out: Path) -> dict[str, npt.NDArray[np.float64]]:
    if out.exists():
        with np.load(out) as data:
            return {k: np.asarray(data[k]) for k in data.files}
    rows = all_pair_rows() + chat_rows()
    olds, news = [r["old"] for r in rows], [r["new"] for r in rows]
    texts = sorted(set(olds) | set(news) | {topic_text(n) for n in news} | set(span_texts(olds, news)))
    vec = embed(texts, cache)
    index = {t: i for i, t in enumerate(texts)}

    def lookup(batch: list[str]) -> npt.NDArray[np.float32]:
        return vec[[index[t] for t in batch]]

    center = vec.mean(axis=0).astype(np.float32)
    x = pair_features(lookup(olds), lookup(news), olds, news, center, False,
                      lookup([topic_text(n) for n in news]), False, True, lookup)
    n_chat = len(chat_rows())
    centres = script_centres(vec, texts)
    x = np.concatenate([x, script_features(olds, news),
                        script_centred(lookup(olds), lookup(news), lookup([topic_text(n) for n in news]),
                                       olds, news, centres)], axis=1)
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
    parser.add_argument("--repeat", type=int, default=CHAT_REPEAT, help="a written line's weight (--folds)")
    parser.add_argument("--arms", default="shipped,joint,script", help="which named arms to run")
    parser.add_argument("--upd29-only", action="store_true",
                        help="with --folds, train on upd29's lines alone (session 17's arm)")
    parser.add_argument("extra_arms", nargs="*", metavar="NAME=i,j")
    args = parser.parse_args(argv)
    d = features(args.cache, args.feats)
    x, chat, test = d["x"], d["chat"].astype(bool), d["test"].astype(bool)
    y = d["y"].astype(np.int64)
    center = d["center"].astype(np.float32)
    script = list(range(FEATURES + JOINT_FEATURES, FEATURES + JOINT_FEATURES + SCRIPT_FEATURES))
    centred = [script[-1] + 1, script[-1] + 2]
    named = {"shipped": list(range(FEATURES)), "joint": list(range(FEATURES + JOINT_FEATURES)),
             "script": list(range(FEATURES)) + script,
             # the centred cosines on each script's own centre in place of the one shared centre
             "scentre": [0, centred[0], 2, centred[1], *range(4, FEATURES)],
             "scentre+script": [0, centred[0], 2, centred[1], *range(4, FEATURES), *script]}
    arms = {a: named[a] for a in args.arms.split(",") if a}
    for a in args.extra_arms:
        name, cols = a.split("=")
        arms[name] = list(range(FEATURES)) + [FEATURES + int(c) for c in cols.split(",")]
    ci, ti = np.where(chat)[0], np.where(~test & ~chat)[0]
    written = chat_rows()
    folds = np.array([chat_fold(r) for r in written])
    family = np.array([r["family"] for r in written])
    trainable = family == "upd29" if args.upd29_only else np.ones(len(written), dtype=bool)
    sup, unr, ref = (RELATIONS.index(r) for r in ("supersede", "unrelated", "refine"))

    def lines(probs: npt.NDArray[np.float64]) -> str:
        return "  ".join(f"[{fam} {int((family == fam).sum())}] "
                         f"{line(probs[family == fam], y[ci][family == fam])}"
                         for fam in ("upd29", "script", "second"))

    def line(probs: npt.NDArray[np.float64], yy: npt.NDArray[np.int64]) -> str:
        pred = probs.argmax(axis=1)
        tp = int(((pred == sup) & (yy == sup)).sum())
        precision, recall = tp / max(int((pred == sup).sum()), 1), tp / int((yy == sup).sum())
        unrelated = float((pred[yy == unr] == unr).mean())
        refine = float((yy[pred == ref] == ref).mean()) if (pred == ref).any() else 0.0
        return (f"acc {float((pred == yy).mean()):.3f} sup P {precision:.3f} R {recall:.3f} "
                f"unr R {unrelated:.3f} ref P {refine:.3f}")

    for name, cols in arms.items():
        for seed in (int(s) for s in args.seeds.split(",")):
            model = fit(x[ti][:, cols], y[ti], center, seed=seed)
            t_acc = float((model.predict_proba(x[test][:, cols]).argmax(axis=1) == y[test]).mean())
            print(f"{name:<8} seed {seed:>2} templates only: {lines(model.predict_proba(x[ci][:, cols]))}"
                  f"  | template test {t_acc:.3f}", flush=True)
            if args.folds:
                oof = np.zeros((len(ci), len(RELATIONS)))
                for f in range(CHAT_FOLDS):
                    train = np.concatenate([ti, np.repeat(ci[(folds != f) & trainable], args.repeat)])
                    m = fit(x[train][:, cols], y[train], center, seed=seed)
                    oof[folds == f] = m.predict_proba(x[ci[folds == f]][:, cols])
                print(f"{name:<8} seed {seed:>2} + other folds:  {lines(oof)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
