"""Train the asked-turn head (``core.extraction.asked_turn``).

Rows: the written (question, answer statement) pairs (``training/asked_turn_lines_prec51.py``) and the
rescue-turn head's lines each given a question (``asked_turn_lines_prec51.weak_rows``); 1 when the statement,
read as the answer to the question, is the day's news, a plan of these days or a mood, 0 when it is lasting.
Each row's input is the question's and the statement's ``passage: `` vectors side by side. The intent
trainers' fit (class-balanced logistic regression, deterministic); the bar is calibrated out of fold (five
fits, each without a fifth of the groups; a line's group is its family and its index mod 4): the lowest
0.05 step from 0.50 at which at most ``LASTING_SHARE`` of the lasting lines read at or over it.

    python -m training.train_asked_turn [--out PATH] [--cache PATH]

"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.asked_turn import ASKED_TURN_PATH, AskedTurn
from core.extraction.classifier import PREFIX
from training.asked_turn_lines_prec51 import rows as prec51_rows
from training.asked_turn_lines_prec51 import weak_rows
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
"""At most this share of the lasting lines (label 0) may read at the bar or over it out of fold (the
rescue-turn head's share)."""


POLITE = False
"""Whether the 40 pairs in MemoryBank's long, polite register (``asked_turn_lines_prec51.POLITE_LINES``)
are rows of the shipped fit (``--polite``: the arm with them). Off: measured as arm C
(``bench/RESULTS.md``, issue 24, session 32, helper prec51): at its calibrated bar 0.70 it left the own set
at 18 / 24 against 22 / 24 for the shipped fit at 0.60."""


def training_rows(polite: bool = POLITE) -> list[dict[str, Any]]:
    """The rows (``question``, ``text``, ``label``, ``group``: family and index mod 4); ``polite``: with the
    polite-register pairs."""
    lines = prec51_rows(polite) + weak_rows(prec48_rows() + prec49_rows() + prec50_rows())
    return [{**r, "group": f"{r['group']}-{i % 4}"} for i, r in enumerate(lines)]


def features(rows: list[dict[str, Any]], cache: Path | None) -> npt.NDArray[np.float32]:
    """Each row's question and statement vectors side by side."""
    return np.hstack([embed([r["question"] for r in rows], cache, PREFIX),
                      embed([r["text"] for r in rows], cache, PREFIX)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=ASKED_TURN_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    ap.add_argument("--polite", action="store_true", help="with the polite-register pairs (an arm)")
    args = ap.parse_args(argv)
    rows = training_rows(POLITE or args.polite)
    x = features(rows, args.cache)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    p = out_of_fold_by_group(rows, x, y, STEPS, LEARNING_RATE, L2)
    bar = lowest_bar_within(p[y == 0], LASTING_SHARE)
    written = np.array([r["group"].startswith("prec51-") for r in rows])
    fitted = fit(x, y, STEPS, LEARNING_RATE, L2)
    AskedTurn(fitted.head).save(args.out, rows_sha1(rows), {"calibrated_bar": bar}, rows=str(len(rows)))
    by_bar = {f"{b:.2f}": [int(((p >= b) & (y == 1)).sum()), int(((p >= b) & (y == 0)).sum())]
              for b in (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)}
    written_by_bar = {f"{b:.2f}": [int(((p >= b) & (y == 1) & written).sum()),
                                   int(((p >= b) & (y == 0) & written).sum())]
                      for b in (0.5, 0.6, 0.65, 0.7, 0.75, 0.8)}
    print(json.dumps({"rows": len(rows), "written": int(written.sum()), "no_memory": int(y.sum()),
                      "calibrated_bar": bar, "oof_news_and_lasting_over_bar": by_bar,
                      "oof_written_pairs_news_and_lasting_over_bar": written_by_bar,
                      "oof_accuracy": round(float(((p >= 0.5) == (y == 1)).mean()), 4), "out": str(args.out)},
                     indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
