"""Train the noun-subject taste head (``core.extraction.taste_subject``).

Rows: the hand-written clauses of ``training/taste_subject_lines_multi51.py`` (issue 24, session 32; en, zh,
mixed; 1: a noun-subject clause telling a taste for a kind of thing; 0: a remark on a particular thing, place,
person or event) and the own-subject head's elided clauses as 0 (``taste_subject_rows``). The heads' fit
(class-balanced logistic regression, deterministic); out-of-fold readings by group (five fits, each
without a fifth of the groups) are reported with the share of each class over a few bars.

    python -m training.train_taste_subject [--out PATH] [--cache PATH]

"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from core.extraction.classifier import PREFIX
from core.extraction.taste_subject import TASTE_SUBJECT_BAR, TASTE_SUBJECT_PATH, TasteSubject
from training.own_subject_lines_multi48 import rows as multi48_rows
from training.own_subject_lines_multi49 import rows as multi49_rows
from training.taste_subject_lines_multi51 import rows as multi51_rows
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit, out_of_fold_by_group, rows_sha1
from training.train_standing_instruction import L2, LEARNING_RATE, STEPS


def taste_subject_rows() -> list[dict[str, Any]]:
    """The head's training rows: multi51's lines, then the own-subject head's elided clauses (multi48's and
    multi49's label 0: a statement with the user's subject elided, "allergic to kiwi fruit", a plan told
    without "I") as label 0: the head reads noun-subject clauses only; an elided statement is none."""
    elided = [{**r, "label": 0, "group": f"elided-{r['group']}"}
              for r in (*multi48_rows(), *multi49_rows()) if r["label"] == 0]
    return [*multi51_rows(), *elided]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=TASTE_SUBJECT_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    args = ap.parse_args(argv)
    rows = taste_subject_rows()
    x = embed([r["text"] for r in rows], args.cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    p = out_of_fold_by_group(rows, x, y, STEPS, LEARNING_RATE, L2)
    fitted = fit(x, y, STEPS, LEARNING_RATE, L2)
    TasteSubject(fitted.head).save(args.out, rows_sha1(rows), {"bar": TASTE_SUBJECT_BAR}, rows=str(len(rows)))
    by_bar = {f"{b:.2f}": [round(float((p[y == 1] >= b).mean()), 4), round(float((p[y == 0] >= b).mean()), 4)]
              for b in (0.5, 0.6, 0.7, 0.8, 0.9)}
    wrong = [(r["text"], round(float(q), 3)) for r, q in zip(rows, p, strict=True)
             if (q >= TASTE_SUBJECT_BAR) != (r["label"] == 1)]
    print(json.dumps({"rows": len(rows), "taste": int(y.sum()),
                      "oof_taste_and_particular_share_over_bar": by_bar,
                      "oof_accuracy": round(float(((p >= TASTE_SUBJECT_BAR) == (y == 1)).mean()), 4),
                      "oof_wrong": wrong, "out": str(args.out)}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
