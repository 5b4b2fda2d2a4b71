"""The ONE command of the benchmark suite: runs every benchmark, writes bench/results/*.json, the plots
bench/plots/*.png and bench/RESULTS.md.

    .venv/bin/python -m bench.run_all            # full suite (43-80 minutes measured on our 2-core machines)
    .venv/bin/python -m bench.run_all --quick    # smaller sizes (10-15 minutes idle; much longer when loaded)
    .venv/bin/python -m bench.run_all --only mem0,locomo   # a subset (others keep their last results)

Benchmarks are not tests. Each runs as its own process (``bench/bench_*.py``) on the private
benchmark stack (``bench.common``: Kafka, PostgreSQL, Milvus Lite on their own ports, started here
and stopped at the end unless ``--keep-stack``). matplotlib (the ``bench`` extra) is installed into
the running venv when missing; mem0 and the real Milvus server get their own venvs under
``bench/.work``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from typing import Any

from bench.common import BENCH, REPO, RESULTS, log, module_argv, openmp_wait, write_result
from bench.machine import machine_info
from bench.stack import stack_down, stack_up

FULL: dict[str, list[str]] = {
    # 2 side-by-side repetitions at 2,000 memories; the 20,000 point for ours (mem0 runs it only when
    # its measured 2k rate predicts less than --mem0-big-budget-sec)
    "mem0": ["bench/bench_mem0.py", "--memories", "2000", "--users", "50", "--big", "20000",
             "--queries", "100", "--repeats", "2", "--serve-sample", "150", "--mem0-stock-sample", "300"],
    "locomo": ["bench/bench_locomo.py"],
    # 300 turns and 20 s a rate: the extractor runs at a few messages/s here, so more turns and longer
    # rates would spend the suite's time draining a backlog that says nothing new
    "pipeline": ["bench/bench_pipeline.py", "--messages", "300", "--rates", "10,50,200", "--duration", "20",
                 "--drain-timeout", "180"],
    "indexer": ["bench/bench_indexer.py", "--memories", "1000", "--users", "50", "--repeats", "2"],
    "scale": ["bench/bench_scale.py", "--sizes", "10000,100000,1000000", "--queries", "60"],
    "quality": ["bench/bench_quality.py"],
    "embedder": ["bench/bench_embedder.py", "--texts", "64", "--repeats", "3"],
    "openmp_wait": ["bench/bench_openmp_wait.py", "--rounds", "3", "--queries", "100"],
    "segments": ["bench/bench_milvus_segments.py", "--sizes", "500,2000,8000"],
    "memorybank": ["bench/bench_public.py", "memorybank"],
    "persona": ["bench/bench_public.py", "persona", "--conversations", "50"],
    # the evaluation harness's former publishing (each case as one block), for comparison
    "memorybank_block": ["bench/bench_public.py", "memorybank", "--langs", "en", "--publish", "block"],
    "persona_block": ["bench/bench_public.py", "persona", "--conversations", "50", "--publish", "block"],
    # the model is the OpenAI-compatible test double (lognormal 1.0/3.0 s); ~10-12 min on 2 cores
    "extractor_concurrency": ["bench/bench_extractor_concurrency.py"],
    # issue 13: rules alone vs rules + classifier on held-out cases, MemoryBank, Persona-Chat, LoCoMo
    "ablation13": ["bench/bench_ablation13.py"],
}
QUICK: dict[str, list[str]] = {
    "mem0": ["bench/bench_mem0.py", "--memories", "200", "--users", "50", "--big", "0", "--queries", "40",
             "--repeats", "2", "--serve-sample", "60", "--mem0-stock-sample", "60"],
    "locomo": ["bench/bench_locomo.py", "--quick"],
    "pipeline": ["bench/bench_pipeline.py", "--messages", "100", "--rates", "10,50,200", "--duration", "3",
                 "--drain-timeout", "400"],
    "indexer": ["bench/bench_indexer.py", "--memories", "200", "--users", "50", "--repeats", "2",
                "--no-kafka"],
    "scale": ["bench/bench_scale.py", "--sizes", "10000", "--queries", "50"],
    "quality": ["bench/bench_quality.py"],
    "embedder": ["bench/bench_embedder.py", "--texts", "64", "--repeats", "3"],
    "openmp_wait": ["bench/bench_openmp_wait.py", "--rounds", "2", "--queries", "50"],
    "segments": ["bench/bench_milvus_segments.py", "--sizes", "500,2000"],
    "memorybank": ["bench/bench_public.py", "memorybank", "--langs", "en"],
    "persona": ["bench/bench_public.py", "persona", "--conversations", "20"],
    "memorybank_block": ["bench/bench_public.py", "memorybank", "--langs", "en", "--publish", "block"],
    "persona_block": ["bench/bench_public.py", "persona", "--conversations", "20", "--publish", "block"],
    "extractor_concurrency": ["bench/bench_extractor_concurrency.py", "--in-flight", "1,32",
                              "--processes", "1", "--fresh-duration", "10"],
    "ablation13": ["bench/bench_ablation13.py", "--only", "heldout,persona", "--persona-conversations", "20"],
}
ORDER = ("mem0", "locomo", "pipeline", "indexer", "scale", "quality", "embedder", "openmp_wait", "segments",
         "memorybank", "persona", "memorybank_block", "persona_block", "extractor_concurrency", "ablation13")


def ensure_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        log("installing matplotlib (the `bench` extra) into this venv")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "matplotlib>=3.8"], check=True)


def _stop_group(proc: subprocess.Popen[str], grace: float = 60.0) -> None:
    """SIGTERM the benchmark's process group, wait up to ``grace`` seconds, then SIGKILL what is left."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=grace)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def run_one(name: str, argv: list[str], env: dict[str, str], timeout: float) -> dict[str, Any]:
    argv = module_argv(argv)
    cmd = [sys.executable, *argv]
    shown = ".venv/bin/python " + " ".join(shlex.quote(a) for a in argv)
    log(f"== {name}: {shown}")
    t0 = time.monotonic()
    errlog = BENCH / ".work" / "logs" / f"{name}.stderr.log"
    errlog.parent.mkdir(parents=True, exist_ok=True)
    partial = BENCH / ".work" / "logs" / f"{name}.partial.json"
    partial.unlink(missing_ok=True)
    with open(errlog, "w") as err:
        # its own process group: on a timeout the benchmark gets SIGTERM first (its handler stops the service
        # processes it started and drops its scratch data), then the whole group is killed
        proc = subprocess.Popen(
            cmd, cwd=REPO, env={**env, "BENCH_PARTIAL_RESULT": str(partial)}, stdout=subprocess.PIPE,
            stderr=err, text=True, start_new_session=True,
        )
        try:
            out, _ = proc.communicate(timeout=timeout)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            code = -1
            _stop_group(proc)
            out = ""
            with contextlib.suppress(subprocess.TimeoutExpired, ValueError):
                out = proc.communicate(timeout=10)[0] or ""
    seconds = round(time.monotonic() - t0, 1)
    data: dict[str, Any] | None = None
    for line in reversed(out.strip().splitlines()):
        try:
            data = json.loads(line)
            break
        except ValueError:
            continue
    if code != 0 or not isinstance(data, dict):
        tail = errlog.read_text(errors="replace")[-3000:]
        data = {
            "benchmark": name,
            "error": f"exit code {code}" if code != -1 else f"timed out after {timeout:.0f}s",
            "stderr_tail": tail,
        }
        if partial.exists():  # the phases it finished (bench.common.save_partial)
            data["partial"] = json.loads(partial.read_text())
        log(f"   {name} FAILED ({data['error']}); see {errlog}")
    data["command"] = shown
    data["seconds"] = seconds
    data["openmp_wait"] = openmp_wait()
    previous = RESULTS / f"{name}.json"
    if "error" in data and previous.exists() and "error" not in json.loads(previous.read_text()):
        # a failed run does not erase the last complete measurement; it is kept beside it
        write_result(f"{name}.failed", data)
        log(f"   kept the last complete {previous.name}; this run's record: {name}.failed.json")
    else:
        write_result(name, data)
    log(f"   {name} done in {seconds:.0f}s")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (10-15 min on an idle machine)")
    parser.add_argument("--only", default=",".join(ORDER), help=f"comma list of {', '.join(ORDER)}")
    parser.add_argument("--keep-stack", action="store_true", help="leave the benchmark stack running")
    parser.add_argument("--timeout", type=float, default=3600.0, help="per benchmark, seconds")
    parser.add_argument("--override", action="append", default=[], metavar="NAME=ARGS",
                        help='replace one benchmark\'s arguments, e.g. mem0="--memories 2000 --big 0"')
    args = parser.parse_args(argv)
    ensure_matplotlib()
    chosen = [n for n in ORDER if n in args.only.split(",")]
    plan = dict(QUICK if args.quick else FULL)
    for item in args.override:
        name, _, rest = item.partition("=")
        if name not in plan:
            parser.error(f"--override: unknown benchmark {name!r}")
        plan[name] = [plan[name][0], *shlex.split(rest)]
    started = time.monotonic()
    RESULTS.mkdir(parents=True, exist_ok=True)
    machine = machine_info()
    machine["mode"] = "quick" if args.quick else "full"
    machine["suite_command"] = (
        ".venv/bin/python -m bench.run_all"
        + (" --quick" if args.quick else "")
        + (f" --only {args.only}" if args.only != ",".join(ORDER) else "")
        + "".join(f" --override {shlex.quote(o)}" for o in args.override)
        + (" --keep-stack" if args.keep_stack else "")
    )
    log("bringing up the benchmark stack (Kafka, PostgreSQL, Milvus Lite on bench ports)")
    conn = stack_up()
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    # bench_indexer.py reads the services from the environment (it creates its own scratch db on this server)
    env_indexer = {**env, **conn}
    try:
        for name in chosen:
            run_one(name, plan[name], env_indexer if name == "indexer" else env, args.timeout)
    finally:
        machine["suite_seconds"] = round(time.monotonic() - started, 1)
        machine["loadavg_at_end"] = list(os.getloadavg())
        previous = RESULTS / "machine.json"
        if chosen != list(ORDER) and previous.exists():
            # a subset: keep the suite's machine record, note this run beside it
            record = json.loads(previous.read_text())
            record.setdefault("later_partial_runs", []).append(
                {k: machine[k] for k in ("suite_command", "date_utc", "suite_seconds", "loadavg_at_start",
                                         "loadavg_at_end", "git_commit", "openmp_wait")})
            machine = record
        write_result("machine", machine)
        if not args.keep_stack:
            stack_down()
    from bench.report import generate

    path = generate()
    log(f"wrote {path} and bench/plots/*.png in {time.monotonic() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
