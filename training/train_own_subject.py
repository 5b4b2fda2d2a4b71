"""Train the own-subject head (``core.extraction.own_subject``).

Rows: the hand-written clauses of ``training/own_subject_lines_multi48.py`` and, since session 30,
``training/own_subject_lines_multi49.py`` (Chinese and mixed; 1: the clause names a subject of its own, a noun
phrase; 0: the user's subject elided or said). The heads' fit (class-balanced logistic regression,
deterministic); out-of-fold readings by group (five fits, each without a fifth of the groups) are reported
with the share of each class over a few bars.

    python -m training.train_own_subject [--out PATH] [--cache PATH]

"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from core.extraction.classifier import PREFIX
from core.extraction.own_subject import OWN_SUBJECT_BAR, OWN_SUBJECT_PATH, OwnSubject
from training.own_subject_lines_multi48 import rows as multi48_rows
from training.own_subject_lines_multi49 import rows as multi49_rows
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit, out_of_fold_by_group, rows_sha1
from training.train_standing_instruction import L2, LEARNING_RATE, STEPS


def own_subject_rows() -> list[dict[str, Any]]:
    """The head's training rows: multi48's lines, then multi49's."""
    return [*multi48_rows(), *multi49_rows()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=OWN_SUBJECT_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    args = ap.parse_args(argv)
    rows = own_subject_rows()
    x = embed([r["text"] for r in rows], args.cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    p = out_of_fold_by_group(rows, x, y, STEPS, LEARNING_RATE, L2)
    fitted = fit(x, y, STEPS, LEARNING_RATE, L2)
    OwnSubject(fitted.head).save(args.out, rows_sha1(rows), {"bar": OWN_SUBJECT_BAR}, rows=str(len(rows)))
    by_bar = {f"{b:.2f}": [round(float((p[y == 1] >= b).mean()), 4), round(float((p[y == 0] >= b).mean()), 4)]
              for b in (0.3, 0.4, 0.5, 0.6, 0.7)}
    wrong = [(r["text"], round(float(q), 3)) for r, q in zip(rows, p, strict=True)
             if (q >= OWN_SUBJECT_BAR) != (r["label"] == 1)]
    print(json.dumps({"rows": len(rows), "own": int(y.sum()),
                      "oof_own_and_elided_share_over_bar": by_bar,
                      "oof_accuracy": round(float(((p >= OWN_SUBJECT_BAR) == (y == 1)).mean()), 4),
                      "oof_wrong": wrong, "out": str(args.out)}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
