"""Main's (or any tree's) public store joined with the precision labels, counted by family.

Not a test. Reads a ``bench.public_offline --dump`` folder, labels every memory from the whole-store file and
the delta label files (``bench.sample_memories``' index: one distinct label, else unlabelled), and prints
per set and per MemoryBank half (``dev``: even user numbers, ``held``: odd ones, the half session 23's
precision work did not read while developing) the good count and the bad memories by label and by type.

    python -m bench.precision_families DUMP --full bench/results/precision24_s19_full_store.jsonl
        --labels FILE... [--json OUT] [--rows ROWS]

``--rows``: every memory with its label, half and key (reading aid).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from bench.sample_memories import earlier_labels, memory_key

SETS = ("memorybank-cn", "memorybank-en", "persona")


def half(row: dict[str, Any]) -> str:
    """``dev`` for an even MemoryBank user number, ``held`` for an odd one, ``all`` for another set."""
    if not row["set"].startswith("memorybank"):
        return "all"
    return "dev" if int(row["case"].rsplit("-", 1)[1]) % 2 == 0 else "held"


def label_store(dump: Path, label_files: list[Path]) -> list[dict[str, Any]]:
    """Every memory of ``dump`` with ``label`` (empty when no file, or files that disagree) and ``half``."""
    index = earlier_labels(label_files)
    rows: list[dict[str, Any]] = []
    for name in SETS:
        path = dump / f"{name}.memories.jsonl"
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            mem = json.loads(line)
            labels = index.get(memory_key(mem), [])
            distinct = {h[0] for h in labels}
            mem["label"] = labels[-1][0] if len(distinct) == 1 else ""
            mem["note"] = labels[-1][1] if len(distinct) == 1 else ""
            mem["half"] = half(mem)
            rows.append(mem)
    return rows


def table(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per (set, half): stored, good, unlabelled, bad by label, bad by type."""
    out: dict[str, Any] = {}
    groups = sorted({(r["set"], r["half"]) for r in rows})
    for name, part in [*groups, ("all", "all")]:
        sel = [r for r in rows if (name == "all" or (r["set"], r["half"]) == (name, part))]
        bad = [r for r in sel if r["label"] not in ("good", "")]
        out[f"{name}/{part}"] = {
            "stored": len(sel), "good": sum(r["label"] == "good" for r in sel),
            "unlabelled": sum(not r["label"] for r in sel),
            "bad_by_label": dict(Counter(r["label"] for r in bad).most_common()),
            "bad_by_type": dict(Counter(r["memory_type"] for r in bad).most_common())}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump", type=Path)
    ap.add_argument("--full", type=Path, required=True)
    ap.add_argument("--labels", type=Path, nargs="*", default=[])
    ap.add_argument("--json", type=Path)
    ap.add_argument("--rows", type=Path)
    args = ap.parse_args(argv)
    rows = label_store(args.dump, [args.full, *args.labels])
    result = table(rows)
    for name, t in result.items():
        share = t["good"] / t["stored"] if t["stored"] else 0.0
        print(f"{name:22s} {t['good']:4d} / {t['stored']:4d} ({share:.1%}) unlabelled {t['unlabelled']}  "
              f"bad {t['bad_by_label']}  by type {t['bad_by_type']}")
    if args.json:
        args.json.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if args.rows:
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        args.rows.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
