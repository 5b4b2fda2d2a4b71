"""Originality check of the frozen test set (``bench/data/frozen/cases.jsonl``) against every text the team
or its tools have seen: no turn or query may repeat (or nearly repeat) one of them.

Not a test (the test, ``tests/bench/test_frozen_set.py``, checks the dev cases only). Sources: the dev
cases (``../shared/eval/dev_cases.jsonl``), the team's held-out set, the memory-utterance set, the CLI
samples, the public benchmarks (``../shared/benchmarks/``: MemoryBank, Synthetic-Persona-Chat, LoCoMo) and,
with ``--issues DIR``, the issue texts saved as files (``issues show N > DIR/N.txt``). Missing sources are
reported and skipped.

Every string is normalised (NFKC, casefolded, punctuation, symbols and spaces removed). A frozen text is a
hit when it
- equals a source string (``exact``);
- is a substring of a source text, or contains a source string, at 12+ normalised characters
  (``contains``);
- shares >= 0.5 of its character 3-grams (Jaccard) with a short source string of the small, hand-written
  sets (``similar``: dev, held-out, utterances, samples), the paraphrase signal.

Stdout: one JSON object with the sources, their sizes and the hits (an empty list: no hit).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
FROZEN = REPO / "bench" / "data" / "frozen" / "cases.jsonl"
MIN_CONTAIN = 12
SIMILAR = 0.5


def normalise(text: str) -> str:
    """NFKC, casefolded, without punctuation, symbols, marks or whitespace."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in text if unicodedata.category(ch)[0] in ("L", "N"))


def _strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def file_strings(path: Path) -> Iterator[str]:
    """Every string value of a JSON / JSONL / CSV / text file."""
    if path.suffix == ".jsonl":
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield from _strings(json.loads(line))
    elif path.suffix == ".json":
        yield from _strings(json.loads(path.read_text(encoding="utf-8")))
    elif path.suffix == ".csv":
        csv.field_size_limit(sys.maxsize)
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                for cell in row:
                    yield from (line for line in cell.splitlines() if line.strip())
    else:
        yield from (line for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def frozen_texts(path: Path = FROZEN) -> list[tuple[str, str]]:
    """(case id, text) of every turn and query of the frozen set."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        out += [(case["id"], t["content"]) for t in case["conversation"]]
        out += [(case["id"], q["query"]) for q in case["queries"]]
    return out


def _grams(s: str) -> set[str]:
    return {s[i : i + 3] for i in range(max(len(s) - 2, 1))}


def sources(shared: Path, issues: Path | None) -> dict[str, tuple[list[Path], bool]]:
    """name -> (files, small hand-written set?)."""
    bench = shared / "benchmarks"
    src = {
        "dev_cases": ([shared / "eval" / "dev_cases.jsonl"], True),
        "heldout_cases": ([REPO / "bench" / "data" / "heldout_cases.jsonl"], True),
        "memory_utterances": ([REPO / "training" / "data" / "memory_utterances" / "utterances.jsonl"], True),
        "cli_samples": (sorted((REPO / "cli" / "samples").glob("*.jsonl")), True),
        "benchmarks": (sorted(p for p in bench.rglob("*") if p.suffix in (".json", ".jsonl", ".csv")), False),
    }
    if issues is not None:
        src["issues"] = (sorted(issues.glob("*.txt")), False)
    return src


def check(texts: Iterable[tuple[str, str]], shared: Path, issues: Path | None) -> dict[str, Any]:
    rows = [(cid, t, normalise(t)) for cid, t in texts]
    report: dict[str, Any] = {"frozen_texts": len(rows), "sources": {}, "hits": []}
    for name, (files, small) in sources(shared, issues).items():
        present = [f for f in files if f.exists()]
        if not present:
            report["sources"][name] = "absent"
            continue
        strings = {normalise(s) for f in present for s in file_strings(f)}
        strings.discard("")
        blob = "\n".join(strings)
        report["sources"][name] = {"files": len(present), "strings": len(strings)}
        long_src = [s for s in strings if len(s) >= MIN_CONTAIN]
        grams = [(s, _grams(s)) for s in strings if len(s) <= 200] if small else []
        for cid, text, norm in rows:
            hit = None
            if norm in strings:
                hit = ("exact", norm)
            elif len(norm) >= MIN_CONTAIN and norm in blob:
                hit = ("contains", norm)
            else:
                inner = next((s for s in long_src if s in norm), None)
                if inner is not None:
                    hit = ("contains", inner)
                else:
                    g = _grams(norm)
                    for s, sg in grams:
                        if len(g | sg) and len(g & sg) / len(g | sg) >= SIMILAR:
                            hit = ("similar", s)
                            break
            if hit:
                report["hits"].append(
                    {"case": cid, "text": text, "source": name, "kind": hit[0], "match": hit[1]}
                )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frozen", type=Path, default=FROZEN)
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--issues", type=Path, default=None, help="folder of saved issue texts (N.txt)")
    args = parser.parse_args(argv)
    report = check(frozen_texts(args.frozen), args.shared, args.issues)
    print(json.dumps(report, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
