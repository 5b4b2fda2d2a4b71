"""Ablation on the labelled corpus: the rules extractor alone vs rules + classifier.

Each utterance of the corpus's held-out split (``--split test``, the default; ``all`` for every
row) is one user message with no context. The extractor's answer counts as *keep* when it proposes
at least one upsert candidate (deletes are retractions, not memories), and its type is the type
of the first upsert. Reported per configuration: keep/drop accuracy, keep precision/recall/F1,
type accuracy on rows both keep, and per-family keep/drop accuracy (a retraction is right when
nothing is stored).

``--locomo-turns N`` also counts upsert candidates per turn on the first N turns of LoCoMo
(``../shared/benchmarks/locomo10.json``, skipped when absent): each turn extracted alone, no
refine or dedup, so an upper bound of what the pipeline would store per turn.

    .venv/bin/python -m bench.ablation_memory_classifier [--split test|train|all] [--json PATH]
        [--locomo-turns 400]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from core.extraction.candidates import CandidateOp, ExtractionInput
from core.extraction.rules import RulesExtractor

CORPUS = Path(__file__).resolve().parents[1] / "training" / "data" / "memory_utterances" / "utterances.jsonl"
LOCOMO = Path(__file__).resolve().parents[1] / ".." / "shared" / "benchmarks" / "locomo10.json"


def locomo_turns(path: Path, limit: int) -> list[str]:
    """The first ``limit`` turns of LoCoMo's conversations, sessions in order."""
    turns: list[str] = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        conv = sample["conversation"]
        sessions = sorted((k for k in conv if k.startswith("session_") and isinstance(conv[k], list)),
                          key=lambda k: int(k.split("_")[1]))
        turns += [t["text"] for k in sessions for t in conv[k]]
        if len(turns) >= limit:
            break
    return turns[:limit]


def per_turn(extractor: RulesExtractor, turns: list[str]) -> float:
    n = sum(1 for t in turns for c in extractor.extract(ExtractionInput(t)) if c.op is CandidateOp.UPSERT)
    return round(n / len(turns), 4) if turns else 0.0


def load_corpus(path: Path = CORPUS) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return sorted(rows, key=lambda r: str(r["id"]))


def _percentile_ms(values: list[float], q: float) -> float | None:
    return round(1000 * sorted(values)[min(len(values) - 1, int(len(values) * q))], 2) if values else None


def score(extractor: RulesExtractor, rows: list[dict[str, Any]]) -> dict[str, Any]:
    tp = fp = fn = tn = type_ok = type_n = 0
    by_family: dict[str, list[bool]] = defaultdict(list)
    errors: list[str] = []
    latencies: list[float] = []
    for row in rows:
        started = time.perf_counter()
        candidates = extractor.extract(ExtractionInput(row["text"]))
        latencies.append(time.perf_counter() - started)
        upserts = [c for c in candidates if c.op is CandidateOp.UPSERT]
        kept, gold = bool(upserts), bool(row["keep"])
        tp += kept and gold
        fp += kept and not gold
        fn += gold and not kept
        tn += not kept and not gold
        right = kept == gold
        if kept and gold:
            type_n += 1
            type_ok += upserts[0].memory_type.value == row["type"]
        by_family[row["family"]].append(right)
        if not right:
            errors.append(f"{'FP' if kept else 'FN'} {row['family']}: {row['text']}")
    f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return {
        "n": len(rows),
        "keep_drop_accuracy": round((tp + tn) / len(rows), 4) if rows else None,
        "keep_precision": round(tp / (tp + fp), 4) if tp + fp else None,
        "keep_recall": round(tp / (tp + fn), 4) if tp + fn else None,
        "keep_f1": round(f1, 4),
        "type_accuracy_on_kept": round(type_ok / type_n, 4) if type_n else None,
        "extract_ms_p50": _percentile_ms(latencies, 0.5),
        "extract_ms_p95": _percentile_ms(latencies, 0.95),
        "by_family": {k: round(sum(v) / len(v), 4) for k, v in sorted(by_family.items())},
        "errors": errors,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--split", choices=("test", "train", "all"), default="test")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--errors", action="store_true", help="print the misclassified utterances")
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--locomo-turns", type=int, default=0)
    args = parser.parse_args(argv)
    from core.extraction.classifier import MemoryClassifier

    rows = [r for r in load_corpus(args.corpus) if args.split == "all" or r["split"] == args.split]
    classifier = MemoryClassifier()
    classifier.predict(["warm-up"])  # load the model outside the timings
    with_classifier = RulesExtractor(classifier=classifier)
    with_classifier.extract(ExtractionInput("我喜欢在周末做点手工"))  # and the topic vectors
    report: dict[str, Any] = {"split": args.split,
              "rules_only": score(RulesExtractor(), rows),
              "rules_classifier": score(with_classifier, rows)}
    for name in ("rules_only", "rules_classifier"):
        summary = {k: v for k, v in report[name].items() if k not in ("errors", "by_family")}
        print(name, json.dumps(summary))
        if args.errors:
            for line in report[name]["errors"]:
                print("   ", line)
    if args.locomo_turns and args.locomo.exists():
        turns = locomo_turns(args.locomo, args.locomo_turns)
        report["locomo_upserts_per_turn"] = {
            "turns": len(turns), "rules_only": per_turn(RulesExtractor(), turns),
            "rules_classifier": per_turn(with_classifier, turns)}
        print("locomo", json.dumps(report["locomo_upserts_per_turn"]))
    elif args.locomo_turns:
        print(f"no LoCoMo at {args.locomo}; skipping the per-turn count")
    families = sorted(report["rules_only"]["by_family"])
    print(f"{'family':<34} {'rules':>6} {'+clf':>6}")
    for fam in families:
        print(f"{fam:<34} {report['rules_only']['by_family'][fam]:>6.2f} "
              f"{report['rules_classifier']['by_family'][fam]:>6.2f}")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
