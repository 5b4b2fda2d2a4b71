"""Train the dated-change head (``core.extraction.dated_change``).

Rows (``text``, ``label`` 1 = a lasting change of who the user is or what they have, 0 = the day's news;
``group``):
- the hand-written lines of ``training/dated_change_lines_past51.py`` (a group per family), weighted
  ``LINE_WEIGHT`` times a row;
- weak rows, licensed: the public stores' labelled statements of sessions 10-23
  (``training.train_day_news.store_rows``: a statement of a memory labelled ``good`` is lasting, 1 here; a
  single-statement memory labelled ``day_event`` or ``thanks_request_mood`` is the day's news, 0 here), the
  development half only (MemoryBank's odd users are never fitted, as for the day's-news head).

The horizon trainer's fit and recipe. The bar is calibrated out of fold (five fits, each without a fifth of
the groups, ``out_of_fold_by_group``): the lowest 0.05 step at which at most ``NEWS_SHARE`` of the
hand-written day's-news lines read at or over it (``calibrated_bar``; ``DATED_CHANGE_BAR`` holds the shipped
one).

    python -m training.train_dated_change [--out PATH] [--cache PATH]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import PREFIX
from core.extraction.dated_change import DATED_CHANGE_PATH, DatedChange
from training.dated_change_lines_past51 import rows as past51_rows
from training.train_day_news import store_rows
from training.train_horizon import L2, LEARNING_RATE, STEPS
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit, lowest_bar_within, out_of_fold_by_group, rows_sha1

LINE_WEIGHT = 8.0
NEWS_SHARE = 0.05


def training_rows(weak: bool = True) -> list[dict[str, Any]]:
    """The hand-written lines, then (``weak``) the development half's labelled store statements, flipped."""
    out = past51_rows()
    if weak:
        out += [{"text": r["text"], "label": 1 - int(r["label"]), "group": f"store-{r['group']}"}
                for r in store_rows() if r.get("half") != "held"]
    return out


def row_weights(rows: list[dict[str, Any]]) -> npt.NDArray[np.float64]:
    """``LINE_WEIGHT`` for a hand-written line, 1 for a weak store row."""
    return np.array([LINE_WEIGHT if r["group"].startswith("past51-") else 1.0 for r in rows])


def calibrated_bar(p: npt.NDArray[np.float64], rows: list[dict[str, Any]]) -> float:
    """The lowest 0.05 step at which at most ``NEWS_SHARE`` of the hand-written news lines read at or over
    it."""
    news = np.array([r["group"].startswith("past51-news-") for r in rows])
    return lowest_bar_within(p[news], NEWS_SHARE)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=DATED_CHANGE_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    ap.add_argument("--no-weak", action="store_true", help="the hand-written lines alone")
    args = ap.parse_args(argv)
    rows = training_rows(not args.no_weak)
    x = embed([r["text"] for r in rows], args.cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    w = row_weights(rows)
    p = out_of_fold_by_group(rows, x, y, STEPS, LEARNING_RATE, L2, w)
    bar = calibrated_bar(p, rows)
    fitted = fit(x, y, STEPS, LEARNING_RATE, L2, w)
    DatedChange(fitted.head).save(args.out, rows_sha1(rows), {"calibrated_bar": bar}, rows=str(len(rows)),
                                  line_weight=f"{LINE_WEIGHT:g}")
    lines = np.array([r["group"].startswith("past51-") for r in rows])
    print(json.dumps({"rows": len(rows), "lines": int(lines.sum()), "calibrated_bar": bar,
                      "oof_line_accuracy": round(float(((p[lines] >= 0.5) == (y[lines] == 1)).mean()), 4),
                      "oof_changes_over_bar": round(float((p[lines & (y == 1)] >= bar).mean()), 4),
                      "oof_news_over_bar": int(((p >= bar) & lines & (y == 0)).sum()),
                      "oof_store_accuracy": round(float(((p[~lines] >= 0.5) == (y[~lines] == 1)).mean()), 4)
                      if (~lines).any() else None, "out": str(args.out)}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
