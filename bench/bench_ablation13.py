"""Issue 13's ablation: the ``rules`` extractor alone vs rules + classifier, on every quality benchmark.

Not a test. One run measures both arms (``MEMORY_EXTRACTOR_RULES_CLASSIFIER=false`` then ``true``, the
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

from bench.bench_public import score_run
from bench.bench_quality import last_json, run_eval
from bench.common import REPO, log, module_argv, write_result
from bench.stack import install_sigterm

DEFAULT_DATA = REPO.parent / "shared" / "benchmarks"
DEFAULT_CASES = REPO / "bench" / "data" / "heldout_cases.jsonl"
SETS = ("heldout", "persona", "memorybank", "locomo")
ARMS = {"off": "false", "on": "true"}
SHIPPED_ARM = "on"  # MEMORY_EXTRACTOR_RULES_CLASSIFIER's default
SHIPPED_FILES = ("memorybank", "persona", "locomo")


# Both arms get the same per-burst extraction budget. The default (20 s for rules) is a hang guard; on
# the shared, loaded 2-core machine the classifier's first bursts (model load, first batch) overran it
# and those messages ended FAILED, which measured the machine's load, not the extractor.
BURST_BUDGET_SEC = "120"


def _arm_env(arm: str) -> dict[str, str]:
    return {**os.environ, "MEMORY_EXTRACTOR_RULES_CLASSIFIER": ARMS[arm],
            "MEMORY_EXTRACTOR_BURST_BUDGET_SEC": BURST_BUDGET_SEC, "PYTHONPATH": str(REPO),
            "PYTHONUNBUFFERED": "1"}


def _transient_failure(result: dict[str, Any]) -> bool:
    """A run that measured nothing because a service child died or the stack did not answer."""
    texts = [str(result.get("stderr_tail", ""))]
    texts += [str(r.get("stderr_tail", "")) for r in result.get("langs", {}).values() if isinstance(r, dict)]
    return any(m in t for t in texts for m in ("StackUpError", "Address already in use", "died"))


RETRIES = 3  # a loaded machine can miss the stack probe of ``pai-memory eval`` (StackUpError): run again


def _retrying(run: Any, *args: Any) -> dict[str, Any]:
    """``run(*args)``, again (up to ``RETRIES`` times) when the stack did not answer its probe in time."""
    from localstack.manager import StackUpError

    result: dict[str, Any] = {}
    for attempt in range(RETRIES + 1):
        if attempt:
            log(f"  the stack did not answer in time; retry {attempt} of {RETRIES}")
            time.sleep(20)
        try:
            result = run(*args)
        except StackUpError as exc:  # raised here by bench.common.stack_up's probe
            result = {"error": f"StackUpError: {exc}", "stderr_tail": f"StackUpError: {exc}"}
        if attempt:
            result["retries"] = attempt
        if not _transient_failure(result):
            break
    return result


def _subprocess_json(argv: list[str], arm: str, timeout: float) -> dict[str, Any]:
    """Run ``python argv`` with the arm's environment; its last stdout JSON line (or an error record)."""
    argv = module_argv(argv)
    cmd = [sys.executable, *argv]
    shown = (f"MEMORY_EXTRACTOR_RULES_CLASSIFIER={ARMS[arm]} "
              f"MEMORY_EXTRACTOR_BURST_BUDGET_SEC={BURST_BUDGET_SEC} "
             ".venv/bin/python " + " ".join(argv))
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
    overrides = {"MEMORY_EXTRACTOR_RULES_CLASSIFIER": ARMS[arm],
                 "MEMORY_EXTRACTOR_BURST_BUDGET_SEC": BURST_BUDGET_SEC}
    previous = {k: os.environ.get(k) for k in overrides}
    os.environ.update(overrides)  # run_eval's children inherit this process's environment
    try:
        run = run_eval(cases_path, "rules", timeout)
    finally:
        for key, value in previous.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    out = score_run(cases, run)
    out["command"] = (f"MEMORY_EXTRACTOR_RULES_CLASSIFIER={ARMS[arm]} "
                       f"MEMORY_EXTRACTOR_BURST_BUDGET_SEC={BURST_BUDGET_SEC} "
                      + str(run.get("command")))
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


GOALS = {"expect_recall": ">= 0.90", "users_with_forbidden_rate": "<= 5%", "query_hit_at_k": ">= 0.90",
         "public_recall": ">= 0.80", "public_leak": "<= 5%", "recall_at_10": ">= 50%",
         "memories_per_turn": "<= 0.3"}


def _cell(value: Any, pct: bool = False) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value * 100:.1f}%" if pct else f"{value:.3f}"
    return str(value)


def section(d: dict[str, Any] | None) -> str:
    """Markdown for ``bench/RESULTS.md``: one row per figure, rules alone beside rules + classifier."""
    if not d:
        return "_Not run yet: `.venv/bin/python -m bench.bench_ablation13`._"
    if "error" in d or "skipped" in d:
        return f"_Failed or skipped: {d.get('error') or d.get('skipped')}._"
    table = d.get("table", {})

    def arm(name: str, which: str, *path: str) -> Any:
        value: Any = table.get(name, {}).get(which, {})
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        return value

    rows: list[tuple[str, str, tuple[str, ...], bool, str]] = [
        ("held-out cases", "expect_recall", ("expect_recall",), False, GOALS["expect_recall"]),
        ("held-out cases", "cases with a forbidden term", ("users_with_forbidden_rate",), True,
         GOALS["users_with_forbidden_rate"]),
        ("held-out cases", "query hit@k", ("query_hit_at_k",), False, GOALS["query_hit_at_k"]),
        ("held-out cases", "memories per case", ("memories_per_user",), False, ""),
    ]
    for lang in ("cn", "en"):
        rows += [
            (f"MemoryBank {lang}", "expected hobbies recalled (type must match)", (lang, "expect_recall"),
             False, GOALS["public_recall"]),
            (f"MemoryBank {lang}", "... ignoring the type", (lang, "expect_recall_any_type"), False, ""),
            (f"MemoryBank {lang}", "query hit@k", (lang, "query_hit_at_k"), False, ""),
            (f"MemoryBank {lang}", "users with another speaker's facts", (lang, "users_with_forbidden_rate"),
             True, GOALS["public_leak"]),
            (f"MemoryBank {lang}", "memories per user", (lang, "memories_per_user"), False, ""),
        ]
    rows += [
        ("Persona-Chat", "speaker 1's said persona recalled (type must match)", ("expect_recall",), False,
         GOALS["public_recall"]),
        ("Persona-Chat", "... ignoring the type", ("expect_recall_any_type",), False, ""),
        ("Persona-Chat", "query hit@k", ("query_hit_at_k",), False, ""),
        ("Persona-Chat", "users with speaker 2's facts", ("users_with_forbidden_rate",), True,
         GOALS["public_leak"]),
        ("Persona-Chat", "memories per user", ("memories_per_user",), False, ""),
        ("LoCoMo", "recall@5 (memories)", ("recall_at_5",), True, ""),
        ("LoCoMo", "recall@10 (memories)", ("recall_at_10",), True, GOALS["recall_at_10"]),
        ("LoCoMo", "memories per turn", ("memories_per_turn",), False, GOALS["memories_per_turn"]),
        ("LoCoMo", "reference: evidence speaker's raw turns, recall@10",
         ("evidence_speaker_turns_recall_at_10",), True, ""),
    ]
    set_of = {"held-out cases": "heldout", "MemoryBank cn": "memorybank", "MemoryBank en": "memorybank",
              "Persona-Chat": "persona", "LoCoMo": "locomo"}
    out = ["| set | figure | rules only | rules + classifier | goal |", "|---|---|---|---|---|"]
    for label, figure, path, pct, goal in rows:
        name = set_of[label]
        if name not in table:
            continue
        off, on = (arm(name, which, *path) for which in ("off", "on"))
        errors = [str(arm(name, w, "error") or arm(name, w, "skipped") or "") for w in ("off", "on")]
        if any(errors) and off is None and on is None:
            if figure.startswith(("expect", "expected", "speaker", "recall@5")):
                out.append(f"| {label} | not measured: {'; '.join(e for e in errors if e)[:120]} |  |  |  |")
            continue
        out.append(f"| {label} | {figure} | {_cell(off, pct)} | {_cell(on, pct)} | {goal} |")
    notes = [
        "",
        f"Held-out cases: `{d.get('cases_file')}` (68 team-written conversations, datasheet "
        "`bench/data/HELDOUT_DATASHEET.md`); Persona-Chat: the first "
        f"{d.get('persona_conversations')} test conversations; LoCoMo: the first "
        f"{d.get('locomo_conversations')} of its 10 conversations"
        + (" (a fixed subset, to keep both arms inside one run on the shared machine)"
           if d.get("locomo_conversations", 10) < 10 else "")
        + (f"; measured at commit `{d['git_commit']}` (the classifier weights of that commit)"
           if d.get("git_commit") else "")
        + ". MemoryBank defines no other speaker's facts, so its leak rate is n/a. Every arm runs the real "
        "pipeline (`pai-memory eval` turn by turn, or LoCoMo's paced publishing) on a scratch database "
        "with private topics; the arms differ only in `MEMORY_EXTRACTOR_RULES_CLASSIFIER`; both run with "
        f"`MEMORY_EXTRACTOR_BURST_BUDGET_SEC={BURST_BUDGET_SEC}` (the 20 s default made the classifier's "
         f"cold "
        "first bursts fail on the loaded shared machine).",
    ]
    for name, why in (d.get("carried_over") or {}).items():
        notes += ["", f"Carried over ({name}): {why}."]
    misses = d.get("sets", {}).get("heldout", {}).get("on", {}).get("misses")
    if misses:
        notes += ["", "Held-out cases not fully passed with the classifier on: "
                  + ", ".join(f"`{m['id']}`" for m in misses) + "."]
    commands = sorted({str(r.get("command")).replace(f"{REPO}/", "") for arms in d.get("sets", {}).values()
                       for r in arms.values() if isinstance(r, dict) and r.get("command")})
    notes += ["", "Commands of the arms:", "", *[f"- `{c}`" for c in commands]]
    return "\n".join(out + notes)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the public benchmarks folder")
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES, help="held-out cases (dev-case format)")
    parser.add_argument("--only", default=",".join(SETS), help=f"comma list of {', '.join(SETS)}")
    parser.add_argument("--arms", default="off,on", help="classifier arms to run: off, on")
    parser.add_argument("--persona-conversations", type=int, default=50)
    parser.add_argument("--locomo-conversations", type=int, default=10, help="the first N of LoCoMo's 10")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="per set and arm, seconds (the held-out cases: at most 900)")
    parser.add_argument("--out", type=Path, default=None, help="also write the result here after every arm")
    parser.add_argument("--write-shipped", action="store_true",
                        help="also write the shipped arm's (classifier on, the default) public-set "
                             "results to bench/results/{memorybank,persona,locomo}.json (their own sections)")
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
        "git_commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                                     text=True).stdout.strip() or None,
    }
    for name in (s for s in SETS if s in args.only.split(",")):
        for arm in arms:
            log(f"ablation13: {name}, classifier {arm}")
            t0 = time.monotonic()
            if name == "heldout":
                r = _retrying(heldout, args.cases, arm, min(args.timeout, 900.0))
            elif name == "memorybank":
                r = _retrying(_subprocess_json, ["bench/bench_public.py", "memorybank", "--data",
                                                 str(args.data), "--timeout", str(int(args.timeout))],
                              arm, args.timeout + 300)
            elif name == "persona":
                r = _retrying(_subprocess_json, ["bench/bench_public.py", "persona", "--conversations",
                                                 str(args.persona_conversations), "--data", str(args.data),
                                                 "--timeout", str(int(args.timeout))],
                              arm, args.timeout + 300)
            else:
                r = _retrying(_subprocess_json, ["bench/bench_locomo.py", "--conversations",
                                                 str(args.locomo_conversations), "--data",
                                                 str(args.data / "locomo10.json")], arm, args.timeout)
            r["arm_seconds"] = round(time.monotonic() - t0, 1)
            result["sets"].setdefault(name, {})[arm] = r
            result["table"].setdefault(name, {})[arm] = headline(name, r)
            log(f"  -> {json.dumps(result['table'][name][arm], ensure_ascii=False)[:400]}")
            if args.write_shipped and arm == SHIPPED_ARM and name in SHIPPED_FILES and not r.get("skipped"):
                origin = f"the shipped arm of bench/bench_ablation13.py, commit {result['git_commit']}"
                write_result(name, {**r, "measured_by": origin})
            if args.out:
                args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1, default=str) + "\n")
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
