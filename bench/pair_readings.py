"""The pair model's readings of the pairs the update judge compares, recorded and re-read (issue 24,
session 22).

``record OUT --public SET[,SET] [--split test|valid] [--conversations N]`` or ``record OUT --cases FILE``:
plays the public sets (as ``bench.public_offline``) or a case file through the offline ``rules`` pipeline with
the shipped code, and writes one JSON line per pair ``core.extraction.rules.judge_pairs.pair`` reads (the
case, the sentence, its retraction topic, the live memory, its key and type, the pair's rank, the shipped
model's probabilities).

``reread WEIGHTS READINGS...``: the same pairs embedded again and read by the pair weights ``WEIGHTS``
(14-feature weights, as ``core.extraction.pairs.PairModel`` loads them); prints, per readings file, how many
sentences' surest pair is read supersede at ``SUPERSEDE_P`` or more by the recorded (shipped) reading and by
``WEIGHTS``, and every pair whose reading crossed the bar. With the shipped weights it reproduces the recorded
count (the check).

    python -m bench.pair_readings record R.jsonl --public memorybank-cn,memorybank-en
    python -m bench.pair_readings reread P.npz R.jsonl [--cache C.npz] [--labels L.jsonl]

``--labels``: a reader's labels of pairs (``{"case", "sentence", "memory", "change": true|false}`` a line;
``change``: the sentence changes or withdraws what the memory holds); each count is then split into pairs
labelled a change, labelled not a change, and unlabelled (session 23).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

SUPERSEDE_P = 0.80
DATA = Path("/work/shared/benchmarks")


def _supersede(probs: dict[str, float], rank: int) -> bool:
    surest = max(probs, key=lambda k: probs[k])
    return rank == 0 and surest == "supersede" and probs["supersede"] >= SUPERSEDE_P


def record(out: Path, public: str | None, cases: Path | None, split: str, conversations: int,
           data: Path) -> int:
    """Play the sets with ``judge.pair`` wrapped; one line per pair read (see the module doc)."""
    import bench.eval_rules_offline as ero
    import bench.public_offline as po
    import core.extraction.rules.judge as judge
    from core.extraction.pairs import RELATIONS

    state: dict[str, Any] = {"case": None}
    original = judge.pair
    with out.open("w", encoding="utf-8") as fh:
        def pair(*args: Any, **kwargs: Any) -> Any:
            got = original(*args, **kwargs)
            sentence, topic, live = args[3], args[4], args[5]
            if got is not None:
                for rank, j in enumerate(got.order):
                    fh.write(json.dumps({"case": state["case"], "sentence": sentence, "topic": topic,
                                         "memory": live[j].content, "key": live[j].key,
                                         "type": live[j].memory_type, "rank": rank,
                                         "probs": {r: round(float(p), 3)
                                                   for r, p in zip(RELATIONS, got.probs[rank], strict=True)}},
                                        ensure_ascii=False) + "\n")
            return got

        def run_case(case: dict[str, Any], extractor: Any, *args: Any, **kwargs: Any) -> Any:
            state["case"] = case["id"]
            return play(case, extractor, *args, **kwargs)

        play = ero.run_case
        judge.pair = pair
        try:
            extractor, deduper = ero.make_extractor(True), ero._deduper()
            if public:
                po.run_case = run_case
                for name in public.split(","):
                    rows = po.load_cases(name, data, conversations, split)
                    got = po.run_set(name, rows, extractor, deduper, out.parent / "pair_readings_dump")
                    print(name, json.dumps(got, ensure_ascii=False)[:200], flush=True)
            else:
                assert cases is not None
                for line in cases.read_text(encoding="utf-8").splitlines():
                    if line.strip():
                        run_case(json.loads(line), extractor, deduper=deduper)
        finally:
            judge.pair = original
            po.run_case = play
    return 0


def _labels(path: Path | None) -> dict[tuple[str, str, str], bool]:
    if path is None:
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {(str(r["case"]), r["sentence"], r["memory"]): bool(r["change"]) for r in rows}


def _split(rows: list[dict[str, Any]], labels: dict[tuple[str, str, str], bool]) -> str:
    got = [labels.get((str(r["case"]), r["sentence"], r["memory"])) for r in rows]
    return f"{len(rows)} (change {got.count(True)}, not {got.count(False)}, unlabelled {got.count(None)})"


def reread(weights: Path, files: list[Path], cache: Path | None, labels_path: Path | None = None) -> int:
    """Print the recorded and the re-read supersede counts per file (split by ``labels_path``'s labels when
    given), and the pairs that crossed the bar."""
    labels = _labels(labels_path)
    from core.extraction.pairs import RELATIONS, PairModel
    from core.extraction.rules.judge_retract import retraction_topic
    from training.train_memory_classifier import embed

    model = PairModel.load(weights)
    rows: list[dict[str, Any]] = []
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                r.setdefault("topic", retraction_topic(r["sentence"]))
                r["file"] = f.name
                rows.append(r)
    texts = sorted({r["memory"] for r in rows} | {r["sentence"] for r in rows}
                   | {r["topic"] or r["sentence"] for r in rows})
    index = {t: i for i, t in enumerate(texts)}
    vec = embed(texts, cache)

    def at(key: str) -> Any:
        return vec[[index[r[key] or r["sentence"]] for r in rows]]

    feats = model.features(at("memory"), at("sentence"), [r["memory"] for r in rows],
                           [r["sentence"] for r in rows], at("topic"))
    probs = model.predict_proba(feats)
    s = RELATIONS.index("supersede")
    for f in files:
        before: list[dict[str, Any]] = []
        after: list[dict[str, Any]] = []
        for r, p in zip(rows, probs, strict=True):
            if r["file"] != f.name:
                continue
            old = _supersede(r["probs"], r["rank"])
            new = r["rank"] == 0 and int(np.argmax(p)) == s and float(p[s]) >= SUPERSEDE_P
            if old:
                before.append(r)
            if new:
                after.append(r)
            if old != new:
                mark = labels.get((str(r["case"]), r["sentence"], r["memory"]))
                tag = "" if mark is None else (" [change]" if mark else " [not]")
                print(f"  {'lost' if old else 'gained'}{tag} {r['probs']['supersede']:.2f} -> "
                      f"{float(p[s]):.2f} [{r['case']}] {r['memory'][:50]} <== {r['sentence'][:100]}")
        print(f"{f.name}: supersede >= {SUPERSEDE_P} at rank 0: recorded {_split(before, labels)}, "
              f"{weights.name} {_split(after, labels)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out", type=Path)
    what = rec.add_mutually_exclusive_group(required=True)
    what.add_argument("--public", help="public sets, as bench.public_offline --sets")
    what.add_argument("--cases", type=Path, help="a case file")
    rec.add_argument("--split", choices=("test", "valid"), default="test", help="Persona-Chat's split")
    rec.add_argument("--conversations", type=int, default=50)
    rec.add_argument("--data", type=Path, default=DATA)
    rr = sub.add_parser("reread")
    rr.add_argument("weights", type=Path)
    rr.add_argument("readings", type=Path, nargs="+")
    rr.add_argument("--cache", type=Path, default=None,
                    help="an embedding cache (train_memory_classifier.embed)")
    rr.add_argument("--labels", type=Path, default=None,
                    help="a reader's labels of pairs (see the module doc)")
    args = parser.parse_args(argv)
    if args.command == "record":
        return record(args.out, args.public, args.cases, args.split, args.conversations, args.data)
    return reread(args.weights, args.readings, args.cache, args.labels)


if __name__ == "__main__":
    sys.exit(main())
