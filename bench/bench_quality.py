"""Quality: ``pai-memory eval ../shared/eval/dev_cases.jsonl --json`` with each available extraction provider.

Not a test. Each provider's run uses the benchmark stack with a scratch database, private topics,
groups, collection and a private ``PAI_MEMORY_HOME`` (so ``pai-memory eval`` starts its own service
processes, which are stopped afterwards). ``rules`` always runs; ``openai`` runs only when an
OpenAI-compatible endpoint is configured (``LLM_BASE_URL``), otherwise it is reported as not
available. Also runs the offline scorer ``bench/eval_rules_offline.py --queries`` (no services).
Skips cleanly when the cases file is absent.

Stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from bench.common import BENCH_API_PORT, REPO, WORK, log
from bench.stack import install_sigterm, stack_up
from harness.pipeline import create_database, drop_database

DEFAULT_CASES = REPO.parent / "shared" / "eval" / "dev_cases.jsonl"
# 39850 + 10 * process index + replica; BENCH_EVAL_METRICS_BASE / BENCH_EVAL_API_PORT move a run off the
# defaults when another benchmark on the machine holds them (a child that cannot bind its port exits)
EVAL_METRICS_BASE = int(os.environ.get("BENCH_EVAL_METRICS_BASE", "39850"))
EVAL_API_PORT = int(os.environ.get("BENCH_EVAL_API_PORT", str(BENCH_API_PORT)))


def last_json(stdout: str) -> dict[str, Any] | None:
    for line in reversed(stdout.strip().splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def run_eval(cases: Path, provider: str, timeout: float, extra_args: tuple[str, ...] = ()) -> dict[str, Any]:
    """One ``pai-memory eval`` run on private topics/db/home; returns its summary and per-case lines.
    ``extra_args`` go to ``pai-memory eval`` (e.g. ``("--publish", "block")``)."""
    conn = stack_up()
    tag = uuid.uuid4().hex[:6]
    url = create_database(conn["DATABASE_URL"], f"pai_bench_eval_{tag}")
    home = WORK / "home" / f"eval_{tag}"
    env = {
        **os.environ,
        **conn,
        "DATABASE_URL": url,
        "PAI_MEMORY_HOME": str(home),
        "MEMORY_EXTRACTOR_PROVIDER": provider,
        "API_PORT": str(EVAL_API_PORT),
        "TOPIC_CHAT_MESSAGES": f"bench.eval-{tag}.chat",
        "TOPIC_MEMORY_COMMANDS": f"bench.eval-{tag}.commands",
        "TOPIC_MEMORY_DIRTY": f"bench.eval-{tag}.dirty",
        "GROUP_EXTRACTOR": f"bench-eval-{tag}-extractor",
        "GROUP_COMMANDS": f"bench-eval-{tag}-commands",
        "GROUP_INDEXER": f"bench-eval-{tag}-indexer",
        "MEMORY_MILVUS_COLLECTION": f"bench_eval_{tag}",
    }
    # `pai-memory eval FILE --json`, with the supervisor's metrics ports moved off 391xx (the standard
    # local stack's demo processes may hold those; a child that cannot bind its metrics port exits)
    launcher = ("import sys, localstack.supervisor as s; s.METRICS_BASE_PORT = int(sys.argv[1]); "
                "from cli.main import main; sys.exit(main(sys.argv[2:]))")
    cmd = [sys.executable, "-c", launcher, str(EVAL_METRICS_BASE), "eval", str(cases), "--json",
           "--timeout", str(int(timeout)), *extra_args]
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout + 300)
        summary = last_json(proc.stdout)
        out: dict[str, Any] = {
            "provider": provider,
            "exit_code": proc.returncode,
            "seconds": round(time.monotonic() - t0, 1),
            "summary": summary,
            "command": f"MEMORY_EXTRACTOR_PROVIDER={provider} pai-memory eval {cases} --json"
            + "".join(f" {a}" for a in extra_args),
        }
        if proc.returncode != 0 or summary is None:
            out["stderr_tail"] = proc.stderr[-1500:]
        out["cases"] = [
            json.loads(line) for line in proc.stdout.strip().splitlines()[:-1] if line.startswith("{")
        ]
        return out
    finally:
        # stop the processes that `pai-memory eval` started under this private home
        subprocess.run(
            [
                sys.executable,
                "-c",
                "from localstack.service import LocalService;LocalService.from_env().stop_processes()",
            ],
            cwd=REPO,
            env=env,
            capture_output=True,
            timeout=120,
        )
        drop_database(url)
        try:
            from core.vectorstore import MilvusMemoryIndex

            MilvusMemoryIndex(conn["MEMORY_MILVUS_URI"], f"bench_eval_{tag}", 384).drop_collection()
        except Exception as exc:  # cleanup only
            log(f"could not drop bench_eval_{tag}: {exc}")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args(argv)
    install_sigterm()
    if not args.cases.exists():
        return {"benchmark": "quality", "skipped": f"{args.cases} not found"}
    result: dict[str, Any] = {"benchmark": "quality", "cases_file": str(args.cases), "providers": {}}
    log("quality: offline rules scorer (no services)")
    off = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "eval_rules_offline.py"),
            "--cases",
            str(args.cases),
            "--queries",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=args.timeout,
    )
    result["offline_rules_scorer"] = last_json(off.stdout)
    for provider in ("rules", "openai"):
        if provider == "openai" and not os.environ.get("LLM_BASE_URL"):
            result["providers"]["openai"] = {
                "available": False,
                "reason": "no OpenAI-compatible endpoint configured (LLM_BASE_URL unset)",
            }
            continue
        log(f"quality: pai-memory eval with provider {provider}")
        result["providers"][provider] = run_eval(args.cases, provider, args.timeout)
        log(f"  -> {result['providers'][provider].get('summary')}")
    return result


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False, default=str))
