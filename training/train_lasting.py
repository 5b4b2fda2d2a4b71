"""Train the lasting-statement head (``core.extraction.lasting``) on hand-written chat lines.

Rows (``text``, ``label`` 1 = a lasting statement of the user's own life, 0 = not; ``group``): the lines of
``training/lasting_rows_miss41.py``, the chat rows of ``training/utterance_rows_chat29.py`` (a keep of any
type is 1, a drop 0; a group per family) and the fact / project rows of ``training/utterance_rows_ptype40.py``
(all 1), each text once. The horizon trainer's fit (``training.train_retraction_intent.fit``: class-balanced
logistic regression, full-batch gradient descent from zero, deterministic) and its recipe (``train_horizon``'s
steps, rate and shrinkage). The bar is calibrated out of fold: five fits, each without a fifth of the row
groups (by CRC-32), read on the groups left out. The head is read only on a rescue unit the memory classifier
keeps under its rescue bar (``core.extraction.lasting.LASTING_FLOOR`` <= p(keep) < ``gate_units.RESCUE_KEEP``)
that is the user's own at the plain rescue bar (``gate_lasting.eligible``), so the bar is calibrated on the
rows the gate would let it read (``in_band``: told alone, the shipped memory classifier in that band): the
lowest of 0.30-0.95 (step 0.05) at which the band's held-out rows read at or above it are lasting at least
``PRECISION`` of the time (printed and stored as ``calibrated_bar``; ``core.extraction.lasting.LASTING_KEEP``
holds the shipped one). Then the shipped fit on all rows, written to ``core/extraction/data/lasting.npz``.

    python -m training.train_lasting [--out PATH] [--cache PATH] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.candidates import ExtractionInput
from core.extraction.classifier import PREFIX, shipped_mlp
from core.extraction.lasting import LASTING_FLOOR, LASTING_PATH, Lasting
from core.extraction.rules.analysis import analyse
from core.extraction.rules.gate_lasting import eligible
from core.extraction.rules.gate_rescue import rescue_units
from core.extraction.rules.gate_units import RESCUE_KEEP
from training.lasting_rows_keep42 import rows as keep42_rows
from training.lasting_rows_miss41 import rows as lasting_rows
from training.report import emit_report, out_of_fold_errors
from training.train_horizon import L2, LEARNING_RATE, STEPS, fold_of, out_of_fold
from training.train_memory_classifier import CORPUS, embed
from training.train_retraction_intent import fit, rows_sha1
from training.utterance_rows_chat29 import rows as chat29_rows
from training.utterance_rows_ptype40 import rows as ptype40_rows
from training.utterance_templates_ctx34 import ctx34_template_rows
from training.utterance_templates_prec24 import prec24_template_rows
from training.utterance_templates_prec24b import prec24b_template_rows
from training.utterance_templates_prec32 import prec32_template_rows
from training.utterance_templates_prec37 import prec37_template_rows

PRECISION = 0.90  # in the band the gate reads: its rows are lasting 0.75 of the time without the head


def training_rows(wide: bool = False) -> list[dict[str, Any]]:
    """``lasting_rows_miss41``'s lines, then chat29's and ptype40's rows as labelled lines (the shipped fit);
    with ``wide`` (session 23's arm, measured, not shipped) also ``lasting_rows_keep42``'s template rows,
    the companion-chat template sets of the precision model (prec24, prec24b, prec37, ctx34, prec32: a keep
    is 1, a drop 0) and every row of the memory-utterance corpus (its persona sentences of
    Synthetic-Persona-Chat's validation split as weak labels among them). Each text once, the first source
    kept. A persona sentence (a profile line, not a sentence said in a chat) carries ``chat: False``: the
    calibration skips it."""
    out: list[dict[str, Any]] = list(lasting_rows())
    seen = {r["text"] for r in out}

    def add(text: str, label: int, group: str, chat: bool = True) -> None:
        if text not in seen:
            seen.add(text)
            out.append({"text": text, "label": label, "group": group, **({} if chat else {"chat": False})})

    for r in [*chat29_rows(), *ptype40_rows()]:
        add(str(r["text"]), 1 if r["keep"] else 0, str(r["family"]))
    if not wide:
        return out
    for r in keep42_rows():
        add(str(r["text"]), int(r["label"]), str(r["group"]))  # type: ignore[call-overload]
    for make in (prec37_template_rows, prec24_template_rows, prec24b_template_rows, ctx34_template_rows,
                 prec32_template_rows):
        for r in make():
            add(str(r["text"]), int(bool(r["keep"])), f"{r['source']}_{r['family']}")
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            source = str(r.get("source") or "hand")
            persona_line = source == "persona_valid_weak" and r["family"] != "persona_turn" and r["keep"]
            add(str(r["text"]), int(bool(r["keep"])), f"{source}_{r['family']}", not persona_line)
    return out


def readable(text: str) -> bool:
    """The gate would let the head read ``text`` told alone: no rule fires on it and it is a rescue unit of
    the user's own at the plain rescue bar (not a request or a question the rules dropped, not someone
    else's, no marker of the day: ``gate_lasting.lasting_units``)."""
    analysis = analyse(ExtractionInput(text))
    return not analysis.groups and any(eligible(u) for u in rescue_units(analysis))


def in_band(x: npt.NDArray[np.float32], texts: list[str]) -> npt.NDArray[np.bool_]:
    """Which rows the head reads in the gate: the shipped memory classifier keeps them under its rescue bar,
    from ``LASTING_FLOOR``, and they are ``readable``."""
    p_keep = 1.0 - shipped_mlp().predict_proba(x)[:, 0]
    band = (p_keep >= LASTING_FLOOR) & (p_keep < RESCUE_KEEP)
    return band & np.array([bool(b) and readable(t) for b, t in zip(band, texts, strict=True)])


def calibrated_bar(p: npt.NDArray[np.float64], y: npt.NDArray[np.int64]) -> dict[str, float]:
    """The lowest bar (0.30-0.95, step 0.05) at which out-of-fold rows (the caller passes the band's) at or
    above it are lasting at least ``PRECISION`` of the time, with that precision, the recall of lasting rows
    and the share of other rows at or above it."""
    pos = y == 1
    for bar in (round(float(b), 2) for b in np.arange(0.30, 0.951, 0.05)):
        hit = p >= bar
        if hit.any() and float(pos[hit].mean()) >= PRECISION:
            return {"bar": bar, "precision": round(float(pos[hit].mean()), 4),
                    "recall": round(float(hit[pos].mean()), 4),
                    "other_kept": round(float(hit[~pos].mean()), 4)}
    return {"bar": 0.95, "precision": 0.0, "recall": 0.0, "other_kept": 0.0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=LASTING_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    ap.add_argument("--json", type=Path, default=None, help="also write the report here")
    ap.add_argument("--wide", action="store_true",
                    help="session 23's arm: also keep42's rows, the companion-chat templates and the corpus")
    args = ap.parse_args(argv)
    rows = training_rows(wide=args.wide)
    x = embed([r["text"] for r in rows], args.cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    folds = np.array([fold_of(r["group"]) for r in rows])
    oof = out_of_fold(x, y, folds)
    chat = np.array([bool(r.get("chat", True)) for r in rows])
    band = in_band(x, [r["text"] for r in rows]) & chat
    bar = calibrated_bar(oof[band], y[band])
    full = fit(x, y, STEPS, LEARNING_RATE, L2)
    Lasting(full.head).save(args.out, rows_sha1(rows), {"calibrated_bar": bar["bar"]}, rows=str(len(rows)))
    report = {"rows": len(rows), "lasting": int(y.sum()), "groups": len({r["group"] for r in rows}),
              "floor": LASTING_FLOOR,
              "band_rows": int(band.sum()), "band_lasting": int(y[band].sum()),
              "out_of_fold_accuracy": round(float(((oof >= 0.5) == (y == 1)).mean()), 4),
              "calibrated_bar": bar,
              "out_of_fold_errors": out_of_fold_errors(rows, oof),
              "rows_sha1": rows_sha1(rows), "out": str(args.out)}
    emit_report(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
