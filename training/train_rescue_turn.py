"""Train the rescue-turn head (``core.extraction.rescue_turn``).

Rows: the chat turns written for it (``training/rescue_turn_lines_prec48.py`` and, session 30,
``training/rescue_turn_lines_prec49.py``: a turn, a statement cut from it, 1 when the statement read with its
turn is no memory, 0 when it is a lasting taste, habit, wish or fact).
Each row's input is the statement's and the turn's ``passage: `` vectors side by side. The intent trainers'
fit (class-balanced logistic regression, deterministic); the bar is calibrated out of fold (five fits, each
without a fifth of the groups; a line's group is its family and its index mod 4, so every fold holds some of
every family): the lowest 0.05 step from 0.50 at which at most ``LASTING_SHARE`` of the lasting lines read at
or over it.

    python -m training.train_rescue_turn [--out PATH] [--cache PATH]

"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import PREFIX
from core.extraction.rescue_turn import RESCUE_TURN_PATH, RescueTurn
from training.rescue_turn_lines_prec48 import rows as prec48_rows
from training.rescue_turn_lines_prec49 import rows as prec49_rows
from training.rescue_turn_lines_prec50 import rows as prec50_rows
from training.train_memory_classifier import embed
from training.train_retraction_intent import (
    L2,
    LEARNING_RATE,
    STEPS,
    fit,
    lowest_bar_within,
    out_of_fold_by_group,
    rows_sha1,
)

LASTING_SHARE = 0.025
"""At most this share of the lasting lines (label 0) may read at the bar or over it out of fold (one in
forty: at 0.65, two of the 44 lasting lines read over it, and on Persona-Chat the bar dropped a home told in
passing, "…right down the street from my apartment", read 0.68, which the public recall counts)."""


PREC50_LINES = False
"""Whether the session-31 lines (``training/rescue_turn_lines_prec50.py``) are rows of the shipped fit
(``--prec50`` fits them for an arm when this is off)."""


def training_rows(prec50: bool = PREC50_LINES) -> list[dict[str, Any]]:
    """The lines (``turn``, ``text``, ``label``, ``group``: family and index mod 4); ``prec50``: with the
    session-31 lines."""
    lines = prec48_rows() + prec49_rows() + (prec50_rows() if prec50 else [])
    return [{**r, "group": f"{r['group']}-{i % 4}"} for i, r in enumerate(lines)]


def features(rows: list[dict[str, Any]], cache: Path | None) -> npt.NDArray[np.float32]:
    """Each row's statement and turn vectors side by side."""
    return np.hstack([embed([r["text"] for r in rows], cache, PREFIX),
                      embed([r["turn"] for r in rows], cache, PREFIX)])


def calibrated_bar(p: npt.NDArray[np.float64], y: npt.NDArray[np.int64]) -> float:
    """The lowest 0.05 step from 0.50 at which at most ``LASTING_SHARE`` of the lasting rows read ``p`` at or
    over it."""
    return lowest_bar_within(p[y == 0], LASTING_SHARE)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=RESCUE_TURN_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    ap.add_argument("--prec50", action="store_true", help="with the session-31 lines (an arm)")
    args = ap.parse_args(argv)
    rows = training_rows(PREC50_LINES or args.prec50)
    x = features(rows, args.cache)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    p = out_of_fold_by_group(rows, x, y, STEPS, LEARNING_RATE, L2)
    bar = calibrated_bar(p, y)
    fitted = fit(x, y, STEPS, LEARNING_RATE, L2)
    RescueTurn(fitted.head).save(args.out, rows_sha1(rows), {"calibrated_bar": bar}, rows=str(len(rows)))
    by_bar = {f"{b:.2f}": [int(((p >= b) & (y == 1)).sum()), int(((p >= b) & (y == 0)).sum())]
              for b in (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)}
    print(json.dumps({"rows": len(rows), "no_memory": int(y.sum()), "calibrated_bar": bar,
                      "oof_no_memory_and_lasting_over_bar": by_bar,
                      "oof_accuracy": round(float(((p >= 0.5) == (y == 1)).mean()), 4), "out": str(args.out)},
                     indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
