"""The weight of the hand-written lines in the standing-instruction model's fit (issue 24, session 20).

For each line weight: five fits (each without a fifth of the frame groups, as the trainer's folds) score the
hand-written lines (``training/instruction_lines_cons29.py``, ``training/instruction_lines_cons37.py``) of the
groups they did not see; then one fit on every row scores the corpus's test split. Weight 0 is the template
rows alone (session 15's rows). Printed: the lines' out-of-fold accuracy (rules, look-alikes), the test
split's accuracy and the accuracy per line family.

    python -m bench.ablation_cons37 --cache C 0 1 8 20
"""

from __future__ import annotations

import argparse
import json
import zlib
from pathlib import Path

import numpy as np

from core.extraction.classifier import PREFIX
from training.instruction_templates_cons26 import corpus_rows
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit
from training.train_standing_instruction import L2, LEARNING_RATE, STEPS, template_rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("weights", nargs="+", type=float)
    args = ap.parse_args(argv)
    base = template_rows(with_lines=False)
    rows = template_rows()
    lines = np.arange(len(rows)) >= len(base)
    x = embed([r["text"] for r in rows], args.cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    held = corpus_rows(split="test")
    xh = embed([r["text"] for r in held], args.cache, PREFIX)
    yh = np.array([r["label"] for r in held])
    fold = np.array([zlib.crc32(r["group"].encode()) % 5 for r in rows])
    for weight in args.weights:
        w = np.where(lines, weight, 1.0)
        use = ~lines | (weight > 0)
        p = np.zeros(len(rows))
        for k in range(5):
            train = (fold != k) & use
            test = (fold == k) & lines
            p[test] = fit(x[train], y[train], STEPS, LEARNING_RATE, L2, w[train]).predict_proba(x[test])
        ph = fit(x[use], y[use], STEPS, LEARNING_RATE, L2, w[use]).predict_proba(xh)
        right = (p >= 0.5) == (y == 1)
        families: dict[str, list[bool]] = {}
        for i in np.where(lines)[0]:
            families.setdefault(rows[i]["group"], []).append(bool(right[i]))
        print(json.dumps({"line_weight": weight, "lines": int(lines.sum()),
                          "lines_oof_accuracy": round(float(right[lines].mean()), 3),
                          "rules": round(float(right[lines & (y == 1)].mean()), 3),
                          "look_alikes": round(float(right[lines & (y == 0)].mean()), 3),
                          "corpus_test_accuracy": round(float(((ph >= 0.5) == (yh == 1)).mean()), 4),
                          "families": {g: round(float(np.mean(v)), 2) for g, v in sorted(families.items())}},
                         ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
