"""Type errors of a case file: the expected items not held under their type, split into those held under
another type (the type a kept statement got decides them) and those held under none (not kept at all).

Not a test. Plays every case with ``bench.eval_rules_offline`` (the shipped classifier, no semantic dedup: as
``bench.score_sets`` scores the guards) and prints one ``WRONG`` block per item held under another type
(the expected type and terms, then each live memory holding a term), one ``MISSING`` line per item held
nowhere, and the counts.

    python -m bench.type_errors FILE
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench.eval_rules_offline import make_extractor, run_case, score_case
from core.filters import passes_read_filters


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", type=Path)
    args = parser.parse_args(argv)
    extractor = make_extractor(True)
    items = wrong = missing = 0
    for line in args.cases.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        memories = run_case(case, extractor)
        expects, _ = score_case(case, memories)
        live = [m for m in memories.values() if m.active and passes_read_filters(m.key, m.content)]
        for exp, held in zip(case.get("expect", []), expects, strict=True):
            items += 1
            if held:
                continue
            terms = [t.lower() for t in exp["any_of"]]
            found = [m for m in live if any(t in f"{m.key} {m.content}".lower() for t in terms)]
            if found:
                wrong += 1
                print("WRONG", case["id"], exp["type"], exp["any_of"])
                for m in found:
                    print("     ", m.memory_type, m.key, "|", m.content)
            else:
                missing += 1
                print("MISSING", case["id"], exp["type"], exp["any_of"])
    n_held = items - wrong - missing
    print(json.dumps({"items": items, "held": n_held, "wrong_type": wrong, "missing": missing}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
