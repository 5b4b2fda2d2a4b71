"""RESULTS.md, section 3: the write path's model calls per stored memory and non-embedding CPU per
write (``bench_write_path``, issue 14)."""

from __future__ import annotations

from typing import Any

from bench.reporting.format import failed, fmt, table


def section_write_path(d: dict[str, Any] | None) -> str:
    """Issue 14: model calls per stored memory and non-embedding CPU per write (``bench_write_path.py``),
    this code beside ``main`` (``runs``: label -> one result of that script)."""
    msg = failed(d, "write path")
    if msg or d is None:
        return str(msg)
    embed_rows, cpu_rows = [], []
    for label, run in d["runs"].items():
        for r in run.get("embed", []):
            ext, idx = r["by_process"]["extractor"], r["by_process"]["indexer"]
            embed_rows.append([f"{label}: {r['mode']}", r["user_messages"], r["memories_stored"],
                               fmt(ext["texts"], 0), fmt(idx["texts"], 0), fmt(idx.get("reused_vectors"), 0),
                               f"**{fmt(r['model_texts_per_stored_memory'], 2)}**",
                               fmt(r["model_calls_per_stored_memory"], 2)])
        for r in run.get("cpu", []):
            p, st = r["by_process_ms_per_write"], r.get("statements") or {}
            # the statements of the way this mode applies commands: batches only where it batches
            way = st.get("batched") if r["mode"] == "batched" else st.get("one_by_one")
            cpu_rows.append([f"{label}: {r['mode']}", r["memories"], fmt(r["write"]["per_sec"]),
                             fmt(p["commands"], 2), fmt(p["relay"], 2), fmt(p["postgres_backends"], 2),
                             f"**{fmt(r['non_embedding_cpu_ms_per_write'], 2)}**",
                             fmt(p["indexer (model + ours)"], 1),
                             fmt((way or {}).get("statements_per_write"), 2)])
    return "\n".join([
        d.get("note", ""),
        "",
        "**Model calls per stored memory** (extractor path, `rules` provider with semantic dedup; texts sent "
        "to the model by each process / memories stored):",
        "",
        table(["code: mode", "user msgs", "memories stored", "extractor texts", "indexer texts",
               "indexer vectors reused", "model texts / memory", "model calls / memory"], embed_rows),
        "",
        "**Non-embedding CPU per write** (tool writes: `memory_save` commands -> commands consumer -> relay "
        "-> indexer -> SYNCED; CPU core-seconds per process / writes, ms; PostgreSQL = the server processes "
        "serving the run's database; the indexer holds the model and is not in the sum; statements = SQL "
        "statements per write of the same kind of commands applied in process the way the mode applies them "
        "(one transaction each, or batches of 100); budget 2.5 ms):",
        "",
        table(["code: mode", "writes", "writes/s", "commands ms", "relay ms", "PostgreSQL ms",
               "non-embedding ms / write", "indexer ms / write", "statements / write"], cpu_rows),
        "",
        *[f"- `{c}`" for c in d.get("commands", [])],
    ])
