"""RESULTS.md section 2: LoCoMo retrieval (``bench/bench_locomo.py``)."""

from __future__ import annotations

from typing import Any

from bench.reporting.format import KS, failed, pct, table


def section_locomo(d: dict[str, Any] | None) -> str:
    msg = failed(d, "LoCoMo")
    if msg or d is None:
        return str(msg)
    r, st, ing = d["recall"], d["stored"], d["ingest"]
    names = [
        ("ours_memories", "pai-memory memories (dense retrieve, rerank)"),
        ("baseline_raw_turns_all_speakers", "baseline: every raw turn of the conversation"),
        ("baseline_raw_turns_evidence_speaker", "baseline: the evidence speaker's own raw turns"),
    ]
    rows = [
        [lab]
        + [pct(r[k]["all"][f"any@{kk}"]) for kk in KS]
        + [pct(r[k]["all"]["evidence@5"]), pct(r[k]["all"]["answer@5"])]
        for k, lab in names
    ]
    cats = [c for c in ("single-hop", "multi-hop", "temporal", "open-domain") if c in r["ours_memories"]]
    cat_rows = [[c, r["ours_memories"][c]["n"]] + [pct(r[k][c]["any@5"]) for k, _ in names] for c in cats]
    return "\n".join(
        [
            f"{d['conversations']} LoCoMo conversations, {st['turns']} turns, extraction provider "
            f"`{d['extractor_provider']}`; questions of categories 1-4 "
            f"({r['ours_memories']['all']['n']} with "
            f"evidence). A hit at k: one of the first k retrieved items comes from an evidence turn (memory "
            f"`source_message_id` -> dia_id; raw turn's own dia_id) or contains the answer text.",
            "",
            table(["", "recall@1", "recall@5", "recall@10", "evidence-only @5", "answer-text-only @5"], rows),
            "",
            "By category (recall@5; LoCoMo category numbers 4/1/2/3 = "
            "single-hop/multi-hop/temporal/open-domain):",
            "",
            table(
                ["category", "questions"]
                + [lab.split(":")[0] if ":" not in lab else lab.split(": ")[1] for _, lab in names],
                cat_rows,
            ),
            "",
            f"**Compactness:** {st['memories']} memories for {st['turns']} turns = "
            f"**{st['memories_per_turn']} "
            f"memories per turn** (user messages: {st['user_message_status']}; mean user turns per "
            "extraction "
            f"{st['mean_user_turns_per_extraction']}). Ingest: {ing['messages_published']} messages in "
            f"{ing['total_sec']} s through Kafka (paced per speaker). Memory types: {st['by_type']}.",
            "",
            "Examples of stored memories: " + "; ".join(f"`{e[:90]}`" for e in st["examples"][:6]),
            "",
            'Reading the baselines: LoCoMo speakers constantly address each other by name ("Wow, Caroline, '
            "that's awesome!\"), and e5 ranks those turns of the *other* speaker above the evidence for a "
            "question "
            "about Caroline; restricting the search to the evidence speaker's own turns (what a per-user "
            "memory does) is what lifts the second baseline. The memory column is bounded by what the "
            "extractor kept.",
            "",
            "![LoCoMo](plots/locomo.png)",
        ]
    )
