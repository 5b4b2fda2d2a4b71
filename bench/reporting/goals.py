"""RESULTS.md: the issue 14 goals table, each goal with the measured value read from the results files, met
or not, and for a goal not met the measured limit with its evidence (nothing here is typed in by hand: a
figure missing from its file shows as ``n/a``)."""

from __future__ import annotations

from typing import Any

from bench.reporting.format import failed, fmt, table


def _met(value: float | None, limit: float, at_least: bool) -> str:
    if value is None:
        return "not measured"
    ok = value >= limit if at_least else value <= limit
    return "**met**" if ok else "**not met**"


def _loads(values: list[float] | None) -> str:
    return "n/a" if not values else "/".join(f"{v:.1f}" for v in values)


def _cpu_split(ours: dict[str, Any]) -> str:
    """Core-seconds per process of one write run, the model-holding indexer first."""
    cpu = ours.get("cpu_core_sec") or {}
    parts = ", ".join(f"{k} {fmt(v)}" for k, v in sorted(cpu.items(), key=lambda kv: -kv[1]))
    return (
        f"CPU core-s of the run: {parts} (of {fmt(ours.get('cpu_core_sec_available'))} available to the "
        "run on the machine's cores)"
    )


def _write_rows(mem0: dict[str, Any], write_path: dict[str, Any] | None) -> list[list[Any]]:
    cmd = f"`{mem0.get('command', '?')}`"
    rows: list[list[Any]] = []
    points = [("2,000", mem0.get("write_2k"))]
    big = mem0.get("write_big")
    points.append((f"{big['memories']:,}" if big else "20,000", big))
    wp_note = ""
    if write_path:
        batched = [
            r
            for run in write_path.get("runs", {}).values()
            for r in run.get("cpu", [])
            if r.get("mode") == "batched"
        ]
        if batched:
            wp_note = (
                f"; non-embedding CPU per write (commands + relay + PostgreSQL) "
                f"{fmt(batched[0]['non_embedding_cpu_ms_per_write'], 2)} ms vs the indexer's (model) "
                f"{fmt(batched[0]['by_process_ms_per_write']['indexer (model + ours)'], 1)} ms "
                "(`write_path.json`)"
            )
    for label, w in points:
        if not w:
            big_arg = (mem0.get("params") or {}).get("big")
            why = "not run in this run" + (f" (`--big {big_arg}`)" if big_arg == 0 else "")
            rows.append(
                [
                    f"write path at {label}: >= 0.9 of the bare embedder in batches and >= 3x the fair mem0",
                    "n/a",
                    "not measured",
                    why,
                    cmd,
                ]
            )
            continue
        ours = w["ours"] if "ours" in w else w["repeats"][0]["ours"]
        r_bare = w.get("ratio_ours_over_bare_batch")
        ours_rate = w.get("ours_per_sec", ours.get("per_sec"))
        idx = ours.get("indexer_stage_sec") or {}
        bare_cpu = w.get(
            "bare_batch_cpu_core_sec", (w.get("repeats") or [{}])[0].get("bare_batch_cpu_core_sec")
        )
        evidence = ""
        if r_bare is not None and r_bare < 0.9:
            evidence = (
                f"ours {fmt(ours_rate)}/s vs bare {fmt(w['bare_batch_per_sec'])}/s; the indexer's "
                f"model time {fmt(idx.get('index_embed'))} s of {fmt(ours.get('total_sec'))} s "
                f"end to end; {_cpu_split(ours)}, the bare embedder {fmt(bare_cpu)} core-s for the same "
                f"texts{wp_note}: the processes around each write take CPU from the model on the "
                "2 shared cores, and the model itself runs slower beside them than alone"
            )
        rows.append(
            [
                f"write path at {label} >= 0.9 of the bare embedder in batches",
                fmt(r_bare, 2),
                _met(r_bare, 0.9, True),
                evidence,
                cmd,
            ]
        )
        mem0_rate = w.get("mem0_per_sec") or (w.get("mem0") or {}).get("per_sec")
        r_mem0 = w.get("ratio_ours_over_mem0")
        q_rate = w.get("mem0_qdrant_per_sec") or (w.get("mem0_qdrant") or {}).get("per_sec")
        r_q = w.get("ratio_ours_over_mem0_qdrant")
        value = f"{fmt(r_mem0, 2)} (Milvus Lite: {fmt(ours_rate)} vs {fmt(mem0_rate)}/s)" + (
            f"; {fmt(r_q, 2)} (Qdrant local: {fmt(q_rate)}/s)" if r_q is not None else ""
        )
        worst = min((r for r in (r_mem0, r_q) if r is not None), default=None)
        evidence = ""
        if worst is not None and worst < 3 and mem0_rate:
            best_peer = max(x for x in (mem0_rate, q_rate) if x)
            evidence = (
                f"the model bounds it: even at the bare embedder's batch rate "
                f"({fmt(w['bare_batch_per_sec'])}/s) the ratio to mem0's best row "
                f"({fmt(best_peer)}/s) would be {fmt(w['bare_batch_per_sec'] / best_peer, 2)}; "
                "mem0 with a fair (no-stall) server pays about one model call per memory, as we do"
            )
        if r_mem0 is None:
            value = "n/a" if r_q is None else value
            evidence = str(w.get("mem0_not_run", evidence))
        rows.append(
            [f"write path at {label} >= 3x the fair mem0", value, _met(worst, 3.0, True), evidence, cmd]
        )
    return rows


def _search_row(mem0: dict[str, Any], stages: dict[str, Any] | None) -> list[Any]:
    s = mem0["search"]
    r = s.get("ratio_inproc_over_mem0_p50")
    rq = s.get("ratio_inproc_over_mem0_qdrant_p50")
    value = f"{fmt(r, 3)} ({fmt(s['ours_inproc_ms']['p50'])} vs {fmt(s['mem0_ms']['p50'])} ms)" + (
        f"; Qdrant local {fmt(rq, 3)} ({fmt(s['mem0_qdrant_ms']['p50'])} ms)" if rq is not None else ""
    )
    worst = max((x for x in (r, rq) if x is not None), default=None)
    evidence = ""
    if worst is not None and worst > 0.1:
        bare = s["bare_query_inproc_ms"]["p50"]
        best_peer = min(x for x in (s["mem0_ms"]["p50"], (s.get("mem0_qdrant_ms") or {}).get("p50")) if x)
        evidence = (
            f"the query embedding alone (bare model in process, p50 {fmt(bare)} ms) is "
            f"{fmt(bare / best_peer, 3)} of mem0's best p50 ({fmt(best_peer)} ms): the model is above "
            "0.1 before any of our work"
        )
        if stages:
            st = stages["stage_ms"]
            evidence += (
                f"; our stages (`read_path_stages.json`, p50): embed {fmt(st['embed_ms']['p50'])}, "
                f"Milvus {fmt(st['milvus_ms']['p50'])}, truth read {fmt(st['truth_read_ms']['p50'])}, "
                f"rerank {fmt(st['rerank_ms']['p50'], 2)} ms"
            )
    return [
        "dense retrieval p50 in process <= 0.1 of the fair mem0 search p50",
        value,
        _met(worst, 0.1, False),
        evidence,
        f"`{mem0.get('command', '?')}`",
    ]


def _scale_row(scale: dict[str, Any] | None, stages: dict[str, Any] | None) -> list[Any]:
    goal = "dense p99 <= 50 ms at 100k memories on Milvus standalone"
    msg = failed(scale, "scale at 100k")
    if msg or scale is None:
        return [goal, "n/a", "not measured", str(msg).splitlines()[0], "`bench/bench_scale.py`"]
    cmd = f"`{scale.get('command', '?')}`"
    point = next((p for p in scale.get("points", []) if p.get("memories") == 100000), None)
    if point is None or "milvus_standalone" not in point:
        why = (scale.get("real_milvus") or {}).get("error") or "no standalone point at 100k"
        return [goal, "n/a", "not measured", why, cmd]
    st = point["milvus_standalone"]
    p99 = st["retrieve_ms"]["p99"]
    served = st.get("served_by", {})
    value = (
        f"{fmt(p99)} ms (p50 {fmt(st['retrieve_ms']['p50'])}; served dense "
        f"{served.get('dense', 0)}/{sum(served.values())})"
    )
    evidence = ""
    if p99 > 50:
        evidence = (
            f"same queries: bare query embedding p99 {fmt(st['bare_query_embed_ms']['p99'])} ms, bare "
            f"Milvus search p99 {fmt(st['bare_milvus_search_ms']['p99'])} ms"
        )
        own = st.get("stage_ms") or {}
        if "embed_ms" in own:
            rest = ", ".join(
                f"{k.removesuffix('_ms').replace('_', ' ')} {fmt(v['p99'])}"
                for k, v in own.items()
                if k not in ("dense_ms", "embed_ms")
            )
            evidence += (
                f"; this run's stages, p99 ms: embed (the model) {fmt(own['embed_ms']['p99'])}, ours: {rest} "
                f"(p50: embed {fmt(own['embed_ms']['p50'])} of {fmt(st['retrieve_ms']['p50'])}); the model's "
                f"p99 alone is {100 * own['embed_ms']['p99'] / p99:.0f}% of the request's"
            )
        elif stages:
            sm = stages["stage_ms"]
            evidence += (
                f"; stage p99 at 10k on Lite (`read_path_stages.json`): embed {fmt(sm['embed_ms']['p99'])}, "
                f"Milvus {fmt(sm['milvus_ms']['p99'])}, truth read {fmt(sm['truth_read_ms']['p99'])} ms"
            )
    return [goal, value, _met(p99, 50.0, False), evidence, cmd]


def _freshness_row(fresh: dict[str, Any] | None, extractor_cpu: dict[str, Any] | None) -> list[Any]:
    goal = "freshness p99 <= 2 s at a steady 50 user msgs/s, `rules` provider, backlog ~0 at the end"
    if not fresh:
        return [goal, "n/a", "not measured", "", "`bench/bench_pipeline.py`"]
    label = next(k for k in ("final", "after_once", "after") if fresh.get(k))  # the latest arm measured
    a = fresh[label]
    p99_s = a["freshness_ms"]["p99"] / 1000
    value = (
        f"{fmt(p99_s)} s (processed {fmt(a['processing_rate'])} of {fmt(a['achieved_publish_rate'])} "
        f"msgs/s published; backlog {a['backlog_at_end_of_publishing']} at the end of publishing)"
    )
    repeat = fresh.get("final_repeat") if label == "final" else None
    if repeat:
        backlog = repeat["backlog_at_end_of_publishing"]
        value += (f"; repeated: {fmt(repeat['freshness_ms']['p99'] / 1000)} s "
                  f"({fmt(repeat['processing_rate'])} msgs/s, backlog {backlog})")
    unique = fresh.get("final_unique") if label == "final" else None
    if unique:
        value += (f"; every text new (`--unique-texts`): {fmt(unique['freshness_ms']['p99'] / 1000)} s "
                  f"({fmt(unique['processing_rate'])} msgs/s processed)")
    worst = max([p99_s] + [r["freshness_ms"]["p99"] / 1000 for r in (repeat, unique) if r])
    evidence = ""
    if worst > 2:
        cpu = fresh.get("cpu_ms_per_message", {}).get("final_unique" if unique else label, {})
        ours = sum(v for k, v in cpu.items() if k.split("-")[0] in ("extractor", "indexer", "relay"))
        evidence = (
            ("CPU per user message with every text new" if unique else "CPU per user message")
            + " (`freshness_50.json`): " + ", ".join(f"{k} {fmt(v)} ms" for k, v in cpu.items())
            + f"; our processes {fmt(ours)} ms, i.e. {fmt(ours * 50 / 1000, 2)} cores at 50 msgs/s "
            "before Kafka and PostgreSQL, on 2 shared cores"
        )
        texts = (unique or a).get("model_texts")
        if texts:
            evidence += (
                f"; model texts per user message {fmt(texts['per_user_message'])}, per stored memory "
                f"{fmt(texts['per_stored_memory'])} ("
                + ", ".join(f"{k} {v}" for k, v in texts["by_caller"].items()) + ")"
            )
        split = (unique or a).get("extractor_db_stage_split_sec")
        if split:
            parts = ", ".join(f"{k} {fmt(v['thread_cpu'])} vs {fmt(v['waiting'])}" for k, v in split.items())
            evidence += f"; the extractor's database stages, thread CPU vs waiting (s, over bursts): {parts}"
        if extractor_cpu:
            cold = extractor_cpu.get("sequential_distinct")
            seq = cold or extractor_cpu["sequential"]
            which = ", a message whose texts are all new" if cold else ""
            evidence += (
                f"; extractor profile (`extractor_cpu.json`{which})"
                f": model {fmt(seq['model_cpu_ms_per_message'])} of {fmt(seq['cpu_ms_per_message'])} ms CPU "
                f"per message, ours {fmt(seq['ours_cpu_ms_per_message'])} ms"
            )
        if fresh.get("limit_short"):
            evidence += f"; {fresh['limit_short']}"
    status = _met(p99_s, 2.0, False)
    if unique and p99_s <= 2 and unique["freshness_ms"]["p99"] / 1000 > 2:
        status = "**met on the templated turns; not met with every text new**"
    commands = f"`{fresh.get('command', '?')}`"
    if fresh.get("command_unique"):
        commands += f", `{fresh['command_unique']}`"
    return [goal, value, status, evidence, commands]


def section_goals(
    mem0: dict[str, Any] | None,
    scale_100k: dict[str, Any] | None,
    freshness: dict[str, Any] | None,
    extractor_cpu: dict[str, Any] | None,
    write_path: dict[str, Any] | None,
    read_path_stages: dict[str, Any] | None,
    machine: dict[str, Any],
) -> str:
    """The goals of issue 14, one row each: goal, measured value, met or not, limit and evidence, command."""
    rows: list[list[Any]] = []
    msg = failed(mem0, "mem0 comparison")
    if msg or mem0 is None:
        rows.append(
            [
                "write path and search vs the fair mem0",
                "n/a",
                "not measured",
                str(msg).splitlines()[0],
                "`bench/bench_mem0.py`",
            ]
        )
    else:
        rows += _write_rows(mem0, write_path)
        rows.append(_search_row(mem0, read_path_stages))
    rows.append(_scale_row(scale_100k, read_path_stages))
    rows.append(_freshness_row(freshness, extractor_cpu))
    runs = machine.get("later_partial_runs") or []
    mem0_run = next((r for r in reversed(runs) if "mem0" in r.get("suite_command", "")), None)
    load = (
        f"1/5/15-minute load average {_loads(mem0_run['loadavg_at_start'])} at the start of the mem0 run "
        f"and {_loads(mem0_run['loadavg_at_end'])} at its end ({mem0_run['date_utc']} UTC, "
        f"{fmt(mem0_run['suite_seconds'] / 60)} min)"
        if mem0_run
        else "load average not recorded for the mem0 run"
    )
    scale_load = [(scale_100k or {}).get(k) for k in ("loadavg_at_start", "loadavg_at_end")]
    return "\n".join(
        [
            f"The machine was shared: {machine.get('nproc', '?')} CPUs, other sessions' tests and benchmarks "
            f"running beside these runs ({load}; the 100k scale run: "
            f"{_loads(scale_load[0])} -> {_loads(scale_load[1])}). "
            "Ratios are measured side by side in one run; absolute figures are noisy.",
            "",
            table(["goal", "measured", "", "limit and evidence (when not met)", "command"], rows),
        ]
    )
