"""Worst-case time of the rules extractor on generated adversarial inputs (ReDoS check).

Runs ``RulesExtractor().extract`` on every input of ``harness/adversarial.py`` (runs of each
character class, fillers, punctuation, mixed scripts; 24/64/4096 characters under statement prefixes
and breaking suffixes, plus 64K-character messages), each in a forked child killed after
``--timeout`` seconds, and the laugh series ``"我住在上海" + "哈" * n + "x"`` (the input of issue 11)
until one call exceeds ``--series-timeout``. Prints one JSON object: the worst input by CPU time
(killed ones first; ``timed_out`` when killed) and by wall time, how many inputs exceeded the timeout
and 0.1 s of CPU, and the series. The parent warms the pattern caches before forking, and CPU time
is reported beside wall time because a loaded machine stretches the wall time of small inputs.

    .venv/bin/python -m bench.bench_regex_worst [--timeout 2] [--series-timeout 60] [--quick]

Not a test: tests/core/extraction/test_regex_safety.py holds the pass/fail guard.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import platform
import time
from multiprocessing.connection import Connection

from core.extraction.candidates import ExtractionInput
from core.extraction.rules import RulesExtractor
from harness.adversarial import Adversarial, adversarial_inputs, large_inputs


def _child(text: str, conn: Connection) -> None:
    started, cpu = time.perf_counter(), time.process_time()
    RulesExtractor().extract(ExtractionInput(user_message=text))
    conn.send((time.perf_counter() - started, time.process_time() - cpu))


WARM_UP = ["我住在上海，喜欢吃辣，周末常去爬山。以后回答简短一点", "我想在三年内考上研究生",
           "别再提我的前任了", "I live in Boston, I love sushi and I'm learning Spanish.",
           "I'm a nurse and my daughter is 5", "forget my address"]


def time_extract(text: str, timeout: float) -> tuple[float, float, bool]:
    """Wall and CPU seconds ``extract`` took on ``text`` in a forked child (the parent warmed the
    pattern caches first), or (timeout, timeout, True) when it was killed."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(text, child), daemon=True)
    proc.start()
    child.close()
    ready = parent.poll(timeout)
    if not ready:
        proc.kill()
        proc.join()
        return timeout, timeout, True
    seconds, cpu = parent.recv()
    proc.join()
    return float(seconds), float(cpu), False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=2.0, help="seconds per input before the child is killed")
    ap.add_argument("--series-timeout", type=float, default=60.0)
    ap.add_argument("--quick", action="store_true", help="sizes 24 and 64 only, no 64K messages")
    args = ap.parse_args()

    inputs: list[Adversarial] = adversarial_inputs((24, 64) if args.quick else (24, 64, 4096))
    if not args.quick:
        inputs += large_inputs(65536)
    for text in WARM_UP:  # compile the lazily built patterns once, before forking
        RulesExtractor().extract(ExtractionInput(user_message=text))
    results: list[tuple[str, int, float, float, bool]] = []
    started = time.perf_counter()
    for case in inputs:
        seconds, cpu, killed = time_extract(case.text, args.timeout)
        results.append((case.name, len(case.text), seconds, cpu, killed))
    series: list[dict[str, object]] = []
    for n in range(16, 42, 2):
        seconds, cpu, killed = time_extract("我住在上海" + "哈" * n + "x", args.series_timeout)
        series.append({"n": n, "seconds": round(seconds, 4), "cpu_seconds": round(cpu, 4),
                       "timed_out": killed})
        if killed:
            break

    def row(r: tuple[str, int, float, float, bool]) -> dict[str, object]:
        return {"name": r[0], "chars": r[1], "seconds": round(r[2], 4), "cpu_seconds": round(r[3], 4),
                "timed_out": r[4]}

    by_cpu = sorted(results, key=lambda r: -r[3])
    by_wall = sorted(results, key=lambda r: -r[2])
    print(json.dumps({
        "inputs": len(results),
        "timeout_sec": args.timeout,
        "worst": row(by_cpu[0]),
        "worst_wall": row(by_wall[0]),
        "top10": [row(r) for r in by_cpu[:10]],
        "over_timeout": sum(1 for r in results if r[4]),
        "over_0_1s_cpu": sum(1 for r in results if r[3] > 0.1),
        "laugh_series": series,
        "wall_sec": round(time.perf_counter() - started, 1),
        "python": platform.python_version(),
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
