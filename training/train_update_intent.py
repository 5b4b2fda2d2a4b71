"""Train the update-intent model (``core.extraction.update_intent``) on the template rows of
``training/update_intent_templates_updgate26.py``.

The retraction-intent trainer's fit (class-balanced logistic regression, full-batch gradient descent from
zero, deterministic): first a fit with every fifth frame family held out (its accuracy is printed: wording
of frames the model did not see), then the shipped fit on all rows, written to
``core/extraction/data/update_intent.npz``. ``--upd27-rows`` adds the negatives of
``training/update_intent_templates_upd27.py`` (progress on a goal, details of a state, fragments; issue 24,
session 14). The gate's bar is calibrated on the held-out frame groups: the lowest bar (0.50-0.95, step
0.01) at which the held-out rows read at or above it are real updates at least ``PRECISION`` of the time
(printed as ``calibrated_bar``; ``core.extraction.update_intent.UPDATE_INTENT_P`` holds the shipped one).

``--intent39-rows`` adds ``training/update_intent_rows_intent39.py`` (a standing instruction's value changed
without a change word, and its hard negatives; issue 24, session 20).

    python -m training.train_update_intent [--out PATH] [--cache PATH] [--upd27-rows] [--intent39-rows]

The shipped weights: ``python -m training.train_update_intent --upd27-rows --intent39-rows`` (bar 0.63).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from core.extraction.classifier import PREFIX
from core.extraction.update_intent import UPDATE_INTENT_PATH
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit, fit_framed, held_out, rows_sha1
from training.update_intent_rows_intent39 import rows as intent39_rows
from training.update_intent_templates_upd27 import rows as upd27_rows
from training.update_intent_templates_updgate26 import rows as template_rows

PRECISION = 0.90


def training_rows(upd27: bool = True, intent39: bool = True) -> list[dict[str, Any]]:
    """The rows the shipped weights are fitted on: updgate26's templates, then (``upd27``) the upd27
    negatives and (``intent39``) the intent39 rows (instruction values changed without a change word, and
    their hard negatives) they do not already hold."""
    rows: list[dict[str, Any]] = template_rows()
    seen = {r["text"] for r in rows}
    extra = (upd27_rows() if upd27 else []) + (intent39_rows() if intent39 else [])
    for r in extra:
        if r["text"] not in seen:
            seen.add(r["text"])
            rows.append(r)
    return rows


def calibrated_bar(rows: list[dict[str, Any]], cache: Path | None) -> dict[str, float]:
    """The lowest bar at which held-out rows (every fifth frame group, fitted without them) read at or above
    it are positives at least ``PRECISION`` of the time, with the held-out precision and recall there."""
    x = embed([r["text"] for r in rows], cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    test = np.array([held_out(r["group"]) for r in rows])
    p = fit(x[~test], y[~test]).predict_proba(x[test])
    yt = y[test] == 1
    for bar in np.arange(0.50, 0.955, 0.01):
        hit = p >= bar
        if hit.any() and float(yt[hit].mean()) >= PRECISION:
            return {"bar": round(float(bar), 2), "precision": round(float(yt[hit].mean()), 4),
                    "recall": round(float(hit[yt].mean()), 4)}
    return {"bar": 0.95, "precision": 0.0, "recall": 0.0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=UPDATE_INTENT_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    ap.add_argument("--upd27-rows", action="store_true", help="add the upd27 negatives (progress, details)")
    ap.add_argument("--intent39-rows", action="store_true",
                    help="add the intent39 rows (instruction values changed without a change word)")
    args = ap.parse_args(argv)
    rows = training_rows(args.upd27_rows, args.intent39_rows)
    framed = fit_framed(rows, args.cache)
    bar = calibrated_bar(rows, args.cache)
    framed.model.save(args.out, rows=str(len(rows)), rows_sha1=rows_sha1(rows),
                      held_out_accuracy=f"{framed.held_out_accuracy:.4f}")
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
