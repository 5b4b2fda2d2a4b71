"""Issue 13's ablation: the ``rules`` extractor alone vs rules + classifier, on every quality benchmark.

Not a test. One run measures both arms (``MEMORY_RULES_CLASSIFIER=false`` then ``true``, the
only difference) on:

- the team-written held-out cases ``bench/data/heldout_cases.jsonl`` (dev-case format, see
  ``bench/data/HELDOUT_DATASHEET.md``) through ``pai-memory eval --json`` (turn by turn, scratch
  database, private topics/groups/collection/home: ``bench.bench_quality.run_eval``): expect_recall,
  the fraction of cases with a forbidden term in a live memory, query hit@k;
- MemoryBank zh and en and Synthetic-Persona-Chat (``bench/bench_public.py``, data from
  ``../shared/benchmarks/``): expected-memory recall, query hit, users with the other speaker's facts;
- LoCoMo (``bench/bench_locomo.py``; ``--locomo-conversations`` keeps the first N conversations):
  recall@5 and @10 of the memories, memories per turn.

A set whose data is absent is reported as ``{"skipped": ...}`` and the run goes on. The results file
is rewritten after every arm, so a stopped run keeps what it measured.

Stdout: one JSON object (``bench/results/ablation13.json`` when run by ``bench/run_all.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_public import score_run
from bench.bench_quality import last_json, run_eval
from bench.common import REPO, install_sigterm, log

DEFAULT_DATA = REPO.parent / "shared" / "benchmarks"
DEFAULT_CASES = REPO / "bench" / "data" / "heldout_cases.jsonl"
SETS = ("heldout", "persona", "memorybank", "locomo")
ARMS = {"off": "false", "on": "true"}


def _arm_env(arm: str) -> dict[str, str]:
    return {**os.environ, "MEMORY_RULES_CLASSIFIER": ARMS[arm], "PYTHONPATH": str(REPO),
            "PYTHONUNBUFFERED": "1"}


RETRIES = 2  # a loaded machine can miss the stack probe of ``pai-memory eval`` (StackUpError): run again


def _transient(result: dict[str, Any]) -> bool:
    """True when a run failed before measuring anything because the stack did not answer in time."""
    texts = [str(result.get("stderr_tail", ""))]
    texts += [str(r.get("stderr_tail", "")) for r in result.get("langs", {}).values() if isinstance(r, dict)]
    return any("StackUpError" in t for t in texts)


def _retrying(run: Any, *args: Any) -> dict[str, Any]:
    result: dict[str, Any] = run(*args)
    for attempt in range(RETRIES):
        if not _transient(result):
            break
        log(f"  the stack did not answer in time; retry {attempt + 1} of {RETRIES}")
        time.sleep(10)
        result = run(*args)
        result["retries"] = attempt + 1
    return result


def _subprocess_json(argv: list[str], arm: str, timeout: float) -> dict[str, Any]:
    """Run ``python argv`` with the arm's environment; its last stdout JSON line (or an error record)."""
    cmd = [sys.executable, *argv]
    shown = f"MEMORY_RULES_CLASSIFIER={ARMS[arm]} .venv/bin/python " + " ".join(argv)
    log(f"  {shown}")
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=REPO, env=_arm_env(arm), capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f}s", "command": shown}
    data = last_json(proc.stdout)
    if proc.returncode != 0 or data is None:
        return {"error": f"exit code {proc.returncode}", "stderr_tail": proc.stderr[-2000:], "command": shown}
    data["command"] = shown
    data["seconds"] = round(time.monotonic() - t0, 1)
    return data


def heldout(cases_path: Path, arm: str, timeout: float) -> dict[str, Any]:
    if not cases_path.exists():
        return {"skipped": f"{cases_path} not found"}
    cases = [json.loads(line) for line in cases_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    previous = os.environ.get("MEMORY_RULES_CLASSIFIER")
    os.environ["MEMORY_RULES_CLASSIFIER"] = ARMS[arm]  # run_eval's children inherit this process's env
    try:
        run = run_eval(cases_path, "rules", timeout)
    finally:
        if previous is None:
            os.environ.pop("MEMORY_RULES_CLASSIFIER", None)
        else:
            os.environ["MEMORY_RULES_CLASSIFIER"] = previous
    out = score_run(cases, run)
    out["command"] = f"MEMORY_RULES_CLASSIFIER={ARMS[arm]} " + str(run.get("command"))
    # per-case detail for the miss analysis: which expectations/queries failed, what leaked
    out["misses"] = [
        {"id": line["id"], "expect_hits": line["expect_hits"], "query_hits": line["query_hits"],
         "forbid_violations": line["forbid_violations"], "memories": line["memories"]}
        for line in run.get("cases", [])
        if not all(line["expect_hits"]) or not all(line["query_hits"]) or line["forbid_violations"]
    ]
    return out


def headline(name: str, result: dict[str, Any]) -> dict[str, Any]:
    """The figures the ablation table shows, from one arm's result of set ``name``."""
    if "skipped" in result or "error" in result:
        return {k: result[k] for k in ("skipped", "error") if k in result}
    if name in ("heldout", "persona") and not result.get("cases_scored"):
        return {"error": f"pai-memory eval exit code {result.get('eval_exit_code')}, nothing scored"}

    def public(r: dict[str, Any]) -> dict[str, Any]:
        if not r.get("cases_scored"):
            return {"error": f"pai-memory eval exit code {r.get('eval_exit_code')}, nothing scored"}
        leak = r["users_with_forbidden_rate"] if r.get("forbidden_terms") else None
        return {"users": r["cases_scored"], "expect_recall": r["expect_recall"],
                "expect_recall_any_type": r["expect_recall_any_type"], "query_hit_at_k": r["query_hit_at_k"],
                "users_with_forbidden_rate": leak, "memories_per_user": r["memories_per_user"],
                "memories_by_type": r["memories_by_type"]}

    if name == "heldout":
        return {**public(result), "users_with_forbidden_rate": result["users_with_forbidden_rate"]}
    if name == "memorybank":
        return {lang: public(r) for lang, r in result.get("langs", {}).items()}
    if name == "persona":
        return public(result)
    h = result["headline"]
    return {"conversations": result["conversations"], "turns": result["stored"]["turns"],
            "recall_at_5": h["ours_memories_any@5"], "recall_at_10": h["ours_memories_any@10"],
            "memories_per_turn": h["memories_per_turn"],
            "evidence_speaker_turns_recall_at_10": h["baseline_raw_turns_evidence_speaker_any@10"],
            "memories_by_type": result["stored"]["by_type"]}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the public benchmarks folder")
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES, help="held-out cases (dev-case format)")
    parser.add_argument("--only", default=",".join(SETS), help=f"comma list of {', '.join(SETS)}")
    parser.add_argument("--arms", default="off,on", help="classifier arms to run: off, on")
    parser.add_argument("--persona-conversations", type=int, default=50)
    parser.add_argument("--locomo-conversations", type=int, default=10, help="the first N of LoCoMo's 10")
    parser.add_argument("--timeout", type=float, default=3600, help="per set and arm, seconds")
    parser.add_argument("--out", type=Path, default=None, help="also write the result here after every arm")
    args = parser.parse_args(argv)
    install_sigterm()
    arms = [a for a in args.arms.split(",") if a]
    unknown = set(arms) - set(ARMS) | set(args.only.split(",")) - set(SETS)
    if unknown:
        parser.error(f"unknown arm or set: {sorted(unknown)}")
    cases_file = args.cases.relative_to(REPO) if args.cases.is_relative_to(REPO) else args.cases
    result: dict[str, Any] = {
        "benchmark": "ablation13", "extractor_provider": "rules", "arms": {a: ARMS[a] for a in arms},
        "data": str(args.data), "cases_file": str(cases_file),
        "locomo_conversations": args.locomo_conversations,
        "persona_conversations": args.persona_conversations, "sets": {}, "table": {},
    }
    for name in (s for s in SETS if s in args.only.split(",")):
        for arm in arms:
            log(f"ablation13: {name}, classifier {arm}")
            t0 = time.monotonic()
            if name == "heldout":
                r = _retrying(heldout, args.cases, arm, args.timeout)
            elif name == "memorybank":
                r = _retrying(_subprocess_json, ["bench/bench_public.py", "memorybank", "--data",
                                                 str(args.data)], arm, args.timeout)
            elif name == "persona":
                r = _retrying(_subprocess_json, ["bench/bench_public.py", "persona", "--conversations",
                                                 str(args.persona_conversations), "--data", str(args.data)],
                              arm, args.timeout)
            else:
                r = _subprocess_json(["bench/bench_locomo.py", "--conversations",
                                      str(args.locomo_conversations), "--data",
                                      str(args.data / "locomo10.json")], arm, args.timeout)
            r["arm_seconds"] = round(time.monotonic() - t0, 1)
            result["sets"].setdefault(name, {})[arm] = r
            result["table"].setdefault(name, {})[arm] = headline(name, r)
            log(f"  -> {json.dumps(result['table'][name][arm], ensure_ascii=False)[:400]}")
            if args.out:
                args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1, default=str) + "\n")
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
