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

from core.extraction.update_intent import UPDATE_INTENT_PATH
from training.train_retraction_intent import fit_framed, rows_sha1
from training.update_intent_templates_updgate26 import rows as template_rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=UPDATE_INTENT_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    args = ap.parse_args(argv)
    rows: list[dict[str, Any]] = template_rows()
    framed = fit_framed(rows, args.cache)
    framed.model.save(args.out, rows=str(len(rows)), rows_sha1=rows_sha1(rows),
                      held_out_accuracy=f"{framed.held_out_accuracy:.4f}")
    print(json.dumps({"rows": framed.rows, "positives": framed.positives,
                      "held_out_rows": framed.held_out_rows,
                      "held_out_accuracy": round(framed.held_out_accuracy, 4),
                      "held_out_errors": [f"{t} ({q:.2f})" for t, q in framed.held_out_errors[:30]],
                      "out": str(args.out)},
                     ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
