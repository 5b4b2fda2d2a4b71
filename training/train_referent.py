"""Train the referent chooser (``core.extraction.rules.referent_choice``, issue 24, session 18, helper ref32).

For a statement that leans on a thing named outside it, each candidate sentence (an earlier sentence of the
same message, the user's previous turn and, with ``--assistant``, the assistant's turn the message answers)
is scored by a class-balanced logistic regression over the features of ``referent_choice.pair_features``;
the chooser takes the best candidate when its probability reaches the threshold, else none. Rows:
``training/referent_rows_ref32.py`` (written for it, many voices, zh/en/mixed). Without ``--assistant`` (the
shipped candidates) a group whose thing is named only in the assistant's turn has no referent.

Evaluation is grouped 5-fold: each fold's model is fitted on the other folds' groups; the threshold used on
a fold is the one that chooses best on the other four folds' out-of-fold probabilities (never the fold
itself, never an evaluation case). Printed beside it: the current rule
(``core.extraction.rules.referent.referent_for``) on the same groups. The shipped fit is on every row, its
threshold the one that chooses best on all out-of-fold probabilities; written to
``core/extraction/data/referent_chooser.json``.

    python -m training.train_referent [--cache PATH] [--assistant] [--out PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import PREFIX
from core.extraction.rules import referent
from core.extraction.rules.referent_choice import CHOOSER_PATH, Candidate, ReferentChooser, pair_features
from core.extraction.rules.segment import has_cjk
from training.referent_rows_ref32 import rows as ref32_rows
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit

FOLDS = 5
GRID = [round(float(t), 2) for t in np.arange(0.05, 1.0, 0.05)]


def candidates(row: dict[str, Any], assistant: bool) -> list[tuple[str, Candidate]]:
    """(label, candidate) of ``row``: the earlier sentences of the message (nearest first), the user's
    previous turn, the assistant's turn (with ``assistant``)."""
    s = row["statement"]
    out = [(f"m{i}", Candidate(row["message"][i], "m", s - i)) for i in reversed(range(s))]
    if row["previous"]:
        out.append(("prev", Candidate(row["previous"], "prev", s + 1)))
    if row["assistant"] and assistant:
        out.append(("asst", Candidate(row["assistant"], "asst", s + 2)))
    return out


def target(row: dict[str, Any], assistant: bool) -> str:
    return "none" if row["referent"] == "asst" and not assistant else str(row["referent"])


def pairs(rows: list[dict[str, Any]], cache: Path | None, assistant: bool
          ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64], list[int], list[str]]:
    """One feature row per (statement, candidate) pair; the candidates' p(keep) from the shipped memory
    classifier (``MemoryClassifier().predict``, no context), their vectors from the cache."""
    from core.extraction.classifier import MemoryClassifier

    texts = sorted({t for r in rows for t in [r["message"][r["statement"]],
                                              *(c.text for _, c in candidates(r, assistant))]})
    vec = dict(zip(texts, embed(texts, cache, PREFIX), strict=True))
    keep = dict(zip(texts, (p.p_keep for p in MemoryClassifier().predict(texts)), strict=True))
    x, y, group, label = [], [], [], []
    for r in rows:
        s = vec[r["message"][r["statement"]]]
        for lab, cand in candidates(r, assistant):
            x.append(pair_features(s, vec[cand.text], cand, keep[cand.text]))
            y.append(int(lab == target(r, assistant)))
            group.append(r["group"])
            label.append(lab)
    return np.array(x, dtype=np.float32), np.array(y, dtype=np.int64), group, label


def choose(probs: list[tuple[str, float]], threshold: float) -> str:
    if not probs:
        return "none"
    lab, p = max(probs, key=lambda t: t[1])
    return lab if p >= threshold else "none"


def _accuracy(
    rows: list[dict[str, Any]], by_group: dict[int, list[tuple[str, float]]], t: float, assistant: bool
) -> float:
    return float(np.mean([choose(by_group.get(r["group"], []), t) == target(r, assistant) for r in rows]))


def best_threshold(
    rows: list[dict[str, Any]], by_group: dict[int, list[tuple[str, float]]], assistant: bool
) -> float:
    """The grid step that chooses best on ``rows`` (ties: the one nearest 0.5)."""
    return max(GRID, key=lambda t: (_accuracy(rows, by_group, t, assistant), -abs(t - 0.5)))


def rule_choice(row: dict[str, Any]) -> str:
    """What the rule (``referent.referent_for``) takes: ``m<i>``, ``prev``, ``none`` or ``other``."""
    statement = row["message"][row["statement"]]
    joined = ("。" if has_cjk(statement) else ". ").join(row["message"])
    named = referent.referent_for(statement, joined, row["previous"] or None)
    if named is None:
        return "none"
    for i, sentence in enumerate(row["message"][: row["statement"]]):
        if named.strip() == sentence.strip():
            return f"m{i}"
    return "prev" if row["previous"] and named.strip() == row["previous"].strip() else "other"


def _by_kind(rows: list[dict[str, Any]], ok: list[bool], assistant: bool) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for r, good in zip(rows, ok, strict=True):
        kind = target(r, assistant) if target(r, assistant) in ("prev", "none") else target(r, assistant)[:1]
        out.setdefault(kind, [0, 0])
        out[kind][0] += int(good)
        out[kind][1] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None, help="a vector cache (train_memory_classifier's)")
    parser.add_argument("--assistant", action="store_true", help="offer the assistant's turn as a candidate")
    parser.add_argument("--out", type=Path, default=CHOOSER_PATH)
    parser.add_argument("--no-write", action="store_true", help="evaluate only")
    args = parser.parse_args(argv)
    rows = ref32_rows()
    x, y, group, label = pairs(rows, args.cache, args.assistant)
    fold_of = {r["group"]: i % FOLDS for i, r in enumerate(rows)}
    oof = np.zeros(len(y))
    for k in range(FOLDS):
        train = np.array([fold_of[g] != k for g in group])
        oof[~train] = fit(x[train], y[train]).predict_proba(x[~train])
    by_group: dict[int, list[tuple[str, float]]] = {}
    for g, lab, p in zip(group, label, oof, strict=True):
        by_group.setdefault(g, []).append((lab, float(p)))
    fold_t = [
        best_threshold([r for r in rows if fold_of[r["group"]] != k], by_group, args.assistant)
        for k in range(FOLDS)
    ]
    model_ok = [
        choose(by_group.get(r["group"], []), fold_t[fold_of[r["group"]]]) == target(r, args.assistant)
        for r in rows
    ]
    rule_ok = [rule_choice(r) == target(r, args.assistant) for r in rows]
    threshold = best_threshold(rows, by_group, args.assistant)
    report = {
        "groups": len(rows),
        "pairs": len(y),
        "assistant": args.assistant,
        "fold_thresholds": fold_t,
        "model_out_of_fold": round(float(np.mean(model_ok)), 3),
        "rule": round(float(np.mean(rule_ok)), 3),
        "model_by_referent": _by_kind(rows, model_ok, args.assistant),
        "rule_by_referent": _by_kind(rows, rule_ok, args.assistant),
        "threshold": threshold,
    }
    print(json.dumps(report, ensure_ascii=False))
    if not args.no_write:
        head = fit(x, y).head
        chooser = ReferentChooser(
            head.weights.astype(np.float64), head.bias, head.mean.astype(np.float64), threshold
        )
        sha = hashlib.sha1(json.dumps(rows, ensure_ascii=False, sort_keys=True).encode()).hexdigest()
        chooser.save(args.out, rows_sha1=sha, assistant=str(args.assistant))
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
