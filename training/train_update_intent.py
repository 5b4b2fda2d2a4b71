"""Train the update-intent model (``core.extraction.update_intent``) on the template rows of
``training/update_intent_templates_updgate26.py``.

The retraction-intent trainer's fit (class-balanced logistic regression, full-batch gradient descent from
zero, deterministic; ``--steps`` / ``--learning-rate`` / ``--l2`` since issue 24's session 21, default
its own): first a fit with every fifth frame family held out (its accuracy is printed: wording of frames
the model did not see), then the shipped fit on all rows, written to
``core/extraction/data/update_intent.npz``.
``--upd27-rows`` adds the negatives of ``training/update_intent_templates_upd27.py`` (progress on a goal,
details of a state, fragments; issue 24, session 14), ``--intent39-rows`` the rows of
``training/update_intent_rows_intent39.py`` (a standing instruction's value changed without a change word,
and its hard negatives; session 20), ``--intent40-rows`` those of ``training/update_intent_rows_intent40.py``
(a thing, tool or habit replaced, told in chat verbs, and its hard negatives; session 21).

The gate's bar is fitted out of fold (``calibrated_bar``, since session 21): ``SEEDS`` splits of the frame
groups into ``FOLDS`` folds, each row read by a fit without its fold; per split the lowest bar (0.50-0.95,
step 0.01) at which the rows read at or above it are updates at least ``PRECISION`` of the time; the median
of the splits is the bar (printed with the splits' bars and their spread, and stored in the weights as
``calibrated_bar``; ``core.extraction.update_intent.UPDATE_INTENT_P`` holds the shipped bar).
``one_fold_bar`` is the bar of the single held-out fifth that calibrated it before session 21 (printed to show
its spread).

    python -m training.train_update_intent [--out PATH] [--cache PATH] [--upd27-rows] [--intent39-rows]
        [--intent40-rows] [--steps N] [--learning-rate F] [--l2 F]

The shipped weights (main's since session 14, ``UPDATE_INTENT_P`` 0.62; out of fold 0.63, spread 0.61-0.65):
``python -m training.train_update_intent --upd27-rows``. Session 21's arm E, measured and not shipped (bar
0.74; ``bench/results/update_intent_intent40_armE.npz``): ``python -m training.train_update_intent
--upd27-rows --intent39-rows --intent40-rows --steps 1500 --learning-rate 8 --l2 1e-4``.
"""

from __future__ import annotations

import argparse
import json
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import PREFIX
from core.extraction.update_intent import UPDATE_INTENT_PATH
from training.train_memory_classifier import embed
from training.train_retraction_intent import L2, LEARNING_RATE, STEPS, fit, fit_framed, rows_sha1
from training.update_intent_rows_intent39 import rows as intent39_rows
from training.update_intent_rows_intent40 import rows as intent40_rows
from training.update_intent_templates_upd27 import rows as upd27_rows
from training.update_intent_templates_updgate26 import rows as template_rows

PRECISION = 0.90
FOLDS = 5
SEEDS = 5


def training_rows(upd27: bool = True, intent39: bool = False, intent40: bool = False) -> list[dict[str, Any]]:
    """The rows the shipped weights are fitted on: updgate26's templates, then (``upd27``) the upd27
    negatives and (``intent39``) the intent39 rows (instruction values changed without a change word, and
    their hard negatives) they do not already hold."""
    rows: list[dict[str, Any]] = template_rows()
    seen = {r["text"] for r in rows}
    extra = ((upd27_rows() if upd27 else []) + (intent39_rows() if intent39 else [])
             + (intent40_rows() if intent40 else []))
    for r in extra:
        if r["text"] not in seen:
            seen.add(r["text"])
            rows.append(r)
    return rows


def fold_of(group: str, seed: int) -> int:
    """The fold of a frame group under ``seed`` (seed 0: the split of ``held_out``, whose fold 0 it holds
    out)."""
    key = group if seed == 0 else f"{seed}:{group}"
    return zlib.crc32(key.encode()) % FOLDS


def out_of_fold(x: npt.NDArray[np.float32], y: npt.NDArray[np.int64], groups: list[str], seed: int,
                steps: int = STEPS, learning_rate: float = LEARNING_RATE,
                l2: float = L2) -> npt.NDArray[np.float64]:
    """Each row's P(update) from a fit without its fold of frame groups (``FOLDS`` fits)."""
    folds = np.array([fold_of(g, seed) for g in groups])
    p = np.zeros(len(y))
    for k in range(FOLDS):
        test = folds == k
        if test.any():
            p[test] = fit(x[~test], y[~test], steps, learning_rate, l2).predict_proba(x[test])
    return p


def bar_at(p: npt.NDArray[np.float64], y: npt.NDArray[np.int64]) -> dict[str, float]:
    """The lowest bar (0.50-0.95, step 0.01) at which rows read at or above it are positives at least
    ``PRECISION`` of the time, with the precision and recall there (0.95 and zeros if none holds it)."""
    pos = y == 1
    for bar in (round(float(b), 2) for b in np.arange(0.50, 0.955, 0.01)):
        hit = p >= bar
        if hit.any() and float(pos[hit].mean()) >= PRECISION:
            return {"bar": bar, "precision": round(float(pos[hit].mean()), 4),
                    "recall": round(float(hit[pos].mean()), 4)}
    return {"bar": 0.95, "precision": 0.0, "recall": 0.0}


def calibrated_bar(rows: list[dict[str, Any]], cache: Path | None, seeds: int = SEEDS, steps: int = STEPS,
                   learning_rate: float = LEARNING_RATE, l2: float = L2) -> dict[str, Any]:
    """The bar fitted out of fold ``seeds`` times (each seed its own split of the frame groups into ``FOLDS``
    folds, every row read by a fit without its fold): each split's ``bar_at``, their median (the shipped bar)
    and spread, and the precision and recall at the median over every split's reads."""
    x = embed([r["text"] for r in rows], cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    groups = [r["group"] for r in rows]
    reads = [out_of_fold(x, y, groups, s, steps, learning_rate, l2) for s in range(seeds)]
    each = [bar_at(p, y) for p in reads]
    bars = sorted(b["bar"] for b in each)
    median = bars[(len(bars) - 1) // 2]
    p_all, y_all = np.concatenate(reads), np.tile(y, seeds)
    hit, pos = p_all >= median, y_all == 1
    first = np.array([fold_of(g, 0) == 0 for g in groups])  # the one held-out fifth read before session 21
    return {"bar": median, "spread": [bars[0], bars[-1]], "bars": [b["bar"] for b in each],
            "one_fold_bar": bar_at(reads[0][first], y[first])["bar"],
            "precision": round(float(pos[hit].mean()), 4) if hit.any() else 0.0,
            "recall": round(float(hit[pos].mean()), 4),
            "out_of_fold_accuracy": round(float(((p_all >= 0.5) == pos).mean()), 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=UPDATE_INTENT_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    ap.add_argument("--upd27-rows", action="store_true", help="add the upd27 negatives (progress, details)")
    ap.add_argument("--intent39-rows", action="store_true",
                    help="add the intent39 rows (instruction values changed without a change word)")
    ap.add_argument("--intent40-rows", action="store_true",
                    help="add the intent40 rows (a thing, tool or habit replaced, told in chat verbs)")
    ap.add_argument("--steps", type=int, default=STEPS, help="gradient steps of each fit")
    ap.add_argument("--learning-rate", type=float, default=LEARNING_RATE)
    ap.add_argument("--l2", type=float, default=L2, help="the fit's L2 (session 21's arm: 1e-4)")
    args = ap.parse_args(argv)
    rows = training_rows(args.upd27_rows, args.intent39_rows, args.intent40_rows)
    framed = fit_framed(rows, args.cache, args.steps, args.learning_rate, args.l2)
    bar = calibrated_bar(rows, args.cache, SEEDS, args.steps, args.learning_rate, args.l2)
    framed.model.save(args.out, rows=str(len(rows)), rows_sha1=rows_sha1(rows),
                      held_out_accuracy=f"{framed.held_out_accuracy:.4f}", calibrated_bar=f"{bar['bar']:.2f}")
    print(json.dumps({"rows": framed.rows, "positives": framed.positives,
                      "held_out_rows": framed.held_out_rows,
                      "held_out_accuracy": round(framed.held_out_accuracy, 4),
                      "calibrated_bar": bar,
                      "held_out_errors": [f"{t} ({q:.2f})" for t, q in framed.held_out_errors[:30]],
                      "out": str(args.out)},
                     ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
