"""Public dialogue sets no one here wrote, through the whole pipeline: MemoryBank and Synthetic-Persona-Chat.

Not a test. ``bench_public.py memorybank`` / ``bench_public.py persona`` converts the set
(``bench/convert_public.py``; data read from ``../shared/benchmarks/`` relative to the repo, ``--data``
to change; skips cleanly with ``{"skipped": ...}`` when absent) into evaluation cases, writes them to
``bench/.work/public/``, and runs them with ``pai-memory eval FILE --json`` (turn by turn, as a chat
service would publish them) on the benchmark stack with a scratch database, private topics and
collection (``bench.bench_quality.run_eval``), with the ``rules`` extractor.

``--dump-memories DIR`` also writes every user's live memories, one JSON line a memory, to
``DIR/<set>.memories.jsonl`` (the input of ``bench/sample_memories.py``, the precision judge kit).

Reported per set (and language): expected-memory recall (type must match, and ignoring the type),
query hit@k, the fraction of users with a forbidden term in a live memory (for Persona-Chat: the
other speaker's facts) and the forbidden terms found, memories per user and by type, examples.

Stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from bench.bench_quality import run_eval
from bench.common import REPO, WORK, log
from bench.convert_public import memorybank_cases, persona_cases, read_persona_csv
from bench.stack import install_sigterm

DEFAULT_DATA = REPO.parent / "shared" / "benchmarks"
PERSONA_FILE = "synthetic_persona_chat/data/Synthetic-Persona-Chat_test.csv"
_MEMORY = re.compile(r"^\[(?P<type>[^\]]+)\] (?P<key>\S*): (?P<content>.*)$", re.S)


def parse_memory(line: str) -> tuple[str, str, str]:
    """``"[type] key: content"`` (``CaseResult.memories``) -> (type, key, content)."""
    m = _MEMORY.match(line)
    if not m:
        return "", "", line
    return m.group("type"), m.group("key"), m.group("content")


def score_run(cases: list[dict[str, Any]], run: dict[str, Any]) -> dict[str, Any]:
    """Figures of one eval run over ``cases`` (the case dicts it was given)."""
    by_id = {c["id"]: c for c in cases}
    lines = {c["id"]: c for c in run.get("cases", [])}
    typed = untyped = n_expect = 0
    q_hits = n_q = 0
    users_forbidden = 0
    forbidden_found = 0
    n_memories = 0
    types: Counter[str] = Counter()
    examples: list[str] = []
    for cid, case in by_id.items():
        line = lines.get(cid)
        if line is None:
            continue
        mems = [parse_memory(m) for m in line["memories"]]
        n_memories += len(mems)
        types.update(t for t, _, _ in mems)
        examples.extend(line["memories"][:2])
        for exp, hit in zip(case["expect"], line["expect_hits"], strict=True):
            n_expect += 1
            typed += bool(hit)
            untyped += any(t.lower() in f"{k} {c}".lower() for t in exp["any_of"] for _, k, c in mems)
        q_hits += sum(line["query_hits"])
        n_q += len(line["query_hits"])
        users_forbidden += bool(line["forbid_violations"])
        forbidden_found += len(line["forbid_violations"])
    n_cases = len(lines)
    return {
        "cases_scored": n_cases,
        "expected_items": n_expect,
        "expect_recall": round(typed / n_expect, 4) if n_expect else None,
        "expect_recall_any_type": round(untyped / n_expect, 4) if n_expect else None,
        "queries": n_q,
        "query_hit_at_k": round(q_hits / n_q, 4) if n_q else None,
        "users_with_forbidden": users_forbidden,
        "users_with_forbidden_rate": round(users_forbidden / n_cases, 4) if n_cases else None,
        "forbidden_terms_found": forbidden_found,
        "forbidden_terms": sum(len(c["forbid"]) for c in cases),
        "memories": n_memories,
        "memories_per_user": round(n_memories / n_cases, 2) if n_cases else None,
        "memories_by_type": dict(types),
        "examples": examples[:: max(1, len(examples) // 12)][:12],
        "eval_summary": run.get("summary"),
        "eval_exit_code": run.get("exit_code"),
        "eval_seconds": run.get("seconds"),
        **({"stderr_tail": run["stderr_tail"]} if "stderr_tail" in run else {}),
    }


def _write_cases(name: str, cases: list[dict[str, Any]]) -> Path:
    path = WORK / "public" / f"{name}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    return path


def dump_memories(name: str, run: dict[str, Any], folder: Path) -> Path:
    """Write every user's live memories of one eval run to ``folder/NAME.memories.jsonl``: one line a
    memory, ``{"set", "case", "memory_type", "key", "content"}`` (for ``bench/sample_memories.py``)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.memories.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for line in run.get("cases", []):
            for mem in line["memories"]:
                t, k, c = parse_memory(mem)
                row = {"set": name, "case": line["id"], "memory_type": t, "key": k, "content": c}
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def run_set(
    name: str, cases: list[dict[str, Any]], timeout: float, publish: str = "turns", dump: Path | None = None
) -> dict[str, Any]:
    path = _write_cases(name, cases)
    log(f"{name}: {len(cases)} cases -> pai-memory eval {path} --publish {publish}")
    run = run_eval(path, "rules", timeout, ("--publish", publish))
    out = score_run(cases, run)
    if dump is not None:
        out["memories_file"] = str(dump_memories(name, run, dump))
    out["cases_file"] = str(path.relative_to(REPO))
    out["command"] = run.get("command")
    log(f"{name}: recall {out['expect_recall']} (any type {out['expect_recall_any_type']}), "
        f"query hit {out['query_hit_at_k']}, users with forbidden {out['users_with_forbidden']}")
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=("memorybank", "persona"))
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the benchmarks folder")
    parser.add_argument("--langs", default="cn,en", help="MemoryBank languages")
    parser.add_argument("--conversations", type=int, default=50, help="Persona-Chat conversations")
    parser.add_argument("--persona-types", choices=("said", "persona"), default="said",
                        help="Persona-Chat expected types: from the user's statement when it names a kind "
                             "(said), or from the persona sentence only (persona: the rule before "
                             "session 11)")
    parser.add_argument("--users", type=int, default=0, help="MemoryBank: only the first N users (smoke)")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--publish", choices=("turns", "block"), default="turns",
                        help="how pai-memory eval publishes the cases (block: all at once, for comparison)")
    parser.add_argument("--dump-memories", type=Path, default=None, metavar="DIR",
                        help="also write every user's live memories to DIR/<set>.memories.jsonl")
    args = parser.parse_args(argv)
    install_sigterm()
    result: dict[str, Any] = {"benchmark": args.set, "data": str(args.data), "extractor_provider": "rules",
                              "publish": args.publish}
    if args.set == "memorybank":
        files = {lang: args.data / "memorybank" / "eval_data" / lang / f"memory_bank_{lang}.json"
                 for lang in args.langs.split(",")}
        missing = [str(p) for p in files.values() if not p.exists()]
        if missing:
            return {**result, "skipped": f"not found: {', '.join(missing)}"}
        result["langs"] = {}
        for lang, path in files.items():
            data = json.loads(path.read_text(encoding="utf-8"))
            if args.users:
                data = dict(list(data.items())[: args.users])
            cases, counts = memorybank_cases(data, lang)
            run = run_set(f"memorybank-{lang}", cases, args.timeout, args.publish, args.dump_memories)
            result["langs"][lang] = {"converted": counts, **run}
        return result
    path = args.data / PERSONA_FILE
    if not path.exists():
        return {**result, "skipped": f"{path} not found"}
    cases, counts = persona_cases(read_persona_csv(path), args.conversations, args.persona_types)
    result["file"] = PERSONA_FILE
    result["persona_types"] = args.persona_types
    result["converted"] = counts
    result.update(run_set("persona", cases, args.timeout, args.publish, args.dump_memories))
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
