"""Score several case files with ``bench.eval_rules_offline`` in one process (one model load).

Writes each set's per-case output to ``OUT/<set>.txt`` and prints one line per set: cases passing,
expect recall, forbidden-term rate, query hit.

    .venv/bin/python -m bench.score_sets --out DIR FILE [FILE ...]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from pathlib import Path

from bench import eval_rules_offline


def score(path: Path, out: Path) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        eval_rules_offline.main(["--cases", str(path), "--queries"])
    text = buf.getvalue()
    name = path.name.removesuffix("_cases.jsonl").removesuffix(".jsonl")
    (out / f"{name}.txt").write_text(text, encoding="utf-8")
    lines = text.splitlines()
    passing = sum(1 for line in lines if line.startswith("PASS "))
    summary = json.loads(lines[-1]) if lines else {}
    return (f"{name:<16} {passing}/{summary.get('cases', 0)}  recall {summary.get('expect_recall')}  "
            f"forbid {summary.get('forbid_violation_rate')}  query {summary.get('query_hit_rate')}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    missing = [path for path in args.files if not path.exists()]
    for path in args.files:
        print(score(path, args.out) if path.exists() else f"{path}: no such file", flush=True)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
