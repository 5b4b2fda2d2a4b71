"""The capacity model of ``docs/capacity.md``, computed from the unit costs of one run
(``bench/bench_unit_costs.py`` -> ``bench/results/unit_costs.json``) and the assumptions below.

    .venv/bin/python -m bench.capacity_model                 # markdown tables on stdout
    .venv/bin/python -m bench.capacity_model --check 40      # the prediction for 40 msgs/s on the rules path
    .venv/bin/python -m bench.capacity_model --deploy        # the figures deploy/k8s sets (100 msgs/s row)
    # the per-figure median of several unit-cost runs (OUT: bench/results/unit_costs.json, what it reads):
    .venv/bin/python -m bench.capacity_model --median-of A.json B.json C.json --out OUT.json

Every figure is ``rate x unit cost`` (Little's law for what is in flight), divided by a target utilisation
for processes and cores. The assumptions are named constants; change them and rerun.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
UNIT_COSTS = REPO / "bench" / "results" / "unit_costs.json"

# --- assumptions (docs/capacity.md "Assumptions") -------------------------------------------------------
UTILISATION = 0.6  # target CPU share of a core per process / per core of a node (headroom for bursts)
QUERIES_PER_MESSAGE = 1.0  # one POST /v1/retrieve per user turn
TOOL_WRITES_PER_MESSAGE = 0.05  # memory_save/append/delete by the agent per user turn
MEMORY_WRITES_PER_MESSAGE = 0.2  # memories written per user message (LoCoMo: 0.19-0.21 per turn, RESULTS)
EPISODES_PER_MESSAGE = 1.0  # episodes (issue 25): a passage per user message (greetings none, long ones more)
EPISODE_TTL_DAYS = 365  # EPISODE_TTL_DAYS: an episode's Milvus entry and row live this long
MODEL_LATENCY_SEC = 1.0  # LLM call (extract) latency
IN_FLIGHT = 32  # CONSUMER_EXTRACTOR_MAX_IN_FLIGHT
LIVE_MEMORIES_PER_USER = 30  # after dedup by key / semantic merge; inactive rows are retired
KAFKA_REPLICATION = 3
KAFKA_RETENTION_DAYS = 7  # log.retention.hours=168
OUTBOX_DWELL_SEC = 1.0  # commit -> relay published (normal); a relay outage adds its length x rate
OUTBOX_RETENTION_HOURS = 24  # published rows kept this long (core.config), then deleted
EMBEDDING_DIM = 384
MILVUS_RAM_BYTES_PER_ENTRY = EMBEDDING_DIM * 4 * 1.5 + 300  # vector + HNSW graph (~50 %) + scalar fields
RATES = (100, 1_000, 10_000)
USERS = (1_000_000, 100_000_000)
SCALE_OUT = 2  # partitions and autoscaling ceilings leave room for this many times a row's processes
MIN_PARTITIONS = 6  # KAFKA_TOPIC_PARTITIONS' default (schemas/topics.py): never fewer
# --- the deployment (deploy/k8s, docs/capacity.md "The deployment uses these figures") ---------------
DEPLOY_RATE = 100  # the row deploy/k8s is sized for
API_MIN_REPLICAS = 2  # the API's HorizontalPodAutoscaler floor (one pod may be drained, the PDB keeps 1)
FIXED_REPLICAS = 2  # the relay (and commands) run a fixed count: two for availability, not for load
CPU_STEP_M = 50  # a fixed-count process's CPU request is rounded up to this many millicores
COMMIT_INTERVAL_SEC = 1.0  # consumers.runtime.CommitPolicy.interval_sec: offsets committed every second


def load(path: Path = UNIT_COSTS) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The per-figure median of several ``bench_unit_costs`` results: every number is the median of that
    number in the runs (lists element by element), every other value is the first run's; ``runs`` lists
    each run's start and load average."""
    def merge(values: list[Any]) -> Any:
        first = values[0]
        if isinstance(first, bool) or first is None or isinstance(first, str):
            return first
        if isinstance(first, int | float):
            nums = sorted(float(v) for v in values if isinstance(v, int | float))
            mid = len(nums) // 2
            m = nums[mid] if len(nums) % 2 else (nums[mid - 1] + nums[mid]) / 2
            return round(m) if isinstance(first, int) else round(m, 4)
        if isinstance(first, dict):
            return {k: merge([v[k] for v in values if isinstance(v, dict) and k in v]) for k in first}
        if isinstance(first, list):
            return [merge([v[i] for v in values]) for i in range(len(first))]
        return first

    out: dict[str, Any] = merge(runs)
    out["median_of"] = [{"started_at": r.get("started_at"), "load_avg": r.get("machine", {}).get("load_avg")}
                        for r in runs]
    return out


def costs(data: dict[str, Any]) -> dict[str, float]:
    """CPU ms per user message of each component (LLM path), per the assumptions above."""
    llm = data["llm_message"]["cpu_ms_per_unit"]
    tool = data["tool_write"]["cpu_ms_per_unit"]
    query = data["query"]["cpu_ms_per_unit"]
    rules = data["rules_message"]["cpu_ms_per_unit"]
    # the indexer, the relay and Milvus per LLM-path message are the LLM phase's own figures: each of its
    # messages (unique texts) writes an episode and one memory (the double's echo-candidates), both
    # embedded and indexed for real, so they include the episode the model's message writes and more
    # memory writes than the 0.2 assumed (on the safe side); the agent's tool writes are added apart
    return {
        "extractor": llm["extractor"],
        "extractor_rules": rules["extractor"],
        "indexer": llm["indexer"] + tool["indexer"] * TOOL_WRITES_PER_MESSAGE,
        "relay": llm["relay"] + tool["relay"] * TOOL_WRITES_PER_MESSAGE,
        "api": query["api"] * QUERIES_PER_MESSAGE + tool["api"] * TOOL_WRITES_PER_MESSAGE,
        "postgres": (llm["postgres"] + query["postgres"] * QUERIES_PER_MESSAGE
                     + tool["postgres"] * TOOL_WRITES_PER_MESSAGE),
        # one broker's CPU per message (the rules phase: the LLM phase's window is too short against the
        # broker's idle rate), times the replication factor (every replica writes and serves fetches)
        "kafka": ((max(llm["kafka"], rules["kafka"]) + tool["kafka"] * TOOL_WRITES_PER_MESSAGE)
                  * KAFKA_REPLICATION),
        "milvus": (query["milvus"] * QUERIES_PER_MESSAGE + llm["milvus"]
                   + tool["milvus"] * TOOL_WRITES_PER_MESSAGE),
    }


def footprint(data: dict[str, Any]) -> dict[str, float]:
    fp = data["footprint"]
    pg = fp["postgres"]
    msgs = max(1, pg["messages"]["rows"])
    mems = max(1, pg["long_term_memories"]["rows"])
    hist = max(1, pg["memory_history"]["rows"])
    chat = sum(v["bytes"] for k, v in fp["kafka"].items() if k.endswith(".chat"))
    dirty = sum(v["bytes"] for k, v in fp["kafka"].items() if k.endswith(".dirty"))
    return {
        "message_row_bytes": (pg["messages"]["bytes"]
                              + pg.get("conversations", {"bytes": 0})["bytes"]) / msgs,
        "memory_row_bytes": pg["long_term_memories"]["bytes"] / mems,
        # an episode row: measured when the run has the table, else taken as a message row's size
        "episode_row_bytes": (pg["episodes"]["bytes"] / max(1, pg["episodes"]["rows"]) if "episodes" in pg
                              else pg["messages"]["bytes"] / msgs),
        "history_row_bytes": pg["memory_history"]["bytes"] / hist,
        "chat_record_bytes": chat / msgs,
        # memory.dirty carries a memory's change (one per history row) and an episode (one per message)
        "dirty_record_bytes": dirty / (hist + msgs * EPISODES_PER_MESSAGE),
        # Milvus holds the memories and (issue 25) one episode per message
        "milvus_disk_bytes_per_entry": fp["milvus"]["bytes"] / (mems + msgs * EPISODES_PER_MESSAGE),
        "outbox_row_bytes": pg["outbox"]["bytes"] / max(1, pg["outbox"]["rows"]),
        "wal_bytes_per_message": data["llm_message"]["wal_bytes_per_unit"],
        "wal_bytes_per_tool_write": data["tool_write"]["wal_bytes_per_unit"],
    }


def per_process_rate(data: dict[str, Any]) -> float:
    """Messages/s one extractor process sustains on the LLM path: the in-flight bound or its CPU bound."""
    cpu_bound = UTILISATION * 1000 / data["llm_message"]["cpu_ms_per_unit"]["extractor"]
    return min(IN_FLIGHT / MODEL_LATENCY_SEC, cpu_bound)


def rate_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    c = costs(data)
    f = footprint(data)
    ext_rate = per_process_rate(data)
    rows = []
    for rate in RATES:
        extractors = math.ceil(rate / ext_rate)
        indexers = math.ceil(rate * c["indexer"] / 1000 / UTILISATION)
        api = math.ceil(rate * c["api"] / 1000 / UTILISATION)
        relays = max(1, math.ceil(rate * c["relay"] / 1000 / UTILISATION))
        cores = {k: rate * v / 1000 / UTILISATION for k, v in c.items() if k != "extractor_rules"}
        memory_writes = rate * (MEMORY_WRITES_PER_MESSAGE + TOOL_WRITES_PER_MESSAGE)
        episodes = rate * EPISODES_PER_MESSAGE
        # rows written per user message: message insert + status update; per memory write: memory row,
        # history row, outbox insert + mark published + delete after retention, vector status update; per
        # episode: its row, its outbox insert + mark + delete, its vector status update
        pg_writes = rate * 2 + memory_writes * 6 + episodes * 5
        wal_day = (rate * f["wal_bytes_per_message"] + rate * TOOL_WRITES_PER_MESSAGE
                   * f["wal_bytes_per_tool_write"]) * 86400
        storage_day = rate * 86400 * (f["message_row_bytes"] + EPISODES_PER_MESSAGE * f["episode_row_bytes"]
                                      + MEMORY_WRITES_PER_MESSAGE * f["history_row_bytes"])
        kafka_in = rate * f["chat_record_bytes"] + (memory_writes + episodes) * f["dirty_record_bytes"]
        episodes_kept = episodes * 86400 * EPISODE_TTL_DAYS
        partitions = partition_count(max(extractors, indexers))
        rows.append({
            "rate": rate, "extractors": extractors, "indexers": indexers, "api": api, "relays": relays,
            "cores": cores, "cores_total": sum(cores.values()), "partitions": partitions,
            "pg_writes": pg_writes, "wal_gb_day": wal_day / 1e9, "storage_gb_day": storage_day / 1e9,
            "outbox_in_flight": (memory_writes + episodes) * OUTBOX_DWELL_SEC,
            "outbox_kept_rows": (memory_writes + episodes) * OUTBOX_RETENTION_HOURS * 3600,
            "outbox_kept_gb": ((memory_writes + episodes) * OUTBOX_RETENTION_HOURS * 3600
                               * f["outbox_row_bytes"] / 1e9),
            "episodes_kept": episodes_kept,
            "episodes_milvus_ram_gb": episodes_kept * MILVUS_RAM_BYTES_PER_ENTRY / 1e9,
            "kafka_in_mb_s": kafka_in / 1e6,
            "kafka_retained_gb": kafka_in * KAFKA_REPLICATION * 86400 * KAFKA_RETENTION_DAYS / 1e9,
        })
    return rows


def partition_count(largest_group: int) -> int:
    """The next power of two at or above ``SCALE_OUT`` x the largest consumer group, at least
    ``MIN_PARTITIONS``: a group never has more useful members than its topic has partitions."""
    return max(MIN_PARTITIONS, 2 ** math.ceil(math.log2(largest_group * SCALE_OUT)))


def deployment(data: dict[str, Any], *, debounce_sec: float, index_flush_wait_sec: float,
               index_batch_size: int, rate: float = DEPLOY_RATE) -> dict[str, Any]:
    """What ``deploy/k8s`` sets for the row at ``rate`` (``tests/deploy/test_capacity_figures.py`` holds
    the manifests to it). The keyword arguments are the settings the deployment runs with
    (``LONG_TERM_MEMORY_DEBOUNCE_SEC``, ``MEMORY_INDEX_FLUSH_WAIT_SEC``, ``MEMORY_INDEX_WORKER_BATCH_SIZE``).

    - partitions: the row's partition rule; KEDA's and the HPA's ceilings: ``SCALE_OUT`` x the row's
      processes, never above the partitions for a consumer group;
    - a KEDA ``lagThreshold`` is the lag one process holds at its full rate (Little's law: its rate x how
      long a record stays uncommitted), so KEDA's target (total lag / threshold) is the model's process
      count at any rate. An extractor's record stays uncommitted for the debounce, the model call and
      half a commit interval; an indexer's for the batch's fill wait, the batch's CPU and half a commit
      interval;
    - a CPU request is what the process uses at the row: a scaled process (extractor, indexer, API) is
      sized at ``UTILISATION`` of a core, so it requests that and the API's HPA aims at 100 % of the
      request; the relay (fixed replicas) requests the row's relay CPU split over its replicas.
    """
    c = costs(data)
    row = next((r for r in rate_rows(data) if r["rate"] == rate), None)
    if row is None:
        raise ValueError(f"no row at {rate} msgs/s (RATES: {RATES})")
    events_per_message = MEMORY_WRITES_PER_MESSAGE + TOOL_WRITES_PER_MESSAGE + EPISODES_PER_MESSAGE
    index_ms_per_event = c["indexer"] / events_per_message
    index_rate = UTILISATION * 1000 / index_ms_per_event  # memory.dirty events/s of one indexer process
    extract_hold = debounce_sec + MODEL_LATENCY_SEC + COMMIT_INTERVAL_SEC / 2
    index_hold = index_flush_wait_sec + index_batch_size * index_ms_per_event / 1000 + COMMIT_INTERVAL_SEC / 2
    scaled_m = round(UTILISATION * 1000)
    relays = max(FIXED_REPLICAS, row["relays"])
    relay_m = math.ceil(rate * c["relay"] / relays / CPU_STEP_M) * CPU_STEP_M  # its CPU use at the row
    return {
        "rate": rate,
        "partitions": row["partitions"],
        "extractor": {"needed": row["extractors"],
                      "max": min(row["partitions"], row["extractors"] * SCALE_OUT),
                      "per_process_rate": per_process_rate(data), "hold_sec": extract_hold,
                      "lag_threshold": math.ceil(per_process_rate(data) * extract_hold), "cpu_m": scaled_m},
        "indexer": {"needed": row["indexers"],
                    "max": min(row["partitions"], row["indexers"] * SCALE_OUT),
                    "per_process_rate": index_rate, "hold_sec": index_hold,
                    "lag_threshold": math.ceil(index_rate * index_hold), "cpu_m": scaled_m},
        "api": {"needed": row["api"], "min": API_MIN_REPLICAS,
                "max": max(API_MIN_REPLICAS, row["api"] * SCALE_OUT),
                "cpu_m": scaled_m, "cpu_target_percent": 100},
        "relay": {"needed": row["relays"], "replicas": relays, "cpu_m": relay_m},
    }


def deploy_figures(data: dict[str, Any]) -> dict[str, Any]:
    """``deployment`` with the settings ``deploy/k8s/configmap.yaml`` gives every process."""
    import yaml

    from core.config import load_settings

    configmap = yaml.safe_load((REPO / "deploy" / "k8s" / "configmap.yaml").read_text(encoding="utf-8"))
    settings = load_settings(_env_file=None, **configmap["data"])
    return deployment(data, debounce_sec=settings.LONG_TERM_MEMORY_DEBOUNCE_SEC,
                      index_flush_wait_sec=settings.MEMORY_INDEX_FLUSH_WAIT_SEC,
                      index_batch_size=settings.MEMORY_INDEX_WORKER_BATCH_SIZE)


def user_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    f = footprint(data)
    out = []
    for users in USERS:
        entries = users * LIVE_MEMORIES_PER_USER
        out.append({"users": users, "entries": entries,
                    "memories_gb": entries * f["memory_row_bytes"] / 1e9,
                    "milvus_ram_gb": entries * MILVUS_RAM_BYTES_PER_ENTRY / 1e9,
                    "milvus_disk_gb": entries * f["milvus_disk_bytes_per_entry"] / 1e9})
    return out


def check(data: dict[str, Any], rate: float) -> dict[str, float]:
    """Predicted CPU share (cores) of each process on the rules path at ``rate`` messages/s (no queries,
    no tool writes: what ``bench_unit_costs.py --rules-only`` drives)."""
    rules = data["rules_message"]["cpu_ms_per_unit"]
    return {k: round(rate * v / 1000, 3) for k, v in rules.items()}


def markdown(data: dict[str, Any]) -> str:
    lines = ["| user msgs/s | extractor procs | indexer procs | API procs | relay | cores (all, at "
             f"{UTILISATION:.0%}) | partitions | PG rows written/s | WAL/day | PG growth/day "
             "| outbox in flight / kept 24 h | Kafka in (x3 replicated) | Kafka retained (7 d, x3) "
             f"| episodes kept ({EPISODE_TTL_DAYS} d) / their Milvus RAM |",
             "|" + "---|" * 14]
    for r in rate_rows(data):
        lines.append(
            f"| {r['rate']:,} | {r['extractors']} | {r['indexers']} | {r['api']} | {r['relays']} | "
            f"{r['cores_total']:.1f} | {r['partitions']} | {r['pg_writes']:,.0f} | "
            f"{r['wal_gb_day']:,.0f} GB | "
            f"{r['storage_gb_day']:,.0f} GB | {r['outbox_in_flight']:,.0f} / "
            f"{r['outbox_kept_rows'] / 1e6:,.1f} M rows ({r['outbox_kept_gb']:,.0f} GB) | "
            f"{r['kafka_in_mb_s']:.2f} MB/s ({r['kafka_in_mb_s'] * KAFKA_REPLICATION:.2f}) | "
            f"{r['kafka_retained_gb']:,.0f} GB | {r['episodes_kept'] / 1e9:,.1f} billion / "
            f"{r['episodes_milvus_ram_gb'] / 1e3:,.0f} TB |")
    rows = rate_rows(data)
    lines += ["", "| cores by component | " + " | ".join(f"{r['rate']:,}/s" for r in rows) + " |",
              "|---|" + "---|" * len(RATES)]
    for comp in rate_rows(data)[0]["cores"]:
        lines.append(f"| {comp} | " + " | ".join(f"{r['cores'][comp]:.1f}" for r in rate_rows(data)) + " |")
    lines += ["", "| users | live memories | memory rows in PostgreSQL | Milvus RAM | Milvus disk |",
              "|---|---|---|---|---|"]
    for u in user_rows(data):
        lines.append(f"| {u['users']:,} | {u['entries']:,} | {u['memories_gb']:,.1f} GB | "
                     f"{u['milvus_ram_gb']:,.1f} GB | {u['milvus_disk_gb']:,.1f} GB |")
    lines += ["", "unit costs (CPU ms per user message, LLM path, per the assumptions): "
              + ", ".join(f"{k} {v:.2f}" for k, v in costs(data).items()),
              "footprint: " + ", ".join(f"{k} {v:,.0f}" for k, v in footprint(data).items()),
              f"extractor process: {per_process_rate(data):.1f} msgs/s (min of {IN_FLIGHT} in flight / "
              f"{MODEL_LATENCY_SEC} s and {UTILISATION:.0%} of a core / "
              f"{data['llm_message']['cpu_ms_per_unit']['extractor']} ms)"]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--costs", type=Path, default=UNIT_COSTS)
    parser.add_argument("--check", type=float, default=None, help="predict the rules path at this rate")
    parser.add_argument("--deploy", action="store_true",
                        help="the figures deploy/k8s sets, with the settings of its ConfigMap")
    parser.add_argument("--median-of", type=Path, nargs="+", default=None,
                        help="write the per-figure median of these unit-cost runs to --out")
    parser.add_argument("--out", type=Path, default=UNIT_COSTS)
    args = parser.parse_args()
    if args.median_of:
        merged = median_of([load(p) for p in args.median_of])
        args.out.write_text(json.dumps(merged, indent=1, default=str))
        print(json.dumps(merged["median_of"]))
        return 0
    data = load(args.costs)
    if args.check is not None:
        print(json.dumps(check(data, args.check)))
    elif args.deploy:
        print(json.dumps(deploy_figures(data), indent=1))
    else:
        print(markdown(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
