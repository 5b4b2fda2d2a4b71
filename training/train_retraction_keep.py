"""Train the keep-clause head (``core.extraction.retraction_keep``) on
``training/retraction_keep_rows_edge51.py``.

The retraction-intent recipe (``training.train_retraction_intent.fit_framed``): class-balanced logistic
regression from zero, first a fit with every fifth frame group held out (its accuracy printed: frames the head
did not see), then the shipped fit on all rows. The bar ``keep`` is calibrated out of fold (five fits, each
without its fifth of the frame groups): the lowest 0.05 step from 0.50 at which at most 3 % of the
withdrawals and reasons (label 0) read at or over it. The bar ``veto`` likewise: the highest 0.05 step
from 0.20 at which at most 5 % of the stay clauses (label 1) read under it (a clause the resolver's word
list calls a keep is none under it). Writes ``core/extraction/data/retraction_keep_edge51.npz``.

    python -m training.train_retraction_keep [--out PATH] [--cache PATH]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from core.extraction.classifier import PREFIX
from core.extraction.retraction_keep import KEEP_WEIGHTS_PATH
from training.retraction_keep_rows_edge51 import rows as keep_rows
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit_framed, lowest_bar_within, out_of_fold_by_group, rows_sha1

FALSE_KEEP_SHARE = 0.03
"""At most this share of the withdrawals, reasons and whose-it-was rows out of fold at or over the bar
``keep``: a false keep undoes a withdrawal the user asked for (a sensitive fact stays), a missed keep only
lets a named memory go with it, so the bar is stricter than the veto's 5 % (``MISSED_KEEP_SHARE``)."""
MISSED_KEEP_SHARE = 0.05


def highest_bar_within(positives: np.ndarray, share: float) -> float:
    """The highest 0.05 step from 0.20 at which at most ``share`` of ``positives`` (out-of-fold probabilities
    of the stay clauses) read under it; 0.20 when none is."""
    best = 0.20
    for step in range(4, 11):
        if float((positives < step * 0.05).mean()) <= share:
            best = round(step * 0.05, 2)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=KEEP_WEIGHTS_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    args = ap.parse_args(argv)
    rows: list[dict[str, Any]] = keep_rows()
    framed = fit_framed(rows, args.cache)
    x = embed([r["text"] for r in rows], args.cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    oof = out_of_fold_by_group(rows, x, y)
    bar = lowest_bar_within(oof[y == 0], FALSE_KEEP_SHARE)
    recall = float((oof[y == 1] >= bar).mean())
    veto = highest_bar_within(oof[y == 1], MISSED_KEEP_SHARE)
    framed.model.save(args.out, rows=str(len(rows)), rows_sha1=rows_sha1(rows),
                      bars={"keep": bar, "veto": veto},
                      held_out_accuracy=f"{framed.held_out_accuracy:.4f}", oof_keep_recall=f"{recall:.4f}")
    print(json.dumps({"rows": framed.rows, "positives": framed.positives,
                      "held_out_rows": framed.held_out_rows,
                      "held_out_accuracy": round(framed.held_out_accuracy, 4),
                      "held_out_errors": [t for t, _ in framed.held_out_errors[:20]],
                      "oof_accuracy": round(float(((oof >= 0.5) == (y == 1)).mean()), 4),
                      "keep_bar": bar, "veto_bar": veto, "oof_keep_recall_at_bar": round(recall, 4),
                      "out": str(args.out)},
                     ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
