"""The shipped pair model on the written chat pairs of ``training/pair_chat_rows_upd29.py`` (never trained
on): accuracy per relation, and per decision bar how many lines it reads as ``supersede`` at that bar, how
many of them are (precision) and how many supersede lines it finds (recall). The judge's hand-set bars are
0.70 (cued), 0.80, 0.85 (strong), 0.90 (cross-slot), 0.93 (sure).

    .venv/bin/python -m bench.pair_chat_bars [--cache PATH]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from core.extraction.pairs import RELATIONS, PairModel, topic_text
from training.pair_chat_rows_upd29 import chat_pair_rows
from training.train_memory_classifier import embed

BARS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.93)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None)
    args = parser.parse_args(argv)
    model = PairModel.load()
    rows = chat_pair_rows()
    olds, news = [r["old"] for r in rows], [r["new"] for r in rows]
    feats = model.features(embed(olds, args.cache), embed(news, args.cache), olds, news,
                           embed([topic_text(n) for n in news], args.cache))
    probs = model.predict_proba(feats)
    y = np.array([RELATIONS.index(r["relation"]) for r in rows])
    pred = probs.argmax(axis=1)
    print(f"{len(rows)} lines, accuracy {float((pred == y).mean()):.3f}")
    for k, rel in enumerate(RELATIONS):
        print(f"  {rel:<10} n {int((y == k).sum()):>3}  precision {float((y[pred == k] == k).mean()):.3f}  "
              f"recall {float((pred[y == k] == k).mean()):.3f}")
    sup = RELATIONS.index("supersede")
    print("bar   read-supersede  precision  recall  wrong (true label)")
    for bar in BARS:
        sel = (pred == sup) & (probs[:, sup] >= bar)
        wrong = {RELATIONS[j]: int(((y == j) & sel).sum()) for j in range(len(RELATIONS)) if j != sup}
        print(f"{bar:<5} {int(sel.sum()):>14}  {float((y[sel] == sup).mean()):.3f}      "
              f"{float(sel[y == sup].mean()):.3f}   {wrong}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
