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

``--provider openai``: the LLM path instead, against the OpenAI-compatible TEST DOUBLE
(``localstack.openai_double``, own process) answering at once with one ``fact`` candidate per message, as
``bench.bench_extractor_concurrency`` runs it (``--turns-per-user 1``: every message a new user, no
refine call). ``process_cpu_ms_per_message`` is every thread of this process during ``process`` (the
extraction's worker thread with its HTTP client, the embedder's threads), ``calling_thread_cpu`` the
calling thread's part. ``--sample`` replaces cProfile (whose per-call hook inflates small functions) by a
sampling profile on the process's CPU clock (``CpuSampler``; ``--inline`` runs the extraction in the
calling thread so it is sampled too; ``--collapsed FILE`` writes the stacks for a flame graph).

The first ``--warm`` messages (their own users) warm the model, caches and the connection pool and
are not counted. The same script runs on an older checkout (copy it into its ``bench/``) for a
before/after comparison on the same machine.

    DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:24432/pai_memory \\
        .venv/bin/python -m bench.profile_extractor_db --messages 600
    ... -m bench.profile_extractor_db --provider openai --turns-per-user 1 --messages 200 --sample --inline
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import signal
import threading
import time
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


class CpuSampler:
    """A sampling profiler on the process's CPU clock: ``SIGPROF`` every ``interval`` s of CPU used
    (``ITIMER_PROF``, user + system time of every thread), the main thread's Python stack recorded at
    each one. Blocked time (waiting for PostgreSQL or the model) never fires it, so the samples split
    CPU, not wall time; work in C is charged to the Python frame that called it. Meant for a
    single-threaded run (the extraction's worker thread is run inline, ``_inline_extraction``)."""

    def __init__(self, interval: float = 0.0005) -> None:
        self.interval = interval
        self.stacks: dict[tuple[str, ...], int] = {}
        self.samples = 0

    def _handler(self, signum: int, frame: Any) -> None:
        names: list[str] = []
        while frame is not None:
            code = frame.f_code
            names.append(f"{'/'.join(Path(code.co_filename).parts[-2:])}:{code.co_firstlineno}({code.co_name})")
            frame = frame.f_back
        key = tuple(reversed(names))
        self.stacks[key] = self.stacks.get(key, 0) + 1
        self.samples += 1

    def __enter__(self) -> CpuSampler:
        signal.signal(signal.SIGPROF, self._handler)
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)

    def top(self, n: int, messages: int, limit: int = 40) -> dict[str, list[dict[str, Any]]]:
        """Self and inclusive shares of the samples, with ms per message (samples x interval / n)."""
        own: dict[str, int] = {}
        incl: dict[str, int] = {}
        for stack, count in self.stacks.items():
            own[stack[-1]] = own.get(stack[-1], 0) + count
            for name in set(stack):
                incl[name] = incl.get(name, 0) + count

        def rows(counts: dict[str, int]) -> list[dict[str, Any]]:
            ranked = sorted(counts.items(), key=lambda kv: -kv[1])[:limit]
            return [{"function": k, "share": round(v / max(1, self.samples), 4),
                     "ms_per_message": round(1000 * v * self.interval / messages, 3)} for k, v in ranked]
        return {"own": rows(own), "inclusive": rows(incl)}

    def collapsed(self) -> str:
        """The stacks in the collapsed format of flame-graph tools (``a;b;c count`` a line)."""
        return "\n".join(f"{';'.join(k)} {v}" for k, v in sorted(self.stacks.items(), key=lambda kv: -kv[1]))


def _inline_extraction() -> Any:
    """Run the extraction in the calling thread (``BudgetedExtractor`` without its worker thread) so
    ``CpuSampler`` sees it; returns the undo function. The budget is not enforced meanwhile."""
    from core.extraction.budget import BudgetedExtractor

    original = BudgetedExtractor._within

    def within(self: Any, call: Any, what: str) -> Any:
        return call()

    BudgetedExtractor._within = within  # type: ignore[method-assign]

    def undo() -> None:
        BudgetedExtractor._within = original  # type: ignore[method-assign]
    return undo


def _profile_worker_threads(prof: cProfile.Profile) -> Any:
    """Patch ``BudgetedExtractor._within`` so the extraction's worker thread is profiled too (into
    ``prof``'s twin, returned); returns the undo function and the twin."""
    from core.extraction.budget import BudgetedExtractor

    twin = cProfile.Profile(time.thread_time)
    original = BudgetedExtractor._within

    def within(self: Any, call: Any, what: str) -> Any:
        def profiled() -> Any:
            twin.enable()
            try:
                return call()
            finally:
                twin.disable()
        return original(self, profiled, what)

    BudgetedExtractor._within = within  # type: ignore[method-assign]

    def undo() -> None:
        BudgetedExtractor._within = original  # type: ignore[method-assign]
    return undo, twin


def _run(processor: Any, pairs: list[tuple[Any, Any]], counter: StatementCounter,
         prof: cProfile.Profile | None = None) -> dict[str, Any]:
    """Ingest ``pairs`` and process each user message as its own burst; sums per stage."""
    c_ingest = time.process_time()
    results = processor.ingest_many(_incoming(pairs))
    c_ingest = time.process_time() - c_ingest
    user_pks = [r.message_pk for r in results if r.needs_processing]
    process_cpu = thread_cpu = 0.0
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
            c0, t0 = time.process_time(), time.thread_time()
            outcome = processor.process([pk])
            process_cpu += time.process_time() - c0
            thread_cpu += time.thread_time() - t0
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
        # every thread of this process (the extraction's worker thread and its HTTP client included)
        "process_cpu_ms_per_message": round(1000 * process_cpu / n, 3),
        # of it, the calling thread's (with ``--inline``: the extraction's HTTP client too)
        "calling_thread_cpu_ms_per_message": round(1000 * thread_cpu / n, 3),
        "ingest_process_cpu_ms_per_message": round(1000 * c_ingest / n, 3),
        "wall_ms_per_message": {s: round(1000 * v / n, 3) for s, v in sorted(wall.items())},
        "statements_per_message": {s: round(v / n, 2) for s, v in sorted(counter.counts.items())},
    }


def _top(stats: pstats.Stats, n: int, key: int, limit: int = 25) -> list[dict[str, Any]]:
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
    parser.add_argument("--sample", action="store_true",
                        help="instead of cProfile: a CPU-clock sampling profile (extraction run inline)")
    parser.add_argument("--inline", action="store_true",
                        help="run every pass's extraction in the calling thread (no budget thread)")
    parser.add_argument("--collapsed", default=None, help="with --sample: write the collapsed stacks here")
    parser.add_argument("--provider", choices=("rules", "openai"), default="rules",
                        help="openai: the OpenAI-compatible TEST DOUBLE answering at once (own process), "
                             "one fact candidate per message (the concurrency benchmark's LLM path)")
    parser.add_argument("--turns-per-user", type=int, default=3,
                        help="user messages per user (1: every message a new user, as the concurrency "
                             "benchmark; no refine call)")
    args = parser.parse_args(argv)

    from sqlalchemy import event

    import core
    from consumers.processes import build_processor
    from core.config import load_settings
    from harness.pipeline import create_database, drop_database

    server = os.environ.get("DATABASE_URL", load_settings().database_url)
    url = create_database(server, f"bench_prof_{uuid.uuid4().hex[:8]}")
    result: dict[str, Any] = {"benchmark": "extractor_db_cpu", "params": vars(args),
                              "code": str(Path(core.__file__).resolve().parents[1])}
    double = None
    per_user = max(1, args.turns_per_user)
    try:
        overrides: dict[str, Any] = {"MEMORY_EXTRACTOR_PROVIDER": args.provider}
        if args.provider == "openai":
            from bench.bench_extractor_concurrency import Double

            double = Double(0.0, 0.0, 0.0, None, seed=1)
            overrides.update(LLM_BASE_URL=double.base_url, LLM_MODEL="openai-test-double",
                             LLM_API_KEY="test-double")
        settings = load_settings(DATABASE_URL=url, **overrides)
        processor = build_processor(settings)
        processor.warm_up()
        counter = StatementCounter()
        event.listen(processor.sessions.kw["bind"], "before_cursor_execute", counter)
        tag = uuid.uuid4().hex[:4]
        n = args.messages
        if args.inline:
            _inline_extraction()
        log(f"warm-up: {args.warm} messages")
        _run(processor, chat_pairs(args.warm, max(1, args.warm // per_user), args.seed + 1, f"w{tag}-", True),
             counter)
        log(f"measured: {n} messages, {max(1, n // per_user)} users")
        users = max(1, n // per_user)
        result["measured"] = _run(processor, chat_pairs(n, users, args.seed, f"m{tag}-", True), counter)
        if args.sample:
            log(f"sampled: {n} messages of new users, CPU-clock sampling")
            undo = _inline_extraction()
            sampler = CpuSampler()
            try:
                with sampler:
                    profiled = _run(processor, chat_pairs(n, users, args.seed, f"s{tag}-", True), counter)
            finally:
                undo()
            result["sampled"] = profiled
            result["sample_top"] = sampler.top(40, profiled["messages"], 60)
            if args.collapsed:
                Path(args.collapsed).write_text(sampler.collapsed())
        elif not args.no_profile:
            log(f"profiled: {n} messages of new users, under cProfile")
            prof = cProfile.Profile(time.thread_time)  # CPU of this thread, not wall time
            undo, twin = _profile_worker_threads(prof)
            try:
                profiled = _run(processor, chat_pairs(n, max(1, n // per_user), args.seed, f"p{tag}-", True),
                                counter, prof)
            finally:
                undo()
            stats = pstats.Stats(prof, stream=io.StringIO())
            if twin.getstats():
                stats.add(twin)
            result["profiled_stage_cpu_ms_per_message"] = profiled["thread_cpu_ms_per_message"]
            result["profile_top_own_time"] = _top(stats, profiled["messages"], 0)
            result["profile_top_cumulative"] = _top(stats, profiled["messages"], 1, 60)
    finally:
        drop_database(url)
        if double is not None:
            double.stop()
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, indent=1))
