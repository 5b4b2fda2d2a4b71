"""Fault injection: the full pipeline on a private local stack keeps every message and memory through
process kills, broker/database/vector-store outages and a misbehaving LLM endpoint.

Every scenario drives a steady stream of chat messages with known outcomes (per user a job, an
allergy, then "I live in <city> now." statements), inflicts its fault at a seeded random point while
the stream flows, and then asserts (``Pipeline.scenario``):
- every published message PROCESSED; per user exactly one live memory per slot holding the last
  published value; history one change per statement in publish order (nothing lost, nothing doubled);
- every live memory SYNCED, and ``verify`` (truth vs Milvus) clean within a bound;
- nothing dead-lettered, no service process died;
- retrieval (a prober calling ``POST /v1/retrieve`` every 200 ms) never failed, except connection
  errors while the API itself was killed and 503s while PostgreSQL, the truth, was down.
Recovery time = fault end (process restarted / service answering again) -> pipeline settled.

Scenarios share one pipeline (module fixture) and the invariants are cumulative: each scenario also
re-checks everything published before it. ``--run-slow`` adds longer outages and a random chaos run.
"""

from __future__ import annotations

import json
import random
import time
import uuid
import zlib
from collections.abc import Callable
from itertools import combinations

import pytest

from harness.checks import progress
from harness.pipeline import Pipeline
from harness.private_stack import PrivateStack
from harness.probe import Probe
from harness.scenario import ScenarioContext, ScenarioResult, backend_ports, pg_watch
from tests.reliability.llm_double import SwitchableLLM

pytestmark = pytest.mark.timeout(900)

KILLABLE = ("extractor-0", "relay-0", "indexer-0", "api-0")


def seed_for(fault_seed: int, name: str) -> int:
    return fault_seed ^ zlib.crc32(name.encode())


def assert_ok(result: ScenarioResult) -> None:
    print(json.dumps({result.name: {"recovery_sec": result.recovery_sec,
                                    "verify_clean_sec": result.verify_clean_sec,
                                    "fault_duration_sec": result.fault_duration_sec,
                                    "messages": result.messages, "retrieval": result.retrieval}}))
    assert result.ok, json.dumps(result.as_dict(), indent=1, default=str)


# --- process kills -------------------------------------------------------------------------------------
@pytest.mark.parametrize("victim", KILLABLE)
def test_kill_one_process(pipeline: Pipeline, fault_seed: int, victim: str) -> None:
    name = f"kill -9 {victim}"
    result = pipeline.scenario(name, lambda ctx: ctx.kill_and_restart([victim]),
                               seed=seed_for(fault_seed, name))
    assert_ok(result)


def test_kill_two_processes_at_once(pipeline: Pipeline, fault_seed: int) -> None:
    rng = random.Random(seed_for(fault_seed, "pair"))
    pair = rng.choice(list(combinations(KILLABLE, 2)))
    name = f"kill -9 {pair[0]} + {pair[1]}"
    result = pipeline.scenario(name, lambda ctx: ctx.kill_and_restart(list(pair)),
                               seed=seed_for(fault_seed, name))
    assert_ok(result)


# --- Kafka ---------------------------------------------------------------------------------------------
def kafka_restart(outage: tuple[float, float]):  # type: ignore[no-untyped-def]
    def fault(ctx: ScenarioContext) -> None:
        stack = ctx.pipeline.stack
        ctx.begin()
        stack.down(["kafka"])
        pause = ctx.rng.uniform(*outage)
        time.sleep(pause)
        ctx.details["restart_sec"] = round(stack.up(["kafka"]), 2)
        ctx.details["outage_sec"] = round(pause, 2)
        ctx.end()

    return fault


def test_kafka_broker_stop_and_restart(pipeline: Pipeline, fault_seed: int) -> None:
    name = "Kafka broker stop + restart"
    result = pipeline.scenario(name, kafka_restart((2.0, 5.0)), seed=seed_for(fault_seed, name))
    assert_ok(result)


# --- PostgreSQL ----------------------------------------------------------------------------------------
_IN_EXTRACTOR_TXN = """
SELECT pid, state, left(query, 120), EXTRACT(EPOCH FROM clock_timestamp() - xact_start) * 1000,
       query ~* '(long_term_memories|memory_history|outbox|UPDATE messages)' AS applying
FROM pg_stat_activity
WHERE client_port = ANY(%s) AND backend_xid IS NOT NULL AND xact_start IS NOT NULL
ORDER BY applying DESC
"""


def postgres_crash(outage: tuple[float, float], catch_timeout: float = 20.0):  # type: ignore[no-untyped-def]
    """Crash PostgreSQL (immediate shutdown) while an extractor transaction holds writes.

    How the moment is found: a burst (every user twice, back to back) is published on top of the
    stream, then ``pg_stat_activity`` is polled in a tight loop for a backend that belongs to the
    extractor process (matched by the client ports of its PostgreSQL connections) and has a
    transaction id assigned (``backend_xid``: it has written or locked rows and not committed).
    For the first 70% of ``catch_timeout`` only the applying transaction (memory rows, history,
    outbox, message status) counts; after that the message-storing one does too. The crash follows
    the sighting at once; if none is seen within ``catch_timeout`` the crash happens anyway and the
    result says ``caught_in_transaction: null``. Best effort: the transaction may commit in the ~1 ms
    between sighting and SIGQUIT."""

    def fault(ctx: ScenarioContext) -> None:
        pipe = ctx.pipeline
        ext_pid = pipe.supervisor.children["extractor-0"].pid
        pg_port = pipe.stack.ports.postgres
        caught = None
        polls = 0
        with pg_watch(pipe.settings.database_url) as conn:
            pipe.traffic.publish_round()
            pipe.traffic.publish_round()
            deadline = time.monotonic() + catch_timeout
            any_after = time.monotonic() + 0.7 * catch_timeout
            ports: list[int] = []
            refreshed = 0.0
            while time.monotonic() < deadline:
                if time.monotonic() - refreshed > 0.2:
                    ports = sorted(backend_ports(ext_pid, pg_port))
                    refreshed = time.monotonic()
                polls += 1
                rows = conn.execute(_IN_EXTRACTOR_TXN, (ports,)).fetchall() if ports else []
                if rows and (rows[0][4] or time.monotonic() > any_after):
                    caught = rows[0]
                    break
            ctx.begin()
            window = ctx.window("storage_down")
            pipe.stack.crash_postgres()
        ctx.details["caught_in_transaction"] = None if caught is None else {
            "phase": "applying" if caught[4] else "storing the message", "state": caught[1],
            "query": caught[2], "xact_ms": round(float(caught[3]), 1)}
        ctx.details["pg_stat_polls"] = polls
        pause = ctx.rng.uniform(*outage)
        time.sleep(pause)
        ctx.details["outage_sec"] = round(pause, 2)
        ctx.details["restart_sec"] = round(pipe.stack.up(["postgres"]), 2)
        ctx.end()
        window.end = time.monotonic() + 2.0  # pooled connections are re-established on first use

    return fault


def test_postgres_crash_during_extractor_transaction(pipeline: Pipeline, fault_seed: int) -> None:
    name = "PostgreSQL crash (immediate) during an extractor transaction + restart"
    result = pipeline.scenario(name, postgres_crash((2.0, 5.0)), seed=seed_for(fault_seed, name))
    assert_ok(result)
    assert result.details.get("caught_in_transaction") is not None, \
        "no extractor transaction was in flight at the crash (best effort; rerun to confirm)"


# --- Milvus --------------------------------------------------------------------------------------------
def milvus_outage(outage: tuple[float, float]):  # type: ignore[no-untyped-def]
    def fault(ctx: ScenarioContext) -> None:
        pipe = ctx.pipeline
        ctx.begin()
        pipe.stack.down(["milvus"])
        window = ctx.window("vector_down")
        pause = ctx.rng.uniform(*outage)
        deadline = time.monotonic() + pause
        unsynced = 0
        while time.monotonic() < deadline:  # writes go on: the truth queues them DIRTY/FAILED
            unsynced = max(unsynced, progress(pipe.sessions, pipe.traffic.sent[-200:]).unsynced)
            time.sleep(0.5)
        window.end = time.monotonic()
        ctx.details["outage_sec"] = round(pause, 2)
        ctx.details["unsynced_during_outage_max"] = unsynced
        ctx.details["restart_sec"] = round(pipe.stack.up(["milvus"]), 2)
        ctx.end()

    return fault


DENSE_BACK_TIMEOUT_SEC = 30.0


def first_dense_after(ctx: ScenarioContext, timeout: float) -> Probe | None:
    """The first retrieval served by the dense path after the fault ended, waiting for it up to
    ``timeout`` s past the fault's end: the index can settle within milliseconds of Milvus answering,
    before the API's client has reconnected and its dense cooldown has passed."""
    assert ctx.fault_end is not None
    deadline = ctx.fault_end + timeout
    while True:
        back = [p for p in ctx.pipeline.probe.between(ctx.fault_end, time.monotonic())
                if p.outcome == "ok" and p.served_by == "dense"]
        if back:
            return back[0]
        if time.monotonic() > deadline:
            return None
        time.sleep(0.2)


def lexical_while_milvus_down(ctx: ScenarioContext, probes: list[Probe]) -> list[str]:
    problems = []
    window = next(w for w in ctx.windows if w.kind == "vector_down")
    assert window.end is not None and ctx.fault_end is not None
    during = [p for p in probes if window.start <= p.at <= window.end]
    if len(during) < 5:
        problems.append(f"only {len(during)} retrieval calls while Milvus was down")
    wrong = [p for p in during if p.outcome != "ok" or p.served_by != "lexical_fallback"]
    if wrong:
        problems.append(f"{len(wrong)} of {len(during)} retrievals during the Milvus outage were not served "
                        f"by the lexical fallback, e.g. {wrong[:2]}")
    back = first_dense_after(ctx, DENSE_BACK_TIMEOUT_SEC)
    if back is not None:
        ctx.details["dense_back_after_sec"] = round(back.at - ctx.fault_end, 2)
    else:
        problems.append(f"the dense path did not come back within {DENSE_BACK_TIMEOUT_SEC:.0f} s "
                        "after Milvus returned")
    if not ctx.details.get("unsynced_during_outage_max"):
        problems.append("no write was queued DIRTY/FAILED during the outage (the fault did not bite)")
    ctx.details["lexical_during_outage"] = len(during) - len(wrong)
    return problems


def test_milvus_unavailable_for_a_while(pipeline: Pipeline, fault_seed: int) -> None:
    name = "Milvus unavailable"
    result = pipeline.scenario(name, milvus_outage((6.0, 10.0)), seed=seed_for(fault_seed, name),
                               check_retrieval=lexical_while_milvus_down)
    assert_ok(result)


# --- long variants -------------------------------------------------------------------------------------
@pytest.mark.slow
def test_long_outages(pipeline: Pipeline, fault_seed: int) -> None:
    """Outages longer than the retry budgets: Kafka 30-40 s, PostgreSQL 20-30 s, Milvus 60-75 s (the
    indexer gives up and the sweeper's re-enqueue must bring every memory back)."""
    for name, fault, check in (
        ("long: Kafka broker down", kafka_restart((30.0, 40.0)), None),
        ("long: PostgreSQL crash", postgres_crash((20.0, 30.0)), None),
        ("long: Milvus down", milvus_outage((60.0, 75.0)), lexical_while_milvus_down),
    ):
        result = pipeline.scenario(name, fault, seed=seed_for(fault_seed, name), lead=(2.0, 6.0),
                                   settle_timeout=300, check_retrieval=check)
        assert_ok(result)


Fault = tuple[str, Callable[[ScenarioContext], None],
              Callable[[ScenarioContext, list[Probe]], list[str]] | None]


def kill(*names: str) -> Callable[[ScenarioContext], None]:
    def fault(ctx: ScenarioContext) -> None:
        ctx.kill_and_restart(list(names))

    return fault


@pytest.mark.slow
def test_chaos_random_faults(pipeline: Pipeline, fault_seed: int) -> None:
    """Ten faults drawn at random (seeded) from the whole catalogue, back to back: first a kind (one
    process, two processes, Kafka, PostgreSQL, Milvus) with equal weight, then a victim."""
    rng = random.Random(seed_for(fault_seed, "chaos"))
    kinds: list[list[Fault]] = [
        [(f"chaos: kill -9 {v}", kill(v), None) for v in KILLABLE],
        [(f"chaos: kill -9 {a} + {b}", kill(a, b), None) for a, b in combinations(KILLABLE, 2)],
        [("chaos: Kafka restart", kafka_restart((2.0, 15.0)), None)],
        [("chaos: PostgreSQL crash", postgres_crash((2.0, 15.0), catch_timeout=5.0), None)],
        [("chaos: Milvus down", milvus_outage((5.0, 20.0)), lexical_while_milvus_down)],
    ]
    for round_no in range(10):
        name, fault, check = rng.choice(rng.choice(kinds))
        result = pipeline.scenario(f"{name} #{round_no}", fault, seed=rng.randrange(2**31), lead=(0.5, 4.0),
                                   settle_timeout=240, check_retrieval=check)
        assert_ok(result)


# --- the LLM endpoint ----------------------------------------------------------------------------------
def test_llm_endpoint_garbage_then_timeouts(pipeline: Pipeline, fault_seed: int) -> None:
    """The extractor runs with ``MEMORY_EXTRACTOR_PROVIDER=openai`` against a switchable TEST DOUBLE;
    for a while it answers garbage (prose, wrong JSON, non-JSON body, HTTP 500), then only after the
    client's deadline; then it is healthy again. Messages that exhausted their attempts meanwhile are
    FAILED and re-driven by the sweeper: all must end PROCESSED. A re-driven statement that the user
    already superseded leaves no change (a later statement wins), so history is checked as an in-order
    subsequence ending with the last statement. Runs last: the extractor is swapped for the scenario."""
    llm = SwitchableLLM(delay=6.0)
    llm.start()
    try:
        env = {"MEMORY_EXTRACTOR_PROVIDER": "openai", "LLM_BASE_URL": llm.base_url,
               "LLM_API_KEY": "test-double", "LLM_MAX_RETRIES": "1",
               "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC": "3"}
        sup = pipeline.supervisor
        pipeline.extra_env["extractor-0"] = env
        sup.stop("extractor-0", timeout=30)
        sup.start("extractor", 0, extra_env=env)
        pipeline.traffic.publish_round()  # the LLM extractor is in the group and answering
        pipeline.traffic.settle_deliveries(60)
        ok, state, _ = pipeline.wait_settled(pipeline.traffic.delivered, 180)
        assert ok, f"the openai extractor did not take over: {state}"
        assert llm.replies["ok"] > 0

        def fault(ctx: ScenarioContext) -> None:
            ctx.begin()
            garbage, slow = ctx.rng.uniform(5.0, 8.0), ctx.rng.uniform(5.0, 8.0)
            llm.mode = "garbage"
            time.sleep(garbage)
            llm.mode = "timeout"
            time.sleep(slow)
            llm.mode = "ok"
            ctx.details.update(garbage_sec=round(garbage, 2), timeout_sec=round(slow, 2))
            ctx.end()

        name = "LLM endpoint garbage, then timeouts"
        result = pipeline.scenario(name, fault, seed=seed_for(fault_seed, name), settle_timeout=240,
                                   strict_history=False)
        result.details["llm_replies"] = dict(llm.replies)
        assert llm.replies["garbage"] > 0 and llm.replies["timeout"] > 0, llm.replies
        assert_ok(result)
    finally:
        # back to the offline extractor for whatever runs next (the double is going away)
        pipeline.extra_env.pop("extractor-0", None)
        pipeline.supervisor.stop("extractor-0", timeout=30)
        pipeline.supervisor.start("extractor", 0)
        llm.stop()


def lexical_while_embeddings_fail(ctx: ScenarioContext, probes: list[Probe]) -> list[str]:
    assert ctx.fault_start is not None and ctx.fault_end is not None
    during = [p for p in probes if ctx.fault_start <= p.at <= ctx.fault_end]
    lexical = sum(p.outcome == "ok" and p.served_by == "lexical_fallback" for p in during)
    ctx.details["lexical_during_fault"] = lexical
    return [] if lexical else ["no retrieval during the embedding fault was served by the lexical fallback"]


def test_embedding_endpoint_garbage_then_timeouts(private_stack: PrivateStack, fault_seed: int) -> None:
    """A second pipeline (own database, topics and collection) embeds through an OpenAI-compatible
    endpoint (a switchable TEST DOUBLE): the extractor's semantic dedup, the indexer and the API's
    dense retrieval all call it. For a while it answers garbage (wrong dimension, non-JSON body, HTTP
    500, no vectors), then only after the client's timeout; then it is healthy. Nothing may crash or be
    lost; retrieval keeps answering (lexical fallback); everything ends PROCESSED and SYNCED."""
    llm = SwitchableLLM(delay=5.0)
    llm.embedding_dim = 64
    llm.start()
    tag = f"emb-{uuid.uuid4().hex[:6]}"
    url = private_stack.create_database(tag.replace("-", "_"))
    env = {"DATABASE_URL": url, "MEMORY_EMBEDDING_PROVIDER": "openai",
           "MEMORY_EMBEDDING_BASE_URL": llm.base_url, "MEMORY_EMBEDDING_API_KEY": "test-double",
           "MEMORY_EMBEDDING_MODEL": "fake-embed-64", "MEMORY_EMBEDDING_DIM": "64",
           "MEMORY_EMBEDDING_TIMEOUT_SEC": "2", "MEMORY_EMBEDDING_MAX_RETRIES": "1"}
    pipe = Pipeline.on_private_stack(private_stack, tag, users=4, rate=1.0, seed=fault_seed, env=env)
    pipe.probe.vary = True  # every retrieval embeds its question (no cache hit)
    try:
        pipe.start_all(others=("relay", "api"))
        pipe.warm_up()
        assert llm.embedding_replies["ok"] > 0

        def fault(ctx: ScenarioContext) -> None:
            ctx.begin()
            garbage, slow = ctx.rng.uniform(5.0, 8.0), ctx.rng.uniform(5.0, 8.0)
            llm.embedding_mode = "garbage"
            time.sleep(garbage)
            llm.embedding_mode = "timeout"
            time.sleep(slow)
            llm.embedding_mode = "ok"
            ctx.details.update(garbage_sec=round(garbage, 2), timeout_sec=round(slow, 2))
            ctx.end()

        name = "embedding endpoint garbage, then timeouts"
        result = pipe.scenario(name, fault, seed=seed_for(fault_seed, name), settle_timeout=240,
                               strict_history=False, check_retrieval=lexical_while_embeddings_fail)
        result.details["embedding_replies"] = dict(llm.embedding_replies)
        assert llm.embedding_replies["garbage"] > 0 and llm.embedding_replies["timeout"] > 0
        assert_ok(result)
    finally:
        pipe.close()
        llm.stop()
