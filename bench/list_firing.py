"""How often the list test fires: on the public sets' user messages (MemoryBank cn/en, Persona-Chat test)
and on case files, by clause length alone (session 18's test, ``gate_units.item_candidates``) and by the
gate's list test (``ClassifierGate.list_items``: the list-item head, a taste's objects left out).

    python -m bench.list_firing [--data /work/shared/benchmarks] [--cases FILE ...] [--show N]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bench.public_offline import DEFAULT_DATA, load_cases
from core.extraction.candidates import ExtractionInput
from core.extraction.classifier import MemoryClassifier
from core.extraction.list_items import shipped_list_reader
from core.extraction.rules.analysis import MAX_CLAUSES, MAX_MESSAGE_CHARS, analyse
from core.extraction.rules.gate import ClassifierGate
from core.extraction.rules.gate_units import item_candidates
from core.extraction.rules.segment import split_clauses


def user_messages(cases: list[dict[str, Any]]) -> list[str]:
    return [str(t["content"]) for c in cases for t in c["conversation"] if t.get("role") == "user"]


def firing(gate: ClassifierGate, messages: list[str], show: int) -> dict[str, Any]:
    by_length = by_head = 0
    shown: list[str] = []
    for text in messages:
        clauses = split_clauses(text[:MAX_MESSAGE_CHARS], MAX_CLAUSES)
        short = item_candidates(clauses)
        if not short:
            continue
        by_length += 1
        if gate.list_items(analyse(ExtractionInput(user_message=text))):
            by_head += 1
            if len(shown) < show:
                shown.append(text[:160])
    return {"messages": len(messages), "fires_by_length": by_length, "fires_with_head": by_head,
            "examples": shown}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--cases", type=Path, nargs="*", default=[])
    parser.add_argument("--show", type=int, default=0, help="print this many messages the head calls lists")
    parser.add_argument("--no-public", action="store_true")
    args = parser.parse_args(argv)
    sets: dict[str, list[str]] = {}
    if not args.no_public:
        for name in ("memorybank-cn", "memorybank-en", "persona"):
            sets[name] = user_messages(load_cases(name, args.data, 50))
    for path in args.cases:
        cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        sets[path.name] = user_messages(cases)
    gate = ClassifierGate(MemoryClassifier(), lists=shipped_list_reader())
    for name, messages in sets.items():
        print(json.dumps({name: firing(gate, messages, args.show)}, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
