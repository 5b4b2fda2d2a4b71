"""Issue 24's "before" / "after" figures on the evaluation-case sets: the frozen test set, the dev cases and
the team's held-out set, each through ``pai-memory eval FILE --json`` turn by turn (the ``rules`` provider,
the service default, the classifier as shipped), exactly as the held-out set is run by
``bench/bench_ablation13.py``: a scratch database, private topics, groups, collection and home
(``bench.bench_quality.run_eval``), ``EXTRACTION_BURST_BUDGET_SEC=120`` so a loaded machine does not fail
bursts.

Not a test. Reported per set: expect_recall, the fraction of cases with a forbidden term in a live memory,
query hit@k, cases passing, cases passing per category (``core.evaluation.category_totals``), and the ids
of the cases that fail (for the dev and held-out sets; the frozen set's failures are counted, never
listed: it is not to be tuned against). A set whose file is absent is ``{"skipped": ...}``.

Stdout: one JSON object; ``--out NAME`` also writes ``bench/results/NAME.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_quality import run_eval
from bench.common import REPO, log, write_result
from bench.stack import install_sigterm

SETS = {
    "frozen": REPO / "bench" / "data" / "frozen" / "cases.jsonl",
    "dev": REPO.parent / "shared" / "eval" / "dev_cases.jsonl",
    "heldout": REPO / "bench" / "data" / "heldout_cases.jsonl",
}
LISTS_FAILURES = {"dev", "heldout"}
BURST_BUDGET_SEC = "120"


def run_set(name: str, path: Path, timeout: float) -> dict[str, Any]:
    if not path.exists():
        return {"skipped": f"{path} not found"}
    previous = os.environ.get("EXTRACTION_BURST_BUDGET_SEC")
    os.environ["EXTRACTION_BURST_BUDGET_SEC"] = BURST_BUDGET_SEC  # run_eval's children inherit it
    try:
        run = run_eval(path, "rules", timeout)
    finally:
        if previous is None:
            os.environ.pop("EXTRACTION_BURST_BUDGET_SEC", None)
        else:
            os.environ["EXTRACTION_BURST_BUDGET_SEC"] = previous
    summary = run.get("summary") or {}
    out: dict[str, Any] = {
        "file": str(path),
        "command": f"EXTRACTION_BURST_BUDGET_SEC={BURST_BUDGET_SEC} {run.get('command')}",
        "exit_code": run.get("exit_code"),
        "seconds": run.get("seconds"),
    }
    for key in ("cases", "passed", "expect_recall", "forbid_violation_rate", "query_hit_at_k",
                "expect_items", "queries", "by_category", "publishing"):
        out[key] = summary.get(key)
    lines = run.get("cases", [])
    out["cases_with_forbidden"] = sum(bool(c["forbid_violations"]) for c in lines)
    if name in LISTS_FAILURES:
        out["failing"] = [c["id"] for c in lines if not c["passed"]]
    if "stderr_tail" in run:
        out["stderr_tail"] = run["stderr_tail"]
    log(f"{name}: recall {out['expect_recall']}, forbidden {out['forbid_violation_rate']}, "
        f"query hit {out['query_hit_at_k']}, passed {out['passed']}/{out['cases']}")
    return out


def _commit() -> str:
    proc = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
    return proc.stdout.strip()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated: frozen,dev,heldout")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared",
                        help="the folder holding eval/dev_cases.jsonl")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--out", default="", help="also write bench/results/OUT.json")
    args = parser.parse_args(argv)
    install_sigterm()
    result: dict[str, Any] = {"commit": _commit(), "extractor_provider": "rules", "sets": {},
                              "load_avg_at_start": os.getloadavg()}
    sets = {**SETS, "dev": args.shared / "eval" / "dev_cases.jsonl"}
    for name in args.sets.split(","):
        log(f"{name}: {sets[name]}")
        result["sets"][name] = run_set(name, sets[name], args.timeout)
        if args.out:
            write_result(args.out, result)
    result["load_avg_at_end"] = os.getloadavg()
    if args.out:
        write_result(args.out, result)
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
