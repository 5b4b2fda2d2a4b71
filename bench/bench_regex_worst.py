"""Worst-case time of the rules extractor on generated adversarial inputs (ReDoS check).

Runs ``RulesExtractor().extract`` on every input of ``tests/support/adversarial.py`` (runs of each
character class, fillers, punctuation, mixed scripts; 24/64/4096 characters under statement prefixes
and breaking suffixes, plus 64K-character messages), each in a forked child killed after
``--timeout`` seconds, and the laugh series ``"我住在上海" + "哈" * n + "x"`` (the input of issue 11)
until one call exceeds ``--series-timeout``. Prints one JSON object: the worst input and its time
(``timed_out`` when it was killed), how many inputs exceeded the timeout / 0.1 s, and the series.

    .venv/bin/python bench/bench_regex_worst.py [--timeout 2] [--series-timeout 60] [--quick]

Not a test: tests/core/extraction/test_regex_safety.py holds the pass/fail guard.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import platform
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.extraction.candidates import ExtractionInput
from core.extraction.rules import RulesExtractor
from tests.support.adversarial import Adversarial, adversarial_inputs, large_inputs


def _child(text: str, conn: Connection) -> None:
    started = time.perf_counter()
    RulesExtractor().extract(ExtractionInput(user_message=text))
    conn.send(time.perf_counter() - started)


def time_extract(text: str, timeout: float) -> tuple[float, bool]:
    """Seconds ``extract`` took on ``text`` in a forked child, or (timeout, True) when killed."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(text, child), daemon=True)
    proc.start()
    child.close()
    ready = parent.poll(timeout)
    if not ready:
        proc.kill()
        proc.join()
        return timeout, True
    seconds = float(parent.recv())
    proc.join()
    return seconds, False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=2.0, help="seconds per input before the child is killed")
    ap.add_argument("--series-timeout", type=float, default=60.0)
    ap.add_argument("--quick", action="store_true", help="sizes 24 and 64 only, no 64K messages")
    args = ap.parse_args()

    inputs: list[Adversarial] = adversarial_inputs((24, 64) if args.quick else (24, 64, 4096))
    if not args.quick:
        inputs += large_inputs(65536)
    results: list[tuple[str, int, float, bool]] = []
    started = time.perf_counter()
    for case in inputs:
        seconds, killed = time_extract(case.text, args.timeout)
        results.append((case.name, len(case.text), seconds, killed))
    results.sort(key=lambda r: -r[2])
    series: list[dict[str, object]] = []
    for n in range(16, 42, 2):
        seconds, killed = time_extract("我住在上海" + "哈" * n + "x", args.series_timeout)
        series.append({"n": n, "seconds": round(seconds, 4), "timed_out": killed})
        if killed:
            break
    worst = results[0]
    print(json.dumps({
        "inputs": len(results),
        "timeout_sec": args.timeout,
        "worst": {"name": worst[0], "chars": worst[1], "seconds": round(worst[2], 4), "timed_out": worst[3]},
        "top10": [{"name": r[0], "chars": r[1], "seconds": round(r[2], 4), "timed_out": r[3]}
                  for r in results[:10]],
        "over_timeout": sum(1 for r in results if r[3]),
        "over_0_1s": sum(1 for r in results if r[2] > 0.1),
        "laugh_series": series,
        "wall_sec": round(time.perf_counter() - started, 1),
        "python": platform.python_version(),
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
