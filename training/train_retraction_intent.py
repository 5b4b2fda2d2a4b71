"""Train the retraction-intent model (``core.extraction.retraction_intent``) on the template rows of
``training/retraction_templates_forget24.py`` and ``training/retraction_templates_cons27.py``
(``training_rows``; session 16's hand-written lines, ``training/retraction_lines_cons29.py``, only with
``--with-lines``: an ablation arm, not shipped).

Class-balanced logistic regression, full-batch gradient descent from zero (deterministic). First a fit
with every fifth frame family held out (the held-out accuracy is printed: wording of frames the model
did not see), then the shipped fit on all rows, written to ``core/extraction/data/retraction_intent.npz``.

    python -m training.train_retraction_intent [--out PATH] [--cache PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import PREFIX
from core.extraction.logistic_head import LogisticHead
from core.extraction.retraction_intent import INTENT_WEIGHTS_PATH, RetractionIntent
from training.retraction_lines_cons29 import rows as cons29_rows
from training.retraction_templates_cons27 import rows as cons27_rows
from training.retraction_templates_forget24 import rows as template_rows
from training.train_memory_classifier import embed

STEPS = 600
LEARNING_RATE = 2.0
L2 = 1e-3


def fit(x: npt.NDArray[np.float32], y: npt.NDArray[np.int64], steps: int = STEPS,
        learning_rate: float = LEARNING_RATE, l2: float = L2,
        weights: npt.NDArray[np.float64] | None = None) -> RetractionIntent:
    """Class-balanced logistic regression; ``weights``: each row's weight within its class (default 1: every
    row counts the same, the retraction-intent model's fit)."""
    mean = x.mean(axis=0).astype(np.float64)
    xc = x.astype(np.float64) - mean
    if weights is None:
        pos = max(int(y.sum()), 1)
        neg = max(len(y) - pos, 1)
        sw = np.where(y == 1, 0.5 / pos, 0.5 / neg)
    else:
        wpos = max(float(weights[y == 1].sum()), 1e-9)
        wneg = max(float(weights[y == 0].sum()), 1e-9)
        sw = np.where(y == 1, 0.5 / wpos, 0.5 / wneg) * weights
    w = np.zeros(x.shape[1])
    b = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(xc @ w + b)))
        g = (p - y) * sw
        w -= learning_rate * (xc.T @ g + l2 * w)
        b -= learning_rate * float(g.sum())
    return RetractionIntent(LogisticHead.of(w.astype(np.float32), float(b), mean.astype(np.float32)))


def rows_sha1(rows: list[dict[str, Any]]) -> str:
    """The SHA-1 of the template rows the weights were fitted on (a test checks the shipped weights')."""
    return hashlib.sha1(json.dumps(rows, ensure_ascii=False, sort_keys=True).encode()).hexdigest()


def training_rows(with_lines: bool = False) -> list[dict[str, Any]]:
    """The rows the shipped weights are fitted on: the session-12 templates, then the session-14 ones (a part
    of what was told, a bare "that" with its reason, and their look-alikes). Session 16's hand-written lines
    (``training/retraction_lines_cons29.py``) are not among them: fitted with them, the model read no unseen
    line family better (``python -m bench.ablation_cons29``) and a withdrawal of the dev sets fell under
    ``INTENT_P`` (0.71 -> 0.69); ``with_lines=True`` gives that arm."""
    return template_rows() + cons27_rows() + (cons29_rows() if with_lines else [])


def held_out(group: str) -> bool:
    return zlib.crc32(group.encode()) % 5 == 0


@dataclass(frozen=True)
class FramedFit:
    """The shipped fit on every row, and the check of a fit without the held-out frame groups."""

    model: RetractionIntent
    rows: int
    positives: int
    held_out_rows: int
    held_out_accuracy: float
    held_out_errors: list[tuple[str, float]]  # held-out rows on the wrong side of 0.5, with p


def fit_framed(rows: list[dict[str, Any]], cache: Path | None, steps: int = STEPS,
               learning_rate: float = LEARNING_RATE, l2: float = L2,
               weights: npt.NDArray[np.float64] | None = None) -> FramedFit:
    """Embed ``rows`` (``text``, ``label``, ``group``), fit without every fifth frame group and score
    those, then fit on all rows. The intent trainers' one recipe. ``weights``: per row, as ``fit``'s."""
    x = embed([r["text"] for r in rows], cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    test = np.array([held_out(r["group"]) for r in rows])
    p = fit(x[~test], y[~test], steps, learning_rate, l2,
            None if weights is None else weights[~test]).predict_proba(x[test])
    acc = float(((p >= 0.5) == (y[test] == 1)).mean()) if test.any() else 0.0
    tested = [r for r, t in zip(rows, test, strict=True) if t]
    errors = [(r["text"], float(q)) for r, q in zip(tested, p, strict=True)
              if (q >= 0.5) != (r["label"] == 1)]
    return FramedFit(fit(x, y, steps, learning_rate, l2, weights), len(rows), int(y.sum()), int(test.sum()),
                     acc, errors)


def lowest_bar_within(negatives: npt.NDArray[np.float64], share: float) -> float:
    """The lowest 0.05 step from 0.50 at which at most ``share`` of ``negatives`` (the out-of-fold
    probabilities of the rows the head must not drop) read at or over it; 0.95 when none is."""
    for step in range(10, 20):
        if float((negatives >= step * 0.05).mean()) <= share:
            return round(step * 0.05, 2)
    return 0.95


def out_of_fold_by_group(rows: list[dict[str, Any]], x: npt.NDArray[np.float32], y: npt.NDArray[np.int64],
                         steps: int = STEPS, learning_rate: float = LEARNING_RATE, l2: float = L2,
                         weights: npt.NDArray[np.float64] | None = None) -> npt.NDArray[np.float64]:
    """Each row's probability from a ``fit`` without its fifth of the frame groups (five fits; a row's
    fifth is its group's CRC-32 mod 5, the split every logistic-head trainer here shares)."""
    fold = np.array([zlib.crc32(r["group"].encode()) % 5 for r in rows])
    p = np.zeros(len(rows))
    for k in range(5):
        train = fold != k
        p[fold == k] = fit(x[train], y[train], steps, learning_rate, l2,
                           None if weights is None else weights[train]).predict_proba(x[fold == k])
    return p


def _out_of_fold(rows: list[dict[str, Any]], cache: Path | None) -> npt.NDArray[np.float64]:
    """Each row's P(retraction) from a fit without its fifth of the frame groups (five fits)."""
    x = embed([r["text"] for r in rows], cache, PREFIX)
    return out_of_fold_by_group(rows, x, np.array([r["label"] for r in rows], dtype=np.int64))


def cued_threshold(rows: list[dict[str, Any]], p: npt.NDArray[np.float64]) -> dict[str, float]:
    """The probability at which a sentence with an update cue (``pairs.UPDATE_CUE``: "scrap", "actually",
    "now") is a retraction (``core.extraction.rules.retraction.INTENT_CUED``), calibrated out of fold (``p``,
    ``_out_of_fold``): the first step of 0.05 above every cued non-retraction's out-of-fold probability."""
    from core.extraction.pairs import UPDATE_CUE

    y = np.array([r["label"] for r in rows], dtype=np.int64)
    cued = np.array([bool(UPDATE_CUE.search(r["text"])) for r in rows])
    neg, pos = p[cued & (y == 0)], p[cued & (y == 1)]
    top = float(neg.max()) if len(neg) else 0.5
    threshold = min(0.95, float(np.ceil((top + 1e-9) / 0.05) * 0.05))
    return {"cued_negatives": len(neg), "cued_positives": len(pos),
            "cued_negative_max": round(top, 4), "cued_threshold": round(threshold, 2),
            "cued_positive_recall": round(float((pos >= threshold).mean()) if len(pos) else 0.0, 4)}


def cue_floor(rows: list[dict[str, Any]], p: npt.NDArray[np.float64]) -> dict[str, float]:
    """The probability under which a sentence with a retraction cue word the rules know ("forget it", "nvm",
    "算了": ``core.extraction.rules.retraction``) withdraws nothing (``INTENT_CUE_FLOOR``), calibrated out of
    fold (``p``): the highest step of 0.05 at which 95 % of the cued withdrawals among the rows still pass.
    Also printed: the share of cued look-alikes (the moment, a reminder, an edit of a text) it stops."""
    from core.extraction.rules.retraction import cued

    y = np.array([r["label"] for r in rows], dtype=np.int64)
    has = np.array([cued(r["text"]) for r in rows])
    neg, pos = p[has & (y == 0)], p[has & (y == 1)]
    floor = 0.0
    for step in np.arange(0.05, 0.96, 0.05):
        if len(pos) and float((pos >= step).mean()) >= 0.95:
            floor = float(step)
    return {"cue_negatives": len(neg), "cue_positives": len(pos), "cue_floor": round(floor, 2),
            "cue_positive_pass": round(float((pos >= floor).mean()) if len(pos) else 0.0, 4),
            "cue_negative_stopped": round(float((neg < floor).mean()) if len(neg) else 0.0, 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=INTENT_WEIGHTS_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    ap.add_argument("--with-lines", action="store_true", help="also session 16's lines (an ablation arm)")
    args = ap.parse_args(argv)
    rows: list[dict[str, Any]] = training_rows(args.with_lines)
    framed = fit_framed(rows, args.cache)
    oof = _out_of_fold(rows, args.cache)
    floor = cue_floor(rows, oof)
    framed.model.save(args.out, rows=str(len(rows)), rows_sha1=rows_sha1(rows),
                      bars={"cue_floor": floor["cue_floor"]},
                      held_out_accuracy=f"{framed.held_out_accuracy:.4f}")
    print(json.dumps({"rows": framed.rows, "positives": framed.positives,
                      "held_out_rows": framed.held_out_rows,
                      "held_out_accuracy": round(framed.held_out_accuracy, 4),
                      "held_out_errors": [t for t, _ in framed.held_out_errors[:20]], "out": str(args.out),
                      **cued_threshold(rows, oof), **floor},
                     ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
