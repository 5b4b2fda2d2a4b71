"""Train the update/retraction pair model (``core.extraction.pairs.PairModel``).

Pairs come from ``training.pair_templates.all_pair_rows()`` (old memory, new statement, relation,
slot; hand-written templates, zh and en) and are written to ``training/data/memory_pairs.jsonl`` (the
file ships; ``--from-file`` trains from it). Split: the pair's hash (the SHA-1 of ``old\\tnew``,
1 in 5 to test), plus leave-slots-out checks (each pair of ``HOLDOUT_SLOTS`` never seen in training)
that say how far the model carries to slots it was not trained on. Two feature arms: ``compact``
(cosines and cues, shipped) and ``full`` (plus the vectors' product and difference). The MLP (hidden
``HIDDEN``, ReLU) is trained
with class-balanced cross-entropy and Adam from a fixed seed (deterministic), features standardised
on the training rows. Writes ``core/extraction/data/pair_model.npz`` and ``bench/results/pair_model.json``.

    .venv/bin/python -m training.train_pair_model [--cache PATH] [--compact-only]

``--chat-upd29`` adds the written chat-style pairs of ``training/pair_chat_rows_upd29.py`` (each repeated
``--chat-repeat`` times: 290 lines beside 52,244 template pairs) and reports them on ``CHAT_FOLDS`` folds by
group (each fold's model trained on the templates and the other folds' lines, the template test split out):
the out-of-fold accuracy and per-relation precision / recall, the same for a model trained on the templates
alone (the before arm), and per relation the lowest bar at which the out-of-fold lines the model reads as
that relation are that relation at least ``BAR_PRECISION`` of the time (the bars fitted on held-out folds;
written to ``bench/results/pair_model.json`` under ``chat_folds``). ``--chat-upd34`` adds the written pairs
of ``training/pair_chat_rows_upd34.py`` the same way (the two sides in different scripts; a second memory
naming the old value), reported beside upd29's lines per set (``by_family``); ``--script`` adds
``core.extraction.pairs.script_features`` (which script each side is written in) and ``--script-centres``
centres each side on its own script's centre (``core.extraction.pairs.script_centred``; the centres are saved
with the weights). None of these arms is shipped (bench/RESULTS.md, "Issue 24: session 19, updates (helper
upd34)"). ``--chat-pair41`` adds the written pairs of ``training/pair_chat_rows_pair41.py`` the same way (long
chat sentences about something else against a live memory, beside changes told at length; session 22).
``--time-features both|time|intent`` adds ``core.extraction.pairs.time_features`` (a time word as the
statement's only cue; the update-intent model's probability of the statement; session 23): ``time`` or
``intent`` alone is the ablation arm of one column (the other held at 0 in training and its scale set so
that the weights ignore it at inference).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.extraction.pair_align import span_texts
from core.extraction.pairs import (
    PAIR_WEIGHTS_PATH,
    RELATIONS,
    PairModel,
    pair_features,
    script_centres,
    topic_text,
)
from training.pair_templates import all_pair_rows
from training.train_memory_classifier import embed

REPO = Path(__file__).resolve().parents[1]
PAIRS = Path(__file__).resolve().parent / "data" / "memory_pairs.jsonl"
RESULTS = REPO / "bench" / "results" / "pair_model.json"
HIDDEN = 32
EPOCHS = 30
BATCH = 64
LEARNING_RATE = 1e-3
WEIGHT_DECAY = 1e-3
SEED = 24
CLASS_WEIGHT_POWER = 1.0  # 1 = fully class-balanced loss, 0.5 = less balanced (--class-weight-power)
HOLDOUT_SLOTS = (("phone", "habit"), ("home", "diet"), ("goal", "pet"), ("device", "computer", "editor"),
                 ("count", "length", "points"), ("goal_study", "goal_fit"),
                 # families of training/pair_templates_upd24.py: with --base they are never trained on
                 ("barber", "podcast", "team"), ("shoes", "bedtime", "insurer"),
                 # families of training/pair_templates_upd24c.py (with --upd24c-families)
                 ("instrument", "notes_app"), ("job3", "lang_learning"),
                 # additions of one more item of a kind (training/pair_templates_upd26.py)
                 ("pet_list", "food_list"))

F64 = npt.NDArray[np.float64]
CHAT_FOLDS = 5
CHAT_REPEAT = 4
BAR_PRECISION = 0.90


def chat_fold(row: dict[str, Any]) -> int:
    """The fold of a written chat pair: by its group (``slot``), so a group's lines are held out together."""
    return int(hashlib.sha1(str(row["slot"]).encode()).hexdigest()[:8], 16) % CHAT_FOLDS


def fitted_bar(probs: F64, y: npt.NDArray[np.int64], rel: int,
               precision: float = BAR_PRECISION) -> float | None:
    """The lowest probability bar at which the rows read as ``rel`` (argmax) with p >= bar are ``rel`` at
    least ``precision`` of the time (None when no bar reaches it)."""
    pred = probs.argmax(axis=1)
    mine = np.where(pred == rel)[0]
    for bar in np.round(np.arange(0.50, 0.995, 0.01), 2):
        sel = mine[probs[mine, rel] >= bar]
        if len(sel) >= 5 and float((y[sel] == rel).mean()) >= precision:
            return float(bar)
    return None


def is_test(row: dict[str, Any]) -> bool:
    return int(hashlib.sha1(f"{row['old']}\t{row['new']}".encode()).hexdigest()[:8], 16) % 5 == 0


def fit(x: F64, y: npt.NDArray[np.int64], center: npt.NDArray[np.float32],
        power: float = CLASS_WEIGHT_POWER, seed: int = SEED) -> PairModel:
    rng = np.random.default_rng(seed)
    k = len(RELATIONS)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-6
    xs = (x - mean) / scale
    n, d = xs.shape
    cw = (len(y) / (k * np.maximum(np.bincount(y, minlength=k), 1.0))) ** power
    p = {"w1": rng.normal(0, np.sqrt(2.0 / d), (d, HIDDEN)), "b1": np.zeros(HIDDEN),
         "w2": rng.normal(0, np.sqrt(1.0 / HIDDEN), (HIDDEN, k)), "b2": np.zeros(k)}
    m = {a: np.zeros_like(b) for a, b in p.items()}
    v = {a: np.zeros_like(b) for a, b in p.items()}
    onehot = np.eye(k)[y]
    t = 0
    for _ in range(EPOCHS):
        order = rng.permutation(n)
        for s in range(0, n, BATCH):
            idx = order[s:s + BATCH]
            hp = xs[idx] @ p["w1"] + p["b1"]
            h = np.maximum(hp, 0.0)
            z = h @ p["w2"] + p["b2"]
            z -= z.max(axis=1, keepdims=True)
            pr = np.exp(z)
            pr /= pr.sum(axis=1, keepdims=True)
            w = cw[y[idx]]
            g = (pr - onehot[idx]) * w[:, None] / w.sum()
            grads = {"w2": h.T @ g, "b2": g.sum(axis=0)}
            gh = (g @ p["w2"].T) * (hp > 0)
            grads.update(w1=xs[idx].T @ gh, b1=gh.sum(axis=0))
            t += 1
            for a in p:
                m[a] = 0.9 * m[a] + 0.1 * grads[a]
                v[a] = 0.999 * v[a] + 0.001 * grads[a] ** 2
                p[a] -= LEARNING_RATE * (m[a] / (1 - 0.9 ** t) / (np.sqrt(v[a] / (1 - 0.999 ** t)) + 1e-8)
                                         + WEIGHT_DECAY * p[a])
    return PairModel(p["w1"].astype(np.float32), p["b1"].astype(np.float32),
                     p["w2"].astype(np.float32), p["b2"].astype(np.float32), mean.astype(np.float32),
                     scale.astype(np.float32), center.astype(np.float32))


def ignoring(model: PairModel, columns: list[int]) -> PairModel:
    """``model`` with the feature ``columns`` (held at 0 in training) ignored at inference: mean 0 and a
    scale so large that any value standardises to about 0, as every training row did."""
    if not columns:
        return model
    mean, scale = model.mean.copy(), model.scale.copy()
    mean[columns], scale[columns] = 0.0, 1e9
    return dataclasses.replace(model, mean=mean, scale=scale)


def report(model: PairModel, x: F64, y: npt.NDArray[np.int64], rows: list[dict[str, Any]]) -> dict[str, Any]:
    pred = model.predict_proba(x).argmax(axis=1)
    per: dict[str, Any] = {}
    probs = model.predict_proba(x)
    for i, rel in enumerate(RELATIONS):
        tp = int(((pred == i) & (y == i)).sum())
        fp = int(((pred == i) & (y != i)).sum())
        fn = int(((pred != i) & (y == i)).sum())
        sure = (pred == i) & (probs[:, i] >= 0.8)  # what the judge acts on
        tp8, fp8 = int((sure & (y == i)).sum()), int((sure & (y != i)).sum())
        per[rel] = {"n": int((y == i).sum()), "precision": round(tp / (tp + fp), 4) if tp + fp else None,
                    "recall": round(tp / (tp + fn), 4) if tp + fn else None,
                    "precision_p80": round(tp8 / (tp8 + fp8), 4) if tp8 + fp8 else None,
                    "recall_p80": round(tp8 / int((y == i).sum()), 4) if (y == i).any() else None}
    by_lang: dict[str, list[bool]] = defaultdict(list)
    for r, p_, g in zip(rows, pred, y, strict=True):
        by_lang["zh" if any("\u3400" <= c <= "\u9fff" for c in r["new"]) else "en"].append(bool(p_ == g))
    return {"n": len(rows), "accuracy": round(float((pred == y).mean()), 4), "per_relation": per,
            "by_lang_of_new": {k: round(sum(v) / len(v), 4) for k, v in sorted(by_lang.items())}}


def chat_folds(x: F64, y: npt.NDArray[np.int64], rows: list[dict[str, Any]], chat: npt.NDArray[np.bool_],
               template_test: npt.NDArray[np.bool_], center: npt.NDArray[np.float32],
               args: argparse.Namespace) -> dict[str, Any]:
    """Out-of-fold figures of the written chat pairs (one line each, not its repeats), for a model with the
    other folds' lines and for one trained on the templates alone; the bars fitted on the out-of-fold
    probabilities."""
    first: dict[tuple[str, str], int] = {}
    for i, r in enumerate(rows):
        if chat[i]:
            first.setdefault((r["old"], r["new"]), i)
    idx = np.array(sorted(first.values()))
    folds = np.array([chat_fold(r) for r in rows])
    oof = np.zeros((len(idx), len(RELATIONS)))
    for f in range(CHAT_FOLDS):
        train = ~template_test & ~(chat & (folds == f))
        model = fit(x[train], y[train], center, args.class_weight_power, args.seed)
        sel = folds[idx] == f
        oof[sel] = model.predict_proba(x[idx[sel]])
    templates_only = fit(x[~template_test & ~chat], y[~template_test & ~chat], center,
                         args.class_weight_power, args.seed)
    before = templates_only.predict_proba(x[idx])
    family = np.array([str(rows[i].get("family", "upd29")) for i in idx])

    def figures(probs: F64, only: str | None = None) -> dict[str, Any]:
        if only is None and len(set(family)) > 1:
            by = {fam: figures(probs, fam) for fam in sorted(set(family))}
        else:
            by = {}
        sel = np.ones(len(idx), dtype=bool) if only is None else family == only
        probs, yy = probs[sel], y[idx][sel]
        pred = probs.argmax(axis=1)
        per = {}
        for k, rel in enumerate(RELATIONS):
            tp, fp = int(((pred == k) & (yy == k)).sum()), int(((pred == k) & (yy != k)).sum())
            per[rel] = {"n": int((yy == k).sum()),
                        "precision": round(tp / (tp + fp), 4) if tp + fp else None,
                        "recall": round(tp / int((yy == k).sum()), 4) if (yy == k).any() else None,
                        "fitted_bar": fitted_bar(probs, yy, k)}
        return {"lines": int(sel.sum()), "accuracy": round(float((pred == yy).mean()), 4),
                "per_relation": per, **({"by_family": by} if by else {})}

    return {"lines": len(idx), "folds": CHAT_FOLDS, "repeat": args.chat_repeat,
            "bar_precision": BAR_PRECISION, "with_other_folds": figures(oof),
            "templates_only": figures(before)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--from-file", action="store_true",
                        help="train from training/data/memory_pairs.jsonl")
    parser.add_argument("--out", type=Path, default=PAIR_WEIGHTS_PATH)
    parser.add_argument("--more-families", action="store_true",
                        help="also training/pair_templates_upd24.py's twelve families (not shipped)")
    parser.add_argument("--base", action="store_true",
                        help="with --more-families: trained without them, tested on every pair (the before "
                             "arm); writes only the report, to bench/results/pair_model_base.json")
    parser.add_argument("--upd24c-families", action="store_true",
                        help="also training/pair_templates_upd24c.py's eight families (not shipped)")
    parser.add_argument("--class-weight-power", type=float, default=CLASS_WEIGHT_POWER)
    parser.add_argument("--compact-only", action="store_true",
                        help="skip the full arm (vectors' product and difference: 776 features, slow)")
    parser.add_argument("--seed", type=int, default=SEED, help="the fit's seed (the variance of a retrain)")
    parser.add_argument("--no-holdouts", action="store_true",
                        help="skip the leave-slots-out fits (one fit instead of one per held-out group)")
    parser.add_argument("--slot-features", action="store_true",
                        help="also core.extraction.pairs.slot_features (an additive word, the sides' memory "
                             "types; the ablation arm of issue 24's session 13, not shipped)")
    parser.add_argument("--upd26-families", action="store_true",
                        help="also training/pair_templates_upd26.py's additions and counts (not shipped)")
    parser.add_argument("--chat-upd29", action="store_true",
                        help="also training/pair_chat_rows_upd29.py's written chat pairs (group folds)")
    parser.add_argument("--chat-upd34", action="store_true",
                        help="also training/pair_chat_rows_upd34.py's written pairs (group folds)")
    parser.add_argument("--chat-pair41", action="store_true",
                        help="also training/pair_chat_rows_pair41.py's written pairs: long chat sentences "
                             "about something else against a live memory, long changes (group folds)")
    parser.add_argument("--script", action="store_true",
                        help="also core.extraction.pairs.script_features (the script of each side)")
    parser.add_argument("--script-centres", action="store_true",
                        help="centre each side on its own script (core.extraction.pairs.script_centred)")
    parser.add_argument("--time-features", choices=("both", "time", "intent"), default=None,
                        help="also core.extraction.pairs.time_features (both columns, or one: the ablation)")
    parser.add_argument("--pair41-family", choices=("cue", "other"), default=None,
                        help="with --chat-pair41: only that family of its lines (the time-word cue lines, or "
                             "the long chat about something else)")
    parser.add_argument("--no-chat-folds", action="store_true",
                        help="train on the written lines without their group-fold report (one fit)")
    parser.add_argument("--chat-repeat", type=int, default=CHAT_REPEAT)
    parser.add_argument("--joint", action="store_true",
                        help="also core.extraction.pair_align.joint_features (the two texts aligned, their "
                             "difference spans embedded and compared)")
    parser.add_argument("--report", type=Path, default=None,
                        help="write the report here instead of bench/results/pair_model.json (an ablation "
                             "run; the pairs file is rewritten only when the weights go to the shipped path)")
    args = parser.parse_args(argv)
    if args.from_file:
        rows = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    else:
        rows = all_pair_rows(more=args.more_families, upd24c=args.upd24c_families, upd26=args.upd26_families)
        if args.chat_upd29:
            from training.pair_chat_rows_upd29 import chat_pair_rows

            rows = rows + [dict(r, chat=True, family="upd29") for r in chat_pair_rows()
                           for _ in range(args.chat_repeat)]
        if args.chat_upd34:
            from training.pair_chat_rows_upd34 import chat_pair_rows as chat_pair_rows_upd34

            rows = rows + [dict(r, chat=True) for r in chat_pair_rows_upd34()
                           for _ in range(args.chat_repeat)]
        if args.chat_pair41:
            from training.pair_chat_rows_pair41 import chat_pair_rows as chat_pair_rows_pair41

            rows = rows + [dict(r, chat=True) for r in chat_pair_rows_pair41()
                           if args.pair41_family in (None, r["family"]) for _ in range(args.chat_repeat)]
    # --base: trained only on the pairs there were before training/pair_templates_upd24.py (the before
    # arm), tested on the same test pairs and held-out slots, the new families among them unseen
    base_keys = {(r["old"], r["new"]) for r in all_pair_rows()} if args.base else None
    blob = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    if not args.from_file and not args.base and args.out == PAIR_WEIGHTS_PATH:
        PAIRS.write_text(blob, encoding="utf-8")
    olds, news = [r["old"] for r in rows], [r["new"] for r in rows]
    spans = set(span_texts(olds, news)) if args.joint else set()
    texts = sorted({r["old"] for r in rows} | {r["new"] for r in rows} | {topic_text(r["new"]) for r in rows}
                   | spans)
    index = {t: i for i, t in enumerate(texts)}
    vec = embed(texts, args.cache)

    def lookup(batch: list[str]) -> npt.NDArray[np.float32]:
        return vec[[index[t] for t in batch]]

    center = vec.mean(axis=0).astype(np.float32)
    centres = script_centres(vec, texts) if args.script_centres else None
    o_vec, n_vec = vec[[index[t] for t in olds]], vec[[index[t] for t in news]]
    t_vec = vec[[index[topic_text(t)] for t in news]]
    y = np.array([RELATIONS.index(r["relation"]) for r in rows], dtype=np.int64)
    chat = np.array([bool(r.get("chat")) for r in rows])
    test = np.array([is_test(r) for r in rows]) & ~chat  # the written lines are tested by their folds
    trainable = np.array([base_keys is None or (r["old"], r["new"]) in base_keys for r in rows])
    test_rows = [r for r, t in zip(rows, test, strict=True) if t]
    result: dict[str, Any] = {"pairs": len(rows), "pairs_sha1": hashlib.sha1(blob.encode()).hexdigest(),
                              "relations": {rel: int((y == i).sum()) for i, rel in enumerate(RELATIONS)},
                              "n_train": int((~test & trainable).sum()), "n_test": int(test.sum()),
                              "hidden": HIDDEN, "slot_features": args.slot_features, "joint": args.joint,
                              "script": args.script, "script_centres": args.script_centres,
                              "time_features": args.time_features,
                              "epochs": EPOCHS, "class_weight_power": args.class_weight_power,
                              "shipped": "none (--base)" if args.base else "compact", "arms": {}}
    model: PairModel | None = None
    arms = (("compact", False),) if args.compact_only else (("compact", False), ("full", True))
    for arm, full in arms:
        timed = bool(args.time_features) and not full
        x = pair_features(o_vec, n_vec, olds, news, center, full, t_vec, args.slot_features,
                          args.joint and not full, lookup, args.script and not full, centres, timed)
        masked = [] if not timed else {"both": [], "time": [x.shape[1] - 1], "intent": [x.shape[1] - 2]}[
            str(args.time_features)]
        x[:, masked] = 0.0
        fitted = ignoring(fit(x[~test & trainable], y[~test & trainable], center, args.class_weight_power,
                              args.seed), masked)
        out: dict[str, Any] = {"test": report(fitted, x[test], y[test], test_rows), "leave_slots_out": {}}
        for slots in () if args.no_holdouts else HOLDOUT_SLOTS:
            held = np.array([r["slot"] in slots for r in rows])
            if not held.any():
                continue  # (the upd24 families without --more-families)
            leave_out = fit(x[~test & ~held & trainable], y[~test & ~held & trainable], center,
                            args.class_weight_power)
            held_rows = [r for r, t, h in zip(rows, test, held, strict=True) if t and h]
            sel = test & held
            got = report(leave_out, x[sel], y[sel], held_rows)
            probs = leave_out.predict_proba(x[sel])
            wrong = (probs.argmax(axis=1) > 0) & (y[sel] == 0) & (probs.max(axis=1) >= 0.8)
            got["unrelated_called_related_at_p80"] = int(wrong.sum())
            out["leave_slots_out"]["+".join(slots)] = got
        if chat.any() and not args.no_chat_folds:
            out["chat_folds"] = chat_folds(x, y, rows, chat, test & ~chat, center, args)
        result["arms"][arm] = out
        if arm == "compact":
            model = dataclasses.replace(fitted, centres=centres)
    assert model is not None
    results = RESULTS.with_name("pair_model_base.json") if args.base else (args.report or RESULTS)
    if not args.base:
        model.save(args.out, pairs_sha1=result["pairs_sha1"])
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({arm: {"test_accuracy": v["test"]["accuracy"], "chat_folds": v.get("chat_folds"),
                            "leave_slots_out": {k: (g["accuracy"],
                                                    {r: g["per_relation"][r]["recall"] for r in RELATIONS},
                                                    g["unrelated_called_related_at_p80"])
                                                for k, g in v["leave_slots_out"].items()}}
                      for arm, v in result["arms"].items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
