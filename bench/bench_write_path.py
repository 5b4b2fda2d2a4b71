"""Write path cost: model calls per stored memory, and non-embedding CPU and SQL statements per write.

Not a test. Two parts, each run in named modes side by side (same data, same stack):

``--part embed`` (extractor path, ``rules`` provider with semantic dedup): chat turns -> extractor ->
relay -> indexer -> SYNCED; counts the texts sent to the model and the model calls on each side
(``pai_memory_embedded_texts_total`` / ``pai_memory_embedding_calls_total`` of the extractor and the
indexer processes; by caller and the indexer's reused vectors where the code exports them) and
divides by the memories stored. Modes: ``reuse_off`` (``MEMORY_INDEX_REUSE_WRITE_VECTORS=false``:
the indexer embeds every text again, the behaviour before issue 14) and ``reuse_on`` (the default);
``episodes_off`` / ``episodes_on`` (``EPISODES_ENABLED``): texts and calls per user message without and
with episodes (issue 25).

``--part cpu`` (tool writes, as ``bench_mem0``'s write point): ``memory_save`` commands -> commands
consumer -> relay -> indexer -> SYNCED (``bench_mem0.ours_write``); CPU core-seconds per process over
the run. Non-embedding CPU per write = the commands consumer + the relay + our PostgreSQL backends
(the server processes serving this run's database, read from ``pg_stat_activity`` and ``/proc``), in
ms per write; the indexer (the model) and the shared Kafka broker are reported beside it, not in it
(on the shared local stack the broker serves other work too). Statements per write: the same
commands applied in this process through ``MemoryTools`` with a SQLAlchemy ``before_cursor_execute``
hook, one by one and (when the code has it) with ``apply_batch`` in batches of ``--batch``. Modes:
``per_command`` (``CONSUMER_COMMANDS_MAX_BATCH=1``, ``OUTBOX_RELAY_LINGER_SEC=0``) and ``batched`` (defaults);
``--modes baseline`` runs with no overrides (for code that predates those settings).

Stdout: one JSON object; ``--out`` also writes it (``bench/results/write_path.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from bench.common import log
from bench.stack import bench_pipeline, install_sigterm, stack_pids
from bench.stats import median
from bench.synthetic import synthetic_memories
from harness.pipeline import Pipeline

EMBED_MODES: dict[str, dict[str, str]] = {
    "reuse_off": {"MEMORY_INDEX_REUSE_WRITE_VECTORS": "false"},
    "reuse_on": {},
    # issue 25: what episodes cost the model (texts per user message), beside the same run without them
    "episodes_off": {"EPISODES_ENABLED": "false"},
    "episodes_on": {"EPISODES_ENABLED": "true"},
}
CPU_MODES: dict[str, dict[str, str]] = {
    "per_command": {"CONSUMER_COMMANDS_MAX_BATCH": "1", "OUTBOX_RELAY_LINGER_SEC": "0"},
    "batched": {},
    "baseline": {},
}


def attach_only() -> None:
    """With ``BENCH_USE_LOCAL_STACK=1``: attach to the running shared services, never start or adopt
    them (``bench_pipeline`` would otherwise call ``stack_up``)."""
    if os.environ.get("BENCH_USE_LOCAL_STACK") != "1":
        return
    import bench.stack as stack

    def connect_only() -> dict[str, str]:
        from sqlalchemy import make_url

        from core.config import load_settings

        s = load_settings()
        server = make_url(s.database_url).set(database="postgres").render_as_string(hide_password=False)
        return {"KAFKA_BOOTSTRAP_SERVERS": s.KAFKA_BOOTSTRAP_SERVERS, "DATABASE_URL": server,
                "MEMORY_MILVUS_URI": s.milvus_uri}

    stack.stack_up = connect_only


def counter(metrics_text: str, name: str, **labels: str) -> float:
    """Sum of the samples of counter ``name`` (``_total``) whose labels include ``labels``."""
    total = 0.0
    for line in metrics_text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        head, _, value = line.rpartition(" ")
        if all(f'{k}="{v}"' in head for k, v in labels.items()):
            total += float(value)
    return total


def by_label(metrics_text: str, name: str, label: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for line in metrics_text.splitlines():
        if line.startswith(name + "{"):
            head, _, value = line.rpartition(" ")
            key = head.split(f'{label}="', 1)[1].split('"', 1)[0] if f'{label}="' in head else ""
            out[key] = out.get(key, 0.0) + float(value)
    return out


# --- part 1: model calls per stored memory --------------------------------------------------------
def embed_run(mode: str, pairs: int, users: int, timeout: float) -> dict[str, Any]:
    from sqlalchemy import text

    from bench.bench_pipeline import chat_pairs
    from producers.client import MemoryEventProducer

    overrides = {"LONG_TERM_MEMORY_DEBOUNCE_SEC": "0", "MEMORY_EXTRACTOR_PROVIDER": "rules",
                 **EMBED_MODES[mode]}
    with bench_pipeline(f"wp_{mode}", overrides=overrides) as pipe:
        for proc in ("extractor", "relay", "indexer"):
            pipe.start(proc)
        prefix = f"wp{uuid.uuid4().hex[:4]}u"
        data = chat_pairs(pairs, users, seed=14, prefix=prefix, durable_only=True)
        t0 = time.monotonic()
        with MemoryEventProducer(pipe.settings, source="bench/write_path") as producer:
            for a, u in data:
                producer.publish_message(a)
                producer.publish_message(u)
            producer.flush(120)
        final_sql = ("SELECT count(*) FROM messages WHERE role = 'user' AND memory_status IN "
                     "('PROCESSED', 'SKIPPED', 'FAILED')")
        dirty_sql = ("SELECT (SELECT count(*) FROM long_term_memories WHERE vector_status <> 'SYNCED') + "
                     "(SELECT count(*) FROM episodes WHERE vector_status <> 'SYNCED')")
        deadline = time.monotonic() + timeout
        while True:
            pipe.check()
            with pipe.engine.connect() as conn:
                final = conn.execute(text(final_sql)).scalar_one()
                dirty = conn.execute(text(dirty_sql)).scalar_one()
            if final >= pairs and dirty == 0:
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"{mode}: {final}/{pairs} final, {dirty} unsynced after {timeout:.0f}s")
            time.sleep(0.5)
        time.sleep(1.0)  # let the last scrape see the last sync
        ext, idx = pipe.metrics_text("extractor-0"), pipe.metrics_text("indexer-0")
        with pipe.engine.connect() as conn:
            stored = conn.execute(text("SELECT count(*) FROM long_term_memories")).scalar_one()
            writes = conn.execute(text(
                "SELECT count(*) FROM memory_history WHERE new_content IS NOT NULL")).scalar_one()
            episodes = conn.execute(text("SELECT count(*) FROM episodes")).scalar_one()
        sides: dict[str, dict[str, Any]] = {}
        for side, m in (("extractor", ext), ("indexer", idx)):
            sides[side] = {
                "texts": counter(m, "pai_memory_embedded_texts_total"),
                "calls": counter(m, "pai_memory_embedding_calls_total", outcome="ok"),
                "texts_by_caller": by_label(m, "pai_memory_embedding_caller_texts_total", "caller"),
                "calls_by_caller": by_label(m, "pai_memory_embedding_caller_calls_total", "caller"),
                "reused_vectors": counter(m, "pai_memory_embedding_vectors_reused_total"),
            }
        idx_texts = float(sides["indexer"]["texts"])
        texts = float(sides["extractor"]["texts"]) + idx_texts
        calls = float(sides["extractor"]["calls"]) + float(sides["indexer"]["calls"])
        return {
            "mode": mode,
            "overrides": EMBED_MODES[mode],
            "user_messages": pairs,
            "memories_stored": stored,
            "texts_written": writes,  # history rows with new content (creates, overwrites, appends)
            "seconds": round(time.monotonic() - t0, 1),
            "by_process": sides,
            "model_texts_per_stored_memory": round(texts / stored, 3) if stored else None,
            "model_calls_per_stored_memory": round(calls / stored, 3) if stored else None,
            "indexer_texts_per_stored_memory": round(idx_texts / stored, 3) if stored else None,
            "episodes_stored": episodes,
            "model_texts_per_user_message": round(texts / pairs, 3),
            "model_calls_per_user_message": round(calls / pairs, 3),
        }


# --- part 2: CPU and statements per write ---------------------------------------------------------
def backend_pids(pipe: Pipeline) -> set[int]:
    from sqlalchemy import text

    with pipe.engine.connect() as conn:
        rows = conn.execute(text("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                                 "AND pid <> pg_backend_pid()")).scalars().all()
    return {int(p) for p in rows}


def own_cpu(pid: int) -> float | None:
    """CPU seconds of one process itself (no children), None when gone."""
    import psutil

    try:
        t = psutil.Process(pid).cpu_times()
    except psutil.Error:
        return None
    return float(t.user + t.system)


def statements_per_write(pipe: Pipeline, n: int, batch: int) -> dict[str, Any]:
    """Apply ``n`` saves in this process, one by one and in batches, counting SQL statements."""
    from sqlalchemy import event

    from consumers.processes import build_tools
    from core.memory import tools as tools_mod

    tools = build_tools(pipe.settings)
    engine = tools.sessions.kw["bind"]
    mems = synthetic_memories(2 * n, 20, seed=5, prefix=f"st{uuid.uuid4().hex[:4]}u")
    seen: list[str] = []

    def hook(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement.split(None, 1)[0].upper())

    event.listen(engine, "before_cursor_execute", hook)
    try:
        t0 = time.process_time()
        for m in mems[:n]:
            tools.memory_save(tools_mod.ToolWrite(m.user, m.key, m.content, m.memory_type, 3, 0.9,
                                                 command_id=uuid.uuid4().hex))
        single_cpu = time.process_time() - t0
        single = list(seen)
        seen.clear()
        out: dict[str, Any] = {
            "writes": n,
            "one_by_one": {"statements_per_write": round(len(single) / n, 2),
                           "transactions_per_write": 1.0,
                           "by_verb": _verbs(single, n),
                           "client_cpu_ms_per_write": round(single_cpu * 1000 / n, 3)},
        }
        if hasattr(tools_mod, "ToolCommand") and hasattr(tools, "apply_batch"):
            cmds = [tools_mod.ToolCommand.of("memory_save", m.user, m.key, m.content,
                                             memory_type=m.memory_type, command_id=uuid.uuid4().hex)
                    for m in mems[n:]]
            t0 = time.process_time()
            for start in range(0, n, batch):
                tools.apply_batch(cmds[start:start + batch])
            batch_cpu = time.process_time() - t0
            out["batched"] = {"batch": batch, "statements_per_write": round(len(seen) / n, 2),
                              "transactions_per_write": round(-(-n // batch) / n, 4),
                              "by_verb": _verbs(seen, n),
                              "client_cpu_ms_per_write": round(batch_cpu * 1000 / n, 3)}
        return out
    finally:
        event.remove(engine, "before_cursor_execute", hook)


def _verbs(statements: list[str], n: int) -> dict[str, float]:
    out: dict[str, int] = {}
    for verb in statements:
        out[verb] = out.get(verb, 0) + 1
    return {k: round(v / n, 2) for k, v in sorted(out.items())}


def cpu_run(mode: str, memories: int, users: int, timeout: float, statements: int,
            batch: int) -> dict[str, Any]:
    from bench.bench_mem0 import ours_write

    with bench_pipeline(f"wc_{mode}", overrides={**CPU_MODES[mode]}) as pipe:
        for proc in ("commands", "relay", "indexer"):
            pipe.start(proc)
        # warm up every process (model loaded, connections open) so the run measures steady work
        ours_write(pipe, synthetic_memories(20, 5, seed=3, prefix="warmu"), "warmu", timeout)
        before_backends = {pid: own_cpu(pid) for pid in backend_pids(pipe)}
        prefix = f"wc{uuid.uuid4().hex[:4]}u"
        mems = synthetic_memories(memories, users, seed=99, prefix=prefix)
        run = ours_write(pipe, mems, prefix, timeout)
        after_backends = {pid: own_cpu(pid) for pid in backend_pids(pipe) | set(before_backends)}
        pg = 0.0
        for pid, now in after_backends.items():
            then = before_backends.get(pid, 0.0)
            if now is not None and then is not None:
                pg += now - then
        cpu = run["cpu_core_sec"]
        ours = cpu.get("commands-0", 0.0) + cpu.get("relay-0", 0.0) + pg
        return {
            "mode": mode,
            "overrides": CPU_MODES[mode],
            "memories": memories,
            "users": users,
            "write": run,
            "postgres_backends_cpu_core_sec": round(pg, 2),
            "non_embedding_cpu_core_sec": round(ours, 2),
            "non_embedding_cpu_ms_per_write": round(ours * 1000 / memories, 3),
            "by_process_ms_per_write": {
                "commands": round(cpu.get("commands-0", 0.0) * 1000 / memories, 3),
                "relay": round(cpu.get("relay-0", 0.0) * 1000 / memories, 3),
                "postgres_backends": round(pg * 1000 / memories, 3),
                "indexer (model + ours)": round(cpu.get("indexer-0", 0.0) * 1000 / memories, 3),
                "kafka broker (shared)": round(cpu.get("kafka", 0.0) * 1000 / memories, 3),
            },
            "statements": statements_per_write(pipe, statements, batch) if statements else None,
        }


def retried(what: str, fn: Any, *args: Any) -> dict[str, Any]:
    """``fn(*args)``, once more when a service process died (e.g. another benchmark on this shared
    machine took its metrics port between the check and the bind)."""
    try:
        return dict(fn(*args))
    except RuntimeError as exc:
        log(f"{what} failed ({exc}); once more")
        return dict(fn(*args))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("embed", "cpu", "both"), default="both")
    parser.add_argument("--modes", default="", help="comma-separated modes (default: both of the part)")
    parser.add_argument("--pairs", type=int, default=300, help="embed part: user turns")
    parser.add_argument("--memories", type=int, default=2000, help="cpu part: memories written")
    parser.add_argument("--users", type=int, default=50, help="cpu part: users")
    parser.add_argument("--chat-users", type=int, default=30, help="embed part: users")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--statements", type=int, default=200, help="cpu part: in-process writes counted")
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    install_sigterm()
    attach_only()

    def save(data: dict[str, Any]) -> None:
        if args.out is not None:
            args.out.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    chosen = [m for m in args.modes.split(",") if m]
    result: dict[str, Any] = {"benchmark": "write_path", "params": {k: str(v) for k, v in vars(args).items()},
                              "command": "python -m bench.bench_write_path " + " ".join(argv or sys.argv[1:]),
                              "stack": "local (shared)" if os.environ.get("BENCH_USE_LOCAL_STACK") == "1"
                              else "private bench stack"}
    if args.part in ("embed", "both"):
        modes = [m for m in chosen if m in EMBED_MODES] or list(EMBED_MODES)
        runs = []
        for rep in range(args.repeats):
            for mode in modes:
                log(f"write_path embed: {mode} (repetition {rep + 1})")
                runs.append(retried(f"embed {mode}", embed_run, mode, args.pairs, args.chat_users,
                                    args.timeout))
                result["embed"] = runs
                save(result)
    if args.part in ("cpu", "both"):
        modes = [m for m in chosen if m in CPU_MODES] or ["per_command", "batched"]
        runs = []
        for rep in range(args.repeats):
            for mode in modes:
                log(f"write_path cpu: {mode} (repetition {rep + 1})")
                runs.append(retried(f"cpu {mode}", cpu_run, mode, args.memories, args.users, args.timeout,
                                    args.statements, args.batch))
                result["cpu"] = runs
                save(result)
        result["cpu_median_ms_per_write"] = {
            mode: median([r["non_embedding_cpu_ms_per_write"] for r in runs if r["mode"] == mode])
            for mode in modes}
    result["stack_pids"] = stack_pids()
    save(result)
    return result


if __name__ == "__main__":
    out = main()
    print(json.dumps(out, ensure_ascii=False, default=str))
