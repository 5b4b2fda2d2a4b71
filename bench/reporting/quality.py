"""RESULTS.md sections 5 and 6: quality on the dev eval cases (``bench/bench_quality.py``), the
classifier ablation, and the public dialogue sets (``bench/bench_public.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.reporting.format import failed, fmt, pct, table


def section_quality(d: dict[str, Any] | None) -> str:
    msg = failed(d, "quality")
    if msg or d is None:
        return str(msg)
    rows = []
    for name, p in d["providers"].items():
        if not p.get("available", True):
            rows.append([name, "not available", p["reason"], "", ""])
            continue
        s = p.get("summary") or {}
        rows.append(
            [
                name,
                fmt(s.get("expect_recall"), 3),
                fmt(s.get("forbid_violation_rate"), 3),
                fmt(s.get("query_hit_at_k"), 3),
                f"`{p.get('command')}`",
            ]
        )
    off = d.get("offline_rules_scorer") or {}
    return "\n".join(
        [
            table(["provider", "expect_recall", "forbid_violation_rate", "query_hit_at_k", "command"], rows),
            "",
            f"Offline rules scorer (`bench/eval_rules_offline.py --queries`, no services): {off}.",
        ]
    )


CLASSIFIER_COMMANDS = [
    "OPENBLAS_NUM_THREADS=1 .venv/bin/python -m training.train_memory_classifier "
    "--json bench/results/memory_classifier.json",
    "OMP_NUM_THREADS=2 .venv/bin/python -m bench.ablation_memory_classifier --locomo-turns 400 "
    "--json bench/results/memory_classifier_ablation.json",
    ".venv/bin/python -m bench.eval_rules_offline --queries --classifier off|on   "
    "# cases: ../shared/eval/dev_cases.jsonl",
]


def classifier_section(bench: Path) -> list[str]:
    """The classifier ablation's section, written by hand from its JSON results (not run by run_all)."""
    path = bench / "results" / "memory_classifier_section.md"
    if not path.exists():
        return []
    return [path.read_text(encoding="utf-8").rstrip("\n"), ""]


def _public_row(label: str, r: dict[str, Any]) -> list[Any]:
    return [
        label,
        fmt(r.get("cases_scored")),
        fmt(r.get("expected_items")),
        fmt(r.get("expect_recall"), 3),
        fmt(r.get("expect_recall_any_type"), 3),
        fmt(r.get("query_hit_at_k"), 3),
        f"{r.get('users_with_forbidden')} of {r.get('cases_scored')} "
        f"({r.get('forbidden_terms_found')} of {r.get('forbidden_terms')} terms)",
        fmt(r.get("memories_per_user"), 2),
    ]


def section_public(memorybank: dict[str, Any] | None, persona: dict[str, Any] | None,
                   block: dict[str, Any] | None = None, persona_block: dict[str, Any] | None = None) -> str:
    """MemoryBank and Synthetic-Persona-Chat through ``pai-memory eval`` (bench/bench_public.py);
    ``block``/``persona_block``: published the former way, each case as one block (for comparison)."""
    rows: list[list[Any]] = []
    notes: list[str] = []
    header = ["set", "users", "expected", "recall", "recall (any type)", "query hit@k",
              "users with forbidden", "memories/user"]
    for name, d in (("memorybank", memorybank), ("persona", persona)):
        msg = failed(d, name)
        if msg or d is None:
            notes.append(str(msg))
            continue
        if name == "memorybank":
            for lang, r in d.get("langs", {}).items():
                c = r.get("converted", {})
                rows.append(_public_row(f"MemoryBank {lang}", r))
                notes.append(
                    f"MemoryBank {lang}: {c.get('user_turns')} user turns; {c.get('hobbies_mentioned')} of "
                    f"{c.get('hobbies')} persona hobbies are mentioned by their user (the others are not "
                    f"expected); publishing {r.get('eval_summary', {}).get('publishing')}; stored by type "
                    f"{r.get('memories_by_type')}; command `{d.get('command', '')}`."
                )
        else:
            c = d.get("converted", {})
            rows.append(_public_row("Synthetic-Persona-Chat", d))
            notes.append(
                f"Synthetic-Persona-Chat: {c.get('conversations')} conversations ({c.get('user_turns')} "
                f"user turns), {c.get('expected_said')} of {c.get('persona_sentences')} speaker-1 persona "
                f"sentences said (expected), {c.get('forbidden_terms')} forbidden terms from speaker 2's "
                f"persona; "
                f"publishing {d.get('eval_summary', {}).get('publishing')}; stored by type "
                f"{d.get('memories_by_type')}; command `{d.get('command', '')}`."
            )
    commands = []
    if block and not failed(block, ""):
        for lang, r in block.get("langs", {}).items():
            rows.append(_public_row(f"MemoryBank {lang}, published as one block", r))
        commands.append(f"`{block.get('command', '')}`")
    if persona_block and not failed(persona_block, ""):
        rows.append(_public_row("Synthetic-Persona-Chat, published as one block", persona_block))
        commands.append(f"`{persona_block.get('command', '')}`")
    if commands:
        notes.append(
            "\"published as one block\": `pai-memory eval --publish block`, the harness's former way: a "
            "conversation's turns arrive together, so each conversation is one extraction of at most "
            "`LONG_TERM_MEMORY_MAX_WRITE_ITEMS` memories (MemoryBank has one conversation per day, so its "
            "bursts stay small); " + ", ".join(commands) + ".")
    out = [table(header, rows)] if rows else []
    return "\n\n".join([*out, *("- " + n for n in notes)])


def public_headlines(memorybank: dict[str, Any] | None, persona: dict[str, Any] | None) -> list[str]:
    """Headline lines of the public dialogue sets that produced results."""
    out = []

    def figures(r: dict[str, Any]) -> str:
        return (f"recall {fmt(r.get('expect_recall'), 2)} "
                f"(any type {fmt(r.get('expect_recall_any_type'), 2)}), "
                f"query hit {fmt(r.get('query_hit_at_k'), 2)}")

    if memorybank and not failed(memorybank, ""):
        parts = [f"{lang} {figures(r)}" for lang, r in memorybank.get("langs", {}).items()]
        out.append("- **MemoryBank** (15 users per language, ten days, hobbies as ground truth, `rules`): "
                   + "; ".join(parts) + ".")
    if persona and not failed(persona, ""):
        out.append(
            f"- **Synthetic-Persona-Chat** ({persona.get('cases_scored')} conversations, `rules`): speaker "
            f"1's said persona {figures(persona)}, users with the other speaker's facts "
            f"{pct(persona.get('users_with_forbidden_rate'))}.")
    return out


DEDUP_COMMAND = (".venv/bin/python -m training.calibrate_dedup --json bench/results/dedup_calibration.json   "
                 "# pairs: training/data/dedup_pairs.jsonl (+ ../shared/eval/dev_cases.jsonl)")


def dedup_section(d: dict[str, Any] | None) -> list[str]:
    """Precision/recall of the semantic-dedup thresholds that ship for the local model, per family."""
    if d is None or "shipped" not in d:
        return []
    s = d["shipped"]

    def cells(r: dict[str, Any]) -> list[Any]:
        return [f"{fmt(r['recall'], 3)} / {fmt(r['precision'], 3)} / {r['false_merges']}"]

    rows = [["all pairs", s["all"]["reuse"]["duplicates"], s["all"]["reuse"]["must_not_merge"],
             *cells(s["all"]["reuse"]), *cells(s["all"]["merge"])]]
    rows += [[name, f["reuse"]["duplicates"], f["reuse"]["must_not_merge"], *cells(f["reuse"]),
              *cells(f["merge"])] for name, f in s["by_family"].items()]
    gate = s.get("lexical_gate")
    return [
        "### Semantic dedup: the shipped thresholds on near-duplicates of this model",
        "",
        f"`{d['model']}`, "
        + ("contents embedded alone, as dedup does" if d.get("form") == "content"
           else "index texts `[type] key: content`")
        + " (`bench/results/dedup_calibration.json`). "
        f"Reuse = cosine >= {s['reuse']}" + (f" or (cosine >= {gate[0]} and >= {gate[1]} of the salient "
                                             "words shared)" if gate else "")
        + f"; merge = cosine >= {s['merge']}" + (f" and >= {s['merge_overlap']} of the salient words shared"
                                                 if s.get("merge_overlap") is not None else "")
        + ". Duplicates: the same memory in other words (and the user's own sentence against the curated "
        "memory); must not merge: different memories of the same user and type (team-written per family, "
        "plus every two different memories of a group). Cells: recall / precision / wrong merges.",
        "",
        table(["family", "duplicates", "must not merge", "reuse", "merge"], rows),
        "",
        f"Updates (same slot, new value) reused as the old memory: {s['updates_reused']} of {s['updates']} "
        "(an update should overwrite its slot by key, not by similarity). Best-F1 cosine-only reuse on "
        f"these pairs: {d['chosen']['reuse']}; lowest cosine-only merge with no wrong merge: "
        f"{d['chosen']['merge']}.",
        "",
    ]
