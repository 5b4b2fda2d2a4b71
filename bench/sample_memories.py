"""The precision judge kit (issue 24): a seeded random sample of stored memories to label by reading, and
the score of a labelled sample.

Not a test. ``sample`` reads the memories a benchmark run stored (``bench/bench_public.py memorybank|persona
--dump-memories DIR`` writes ``DIR/<set>.memories.jsonl``), draws ``--per-set`` memories (default 40) of each
set with ``random.Random(--seed)``, and writes a JSONL with an empty ``label`` and ``note`` per memory.
With the converted cases (``bench/.work/public/<set>.jsonl``, written by the same run) each sampled memory
also carries ``source``: the user turn of that user most like it (character 3-grams), to judge against
what was said.

``score`` reads a labelled file and prints the good share overall and per set, and the label counts.

Labels: ``good`` (durable, about the user, of a sensible type, one coherent statement; a wrong slot in the
key alone does not make it bad), else the first that applies of ``not_about_user`` (another person's or the
assistant's content), ``invented`` (not said), ``day_event`` (a thing of the day or a plan of the moment
stored as a memory), ``thanks_request_mood`` (thanks, a request, an "I'll try that" or a passing mood),
``blob`` (unrelated clauses glued into one memory), ``lost_referent`` (a fragment whose referent is gone:
"I love riding them"), ``wrong_type`` (durable and about the user but of the wrong type, or a trivial
remark typed as a taste or fact).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from bench.common import REPO, WORK, write_result

LABELS = ("good", "not_about_user", "invented", "day_event", "thanks_request_mood", "blob", "lost_referent",
          "wrong_type")
DEFAULT_SETS = ("memorybank-cn", "memorybank-en", "persona")


def _shown(path: Path) -> str:
    path = path.resolve()
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def _grams(text: str) -> set[str]:
    t = "".join(text.casefold().split())
    return {t[i : i + 3] for i in range(max(len(t) - 2, 1))}


def _user_turns(cases_file: Path) -> dict[str, list[str]]:
    turns: dict[str, list[str]] = {}
    if cases_file.exists():
        for line in cases_file.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            turns[case["id"]] = [t["content"] for t in case["conversation"] if t["role"] == "user"]
    return turns


def nearest_turn(content: str, turns: list[str]) -> str | None:
    """The turn sharing the largest fraction of the memory's character 3-grams (None without turns)."""
    grams = _grams(content)
    best = max(turns, key=lambda t: len(grams & _grams(t)), default=None)
    return best


def sample(memories: dict[str, list[dict[str, Any]]], per_set: int, seed: int,
           cases: dict[str, dict[str, list[str]]] | None = None) -> list[dict[str, Any]]:
    """``per_set`` memories of each set (all of a set that has fewer), drawn with one seeded generator in
    the order the sets are given; each with ``label`` and ``note`` empty."""
    rng = random.Random(seed)
    out = []
    for name, rows in memories.items():
        picked = rng.sample(rows, min(per_set, len(rows)))
        for n, row in enumerate(picked, 1):
            item = {"sample_id": f"{name}-{n:03d}", **row, "label": "", "note": ""}
            turns = (cases or {}).get(name, {}).get(row["case"])
            if turns:
                item["source"] = nearest_turn(row["content"], turns)
            out.append(item)
    return out


def score(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Good share overall and per set, label counts; raises ``ValueError`` on an empty or unknown label."""
    bad = [r["sample_id"] for r in rows if r.get("label") not in LABELS]
    if bad:
        raise ValueError(f"unlabelled or unknown label: {', '.join(bad[:10])}")
    per_set: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        per_set[r["set"]].append(r["label"])

    def share(labels: list[str]) -> dict[str, Any]:
        good = labels.count("good")
        rate = round(good / len(labels), 4) if labels else None
        counts = dict(Counter(labels).most_common())
        return {"n": len(labels), "good": good, "good_share": rate, "labels": counts}

    overall = share([r["label"] for r in rows])
    return {"overall": overall, "per_set": {k: share(v) for k, v in per_set.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample", help="draw the sample to label")
    s.add_argument("dumps", type=Path, help="the --dump-memories folder of a bench_public run")
    s.add_argument("--sets", default=",".join(DEFAULT_SETS))
    s.add_argument("--per-set", type=int, default=40)
    s.add_argument("--seed", type=int, default=24)
    s.add_argument("--cases", type=Path, default=WORK / "public", help="the converted cases (for `source`)")
    s.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("score", help="score a labelled sample")
    c.add_argument("labelled", type=Path)
    c.add_argument("--out", default="", help="also write bench/results/OUT.json (with --command lines)")
    c.add_argument("--command", action="append", default=[], help="a command that made the sample (repeat)")
    c.add_argument("--note", default="", help="a note kept with the figures (who labelled, how)")
    args = parser.parse_args(argv)
    if args.cmd == "score":
        rows = [json.loads(x) for x in args.labelled.read_text(encoding="utf-8").splitlines() if x.strip()]
        result = {**score(rows), "labelled": _shown(args.labelled), "commands": args.command,
                  "note": args.note}
        if args.out:
            write_result(args.out, result)
        print(json.dumps(result, ensure_ascii=False))
        return 0
    memories: dict[str, list[dict[str, Any]]] = {}
    for name in args.sets.split(","):
        path = args.dumps / f"{name}.memories.jsonl"
        if not path.exists():
            print(json.dumps({"skipped": f"{path} not found"}))
            return 0
        memories[name] = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    cases = {name: _user_turns(args.cases / f"{name}.jsonl") for name in memories}
    rows = sample(memories, args.per_set, args.seed, cases)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(json.dumps({"out": _shown(args.out),
                      "sampled": dict(Counter(r["set"] for r in rows)),
                      "population": {k: len(v) for k, v in memories.items()}, "seed": args.seed}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
