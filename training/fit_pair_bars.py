"""Refit the update judge's pair-model bars for a retrained pair model, in the same step as the retrain.

The judge's bars (``judge_supersede.SUPERSEDE_P`` ... ``CROSS_P``, ``judge_retract.RETRACT_P`` ...) were set
on the shipped model's probabilities; a retrained model puts its probabilities elsewhere, so with the old
bars it wins or loses pipeline cases for reasons that are no reading of the pairs (session 23, pair42). This
fit carries each bar over by **rate**: on the reference pairs, the new bar is the one at which the new model
reads as many pairs as that relation (its argmax, at p >= bar) as the old model reads at the old bar. The
operating point of every rule stays where it was in how often it acts; what moves is which pairs it acts on
(where the new model separates better, a bar keeps the same count and gains precision).

Reference pairs (chat, never trained on by either model): the written chat lines of
``training/pair_chat_rows_{upd29,upd34,pair41}`` and the pairs the judge compared on real chats, recorded in
``bench/results/pair_readings_s23_*.jsonl`` (MemoryBank, the pooled tune halves, Persona-Chat validation). The
template pairs are left out: both models read them near 1 and they say nothing of a bar at 0.70-0.93.

    python -m training.fit_pair_bars NEW.npz [--old OLD.npz] [--cache C] [--json OUT]

Prints and writes ``{"bars": {NAME: new bar}, "old": {NAME: old bar}, "counts": ...}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.pairs import PAIR_WEIGHTS_PATH, RELATIONS, PairEnsemble, PairModel, topic_text

REPO = Path(__file__).resolve().parents[1]
READINGS = tuple(REPO / "bench" / "results" / f"pair_readings_s23_{name}.jsonl"
                 for name in ("memorybank", "pool_tune", "persona_valid"))

# the bars the fit carries, by relation; the values are the shipped model's (judge_supersede, judge_retract)
SUPERSEDE_BARS = {"SUPERSEDE_P": 0.80, "STATEMENT_P": 0.80, "CUED_SUPERSEDE_P": 0.70, "SURE_P": 0.93,
                  "STRONG_P": 0.85, "CROSS_P": 0.90}
RETRACT_BARS = {"RETRACT_P": 0.80, "PART_P": 0.50, "NAMED_RETRACT_P": 0.50, "ANAPHOR_P": 0.50}


def reference_pairs() -> list[tuple[str, str, str]]:
    """``(old, new, topic)`` of the reference pairs (see the module doc), in a fixed order."""
    from training.pair_chat_rows_pair41 import chat_pair_rows as pair41
    from training.pair_chat_rows_upd29 import chat_pair_rows as upd29
    from training.pair_chat_rows_upd34 import chat_pair_rows as upd34

    out = [(r["old"], r["new"], topic_text(r["new"])) for rows in (upd29(), upd34(), pair41()) for r in rows]
    from core.extraction.rules.judge_retract import retraction_topic

    for path in READINGS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                out.append((r["memory"], r["sentence"], r.get("topic") or retraction_topic(r["sentence"])
                            or r["sentence"]))
    return out


def read_as(model: PairModel, vec: dict[str, npt.NDArray[np.float32]],
            pairs: list[tuple[str, str, str]], relation: str) -> npt.NDArray[np.float64]:
    """Per pair, the model's probability of ``relation`` where it is the argmax, else 0."""
    olds, news, topics = ([p[i] for p in pairs] for i in range(3))
    feats = model.features(np.stack([vec[t] for t in olds]), np.stack([vec[t] for t in news]), olds, news,
                           np.stack([vec[t] for t in topics]))
    probs = model.predict_proba(feats)
    k = RELATIONS.index(relation)
    return np.where(probs.argmax(axis=1) == k, probs[:, k], 0.0)


def carried(old: npt.NDArray[np.float64], new: npt.NDArray[np.float64], bar: float) -> float:
    """The bar (0.50-0.99, a step of 0.01) on ``new`` that passes the count of pairs nearest to what ``bar``
    passes on ``old`` (the higher bar on a tie)."""
    n = int((old >= bar).sum())
    grid = np.round(np.arange(0.50, 0.995, 0.01), 2)
    gaps = [abs(int((new >= b).sum()) - n) for b in grid]
    best = min(gaps)
    return float(max(b for b, g in zip(grid, gaps, strict=True) if g == best))


def fit_bars(new: PairModel, old: PairModel, pairs: list[tuple[str, str, str]],
             vec: dict[str, npt.NDArray[np.float32]], relations: tuple[str, ...] = ("supersede", "retract"),
             ) -> dict[str, Any]:
    bars: dict[str, float] = {}
    counts: dict[str, Any] = {}
    for relation, table in (("supersede", SUPERSEDE_BARS), ("retract", RETRACT_BARS)):
        if relation not in relations:
            continue
        o, n = read_as(old, vec, pairs, relation), read_as(new, vec, pairs, relation)
        for name, bar in table.items():
            bars[name] = carried(o, n, bar)
            counts[name] = {"old": int((o >= bar).sum()), "new": int((n >= bars[name]).sum()),
                            "new_at_old_bar": int((n >= bar).sum())}
    return {"pairs": len(pairs), "relations": list(relations), "bars": bars,
            "old": {**SUPERSEDE_BARS, **RETRACT_BARS}, "counts": counts}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new", type=Path)
    parser.add_argument("--old", type=Path, default=PAIR_WEIGHTS_PATH)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--relations", default="supersede,retract",
                        help="the relations whose bars are carried (the others keep the modules' defaults)")
    parser.add_argument("--mean", action="store_true",
                        help="the bars of the mean of OLD and NEW (``pairs.PairEnsemble``)")
    parser.add_argument("--write", action="store_true",
                        help="store the fitted bars in NEW.npz (``bars``), where the judge reads them")
    args = parser.parse_args(argv)
    from training.train_memory_classifier import embed

    pairs = reference_pairs()
    texts = sorted({t for p in pairs for t in p})
    vec = dict(zip(texts, embed(texts, args.cache), strict=True))
    old, new = PairModel.load(args.old), PairModel.load(args.new)
    result = fit_bars(PairEnsemble.of((old, new)) if args.mean else new, old, pairs, vec,
                      tuple(args.relations.split(",")))
    result["mean"] = args.mean
    blob = json.dumps(result, ensure_ascii=False, indent=1) + "\n"
    if args.json is not None:
        args.json.write_text(blob, encoding="utf-8")
    if args.write:
        with np.load(args.new, allow_pickle=False) as data:
            meta = {k: str(data[k]) for k in data.files if data[k].dtype.kind == "U" and k != "relations"
                    and k != "embedding_model"}
        meta["bars"] = json.dumps(result["bars"], sort_keys=True)
        PairModel.load(args.new).save(args.new, **meta)
    print(blob)
    return 0


if __name__ == "__main__":
    sys.exit(main())
