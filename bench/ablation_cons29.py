"""Ablation of session 16's hand-written chat lines (issue 24, helper cons29): for the standing-instruction
and the retraction-intent model, the accuracy on the lines of ``training/instruction_lines_cons29.py`` /
``training/retraction_lines_cons29.py`` of

- **old rows**: a fit on the earlier template rows alone (the weights shipped before, same recipe), which saw
  none of the lines;
- **old + new rows**: three fits, each on the template rows and two thirds of the line families, scoring the
  families it did not see (families split by ``crc32(group) % 3``).

Both arms score unseen lines; the second also saw other families of lines. Per family too.

    python -m bench.ablation_cons29 [--cache PATH] [--model standing|retraction|both]
"""

from __future__ import annotations

import argparse
import json
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import PREFIX
from core.extraction.retraction_intent import RetractionIntent
from training.train_memory_classifier import embed

Fit = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int64]], RetractionIntent]


def arms(old: list[dict[str, Any]], new: list[dict[str, Any]], fit: Fit,
         cache: Path | None) -> dict[str, Any]:
    """The two arms' accuracy on ``new`` (overall and per family)."""
    xo = embed([r["text"] for r in old], cache, PREFIX)
    yo = np.array([r["label"] for r in old], dtype=np.int64)
    xn = embed([r["text"] for r in new], cache, PREFIX)
    yn = np.array([r["label"] for r in new], dtype=np.int64)
    groups = np.array([r["group"] for r in new])
    fold = np.array([zlib.crc32(g.encode()) % 3 for g in groups])
    p_old = fit(xo, yo).predict_proba(xn)
    p_new = np.zeros(len(new))
    for k in range(3):
        seen = fold != k
        p_new[~seen] = fit(np.vstack([xo, xn[seen]]), np.concatenate([yo, yn[seen]])).predict_proba(xn[~seen])

    def acc(p: npt.NDArray[np.float64], m: npt.NDArray[np.bool_]) -> float:
        return round(float(((p[m] >= 0.5) == (yn[m] == 1)).mean()), 3)

    every = np.ones(len(new), dtype=bool)
    return {"lines": len(new), "positives": int(yn.sum()), "old_rows": acc(p_old, every),
            "old_plus_new_rows": acc(p_new, every),
            "positives_old_new": [acc(p_old, yn == 1), acc(p_new, yn == 1)],
            "negatives_old_new": [acc(p_old, yn == 0), acc(p_new, yn == 0)],
            "per_family_old_new": {g: [acc(p_old, groups == g), acc(p_new, groups == g)]
                                   for g in sorted(set(groups))}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--model", choices=("standing", "retraction", "both"), default="both")
    args = ap.parse_args(argv)
    out: dict[str, Any] = {}
    if args.model in ("retraction", "both"):
        from training.retraction_lines_cons29 import rows as lines
        from training.retraction_templates_cons27 import rows as cons27_rows
        from training.retraction_templates_forget24 import rows as forget24_rows
        from training.train_retraction_intent import fit as intent_fit

        out["retraction_intent"] = arms(forget24_rows() + cons27_rows(), lines(), intent_fit, args.cache)
        print(json.dumps(out, ensure_ascii=False), flush=True)
    if args.model in ("standing", "both"):
        from training.instruction_lines_cons29 import rows as lines
        from training.instruction_templates_cons26 import rows as cons26_rows
        from training.instruction_templates_cons28 import rows as cons28_rows
        from training.train_retraction_intent import fit as base_fit
        from training.train_standing_instruction import L2, LEARNING_RATE, STEPS

        def sharp_fit(x: npt.NDArray[np.float32], y: npt.NDArray[np.int64]) -> RetractionIntent:
            return base_fit(x, y, STEPS, LEARNING_RATE, L2)

        out["standing_instruction"] = arms(cons26_rows() + cons28_rows(), lines(), sharp_fit, args.cache)
    print(json.dumps(out, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
