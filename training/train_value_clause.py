"""Fit the value-clause head (``core.extraction.rules.value_clause``) on the hand-written clauses of
``training/value_clause_lines_upd50.py``: class-balanced logistic regression (``train_retraction_intent.fit``)
over each clause's ``passage: `` vector and the head's ``EXTRA`` features against its memory. Reports, out of
fold by group (the shared five-way CRC-32 split), the clause accuracy at the bar and, per message, whether the
head's likeliest clause is a value clause, beside the words' choice (``judge_values.new_part``) on the same
messages.

    python -m training.train_value_clause [--out PATH] [--cache PATH]

"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from core.extraction.classifier import PREFIX
from core.extraction.rules.judge_values import new_part
from core.extraction.rules.segment import normalise
from core.extraction.rules.value_clause import EXTRA, VALUE_CLAUSE_PATH, features
from training.train_memory_classifier import embed
from training.train_retraction_intent import fit, out_of_fold_by_group, rows_sha1
from training.train_standing_instruction import L2, LEARNING_RATE, STEPS
from training.value_clause_lines_upd50 import rows as clause_rows

BAR = 0.5


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=VALUE_CLAUSE_PATH)
    ap.add_argument("--cache", type=Path, default=None, help="a vector cache file (shared format)")
    args = ap.parse_args(argv)
    rows = clause_rows()
    texts = [r["text"] for r in rows]
    memories = sorted({r["memory"] for r in rows})
    vectors = embed(texts, args.cache, PREFIX)
    mv = dict(zip(memories, embed(memories, args.cache, PREFIX), strict=True))
    x = np.zeros((len(rows), vectors.shape[1] + len(EXTRA)), np.float32)
    groups = list(dict.fromkeys(r["group"] for r in rows))
    for g in groups:
        idx = [i for i, r in enumerate(rows) if r["group"] == g]
        memory = rows[idx[0]]["memory"]
        x[idx] = features([texts[i] for i in idx], memory, vectors[idx], mv[memory])
    y = np.array([r["label"] for r in rows], dtype=np.int64)
    p = out_of_fold_by_group(rows, x, y, STEPS, LEARNING_RATE, L2)
    head_right = words_right = 0
    wrong = []
    for g in groups:
        idx = [i for i, r in enumerate(rows) if r["group"] == g]
        best = max(idx, key=lambda i: p[i])
        head_right += int(y[best] == 1)
        said = normalise(new_part(rows[idx[0]]["message"], rows[idx[0]]["memory"])).lower()
        inside = [i for i in idx if normalise(texts[i]).lower() in said]
        ok = bool(inside) and all(y[i] == 1 for i in inside)
        words_right += int(ok)
        if y[best] != 1 or not ok:
            wrong.append({"message": rows[idx[0]]["message"], "head": texts[best], "words": said})
    fitted = fit(x, y, STEPS, LEARNING_RATE, L2).head
    from dataclasses import replace

    from core.extraction.logistic_head import invocation

    replace(fitted, bars={"bar": BAR}, trainer=invocation(), data_sha1=rows_sha1(rows),
            notes={"rows": str(len(rows)), "groups": str(len(groups))}).save(args.out)
    print(json.dumps({"rows": len(rows), "value_clauses": int(y.sum()), "groups": len(groups),
                      "oof_clause_accuracy": round(float(((p >= BAR) == (y == 1)).mean()), 4),
                      "oof_messages_head_top_is_value": head_right,
                      "messages_words_choice_exact": words_right,
                      "misses": wrong, "out": str(args.out)}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
