"""Train the day's-news head (``core.extraction.day_news``) on labelled public-store memories and more.

Rows (``text``, ``label`` 1 = the day's news, no memory; 0 = a memory; ``group``; ``half``):
- the statements of the public stores' labelled memories (the label files of ``LABEL_FILES``, issue 24's
  precision labels, read here as plain JSON): every statement (the pieces ``build`` joined with "; " / "；")
  of a memory labelled ``good`` is 0, a memory of one statement labelled ``day_event`` or
  ``thanks_request_mood`` is 1 (other labels, and bad memories of several statements, are left out: which
  statement is bad is not labelled).
  A group per user. MemoryBank's odd users (``half`` ``held``) are never fitted: session 23's split, kept so
  that the held-out half measures the head (their rows are read by the shipped fit, for the report's counts);
- the horizon model's rows (``training.train_horizon.training_rows``: hand-written plans of the moment, 1,
  against lasting statements, 0), which keep the head's reading of chat lines, the guard sets' style.

The horizon trainer's fit and recipe (``training.train_retraction_intent.fit``, ``train_horizon``'s steps,
rate and shrinkage). The bar is calibrated out of fold (five fits, each without a fifth of the groups, by
CRC-32) on the labelled store rows of the development half and Persona-Chat: the lowest of 0.50-0.95 (step
0.05) at which the rows read at or above it are the day's news at least ``PRECISION`` of the time and the
horizon rows at or above it hold no lasting statement (stored as ``calibrated_bar``;
``core.extraction.day_news.DAY_NEWS_DROP`` holds the shipped one). Then the shipped fit on all development
rows, written to ``core/extraction/data/day_news.npz``.

    python -m training.train_day_news [--out PATH] [--cache PATH] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import PREFIX
from core.extraction.day_news import DAY_NEWS_PATH, DayNews
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from training.report import emit_report, out_of_fold_errors
from training.train_horizon import L2, LEARNING_RATE, STEPS, fold_of
from training.train_horizon import training_rows as horizon_rows
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit, rows_sha1

ROOT = Path(__file__).resolve().parent.parent
LABEL_FILES = [p for p in sorted((ROOT / "bench" / "results").glob("precision24_s*.jsonl"))
               if int(p.name.split("_")[1][1:]) <= 23]  # sessions 10-23 (later label files: not fitted)
DAY_NEWS = frozenset({"day_event", "thanks_request_mood"})
PRECISION = 0.95
_PIECES = re.compile(r"；|; ")


def half(name: str, case: str) -> str:
    """``dev`` for an even MemoryBank user, ``held`` for an odd one, ``all`` for another set."""
    if not name.startswith("memorybank"):
        return "all"
    try:
        return "dev" if int(case.rsplit("-", 1)[1]) % 2 == 0 else "held"
    except ValueError:
        return "held"  # an unnumbered MemoryBank user: never fitted


def store_rows(paths: list[Path] = LABEL_FILES) -> list[dict[str, Any]]:
    """The labelled statements (module doc), each (text, label) once, the last label a file gives a memory."""
    labels: dict[tuple[str, str, str], str] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            case = str(r.get("case", r.get("user", "")))
            for content, label in ((r.get("content"), r.get("label")),
                                   (r.get("end_content"), r.get("end_label"))):
                if content and label:
                    labels[(str(r.get("set", "")), case, str(content))] = str(label)
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, int]] = set()
    for (name, case, content), label in labels.items():
        pieces = [p.strip() for p in _PIECES.split(content) if p.strip()]
        if label == "good":
            y = 0
        elif label in DAY_NEWS and len(pieces) == 1:
            y = 1
        else:
            continue
        for piece in pieces:
            if (piece, y) in seen:
                continue
            seen.add((piece, y))
            out.append({"text": piece, "label": y, "group": f"{name}/{case}", "half": half(name, case)})
    return out


def training_rows() -> list[dict[str, Any]]:
    """The labelled store rows (all halves; ``half`` says which are fitted), then the horizon rows."""
    rows = store_rows()
    seen = {r["text"] for r in rows}
    rows += [{"text": r["text"], "label": int(r["label"]), "group": f"hz/{r['group']}", "half": "horizon"}
             for r in horizon_rows() if r["text"] not in seen]
    return rows


def out_of_fold(x: npt.NDArray[np.float32], y: npt.NDArray[np.int64], folds: npt.NDArray[np.int64],
                fitted: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """Each fitted row's P(the day's news) from a fit without its fold (0.0 for the rows never fitted)."""
    p = np.zeros(len(y))
    for k in range(5):
        test = fitted & (folds == k)
        if test.any():
            train = fitted & (folds != k)
            p[test] = fit(x[train], y[train], STEPS, LEARNING_RATE, L2).predict_proba(x[test])
    return p


def calibrated_bar(p: npt.NDArray[np.float64], y: npt.NDArray[np.int64], store: npt.NDArray[np.bool_],
                   horizon: npt.NDArray[np.bool_]) -> dict[str, float]:
    """The lowest bar (module doc) with its precision, recall and drops on the store rows."""
    for bar in (round(float(b), 2) for b in np.arange(0.50, 0.951, 0.05)):
        hit = p >= bar
        on_store = hit & store
        lasting_lost = int((hit & horizon & (y == 0)).sum())
        if on_store.any() and float(y[on_store].mean()) >= PRECISION and lasting_lost == 0:
            return {"bar": bar, "precision": round(float(y[on_store].mean()), 4),
                    "recall": round(float(on_store[store & (y == 1)].mean()), 4),
                    "dropped": int(on_store.sum())}
    return {"bar": 0.95, "precision": 0.0, "recall": 0.0, "dropped": 0}


def counts(p: npt.NDArray[np.float64], y: npt.NDArray[np.int64], sel: npt.NDArray[np.bool_],
           bar: float) -> dict[str, int]:
    """Rows of ``sel``: how many, how many are the day's news, how many read at ``bar`` or more, and good."""
    hit = sel & (p >= bar)
    return {"rows": int(sel.sum()), "day_news": int(y[sel].sum()), "read_over_bar": int(hit.sum()),
            "good_over_bar": int((hit & (y == 0)).sum())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=DAY_NEWS_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    ap.add_argument("--json", type=Path, default=None, help="also write the report here")
    args = ap.parse_args(argv)
    rows = training_rows()
    x = embed([r["text"] for r in rows], args.cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    halves = np.array([r["half"] for r in rows])
    folds = np.array([fold_of(r["group"]) for r in rows])
    fitted = halves != "held"
    store = (halves == "dev") | (halves == "all")
    horizon = halves == "horizon"
    oof = out_of_fold(x, y, folds, fitted)
    bar = calibrated_bar(oof, y, store, horizon)
    fitted_rows = [r for r, f in zip(rows, fitted, strict=True) if f]
    full = fit(x[fitted], y[fitted], STEPS, LEARNING_RATE, L2)
    DayNews(full.head).save(args.out, rows_sha1(fitted_rows), {"calibrated_bar": bar["bar"]},
                            rows=str(len(fitted_rows)))
    held = halves == "held"
    shipped = np.asarray(DayNews(full.head).predict_proba(x), dtype=np.float64)
    report = {"rows": len(fitted_rows), "day_news": int(y[fitted].sum()),
              "groups": len({r["group"] for r in fitted_rows}),
              "out_of_fold_accuracy": round(float(((oof[fitted] >= 0.5) == (y[fitted] == 1)).mean()), 4),
              "calibrated_bar": bar,
              "development_out_of_fold": counts(oof, y, store, bar["bar"]),
              "horizon_out_of_fold": counts(oof, y, horizon, bar["bar"]),
              "held_out_shipped_fit": counts(shipped, y, held, bar["bar"]),
              "out_of_fold_errors": out_of_fold_errors([r for r in rows if r["half"] in ("dev", "all")],
                                                       oof[store])[:40],
              "rows_sha1": rows_sha1(fitted_rows), "out": str(args.out)}
    emit_report(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
