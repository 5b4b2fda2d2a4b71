"""Train the companion-remark head (``core.extraction.companion_remark``).

Rows: the standing-instruction model's rows (``training.train_standing_instruction.template_rows``),
relabelled: its rules (label 1 there) are 0 here; its rows of talk to a companion, thanks, the user's own
habits, tastes, plans and facts, others' doings and hypotheticals (``REMARK_GROUPS``) are 1; its requests,
questions, tasks, short-term rules and retractions (addressed to the assistant, no remark and no rule) are
left out. Beside them the hand-written lines of ``training/companion_lines_prec47.py`` (remarks 1, limitations
said as a statement 0), each weighted ``LINE_WEIGHT`` times a row. The standing trainer's fit (class-balanced
logistic regression, deterministic); the bar is calibrated out of fold (five fits, each without a fifth of the
groups): the lowest 0.05 step at which at most ``RULE_SHARE`` of the rule rows (label 0) read at or over it.

    python -m training.train_companion_remark [--out PATH] [--cache PATH]

"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import PREFIX
from core.extraction.companion_remark import COMPANION_REMARK_PATH, CompanionRemark
from training.companion_lines_prec47 import rows as prec47_rows
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit, lowest_bar_within, out_of_fold_by_group, rows_sha1
from training.train_standing_instruction import L2, LEARNING_RATE, LINE_WEIGHT, STEPS, template_rows

REMARK_GROUPS = ("cons37-companion", "corpus-thanks_ack", "corpus-persona_turn", "corpus-fact_self",
                 "corpus-preference", "corpus-about_the_other", "corpus-hypothetical", "cons29-chat",
                 "cons29-ownhabit", "cons29-others", "cons29-sarcasm", "en-ownhabit", "zh-ownhabit",
                 "zh-ownplan", "en-thanks", "zh-thanks", "en-other", "zh-other", "en-hypo", "zh-hypo")
"""The standing rows' non-rule groups that are talk about the user or to the companion (prefixes)."""


def training_rows() -> list[dict[str, Any]]:
    """The relabelled standing rows and the hand-written lines (``text``, ``label``, ``group``)."""
    out: list[dict[str, Any]] = []
    for r in template_rows():
        if r["label"] == 1:
            out.append({**r, "label": 0})
        elif r["group"].startswith(REMARK_GROUPS):
            out.append({**r, "label": 1})
    return out + prec47_rows()


def row_weights(rows: list[dict[str, Any]]) -> npt.NDArray[np.float64]:
    """``LINE_WEIGHT`` for a hand-written line (``cons29-``, ``cons37-``, ``prec47-``), 1 for a template
    row."""
    return np.array([LINE_WEIGHT if r["group"].startswith(("cons29-", "cons37-", "prec47-")) else 1.0
                     for r in rows])


RULE_SHARE = 0.003
"""At most this share of the rule rows may read at the bar or over it out of fold: a rule dropped as a remark
is a lost memory, a remark kept one bad memory (at the 99th percentile's step, 0.70, "always reply to me in
spanish, i'm practicing" read 0.72)."""


def calibrated_bar(p: npt.NDArray[np.float64], y: npt.NDArray[np.int64]) -> float:
    """The lowest 0.05 step at which at most ``RULE_SHARE`` of the rule rows (``y == 0``) read ``p`` at or
    over it."""
    return lowest_bar_within(p[y == 0], RULE_SHARE)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=COMPANION_REMARK_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    args = ap.parse_args(argv)
    rows = training_rows()
    x = embed([r["text"] for r in rows], args.cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    w = row_weights(rows)
    p = out_of_fold_by_group(rows, x, y, STEPS, LEARNING_RATE, L2, w)
    bar = calibrated_bar(p, y)
    fitted = fit(x, y, STEPS, LEARNING_RATE, L2, w)
    lines = np.array([r["group"].startswith("prec47-") for r in rows])
    shipped = CompanionRemark(fitted.head)
    shipped.save(args.out, rows_sha1(rows), {"calibrated_bar": bar}, rows=str(len(rows)),
                 line_weight=f"{LINE_WEIGHT:g}")
    by_bar = {f"{b:.2f}": [int(((p >= b) & (y == 0)).sum()), round(float((p[y == 1] >= b).mean()), 4)]
              for b in (0.7, 0.8, 0.85, 0.9, 0.95)}
    print(json.dumps({"rows": len(rows), "oof_rules_and_remark_share_by_bar": by_bar,
                      "remarks": int(y.sum()), "calibrated_bar": bar,
                      "oof_rules_over_bar": int(((p >= bar) & (y == 0)).sum()),
                      "oof_remarks_over_bar": round(float((p[y == 1] >= bar).mean()), 4),
                      "oof_lines_remarks_over_bar": round(float((p[lines & (y == 1)] >= bar).mean()), 4),
                      "oof_limits_over_bar": int(((p >= bar) & lines & (y == 0)).sum()),
                      "oof_accuracy": round(float(((p >= 0.5) == (y == 1)).mean()), 4), "out": str(args.out)},
                     ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
