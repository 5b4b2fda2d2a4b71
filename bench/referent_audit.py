"""How many stored memories lean on a referent they do not name (issue 24: a memory never loses its
referent), read over the memories ``bench.public_offline --dump D`` wrote.

    python -m bench.referent_audit D [D2] [--list OUT.jsonl]

Counts per set the memories whose content leans on a thing named outside it
(``core.extraction.rules.referent.leans``: a pronoun or a demonstrative with no antecedent in the
memory); with two dump directories, both columns side by side. ``--list`` writes the flagged memories
(set, case, type, key, content) of the last directory, to read by eye.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from core.extraction.rules.referent import leans


def _memories(dump: Path) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for path in sorted(dump.glob("*.memories.jsonl")):
        rows.extend(json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line)
    return rows


def audit(dump: Path) -> tuple[Counter[str], Counter[str], list[dict[str, str]]]:
    """(memories per set, flagged per set, flagged rows) of one dump directory."""
    total: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    rows: list[dict[str, str]] = []
    for row in _memories(dump):
        total[row["set"]] += 1
        if leans(row["content"]):
            flagged[row["set"]] += 1
            rows.append(row)
    return total, flagged, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", nargs="+", type=Path)
    parser.add_argument("--list", type=Path)
    args = parser.parse_args(argv)
    results = [audit(d) for d in args.dumps]
    sets = sorted({s for total, _, _ in results for s in total})
    print("set " + " ".join(f"| {d.name} flagged/memories" for d in args.dumps))
    for name in [*sets, "all"]:
        cells = []
        for total, flagged, _ in results:
            t = sum(total.values()) if name == "all" else total[name]
            f = sum(flagged.values()) if name == "all" else flagged[name]
            cells.append(f"| {f}/{t}")
        print(name, " ".join(cells))
    if args.list is not None:
        with args.list.open("w", encoding="utf-8") as out:
            for row in results[-1][2]:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
