"""RESULTS.md section 4: scale (``bench/bench_scale.py``) and Milvus Lite segments
(``bench/bench_milvus_segments.py``)."""

from __future__ import annotations

import re
from typing import Any

from bench.reporting.format import failed, fmt, table


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
