"""Train the type-pair heads (``core.extraction.rules.type_pairs``): two small logistic heads read only where
the memory classifier hesitates between two types (issue 24, session 25, helper type44).

Session 24 (cls43, ``bench/RESULTS.md``) retrained the whole memory classifier on the writers' type
conventions (a chosen diet, an instrument played: a taste; a device the user has, work told as what one
does: a fact); every arm gained on the pooled halves but lost dev guards, because a whole-corpus retrain also
moves decisions far from its rows. These heads leave the classifier as it is and decide only between the two
types of a pair, only on a text whose two likeliest types (given keep) are that pair with a small margin:

- ``taste_fact`` (1 = preference, 0 = fact): cls43's written rows of diets chosen (taste) beside diets of
  faith or health (fact), devices (fact) beside software and tools (taste), instruments played (taste) beside
  music jobs (fact) (``utterance_rows_conv43.py``), plus the memory corpus's kept preference / fact rows of
  those families (a chosen diet, an instrument, a device: ``FAMILY_TASTE_FACT``), relabelled by cls43's
  conventions (``relabel_conventions_cls43.rule_of``);
- ``fact_project`` (1 = project, 0 = fact): cls43's jobs told as what one does (fact) beside things being
  made (project), ptype40's fact / project boundary rows (``utterance_rows_ptype40.py``: what the user owns,
  where and with whom they live, their work, beside projects told in chat words), plus the corpus's kept fact
  / project rows about work (``FAMILY_WORK``).

The fit is the horizon trainer's (class-balanced logistic regression on the classifier's ``passage:``
vectors, ``train_horizon``'s steps, rate and shrinkage). Out of fold (five folds by CRC-32 of each row's
text), the margin is calibrated where the head is read: on the rows the shipped memory classifier types as
one of the pair with the other second, the largest of ``MARGINS`` (the gap between the two types'
probabilities given keep) under which the head's out-of-fold reading gains the most rows over the
classifier's (right where the classifier is wrong minus wrong where it is right; ties: the smaller margin;
no gain: margin 0, the head never read). Then the shipped fit on all rows, to
``core/extraction/data/type_{pair}.npz`` with the margin as the ``margin`` bar.

    python -m training.train_type_pairs [--cache PATH] [--json PATH] [--out-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import LABELS, PREFIX, shipped_mlp
from core.extraction.rules import patterns
from core.extraction.rules.type_pairs import HOME_ROWS_WEIGHTS, PAIRS, TypePair, grounded, taste_fact_family
from training.relabel_conventions_cls43 import DEVICE, INSTRUMENT, rule_of
from training.report import emit_report, out_of_fold_errors
from training.train_horizon import L2, LEARNING_RATE, STEPS, fold_of, out_of_fold
from training.train_memory_classifier import CORPUS, embed
from training.train_retraction_intent import fit, rows_sha1
from training.utterance_rows_conv43 import rows as conv43_rows
from training.utterance_rows_gate49 import rows as gate49_rows
from training.utterance_rows_ptype40 import rows as ptype40_rows
from training.utterance_rows_type50 import rows as type50_rows

MARGINS = tuple(round(0.05 * k, 2) for k in range(1, 21))  # 0.05 .. 1.0
FAMILY_WORK = re.compile(r"\b(?:work|works|working|job|company|firm|startup|office|career|employ\w*)\b|"
                         r"工作|上班|公司|单位|职业", re.I)


def family_taste_fact(text: str) -> bool:
    """A chosen diet, a diet or limit of faith or health, an instrument or a device named (the conventions'
    taste / fact families)."""
    low = text.lower()
    return bool(patterns.DIET_CHOSEN.search(low) or grounded(text) or INSTRUMENT.search(text)
                or DEVICE.search(text))


def corpus_rows() -> list[dict[str, Any]]:
    """The memory corpus's rows, cls43's relabel applied (the type only)."""
    out = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            rule = rule_of(row)
            if rule is not None:
                row["type"] = {"diet": "preference", "instrument": "preference", "device": "fact"}[rule]
            out.append(row)
    return out


def training_rows(pair: str, home_rows: bool = False) -> list[dict[str, Any]]:
    """The rows of ``pair`` (``text``, ``label``: 1 the pair's first type, ``group``: the text), each text
    once, written rows first. ``home_rows``: the ``fact_project`` head also learns gate49's and type50's rows
    (a home said as what home is, beside things being made: ``type_pairs.HOME_ROWS_HEAD``)."""
    first, second = next((a, b) for name, a, b, _ in PAIRS if name == pair)
    homes = [*gate49_rows(), *type50_rows()] if home_rows and pair == "fact_project" else []
    written = [*conv43_rows(), *(ptype40_rows() if pair == "fact_project" else []), *homes]
    corpus = [r for r in corpus_rows() if r.get("keep") and r.get("type") in (first, second)
              and (family_taste_fact(str(r["text"])) if pair == "taste_fact"
                   else bool(FAMILY_WORK.search(str(r["text"]))))]
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for r in [*written, *corpus]:
        text, kind = str(r["text"]), r.get("type")
        if not r.get("keep", True) or kind not in (first, second) or text in seen:
            continue
        seen.add(text)
        out.append({"text": text, "label": int(kind == first), "group": text,
                    "family": str(r.get("family") or ""), "source": str(r.get("source") or "hand")})
    return out


def sha_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the weights' ``data_sha1`` is of: each row's text, label and group."""
    return [{k: r[k] for k in ("text", "label", "group")} for r in rows]


def hesitation(probs: npt.NDArray[np.float64], first: str, second: str) -> tuple[
        npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Per row of the classifier's probabilities: its two likeliest types are the pair (either order), the
    gap between them given keep, and whether it types the row as the pair's first type (1) or second (0)."""
    types = probs[:, 1:] / np.maximum(probs[:, 1:].sum(axis=1, keepdims=True), 1e-12)
    order = np.argsort(-types, axis=1)
    a, b = LABELS.index(first) - 1, LABELS.index(second) - 1
    pair_rows = np.array([{int(o[0]), int(o[1])} == {a, b} for o in order[:, :2]])
    gap = np.abs(types[:, a] - types[:, b])
    return pair_rows, gap, (types[:, a] >= types[:, b]).astype(np.int64)


def calibrate_margin(oof: npt.NDArray[np.float64], y: npt.NDArray[np.int64], pair_rows: npt.NDArray[np.bool_],
                     gap: npt.NDArray[np.float64], cls_first: npt.NDArray[np.int64],
                     max_margin: float = 1.0) -> dict[str, Any]:
    """The margin (up to ``max_margin``) under which the head's out-of-fold reading gains the most over the
    classifier's."""
    head_right = (oof >= 0.5).astype(np.int64) == y
    cls_right = cls_first == y
    table = []
    best: dict[str, Any] = {"margin": 0.0, "gain": 0, "read": 0}
    for m in MARGINS:
        band = pair_rows & (gap < m)
        gained = int((band & head_right & ~cls_right).sum())
        lost = int((band & ~head_right & cls_right).sum())
        row = {"margin": m, "read": int(band.sum()), "gained": gained, "lost": lost,
               "head_right": int((band & head_right).sum()),
               "classifier_right": int((band & cls_right).sum())}
        table.append(row)
        if gained - lost > best["gain"] and m <= max_margin + 1e-9:
            best = {"margin": m, "gain": gained - lost, "read": int(band.sum())}
    return {"chosen": best, "table": table}


def train_pair(pair: str, cache: Path | None, out_dir: Path | None,
               max_margin: float = 1.0, home_rows: bool = False) -> dict[str, Any]:
    _, first, second, path = next(p for p in PAIRS if p[0] == pair)
    if home_rows and pair == "fact_project":
        path = HOME_ROWS_WEIGHTS
    rows = training_rows(pair, home_rows)
    texts = [r["text"] for r in rows]
    x = embed(texts, cache, PREFIX)
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    folds = np.array([fold_of(r["group"]) for r in rows])
    oof = out_of_fold(x, y, folds)
    probs = shipped_mlp().predict_proba(x)
    pair_rows, gap, cls_first = hesitation(probs, first, second)
    if first == "preference":  # the reader reads its families only, a diet of faith or health a fact
        pair_rows &= np.array([taste_fact_family(t) and not grounded(t) for t in texts], dtype=bool)
    margin = calibrate_margin(oof, y, pair_rows, gap, cls_first, max_margin)
    written = np.array([r["source"] == "hand" for r in rows])
    unseen = calibrate_margin(oof, y, pair_rows & written, gap, cls_first)  # rows the classifier never fitted
    full = fit(x, y, STEPS, LEARNING_RATE, L2)
    target = (out_dir / path.name) if out_dir is not None else path
    TypePair(full.head).save(target, rows_sha1(sha_rows(rows)),
                             {"margin": float(margin["chosen"]["margin"])}, rows=str(len(rows)),
                             pair=f"{first}/{second}")
    band = pair_rows & (gap < margin["chosen"]["margin"])
    return {"pair": f"{first} (1) / {second} (0)", "rows": len(rows), "first": int(y.sum()),
            "written_rows": int(written.sum()), "corpus_rows": int((~written).sum()),
            "out_of_fold_accuracy": round(float(((oof >= 0.5) == (y == 1)).mean()), 4),
            "classifier_accuracy_on_pair_rows": round(float((cls_first[pair_rows] == y[pair_rows]).mean()), 4)
            if pair_rows.any() else None,
            "pair_rows": int(pair_rows.sum()), "margin": margin,
            "margin_on_written_rows": unseen,
            "band_rows": [f"{r['text']} (label {r['label']}, head {round(float(q), 3)}, "
                          f"gap {round(float(g), 3)})"
                          for r, q, g, b in zip(rows, oof, gap, band, strict=True) if b],
            "out_of_fold_errors": out_of_fold_errors(rows, oof)[:40],
            "out": str(target)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    ap.add_argument("--json", type=Path, default=None, help="also write the report here")
    ap.add_argument("--out-dir", type=Path, default=None,
                    help="write the weights here (default: the package)")
    ap.add_argument("--max-margin", type=float, default=1.0,
                    help="calibrate the margin among those up to this (an arm: a narrower band)")
    ap.add_argument("--home-rows", action="store_true",
                    help="train only the fact_project head, with the home rows, to its type50 weights")
    args = ap.parse_args(argv)
    if args.home_rows:
        report = {"fact_project": train_pair("fact_project", args.cache, args.out_dir, args.max_margin, True)}
    else:
        report = {name: train_pair(name, args.cache, args.out_dir, args.max_margin) for name, *_ in PAIRS}
    emit_report(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
