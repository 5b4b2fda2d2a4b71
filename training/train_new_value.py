"""Fit the new-value head (``core.extraction.rules.new_value``) on written pairs: the lines of
``training/new_value_lines_upd51.py`` and the slot lines of ``training/slot_lines_upd49.py`` and
``training/slot_lines_upd50.py`` (label as written); with ``--chat`` also the chat pair rows of
``training/pair_chat_rows_upd29.py``, ``pair_chat_rows_upd34.py`` and ``pair_chat_rows_pair41.py``
(supersede = 1, refine / retract / unrelated = 0; measured once: with them the out-of-fold recall at the
0.9-precision bar was 0.34 of 377, without them 0.50 of 128; the shipped head is fitted without them).
Class-balanced logistic regression (``train_retraction_intent.fit``). Reports out-of-fold figures (the shared
five-way CRC-32 split by group; a group is one memory of one source) and the bar: the lowest probability at
which the out-of-fold precision on label 1 is at least ``PRECISION`` (reported), beside the shipped bar
``EVEN`` (0.5: the head is read only behind the pair model's sure supersede).

    python -m training.train_new_value [--out PATH] [--cache PATH]

"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from core.extraction.classifier import PREFIX
from core.extraction.logistic_head import invocation
from core.extraction.rules.new_value import NEW_VALUE_PATH, features
from training import (
    pair_chat_rows_pair41,
    pair_chat_rows_upd29,
    pair_chat_rows_upd34,
    slot_lines_upd49,
    slot_lines_upd50,
)
from training.new_value_lines_upd51 import rows as own_rows
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit, out_of_fold_by_group, rows_sha1

STEPS, LEARNING_RATE, L2 = 3000, 4.0, 1e-3
PRECISION = 0.9
EVEN = 0.5  # the shipped bar: a second opinion behind the pair model's sure supersede (``STRONG_P``)


def training_rows(chat: bool = False) -> list[dict[str, Any]]:
    """``group``, ``label``, ``memory``, ``text``, ``source`` per written pair; ``chat``: with the chat pair
    rows (measured: they dilute the written slot lines, the shipped head is fitted without them)."""
    out: list[dict[str, Any]] = []
    for source, rows in (("upd51", own_rows()), ("upd49", slot_lines_upd49.rows()),
                         ("upd50", slot_lines_upd50.rows())):
        out += [{"group": f"{source}:{r['memory']}", "label": int(r["label"]), "memory": r["memory"],
                 "text": r["text"], "source": source} for r in rows]
    chats = (("upd29", pair_chat_rows_upd29), ("upd34", pair_chat_rows_upd34),
             ("pair41", pair_chat_rows_pair41))
    for source, mod in chats if chat else ():
        out += [{"group": f"{source}:{r['old']}", "label": int(r["relation"] == "supersede"),
                 "memory": r["old"], "text": r["new"], "source": source} for r in mod.chat_pair_rows()]
    return out


def bar_at(p: np.ndarray, y: np.ndarray, precision: float = PRECISION) -> float:
    """The lowest threshold whose precision on label 1 is at least ``precision`` (0.5 when none is)."""
    for t in np.arange(0.30, 0.96, 0.01):
        hit = p >= t
        if hit.sum() >= 5 and float(y[hit].mean()) >= precision:
            return round(float(t), 2)
    return 0.5


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=NEW_VALUE_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    ap.add_argument("--chat", action="store_true", help="also the chat pair rows of upd29, upd34, pair41")
    args = ap.parse_args(argv)
    rows = training_rows(args.chat)
    texts = [r["text"] for r in rows]
    mems = [r["memory"] for r in rows]
    uniq = list(dict.fromkeys(texts + mems))
    vec = dict(zip(uniq, embed(uniq, args.cache, PREFIX), strict=True))
    x = features(texts, mems, np.stack([vec[t] for t in texts]), np.stack([vec[m] for m in mems]))
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    p = out_of_fold_by_group(rows, x.astype(np.float32), y, STEPS, LEARNING_RATE, L2)
    strict = bar_at(p, y)  # reported; the head is read behind the pair model's STRONG_P, at even odds
    bar = EVEN
    hit = p >= bar
    right = (p >= bar) == (y == 1)
    by_source = {s: {"rows": int(sum(r["source"] == s for r in rows)),
                     "acc_at_bar": round(float(right[[r["source"] == s for r in rows]].mean()), 3)}
                 for s in dict.fromkeys(r["source"] for r in rows)}
    fitted = fit(x.astype(np.float32), y, STEPS, LEARNING_RATE, L2).head
    notes = {"rows": str(len(rows)), "positives": str(int(y.sum())),
             "oof_acc_0.5": f"{float(((p >= 0.5) == (y == 1)).mean()):.4f}",
             "oof_precision_at_bar": f"{float(y[hit].mean()) if hit.any() else 0.0:.4f}",
             "oof_recall_at_bar": f"{float(hit[y == 1].mean()):.4f}",
             "oof_bar_at_precision_0.9": f"{strict:.2f}"}
    replace(fitted, bars={"bar": bar}, trainer=invocation(), data_sha1=rows_sha1(rows),
            notes=notes).save(args.out)
    own = [i for i, r in enumerate(rows) if r["source"] == "upd51"]
    misses = [(texts[i], int(y[i]), round(float(p[i]), 2)) for i in own if (p[i] >= bar) != (y[i] == 1)]
    print(json.dumps({**notes, "bar": bar, "by_source": by_source, "own_misses": misses,
                      "out": str(args.out)}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
