"""The precision model's drop threshold (``core.extraction.rules.gate_opinion.PRECISION_DROP``) read on the
held-out split of its own corpus (issue 24, session 18).

The corpus's test split (``split != "train"``: never fitted, and not the calibration rows the temperature was
fitted on) is read by a trained precision model, each row after its own assistant turn when it has one (cut by
``turn_tail``, as the trainer and the gate cut it); for each threshold ``t`` of a grid, a row is dropped when
p(drop) >= t. Printed per threshold: keep recall (kept rows that stay), drop recall (drop rows that go), their
mean (balanced accuracy), on all held-out rows and on the rows with a turn. The threshold chosen is the one of
highest balanced accuracy on all held-out rows (ties: the one nearest 0.5). Never read on evaluation cases.

The short-turn rule (session 19): the held-out rows with a turn are read twice, after their turn and after
none; for each length ``n`` of ``SHORT_GRID`` (characters of the turn as the model reads it), a turn shorter
than ``n`` is not given. Printed per ``n``: the balanced accuracy at the chosen threshold on the rows with a
turn, and on those whose turn is shorter than ``n`` read with and without it. The length chosen is the one of
highest balanced accuracy (ties: the shortest, 0 = every turn given). The turn band (``TURN_BAND``): on
the same rows, for a band of p(drop) read without the turn, the share of rows whose turn is read and how
many of the readings the turn changes the band keeps.

The goal slots' bar (session 19, ``gate_verdicts.GATE_DROP_GOAL_SLOT``): the gate's reading of each held-out
row as a rule candidate under a goal slot would get it (the shipped memory classifier's p(drop) on the text
alone, replaced by the precision model's, read after the turn, where that is >= ``PRECISION_DROP`` and
surer, unless the text tells a wish for the long run, which the precision model may not veto). Goal-typed
rows: those the memory classifier types as a goal, and those with the kept rows' goal label besides. Printed
per bar of ``GOAL_GRID``, for the bar on the precision model's reading only (``opinion``: the classifier's
own reading keeps ``GATE_DROP_SLOT``; what the gate does) and on any reading: rows dropped, drop precision
(share of them labelled drop), keep rows lost, drop recall. The bar chosen is the lowest whose drop
precision is >= ``GOAL_PRECISION`` on both groupings.

    .venv/bin/python -m training.calibrate_precision_drop --corpus U.jsonl --model P.npz --cache C.npz
        [--json OUT]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.candidates import MAX_MEMORY_CONTENT_CHARS, MemoryCandidate
from core.extraction.classifier import MLP_WEIGHTS_PATH, MLPModel, turn_tail
from core.extraction.rules.gate_opinion import PRECISION_DROP, vetoable
from core.extraction.rules.gate_verdicts import GATE_DROP_SLOT
from core.types import MemoryType
from training.train_memory_classifier import embed, load_corpus

GRID = tuple(round(0.30 + 0.05 * i, 2) for i in range(13))  # 0.30 .. 0.90
SHORT_GRID = (0, 6, 8, 10, 12, 15, 20, 25, 30)  # characters of the turn's tail below which it is not given
GOAL_GRID = tuple(round(0.50 + 0.05 * i, 2) for i in range(10))  # 0.50 .. 0.95
GOAL_PRECISION = 0.95  # drop precision asked of the goal slots' bar (the brief of issue 24, session 19)
BAND_GRID = tuple((lo, hi) for lo in (0.0, 0.01, 0.02, 0.05) for hi in (1.0, 0.95))  # p(drop) without turn


def _rates(p_drop: npt.NDArray[np.float64], keep: npt.NDArray[np.bool_], t: float) -> dict[str, float]:
    dropped = p_drop >= t
    keep_recall = float((~dropped[keep]).mean()) if keep.any() else 1.0
    drop_recall = float(dropped[~keep].mean()) if (~keep).any() else 1.0
    return {"keep_recall": round(keep_recall, 4), "drop_recall": round(drop_recall, 4),
            "balanced": round((keep_recall + drop_recall) / 2, 4)}


def calibrate(corpus: Path, model_path: Path, cache: Path | None) -> dict[str, Any]:
    """Per threshold of ``GRID``, the rates on the held-out rows (all, and those with a turn), and the chosen
    threshold (module doc)."""
    rows = [r for r in load_corpus(corpus) if r["split"] != "train"]
    model = MLPModel.load(model_path)
    texts = [r["text"] for r in rows]
    turns = [turn_tail(r["prev"]) if model.context and r.get("prev") else "" for r in rows]
    vectors = embed(texts + sorted({t for t in turns if t}), cache)
    x = vectors[:len(texts)]
    where = {t: len(texts) + i for i, t in enumerate(sorted({t for t in turns if t}))}
    prev = np.zeros_like(x)
    for i, t in enumerate(turns):
        if t:
            prev[i] = vectors[where[t]]
    p_drop = model.predict_proba(x, prev if model.context else None)[:, 0]
    keep = np.array([bool(r["keep"]) for r in rows])
    with_turn = np.array([bool(t) for t in turns])
    rates = {t: (_rates(p_drop, keep, t), _rates(p_drop[with_turn], keep[with_turn], t)) for t in GRID}
    chosen = max(GRID, key=lambda t: (rates[t][0]["balanced"], -abs(t - 0.5)))
    table = [{"threshold": t, "all": rates[t][0], "with_turn": rates[t][1]} for t in GRID]
    out = {"corpus": corpus.name, "model": model_path.name, "n_heldout": len(rows),
           "n_heldout_with_turn": int(with_turn.sum()), "grid": table, "chosen": chosen}
    out["goal_slot"] = goal_slot(rows, x, p_drop, keep)
    if model.context:
        out.update(short_turns(model, x, prev, keep, np.array([len(t) for t in turns]), with_turn, chosen))
    return out


def goal_slot(rows: list[dict[str, Any]], x: npt.NDArray[np.float32], p_precision: npt.NDArray[np.float64],
              keep: npt.NDArray[np.bool_], classifier: MLPModel | None = None) -> dict[str, Any]:
    """The goal slots' bar (module doc): ``p_precision`` is the precision model's p(drop) of each row (after
    its turn); ``classifier`` the memory classifier (default: the shipped one)."""
    probs = (classifier or MLPModel.load(MLP_WEIGHTS_PATH)).predict_proba(x, None)
    asked = np.array([vetoable(MemoryCandidate(key="goal-travel", memory_type=MemoryType.GOAL,
                                               content=r["text"][:MAX_MEMORY_CONTENT_CHARS]))
                      for r in rows])
    second = asked & (p_precision >= PRECISION_DROP) & (p_precision > probs[:, 0])
    gate = np.where(second, p_precision, probs[:, 0])
    typed = probs[:, 1:].argmax(axis=1) + 1 == 3  # LABELS: drop, preference, fact, goal, ...
    labelled = np.array([r.get("type") == "goal" for r in rows])
    groups = {"classifier_goal": typed, "classifier_or_label_goal": typed | labelled}
    table: dict[str, list[dict[str, Any]]] = {}
    for reading in ("opinion", "any_reading"):  # the bar on the precision model's reading only, or on any
        for name, group in groups.items():
            rows_out: list[dict[str, Any]] = table.setdefault(f"{reading}:{name}", [])
            for t in GOAL_GRID:
                bar = np.where(second, t, GATE_DROP_SLOT) if reading == "opinion" else np.full(len(gate), t)
                dropped = group & (gate >= bar)
                bad = int((dropped & ~keep).sum())
                rows_out.append({"bar": t, "n": int(group.sum()), "dropped": int(dropped.sum()), "bad": bad,
                                 "precision": round(bad / int(dropped.sum()), 4) if dropped.any() else 1.0,
                                 "keep_lost": int((dropped & keep).sum()),
                                 "drop_recall": round(bad / max(1, int((group & ~keep).sum())), 4)})
    chosen = {}
    for reading in ("opinion", "any_reading"):
        ok = [t for t in GOAL_GRID if all(r["precision"] >= GOAL_PRECISION for k, g in table.items()
                                            if k.startswith(reading) for r in g if r["bar"] == t)]
        chosen[reading] = min(ok) if ok else None
    lost = [{"text": r["text"], "family": r.get("family"), "p_drop": round(float(p), 4), "opinion": bool(o)}
            for r, p, o, k, g in zip(rows, gate, second, keep, groups["classifier_or_label_goal"],
                                     strict=True) if k and g and p >= GOAL_GRID[0]]
    return {"table": table, "chosen": chosen, "keep_rows_at_or_above_050": lost}


def short_turns(model: MLPModel, x: npt.NDArray[np.float32], prev: npt.NDArray[np.float32],
                keep: npt.NDArray[np.bool_], length: npt.NDArray[np.int64], with_turn: npt.NDArray[np.bool_],
                threshold: float) -> dict[str, Any]:
    """The short-turn rule (module doc), at ``threshold``, on the rows with a turn."""
    given = model.predict_proba(x, prev)[:, 0]
    none = model.predict_proba(x, np.zeros_like(prev))[:, 0]
    table: list[dict[str, Any]] = []
    for n in SHORT_GRID:
        short = with_turn & (length < n)
        read = np.where(short, none, given)
        some = bool(short.any())
        table.append({"chars": n, "n_short": int(short.sum()),
                      "with_turn": _rates(read[with_turn], keep[with_turn], threshold),
                      "short_read_with_turn": _rates(given[short], keep[short], threshold) if some else None,
                      "short_read_without": _rates(none[short], keep[short], threshold) if some else None})
    best = max(table, key=lambda r: (r["with_turn"]["balanced"], -int(r["chars"])))
    band = turn_band(given, none, keep, with_turn, threshold)
    return {"short_grid": table, "short_chosen": best["chars"], "turn_band": band}


def turn_band(given: npt.NDArray[np.float64], none: npt.NDArray[np.float64], keep: npt.NDArray[np.bool_],
              with_turn: npt.NDArray[np.bool_], threshold: float) -> list[dict[str, Any]]:
    """For each band of ``BAND_GRID`` (``gate_opinion.TURN_BAND``: the turn is embedded only when p(drop)
    without it falls inside), on the rows with a turn: the share read with the turn, how many of the readings
    the turn changes at ``threshold`` the band keeps, and the balanced accuracy."""
    given, none, keep = given[with_turn], none[with_turn], keep[with_turn]
    flips = (given >= threshold) != (none >= threshold)
    out = []
    for lo, hi in BAND_GRID:
        band = (none >= lo) & (none <= hi)
        out.append({"band": [lo, hi], "share_with_turn": round(float(band.mean()), 4),
                    "changed_kept": int(flips[band].sum()), "changed": int(flips.sum()),
                    "rates": _rates(np.where(band, given, none), keep, threshold)})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    out = calibrate(args.corpus, args.model, args.cache)
    for r in out["grid"]:
        print(f"t={r['threshold']:.2f}  all {r['all']}  with_turn {r['with_turn']}")
    print(f"chosen {out['chosen']} (held-out rows {out['n_heldout']}, "
          f"with a turn {out['n_heldout_with_turn']})")
    for r in out.get("short_grid", []):
        print(f"turn < {r['chars']:>2} chars not given: short rows {r['n_short']:>3}  "
              f"with_turn {r['with_turn']}  short read with turn {r['short_read_with_turn']}  "
              f"without {r['short_read_without']}")
    for name, table in out["goal_slot"]["table"].items():
        for r in table:
            print(f"goal slot ({name}): bar {r['bar']:.2f}  dropped {r['dropped']:>3}/{r['n']}  precision "
                  f"{r['precision']}  keep rows lost {r['keep_lost']}  drop recall {r['drop_recall']}")
    print(f"goal slot bar chosen {out['goal_slot']['chosen']}")
    if "short_chosen" in out:
        print(f"short-turn length chosen {out['short_chosen']}")
    for r in out.get("turn_band", []):
        print(f"turn read when p(drop) without it in {r['band']}: share {r['share_with_turn']}, readings it "
              f"changes kept {r['changed_kept']}/{r['changed']}, {r['rates']}")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
