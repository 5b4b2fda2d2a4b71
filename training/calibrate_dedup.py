"""Calibrate the semantic-dedup cosine thresholds (reuse, merge) for an embedding model.

Not a test: prints score distributions and a chosen threshold pair, the last line one JSON object.

Pairs are written in the indexed form ``[{memory_type}] {memory_key}: {content}`` (type and key say
which pairs dedup compares); by default the content alone is embedded, as dedup does
(``core.memory.text.embedding_text``); ``--form index`` embeds the whole index text (the former form).
Pairs:
- positives ``dup``: the same memory written twice, with a different key and wording
  (``training/data/dedup_pairs.jsonl``, zh/en/mixed; most rows restate the expected memories of the
  dev cases), plus, when the dev cases file is present, ``dup_verbatim``: the user's own sentence
  from the dev conversation (how a clause-level extractor stores it) against the curated memory;
- negatives ``neg_same_user``: different memories of one user (curated hard pairs, and every two
  different memories of a group); ``neg_other_user``: memories of different users. Dedup only
  compares memories of the same type, so only same-type pairs are scored.
- ``update`` pairs (same slot, new value, e.g. moved city) are reported, not used to choose.

Lexical gate (the model's ``lexical_reuse`` in the calibration file): beside the cosine-only reuse
threshold of the model, a pair also counts as a duplicate when its cosine is at least ``c`` and at
least ``o`` of the salient words of the shorter content are shared
(``core.extraction.rules.keys.overlap``); the output's ``lexical_gate`` gives recall and same-user
false positives over a grid of (c, o) beside
the model's shipped reuse threshold, and the shipped gate's row.

Choice (dedup only ever compares memories of one user, of the same type, with different keys):
``reuse`` = the threshold with the best F1 of dup pairs vs same-user negatives; ``merge`` = the
lowest threshold >= reuse with no same-user false positive (merging deactivates a memory, so it
must be near-certain). Other-user pairs (same-key pairs excluded) are reported as the false
positive rate on unrelated memories, not used to choose: two users can hold the same memory.

Team-written pair groups carry a ``family`` (diet_rule, allergy, family, home_job, preference,
goal_project, constraint): near-duplicates that must merge and must-not-merge pairs of one user.
The output's ``shipped`` block gives precision/recall of the thresholds and gate that ship for the
model (``core/memory/data/dedup_calibration.json``, read by ``core.config``), over all pairs and per
family.

The file the service reads: ``--record`` writes the model's ``measured`` block (what this run measured)
into ``core/memory/data/dedup_calibration.json``; with ``--ship-reuse``, ``--ship-merge``,
``--ship-gate COSINE OVERLAP`` (or ``--ship-no-gate``) and ``--ship-merge-overlap O`` (or
``--ship-no-merge-overlap``) the run measures those values instead of the shipped ones and ``--record``
ships them. Why the shipped values are what they are: the ``DATASHEET.md`` beside that file.

Usage: ``python -m training.calibrate_dedup [--dev PATH] [--pairs PATH] [--provider local|openai]
[--json bench/results/dedup_calibration.json] [--record] [--ship-...]``.
The dev cases file defaults to ``$PAI_MEMORY_DEV_CASES`` or ``/work/shared/eval/dev_cases.jsonl``
and is skipped cleanly when absent.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.config import DEDUP_CALIBRATION_PATH
from training.calibration_file import ShippedRule, record, shipped_for, shipped_from_args

HERE = Path(__file__).resolve().parent
DEFAULT_PAIRS = HERE / "data" / "dedup_pairs.jsonl"
DEFAULT_DEV = Path(os.environ.get("PAI_MEMORY_DEV_CASES", "/work/shared/eval/dev_cases.jsonl"))
_TEXT = re.compile(r"^\[(?P<type>[a-z]+)\] (?P<key>[^:]+): (?P<content>.+)$", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;\n])|(?<=\.)\s+")


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    kind: str  # dup | dup_verbatim | neg_same_user | neg_other_user | update
    family: str = ""  # the behaviour family of a team-written pair group (row "family"), if any


def _type_of(text: str) -> str:
    m = _TEXT.match(text)
    if not m:
        raise ValueError(f"not an index text: {text!r}")
    return m.group("type")


def _key_of(text: str) -> str:
    m = _TEXT.match(text)
    assert m is not None
    return m.group("key")


def _content_of(text: str) -> str:
    m = _TEXT.match(text)
    assert m is not None
    return m.group("content")


def load_pairs(pairs_path: Path, dev_path: Path | None) -> tuple[list[Pair], dict[str, Any]]:
    rows = [json.loads(line) for line in pairs_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    pairs: list[Pair] = []
    identity: dict[str, int] = {}  # text -> memory identity
    group_of: dict[str, str] = {}
    next_id = itertools.count()

    def ident(text: str, group: str, shared: int | None = None) -> int:
        if text not in identity:
            identity[text] = shared if shared is not None else next(next_id)
            group_of[text] = group
        return identity[text]

    update_texts: set[str] = set()
    family_of = {row["group"]: row["family"] for row in rows if row.get("family")}
    for row in rows:
        kind, a, b, group = row["kind"], row["a"], row["b"], row["group"]
        _type_of(a), _type_of(b)
        family = family_of.get(group, "")
        if kind == "dup":
            shared = ident(a, group)
            ident(b, group, shared)
            pairs.append(Pair(a, b, "dup", family))
        elif kind == "distinct":
            ident(a, group)
            ident(b, group)
            pairs.append(Pair(a, b, "neg_same_user", family))
        elif kind == "update":
            update_texts.update((a, b))
            pairs.append(Pair(a, b, "update", family))
        else:
            raise ValueError(f"unknown kind {kind!r}")

    # Every two different memories of the same type: same group -> same user, else other users.
    explicit = {(p.a, p.b) for p in pairs} | {(p.b, p.a) for p in pairs}
    texts = sorted(identity)
    for x, y in itertools.combinations(texts, 2):
        if identity[x] == identity[y] or (x, y) in explicit or _type_of(x) != _type_of(y):
            continue
        if _key_of(x) == _key_of(y):  # dedup never compares same-key memories (key match handles them)
            continue
        same = group_of[x] == group_of[y]
        pairs.append(Pair(x, y, "neg_same_user" if same else "neg_other_user",
                          family_of.get(group_of[x], "") if same else ""))

    info: dict[str, Any] = {"pairs_file": str(pairs_path), "dev_cases": None}
    if dev_path is not None and dev_path.is_file():
        cases = {}
        for line in dev_path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                cases[case["id"]] = case
        used = 0
        for row in rows:
            if row["kind"] != "dup" or row.get("case") not in cases:
                continue
            case = cases[row["case"]]
            expect = case["expect"][row["expect"]]
            sentence = _user_sentence(case, expect["any_of"])
            if sentence is None:
                continue
            # The user's own words under the paraphrase's key vs the curated memory (keys differ,
            # as they do whenever dedup runs).
            verbatim = f"[{expect['type']}] {_key_of(row['b'])}: {sentence}"
            pairs.append(Pair(verbatim, row["a"], "dup_verbatim"))
            used += 1
        info["dev_cases"] = {"path": str(dev_path), "cases": len(cases), "verbatim_pairs": used}
    return pairs, info


def _user_sentence(case: dict[str, Any], terms: list[str]) -> str | None:
    for msg in case["conversation"]:
        if msg["role"] != "user":
            continue
        for sentence in _SENTENCE_END.split(msg["content"]):
            if any(t.lower() in sentence.lower() for t in terms):
                return sentence.strip()[:300]
    return None


def _embed(texts: list[str], provider: str) -> tuple[dict[str, np.ndarray], str, float]:
    from core.config import load_settings
    from core.embedding.factory import build_embedder

    overrides: dict[str, Any] = {"MEMORY_EMBEDDING_PROVIDER": provider}
    embedder = build_embedder(load_settings(**overrides))
    started = time.perf_counter()
    vecs = embedder.embed_passages(texts)
    elapsed = time.perf_counter() - started
    return dict(zip(texts, vecs, strict=True)), embedder.model, elapsed


def _quantiles(values: np.ndarray) -> dict[str, float]:
    if len(values) == 0:
        return {}
    qs = {"min": 0.0, "p05": 5, "p25": 25, "p50": 50, "p75": 75, "p95": 95, "max": 100.0}
    return {name: round(float(np.percentile(values, q)), 4) for name, q in qs.items()} | {
        "mean": round(float(values.mean()), 4)}


def _metrics(pos: np.ndarray, neg_same: np.ndarray, neg_other: np.ndarray, t: float) -> dict[str, float]:
    """Recall/precision/F1 of dup pairs vs same-user negatives at ``t``; other-user FPR beside."""
    tp = float((pos >= t).sum())
    fp_same = float((neg_same >= t).sum())
    fp_other = float((neg_other >= t).sum())
    recall = tp / len(pos) if len(pos) else 0.0
    precision = tp / (tp + fp_same) if tp + fp_same else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"threshold": round(t, 3), "recall": round(recall, 4), "precision": round(precision, 4),
            "f1": round(f1, 4), "false_pos_same_user": int(fp_same),
            "fpr_same_user": round(fp_same / len(neg_same), 4) if len(neg_same) else 0.0,
            "fpr_other_user": round(fp_other / len(neg_other), 4) if len(neg_other) else 0.0}


def calibrate(scores: dict[str, np.ndarray]) -> dict[str, Any]:
    pos = np.concatenate([scores.get("dup", np.zeros(0)), scores.get("dup_verbatim", np.zeros(0))])
    neg_same, neg_other = scores.get("neg_same_user", np.zeros(0)), scores.get("neg_other_user", np.zeros(0))
    grid = np.round(np.arange(0.70, 0.9951, 0.005), 3)
    table = [_metrics(pos, neg_same, neg_other, float(t)) for t in grid]
    best_f1 = max(r["f1"] for r in table)
    reuse_row = max((r for r in table if r["f1"] == best_f1), key=lambda r: r["threshold"])
    merge_row = next((r for r in table if r["threshold"] >= reuse_row["threshold"]
                      and r["false_pos_same_user"] == 0), table[-1])
    return {"reuse": reuse_row, "merge": merge_row,
            "curve": [r for r in table if round(r["threshold"] * 1000) % 10 == 0]}


def bootstrap_thresholds(scores: dict[str, np.ndarray], rounds: int = 200, seed: int = 7) -> dict[str, Any]:
    """Spread of the chosen thresholds when the pairs are resampled with replacement."""
    rng = np.random.default_rng(seed)
    reuse, merge = [], []
    for _ in range(rounds):
        sample = {k: v[rng.integers(0, len(v), len(v))] if len(v) else v for k, v in scores.items()}
        chosen = calibrate(sample)
        reuse.append(chosen["reuse"]["threshold"])
        merge.append(chosen["merge"]["threshold"])
    return {name: {"p05": round(float(np.percentile(vals, 5)), 3), "p50": round(float(np.median(vals)), 3),
                   "p95": round(float(np.percentile(vals, 95)), 3)}
            for name, vals in (("reuse", reuse), ("merge", merge))}


def _overlap(a: str, b: str) -> float:
    from core.extraction.rules.keys import overlap

    ca, cb = (_content_of(t) if _TEXT.match(t) else t for t in (a, b))
    return overlap(ca, cb)


def lexical_gate(rows: list[tuple[str, float, float]], shipped: ShippedRule) -> dict[str, Any]:
    """Recall and false positives of "cosine >= shipped reuse OR (cosine >= c AND overlap >= o)"."""
    reuse = shipped.reuse
    pos = [(c, o) for k, c, o in rows if k in ("dup", "dup_verbatim")]
    same = [(c, o) for k, c, o in rows if k == "neg_same_user"]
    other = [(c, o) for k, c, o in rows if k == "neg_other_user"]

    def row(cos: float, ov: float) -> dict[str, float]:
        def rate(xs: list[tuple[float, float]]) -> float:
            hit = sum(c >= reuse or (c >= cos and o >= ov) for c, o in xs)
            return round(hit / len(xs), 4) if xs else 0.0

        return {"cosine": cos, "overlap": ov, "recall": rate(pos), "fpr_same_user": rate(same),
                "fpr_other_user": rate(other)}

    return {
        "shipped_reuse": reuse,
        "without_gate": row(2.0, 2.0),
        "grid": [row(c, o) for c in (0.88, 0.89, 0.90, 0.91, 0.92, 0.93, 0.94, 0.95)
                 for o in (0.3, 0.4, 0.5, 0.6, 0.75)],
        "shipped_gate": row(*shipped.gate) if shipped.gate else None,
    }


def shipped_rule(rows: list[tuple[Pair, float, float]], shipped: ShippedRule) -> dict[str, Any]:
    """Precision and recall of ``shipped`` (by default what ships for the model): *reuse* = cosine >=
    reuse or the lexical gate, *merge* = cosine >= merge with the merge overlap; duplicates (``dup``,
    ``dup_verbatim``) against different memories of the same user, over all pairs and per family of
    the team-written groups."""
    reuse, merge = shipped.reuse, shipped.merge
    gate, merge_overlap = shipped.gate, shipped.merge_overlap

    def reused(c: float, o: float) -> bool:
        return c >= reuse or (gate is not None and c >= gate[0] and o >= gate[1])

    def score(selected: list[tuple[Pair, float, float]], rule: str) -> dict[str, Any]:
        hit = (lambda c, o: reused(c, o)) if rule == "reuse" else (
            lambda c, o: c >= merge and (merge_overlap is None or o >= merge_overlap))
        pos = [hit(c, o) for p, c, o in selected if p.kind in ("dup", "dup_verbatim")]
        neg = [hit(c, o) for p, c, o in selected if p.kind == "neg_same_user"]
        tp, fp = sum(pos), sum(neg)
        return {"duplicates": len(pos), "must_not_merge": len(neg), "recall": round(tp / len(pos), 4) if pos
                else None, "precision": round(tp / (tp + fp), 4) if tp + fp else None, "false_merges": fp}

    families = sorted({p.family for p, _, _ in rows if p.family})
    return {
        "reuse": reuse, "merge": merge, "lexical_gate": list(gate) if gate else None,
        "merge_overlap": merge_overlap,
        "all": {rule: score(rows, rule) for rule in ("reuse", "merge")},
        "by_family": {f: {rule: score([r for r in rows if r[0].family == f], rule)
                          for rule in ("reuse", "merge")} for f in families},
        "updates_reused": sum(reused(c, o) for p, c, o in rows if p.kind == "update"),
        "updates": sum(1 for p, _, _ in rows if p.kind == "update"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=Path, default=DEFAULT_PAIRS)
    parser.add_argument("--dev", type=Path, default=DEFAULT_DEV)
    parser.add_argument("--provider", choices=["local", "openai"], default="local")
    parser.add_argument("--form", choices=["index", "content"], default="content",
                        help="embed the content alone (what dedup uses) or the former index text "
                             "'[type] key: content' (for comparison)")
    parser.add_argument("--quiet", action="store_true", help="print only the JSON line")
    parser.add_argument("--json", type=Path, default=None,
                        help="also write the result here (bench/results/dedup_calibration.json)")
    parser.add_argument("--record", action="store_true",
                        help="write the model's measured block (and the --ship-* values) into --data")
    parser.add_argument("--data", type=Path, default=DEDUP_CALIBRATION_PATH,
                        help="the calibration file the service reads (default: %(default)s)")
    parser.add_argument("--ship-reuse", type=float, default=None, help="measure (and record) this reuse")
    parser.add_argument("--ship-merge", type=float, default=None, help="measure (and record) this merge")
    gate = parser.add_mutually_exclusive_group()
    gate.add_argument("--ship-gate", type=float, nargs=2, metavar=("COSINE", "OVERLAP"), default=None,
                      help="measure (and record) this lexical reuse gate")
    gate.add_argument("--ship-no-gate", action="store_true", help="measure (and record) no lexical gate")
    merge_overlap = parser.add_mutually_exclusive_group()
    merge_overlap.add_argument("--ship-merge-overlap", type=float, default=None,
                               help="measure (and record) this merge overlap")
    merge_overlap.add_argument("--ship-no-merge-overlap", action="store_true",
                               help="measure (and record) a cosine-only merge")
    args = parser.parse_args(argv)
    if args.record and args.form != "content":
        parser.error("--record needs --form content: the shipped values apply to what dedup embeds")

    dev = args.dev if args.dev.is_file() else None
    if dev is None and not args.quiet:
        print(f"dev cases not found at {args.dev}: using the curated pairs only", file=sys.stderr)
    pairs, info = load_pairs(args.pairs, dev)
    if args.form == "content":
        pairs = [Pair(_content_of(p.a), _content_of(p.b), p.kind, p.family) for p in pairs]
    texts = sorted({t for p in pairs for t in (p.a, p.b)})
    vectors, model, elapsed = _embed(texts, args.provider)
    shipped = shipped_from_args(shipped_for(model), args)

    by_kind: dict[str, list[float]] = {}
    lexical_rows: list[tuple[str, float, float]] = []
    scored: list[tuple[Pair, float, float]] = []
    for p in pairs:
        by_kind.setdefault(p.kind, []).append(float(vectors[p.a] @ vectors[p.b]))
        lexical_rows.append((p.kind, float(vectors[p.a] @ vectors[p.b]), _overlap(p.a, p.b)))
        scored.append((p, lexical_rows[-1][1], lexical_rows[-1][2]))
    scores = {k: np.asarray(v) for k, v in by_kind.items()}
    result = calibrate(scores)
    reuse, merge = result["reuse"]["threshold"], result["merge"]["threshold"]
    upd = scores.get("update", np.zeros(0))

    pos_all = np.concatenate([scores.get("dup", np.zeros(0)), scores.get("dup_verbatim", np.zeros(0))])
    neg_same, neg_other = scores.get("neg_same_user", np.zeros(0)), scores.get("neg_other_user", np.zeros(0))
    reference = {f"{r:.2f}/{m:.2f}": {"reuse": _metrics(pos_all, neg_same, neg_other, r),
                                      "merge": _metrics(pos_all, neg_same, neg_other, m)}
                 for r, m in ((0.82, 0.90), (0.93, 0.95))}
    out = {
        "model": model,
        "form": args.form,
        "texts": len(texts),
        "embed_seconds": round(elapsed, 2),
        "pairs": {k: len(v) for k, v in sorted(scores.items())},
        "distributions": {k: _quantiles(v) for k, v in sorted(scores.items())},
        "chosen": {"reuse": reuse, "merge": merge},
        "bootstrap": bootstrap_thresholds(scores),
        "at_reuse": result["reuse"],
        "at_merge": result["merge"],
        "update_pairs_at_or_above": {"reuse": int((upd >= reuse).sum()), "merge": int((upd >= merge).sum()),
                                     "of": len(upd)},
        "reference_thresholds": reference,
        "lexical_gate": lexical_gate(lexical_rows, shipped),
        "shipped": shipped_rule(scored, shipped),
        "source": info,
    }
    if not args.quiet:
        print(f"model {model}: {len(texts)} texts embedded in {elapsed:.1f}s")
        for kind, q in out["distributions"].items():
            quant = "  ".join(f"{k}={v:.3f}" for k, v in q.items())
            print(f"  {kind:15s} n={out['pairs'][kind]:5d}  {quant}")
        print("  threshold  recall  precision  f1     fpr_same  fpr_other")
        for row in result["curve"]:
            print(f"  {row['threshold']:.2f}       {row['recall']:.3f}   {row['precision']:.3f}      "
                  f"{row['f1']:.3f}  {row['fpr_same_user']:.3f}     {row['fpr_other_user']:.3f}")
        gate = out["lexical_gate"]
        print(f"lexical gate beside the shipped reuse {gate['shipped_reuse']}: (cosine, overlap) -> "
              "recall / same-user FP rate / other-user FP rate")
        for row in gate["grid"]:
            print(f"  ({row['cosine']:.2f}, {row['overlap']:.2f})  {row['recall']:.3f}  "
                  f"{row['fpr_same_user']:.3f}  {row['fpr_other_user']:.4f}")
        print(f"  shipped gate {gate['shipped_gate']}")
        print(f"chosen: reuse={reuse} (best F1 {result['reuse']['f1']}), merge={merge} "
              f"(recall {result['merge']['recall']}, no same-user false positive); "
              f"bootstrap {out['bootstrap']}")
        shipped = out["shipped"]
        print(f"shipped for {model}: reuse {shipped['all']['reuse']}, merge {shipped['all']['merge']}")
        for family, rules in shipped["by_family"].items():
            print(f"  {family:13s} reuse {rules['reuse']}  merge {rules['merge']}")
    print(json.dumps(out, ensure_ascii=False))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if args.record:
        record(args.data, model, shipped, out)
        if not args.quiet:
            print(f"recorded {model} in {args.data}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
