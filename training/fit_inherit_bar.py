"""Measure whether the memory classifier's type can veto a new value written into a memory's slot.

When the pair model reads a supersede of a live memory (p >= ``judge_supersede.SUPERSEDE_P``), the new value
is written under the memory's key and type (``core.extraction.rules.judge_supersede``), unless the memory
classifier calls it a memory of another type (``another_type``: the memory's type under 0.5, another
likelier). This script asks, on pair rows and never on evaluation cases, whether a bar on the classifier's
probability of the likeliest other type tells the pair model's wrong supersede readings from its right ones,
out of fold. The answer it recorded (``bench/results/inherit_bar40.json``): no bar does (``bar`` 1.0: never
block), and the shipped rule blocks more true supersedes than false ones on these rows; the rule stays
shipped all the same, because on MemoryBank's long chat sentences it stops false supersedes the pair rows do
not hold (bench/RESULTS.md, upd40).

- rows: the shipped pair model's training pairs (``training/data/memory_pairs.jsonl``) and the written chat
  pairs of ``training/pair_chat_rows_upd29.py`` / ``pair_chat_rows_upd34.py`` (never trained on by the
  shipped weights: their probabilities are held out);
- each row is read as the judge reads it: the shipped pair model on the two texts (``PairModel.features``);
  only rows it reads as supersede at ``SUPERSEDE_P`` are the judge's question;
- the memory's type is the classifier's likeliest type of the old text (what it would be stored as); the
  feature is the classifier's probability, for the new text, of the likeliest type other than that one;
- the label: the row is a supersede (the new value belongs in the memory's slot) or not (refine, retract,
  unrelated: it does not);
- the bar: the lowest of 0.50 ... 0.99 at which the rows at or above it are not supersedes at least
  ``PRECISION`` of the time (so a block is right that often), fitted on four of five folds (by slot group)
  and reported on the fifth; ``bar`` is the median of the fold bars, 1.0 (never block) when no fold reaches
  the precision; the blocks at fixed bars and of the shipped rule are reported beside it.

    .venv/bin/python -m training.fit_inherit_bar [--cache PATH] [--json OUT]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import Prediction, shipped_mlp
from core.extraction.pairs import RELATIONS, shipped_pair_model, topic_text
from core.types import MemoryType
from training.train_memory_classifier import embed

PAIRS = Path(__file__).resolve().parent / "data" / "memory_pairs.jsonl"
FOLDS = 5
PRECISION = 0.90
SUPERSEDE_P = 0.80  # judge_supersede.SUPERSEDE_P (read there; repeated to keep training free of core.rules)
TYPES = list(MemoryType)


def rows() -> list[dict[str, Any]]:
    """The template pairs, then the written chat pairs (``chat`` True)."""
    from training.pair_chat_rows_upd29 import chat_pair_rows as upd29
    from training.pair_chat_rows_upd34 import chat_pair_rows as upd34

    out = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out + [dict(r, chat=True) for r in [*upd29(), *upd34()]]


def fold(row: dict[str, Any]) -> int:
    return int(hashlib.sha1(str(row["slot"]).encode()).hexdigest()[:8], 16) % FOLDS


def bar(other: np.ndarray, wrong: np.ndarray) -> float | None:
    """The lowest bar at which the rows at or above it are wrong inheritances ``PRECISION`` of the time."""
    for b in np.round(np.arange(0.50, 0.995, 0.01), 2):
        sel = other >= b
        if sel.sum() >= 5 and float(wrong[sel].mean()) >= PRECISION:
            return float(b)
    return None


def likeliest(seen: Prediction) -> MemoryType:
    """The classifier's likeliest type of a text (what it would be stored as)."""
    return max(TYPES, key=seen.p_type)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None,
                        help="passage-vector cache (training.train_memory_classifier.embed)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    data = rows()
    olds, news = [r["old"] for r in data], [r["new"] for r in data]
    texts = sorted(set(olds) | set(news) | {topic_text(t) for t in news})
    index = {t: i for i, t in enumerate(texts)}
    vec = embed(texts, args.cache)

    def at(batch: list[str]) -> npt.NDArray[np.float32]:
        return vec[[index[t] for t in batch]]

    model = shipped_pair_model()
    topics = at([topic_text(t) for t in news])
    probs = model.predict_proba(model.features(at(olds), at(news), olds, news, topics))
    sup = probs[:, RELATIONS.index("supersede")]
    read = (probs.argmax(axis=1) == RELATIONS.index("supersede")) & (sup >= SUPERSEDE_P)
    uniq = sorted(set(olds) | set(news))  # the shipped classifier on the texts alone (no previous turn)
    pred = {t: Prediction(tuple(float(x) for x in p))
            for t, p in zip(uniq, shipped_mlp().predict_proba(at(uniq)), strict=True)}
    mine = [likeliest(pred[o]) for o in olds]
    other = np.array([max(pred[n].p_type(t) for t in TYPES if t is not m)
                      for n, m in zip(news, mine, strict=True)])
    wrong = np.array([r["relation"] != "supersede" for r in data])
    chat = np.array([bool(r.get("chat")) for r in data])
    folds = np.array([fold(r) for r in data])
    report: dict[str, Any] = {"rows": len(data), "read_supersede": int(read.sum()),
                              "read_supersede_chat": int((read & chat).sum()), "precision": PRECISION,
                              "folds": []}
    bars = []
    for f in range(FOLDS):
        train, test = read & (folds != f), read & (folds == f)
        b = bar(other[train], wrong[train])
        bars.append(b)
        blocked = test & (other >= (b if b is not None else 1.01))
        report["folds"].append({"fold": f, "bar": b, "test_rows": int(test.sum()),
                                "test_wrong": int((test & wrong).sum()), "blocked": int(blocked.sum()),
                                "blocked_right": int((blocked & wrong).sum())})
    found = sorted(b for b in bars if b is not None)
    shipped = float(np.median(found)) if found else 1.0
    report["bar"] = shipped
    for name, sel in (("templates", read & ~chat), ("chat", read & chat)):
        blocked = sel & (other >= shipped)
        report[name] = {"rows": int(sel.sum()), "wrong": int((sel & wrong).sum()),
                        "blocked": int(blocked.sum()), "blocked_right": int((blocked & wrong).sum()),
                        "supersedes_blocked": int((blocked & ~wrong).sum())}
    for name, sel in (("templates_by_bar", read & ~chat), ("chat_by_bar", read & chat)):
        report[name] = {str(b): {"blocked": int((sel & (other >= b)).sum()),
                                 "blocked_right": int((sel & (other >= b) & wrong).sum())}
                        for b in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)}
    # the old, fixed rule for comparison: blocked when p(the memory's type) < 0.5 and another type is likelier
    old_rule = np.array([pred[n].p_keep >= 0.8 and pred[n].p_type(m) < 0.5
                         and any(pred[n].p_type(t) > pred[n].p_type(m) for t in TYPES)
                         for n, m in zip(news, mine, strict=True)])
    for name, sel in (("templates_old_rule", read & ~chat), ("chat_old_rule", read & chat)):
        blocked = sel & old_rule
        report[name] = {"blocked": int(blocked.sum()), "blocked_right": int((blocked & wrong).sum()),
                        "supersedes_blocked": int((blocked & ~wrong).sum())}
    # the shipped pair model's own supersede bar on the written chat lines (held out for its weights): the
    # lowest bar at which its supersede readings are supersedes ``PRECISION`` of the time
    c = np.where(chat & (probs.argmax(axis=1) == RELATIONS.index("supersede")))[0]
    y_sup = np.array([data[i]["relation"] == "supersede" for i in c])
    table = {}
    for b in (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9):
        sel = sup[c] >= b
        table[str(b)] = {"read": int(sel.sum()), "supersede": int(y_sup[sel].sum())}
    report["chat_supersede_by_bar"] = table
    report["chat_supersedes"] = int(sum(r["relation"] == "supersede" for r in data if r.get("chat")))
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
