"""Issue 24's "before" / "after" figures on the evaluation-case sets: the frozen test set, the dev cases and
the team's held-out set, each through ``pai-memory eval FILE --json`` turn by turn (the ``rules`` provider,
the service default, the classifier as shipped), exactly as the held-out set is run by
``bench/bench_ablation13.py``: a scratch database, private topics, groups, collection and home
(``bench.bench_quality.run_eval``), ``MEMORY_EXTRACTOR_BURST_BUDGET_SEC=120`` so a loaded machine does
not fail bursts.

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
from pathlib import Path
from typing import Any

from bench.bench_quality import run_eval
from bench.common import REPO, log, write_result
from bench.reporting.format import fmt, pct
from bench.stack import install_sigterm
from core.evaluation import CATEGORIES

SETS = {
    "frozen": REPO / "bench" / "data" / "frozen" / "cases.jsonl",
    "dev": REPO.parent / "shared" / "eval" / "dev_cases.jsonl",
    "heldout": REPO / "bench" / "data" / "heldout_cases.jsonl",
}
LISTS_FAILURES = {"dev", "heldout"}
BURST_BUDGET_SEC = "120"


def shown_path(path: Path) -> str:
    """``path`` relative to the repository, ``../shared/...`` for the shared folder."""
    path = path.resolve()
    if path.is_relative_to(REPO):
        return str(path.relative_to(REPO))
    parts = path.parts
    return str(Path("..", *parts[parts.index("shared"):])) if "shared" in parts else str(path)


def run_set(name: str, path: Path, timeout: float) -> dict[str, Any]:
    if not path.exists():
        return {"skipped": f"{path} not found"}
    previous = os.environ.get("MEMORY_EXTRACTOR_BURST_BUDGET_SEC")
    os.environ["MEMORY_EXTRACTOR_BURST_BUDGET_SEC"] = BURST_BUDGET_SEC  # run_eval's children inherit it
    try:
        run = run_eval(path, "rules", timeout)
    finally:
        if previous is None:
            os.environ.pop("MEMORY_EXTRACTOR_BURST_BUDGET_SEC", None)
        else:
            os.environ["MEMORY_EXTRACTOR_BURST_BUDGET_SEC"] = previous
    summary = run.get("summary") or {}
    out: dict[str, Any] = {
        "file": shown_path(path),
        "command": f"MEMORY_EXTRACTOR_BURST_BUDGET_SEC={BURST_BUDGET_SEC} "
        + str(run.get("command")).replace(str(path), shown_path(path)),
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


SET_TITLES = {"frozen": "frozen test set (issue 24)", "dev": "dev cases", "heldout": "team held-out set"}


def section(d: dict[str, Any] | None, precision: dict[str, Any] | None = None) -> str:
    """Markdown for ``bench/RESULTS.md``: the three sets' figures, cases passing per category, and the
    precision judgement of stored memories (``bench/sample_memories.py score``)."""
    if not d:
        return "_Not run yet: `.venv/bin/python -m bench.bench_frozen24`._"
    sets = {k: v for k, v in d.get("sets", {}).items() if "skipped" not in v}
    md = ["| set | cases | expect_recall | cases with a forbidden term | query hit@k | cases passing |",
          "|---|---|---|---|---|---|"]
    for name, r in sets.items():
        md.append(f"| {SET_TITLES.get(name, name)} | {r.get('cases')} | {fmt(r.get('expect_recall'), 3)} | "
                  f"{pct(r.get('forbid_violation_rate'))} | {fmt(r.get('query_hit_at_k'), 3)} | "
                  f"{r.get('passed')} of {r.get('cases')} |")
    cats = [c for c in CATEGORIES if any(c in (r.get("by_category") or {}) for r in sets.values())]
    md += ["", "Cases passing per category:", "",
           "| category | " + " | ".join(SET_TITLES.get(n, n) for n in sets) + " |",
           "|---|" + "---|" * len(sets)]
    for cat in cats:
        cells = []
        for r in sets.values():
            v = (r.get("by_category") or {}).get(cat)
            cells.append(f"{v['passed']}/{v['cases']} ({pct(v['pass_rate'])})" if v else "")
        md.append(f"| `{cat}` | " + " | ".join(cells) + " |")
    loads = [fmt((d.get(k) or [None])[0]) for k in ("load_avg_at_start", "load_avg_at_end")]
    md += ["", f"Measured at commit `{d.get('commit')}` (`rules` provider, classifier as shipped); 1-minute "
           f"load average {loads[0]} at the start, {loads[1]} at the end (2 shared cores); commands:", ""]
    md += [f"- `{r.get('command')}`" for r in sets.values()]
    if d.get("note"):
        md += ["", f"Note: {d['note']}."]
    failing = {n: r["failing"] for n, r in sets.items() if r.get("failing")}
    if failing:
        md += ["", "Failing: " + "; ".join(f"{SET_TITLES.get(n, n)}: {', '.join(f'`{i}`' for i in ids)}"
                                            for n, ids in failing.items())
               + " (the frozen set's failures are not listed: it is never tuned against)."]
    if precision:
        md += ["", "**Precision of stored memories** (a seeded random sample, read and labelled by hand: "
               "durable, about the user, of a sensible type, one coherent statement):", "",
               "| set | sampled | good | good share | other labels |", "|---|---|---|---|---|"]
        rows = {**precision.get("per_set", {}), "all": precision.get("overall", {})}
        for name, r in rows.items():
            others = ", ".join(f"{k} {v}" for k, v in r.get("labels", {}).items() if k != "good")
            md.append(f"| {name} | {r.get('n')} | {r.get('good')} | {pct(r.get('good_share'))} | {others} |")
        md += ["", "The run whose memories were sampled: " + _public_line() + "."]
        if precision.get("note"):
            md += ["", str(precision["note"])]
        md += ["", f"Labelled sample: `{precision.get('labelled')}`; commands:", ""]
        md += [f"- `{c}`" for c in precision.get("commands", [])]
    return "\n".join(md)


def _delta(after: Any, before: Any, digits: int = 3) -> str:
    if not isinstance(after, (int, float)) or not isinstance(before, (int, float)):
        return "n/a"
    return f"{after - before:+.{digits}f}"


def after_section(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """Markdown for ``bench/RESULTS.md``: the "after" run of the three case sets beside the "before" run
    (same script and settings), per category, and the frozen set's gap to the tuned sets."""
    if not before or not after:
        return "_Not run yet: `.venv/bin/python -m bench.bench_frozen24 --out frozen24_after`._"
    b_sets, a_sets = before.get("sets", {}), after.get("sets", {})
    names = [n for n in SETS if n in b_sets and n in a_sets and "skipped" not in a_sets[n]]
    md = ["| set | run | expect_recall | cases with a forbidden term | query hit@k | cases passing |",
          "|---|---|---|---|---|---|"]
    for name in names:
        for run, r in (("before", b_sets[name]), ("after", a_sets[name])):
            md.append(f"| {SET_TITLES.get(name, name)} | {run} | {fmt(r.get('expect_recall'), 3)} | "
                      f"{pct(r.get('forbid_violation_rate'))} | {fmt(r.get('query_hit_at_k'), 3)} | "
                      f"{r.get('passed')} of {r.get('cases')} |")
    md += ["", "Cases passing per category, before -> after:", "",
           "| category | " + " | ".join(SET_TITLES.get(n, n) for n in names) + " |",
           "|---|" + "---|" * len(names)]
    for cat in CATEGORIES:
        cells = []
        for name in names:
            b = (b_sets[name].get("by_category") or {}).get(cat)
            a = (a_sets[name].get("by_category") or {}).get(cat)
            cells.append(f"{b['passed']}/{b['cases']} -> {a['passed']}/{a['cases']}" if a and b else "")
        if any(cells):
            md.append(f"| `{cat}` | " + " | ".join(cells) + " |")
    if "frozen" in names:
        md += ["", "Gap of the frozen set to the tuned sets (frozen minus tuned; recall and query hit in "
               "points of 1, forbidden and passing in percentage points):", "",
               "| tuned set | run | recall | cases with a forbidden term | query hit@k | cases passing |",
               "|---|---|---|---|---|---|"]
        for name in (n for n in names if n != "frozen"):
            for run, sets in (("before", b_sets), ("after", a_sets)):
                f, t = sets["frozen"], sets[name]
                pf = f["passed"] / f["cases"] if f.get("cases") else None
                pt = t["passed"] / t["cases"] if t.get("cases") else None
                fv, tv = f.get("forbid_violation_rate"), t.get("forbid_violation_rate")
                fb = _delta(100 * fv, 100 * tv, 1) if fv is not None and tv is not None else "n/a"
                pp = _delta(100 * pf, 100 * pt, 1) if pf is not None and pt is not None else "n/a"
                md.append(f"| {SET_TITLES.get(name, name)} | {run} | "
                          f"{_delta(f.get('expect_recall'), t.get('expect_recall'))} | {fb} | "
                          f"{_delta(f.get('query_hit_at_k'), t.get('query_hit_at_k'))} | {pp} |")
    loads = [fmt((after.get(k) or [None])[0]) for k in ("load_avg_at_start", "load_avg_at_end")]
    md += ["", f"After: measured at commit `{after.get('commit')}` (`rules` provider, all as shipped); "
           f"1-minute load average {loads[0]} at the start, {loads[1]} at the end (2 shared cores); "
           f"before: commit `{before.get('commit')}`. Command: `{after.get('command', '')}`."]
    failing = {n: a_sets[n]["failing"] for n in names if n in LISTS_FAILURES and a_sets[n].get("failing")}
    if failing:
        md += ["", "Failing after: " + "; ".join(f"{SET_TITLES.get(n, n)}: {', '.join(f'`{i}`' for i in ids)}"
                                                  for n, ids in failing.items())
               + " (the frozen set's failures are not listed)."]
    return "\n".join(md)


def public_after_section(before: dict[str, dict[str, Any] | None],
                         after: dict[str, dict[str, Any] | None]) -> str:
    """MemoryBank (cn, en) and Persona-Chat before and after (results
    ``frozen24_{memorybank,persona}_{before,after}``): typed recall, any-type recall, query hit, memories."""
    md = ["| set | run | typed recall | any-type recall | query hit | memories stored | memories per user |",
          "|---|---|---|---|---|---|---|"]
    for title, pick in (("MemoryBank cn", lambda d: ((d or {}).get("langs") or {}).get("cn")),
                        ("MemoryBank en", lambda d: ((d or {}).get("langs") or {}).get("en")),
                        ("Persona-Chat (50)", lambda d: d if d and "expect_recall" in d else None)):
        for run, d in (("before", before.get("memorybank" if "Memory" in title else "persona")),
                       ("after", after.get("memorybank" if "Memory" in title else "persona"))):
            r = pick(d)
            if r is None:
                md.append(f"| {title} | {run} | not run | | | | |")
                continue
            md.append(f"| {title} | {run} | {fmt(r.get('expect_recall'), 3)} | "
                      f"{fmt(r.get('expect_recall_any_type'), 3)} | {fmt(r.get('query_hit_at_k'), 3)} | "
                      f"{r.get('memories')} | {fmt(r.get('memories_per_user'), 2)} |")
    return "\n".join(md)


def precision_after_table(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """The precision judgement before and after (``bench/sample_memories.py score`` outputs): good share and
    the other labels per set."""
    md = ["| set | run | sampled | good | good share | other labels |", "|---|---|---|---|---|---|"]
    for name in ("memorybank-cn", "memorybank-en", "persona", "all"):
        for run, d in (("before", before), ("after", after)):
            r = (d or {}).get("overall") if name == "all" else ((d or {}).get("per_set") or {}).get(name)
            if not r:
                md.append(f"| {name} | {run} | not judged | | | |")
                continue
            others = ", ".join(f"{k} {v}" for k, v in r.get("labels", {}).items() if k != "good")
            md.append(f"| {name} | {run} | {r.get('n')} | {r.get('good')} | {pct(r.get('good_share'))} | "
                      f"{others} |")
    return "\n".join(md)


def _public_line() -> str:
    """MemoryBank and Persona-Chat figures of the sampled run (``frozen24_{memorybank,persona}_before``)."""
    from bench.common import RESULTS
    from bench.reporting.format import load

    parts = []
    mb, persona = load(RESULTS, "frozen24_memorybank_before"), load(RESULTS, "frozen24_persona_before")
    for lang, r in ((mb or {}).get("langs") or {}).items():
        parts.append(f"MemoryBank {lang} recall {fmt(r.get('expect_recall'), 3)} (any type "
                     f"{fmt(r.get('expect_recall_any_type'), 3)}), query hit "
                     f"{fmt(r.get('query_hit_at_k'), 3)}, {r.get('memories')} memories of "
                     f"{r.get('cases_scored')} users")
    if persona and "expect_recall" in persona:
        parts.append(f"Persona-Chat (50 conversations) recall {fmt(persona.get('expect_recall'), 3)} "
                     f"(any type {fmt(persona.get('expect_recall_any_type'), 3)}), query hit "
                     f"{fmt(persona.get('query_hit_at_k'), 3)}, {persona.get('memories')} memories, "
                     f"users with speaker 2's facts {pct(persona.get('users_with_forbidden_rate'))}")
    return "; ".join(parts) or "not recorded"


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
