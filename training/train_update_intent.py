"""Train the update-intent model (``core.extraction.update_intent``) on the template rows of
``training/update_intent_templates_updgate26.py``.

The retraction-intent trainer's fit (class-balanced logistic regression, full-batch gradient descent from
zero, deterministic): first a fit with every fifth frame family held out (its accuracy is printed: wording
of frames the model did not see), then the shipped fit on all rows, written to
``core/extraction/data/update_intent.npz``.

    python -m training.train_update_intent [--out PATH] [--cache PATH]
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
from training.train_retraction_intent import fit, held_out, rows_sha1
from training.update_intent_templates_updgate26 import rows as template_rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=UPDATE_INTENT_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    args = ap.parse_args(argv)
    rows: list[dict[str, Any]] = template_rows()
    x = embed([r["text"] for r in rows], args.cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    test = np.array([held_out(r["group"]) for r in rows])
    model = fit(x[~test], y[~test])
    p = model.predict_proba(x[test])
    acc = float(((p >= 0.5) == (y[test] == 1)).mean()) if test.any() else 0.0
    held = [r for r, t in zip(rows, test, strict=True) if t]
    missed = [f"{r['text']} ({q:.2f})" for r, q in zip(held, p, strict=True)
              if (q >= 0.5) != (r["label"] == 1)]
    shipped = fit(x, y)
    shipped.save(args.out, rows=str(len(rows)), rows_sha1=rows_sha1(rows),
                 held_out_accuracy=f"{acc:.4f}")
    print(json.dumps({"rows": len(rows), "positives": int(y.sum()), "held_out_rows": int(test.sum()),
                      "held_out_accuracy": round(acc, 4), "held_out_errors": missed[:30],
                      "out": str(args.out)},
                     ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
