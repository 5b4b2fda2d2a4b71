"""CPU per user message of the extractor's database stages (``load`` and ``upsert`` of
``core.memory.processing.MessageProcessor.process``), one process, one thread, real PostgreSQL.

Not a test. A private database (``bench_prof_<random>``, created and migrated on the server of
``DATABASE_URL``, dropped at the end) gets the freshness benchmark's templated turns
(``bench_pipeline.chat_pairs(..., durable_only=True)``: an assistant greeting and a user turn per
conversation, a third as many users as turns, so most users speak three times), stored with
``ingest_many``; then each user message is one burst through ``process`` with the processor the
extractor process builds (``consumers.processes.build_processor``: the ``rules`` provider with the
memory classifier, semantic dedup on the local embedder). Reported per message: this thread's CPU
(``time.thread_time``) and wall time in ``load`` and ``upsert`` as the processor measures them, the SQL
statements per message by stage, and (second pass over fresh users, under ``cProfile``) the top
functions by own time and by cumulative time inside ``process``.

The first ``--warm`` messages (their own users) warm the model, caches and the connection pool and
are not counted. The same script runs on an older checkout (copy it into its ``bench/``) for a
before/after comparison on the same machine.

    DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:24432/pai_memory \\
        .venv/bin/python -m bench.profile_extractor_db --messages 600
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import threading
import uuid
from pathlib import Path
from typing import Any

from bench.bench_pipeline import chat_pairs
from bench.common import log

_stage = threading.local()


class StatementCounter:
    """Counts SQL statements executed by this thread, by the stage named in ``_stage.name``."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        name = getattr(_stage, "name", "other")
        self.counts[name] = self.counts.get(name, 0) + 1


def _incoming(pairs: list[tuple[Any, Any]]) -> list[Any]:
    from core.memory.store import IncomingMessage

    out = []
    for a, u in pairs:
        for m in (a, u):
            out.append(IncomingMessage(message_id=m.message_id, user_id=m.user_id,
                                       conversation_id=m.conversation_id, role=m.role, content=m.content,
                                       created_at=m.created_at))
    return out


def _run(processor: Any, pairs: list[tuple[Any, Any]], counter: StatementCounter,
         prof: cProfile.Profile | None = None) -> dict[str, Any]:
    """Ingest ``pairs`` and process each user message as its own burst; sums per stage."""
    results = processor.ingest_many(_incoming(pairs))
    user_pks = [r.message_pk for r in results if r.needs_processing]
    cpu: dict[str, float] = {}
    wall: dict[str, float] = {}
    writes = 0
    counter.counts.clear()
    original = processor._commit

    def commit(*args: Any, **kwargs: Any) -> Any:  # statements of the upsert stage
        _stage.name = "upsert"
        try:
            return original(*args, **kwargs)
        finally:
            _stage.name = "other"

    processor._commit = commit
    try:
        for pk in user_pks:
            _stage.name = "load"
            if prof is not None:
                prof.enable()
            outcome = processor.process([pk])
            if prof is not None:
                prof.disable()
            _stage.name = "other"
            for stage, seconds in outcome.stage_thread_cpu_seconds.items():
                cpu[stage] = cpu.get(stage, 0.0) + seconds
            for stage, seconds in outcome.stage_seconds.items():
                wall[stage] = wall.get(stage, 0.0) + seconds
            writes += sum(1 for w in outcome.writes if w.operation is not None)
    finally:
        del processor._commit
    n = len(user_pks)
    # statements while extracting (none expected) are counted under "load" since the stage marker is
    # set for the whole call before the upsert wrapper takes over
    return {
        "messages": n,
        "memory_writes": writes,
        "thread_cpu_ms_per_message": {s: round(1000 * v / n, 3) for s, v in sorted(cpu.items())},
        "wall_ms_per_message": {s: round(1000 * v / n, 3) for s, v in sorted(wall.items())},
        "statements_per_message": {s: round(v / n, 2) for s, v in sorted(counter.counts.items())},
    }


def _top(prof: cProfile.Profile, n: int, key: int, limit: int = 25) -> list[dict[str, Any]]:
    stats = pstats.Stats(prof, stream=io.StringIO())
    rows: list[tuple[float, float, dict[str, Any]]] = []
    for (file, line, name), (_cc, nc, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        where = "/".join(Path(file).parts[-2:])
        rows.append((tt, ct, {"function": f"{where}:{line}({name})", "calls_per_message": round(nc / n, 2),
                              "own_ms_per_message": round(1000 * tt / n, 3),
                              "cumulative_ms_per_message": round(1000 * ct / n, 3)}))
    rows.sort(key=lambda r: -float(r[key]))  # type: ignore[arg-type]
    return [r[2] for r in rows[:limit]]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=600, help="user messages measured (each pass)")
    parser.add_argument("--warm", type=int, default=60, help="user messages to warm up, not counted")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-profile", action="store_true", help="skip the cProfile pass")
    args = parser.parse_args(argv)

    from sqlalchemy import event

    import core
    from consumers.processes import build_processor
    from core.config import load_settings
    from core.storage.db import engine_for
    from harness.pipeline import create_database, drop_database

    server = os.environ.get("DATABASE_URL", load_settings().database_url)
    url = create_database(server, f"bench_prof_{uuid.uuid4().hex[:8]}")
    result: dict[str, Any] = {"benchmark": "extractor_db_cpu", "params": vars(args),
                              "code": str(Path(core.__file__).resolve().parents[1])}
    try:
        settings = load_settings(DATABASE_URL=url, MEMORY_EXTRACTOR_PROVIDER="rules")
        processor = build_processor(settings)
        processor.warm_up()
        counter = StatementCounter()
        event.listen(engine_for(settings.database_url, settings.DATABASE_POOL_SIZE), "before_cursor_execute",
                     counter)
        tag = uuid.uuid4().hex[:4]
        n = args.messages
        log(f"warm-up: {args.warm} messages")
        _run(processor, chat_pairs(args.warm, max(1, args.warm // 3), args.seed + 1, f"w{tag}-", True),
             counter)
        log(f"measured: {n} messages, {max(1, n // 3)} users")
        result["measured"] = _run(processor, chat_pairs(n, max(1, n // 3), args.seed, f"m{tag}-", True),
                                  counter)
        if not args.no_profile:
            log(f"profiled: {n} messages of new users, under cProfile")
            prof = cProfile.Profile()
            profiled = _run(processor, chat_pairs(n, max(1, n // 3), args.seed, f"p{tag}-", True), counter,
                            prof)
            result["profiled_stage_cpu_ms_per_message"] = profiled["thread_cpu_ms_per_message"]
            result["profile_top_own_time"] = _top(prof, profiled["messages"], 0)
            result["profile_top_cumulative"] = _top(prof, profiled["messages"], 1, 60)
    finally:
        drop_database(url)
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, indent=1))
