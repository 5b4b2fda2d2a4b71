"""Issue 13's ablation harness (bench/bench_ablation13.py) and its held-out cases, without services:
the cases are valid evaluation cases covering the families, and the table puts each arm's figures in
its own column (the benchmark itself needs the stack and minutes)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from bench import bench_ablation13
from core.evaluation import EvalCase

REPO = Path(__file__).resolve().parents[2]

CASES = REPO / "bench" / "data" / "heldout_cases.jsonl"


def test_heldout_cases_are_valid_eval_cases_in_three_languages_and_every_family() -> None:
    raw = [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line.strip()]
    cases = [EvalCase.model_validate(c) for c in raw]
    assert len(cases) >= 60
    assert len({c.id for c in cases}) == len(cases)
    assert Counter(c.lang for c in cases).keys() == {"zh", "en", "mixed"}
    families = Counter(c.id.split("-")[2] for c in cases)
    assert set(families) >= {"pref", "fact", "goal", "proj", "cons", "noise", "update", "forget", "halluc",
                             "multi", "boundary"}
    types = {e.type for c in cases for e in c.expect}
    assert types == {"preference", "fact", "goal", "project", "constraint"}
    # updates and retractions name what must be gone; noise cases store nothing
    assert all(c.forbid for c in cases if "-update-" in c.id or "-forget-" in c.id)
    assert all(not c.expect and c.forbid for c in cases if "-noise-" in c.id)


def _public(recall: float, leak_terms: int) -> dict[str, object]:
    return {"cases_scored": 10, "expect_recall": recall, "expect_recall_any_type": recall + 0.1,
            "query_hit_at_k": 0.5, "users_with_forbidden_rate": 0.1, "forbidden_terms": leak_terms,
            "memories_per_user": 2.0, "memories_by_type": {"fact": 20}}


def test_section_puts_each_arm_in_its_column_and_marks_failures() -> None:
    sets = {
        "heldout": {"off": _public(0.7, 5), "on": _public(0.9, 5)},
        "memorybank": {"off": {"langs": {"cn": _public(0.6, 0), "en": _public(0.65, 0)}},
                       "on": {"langs": {"cn": _public(0.8, 0), "en": _public(0.85, 0)}}},
        "persona": {"off": _public(0.5, 9),
                    "on": {**_public(0.0, 9), "cases_scored": 0, "eval_exit_code": 1}},
    }
    result = {"cases_file": "bench/data/heldout_cases.jsonl", "locomo_conversations": 5,
              "persona_conversations": 50, "sets": sets,
              "table": {name: {arm: bench_ablation13.headline(name, r) for arm, r in arms.items()}
                        for name, arms in sets.items()}}
    text = bench_ablation13.section(result)
    assert "| held-out cases | expect_recall | 0.700 | 0.900 | >= 0.90 |" in text
    # MemoryBank has no other speaker: its leak rate is not a figure
    assert "| MemoryBank cn | users with another speaker's facts | n/a | n/a |" in text
    assert "| MemoryBank en | expected hobbies recalled (type must match) | 0.650 | 0.850 | >= 0.80 |" in text
    # an arm that scored nothing is not reported as a zero recall
    assert result["table"]["persona"]["on"] == {"error": "pai-memory eval exit code 1, nothing scored"}
    assert "| Persona-Chat | speaker 1's said persona recalled (type must match) | 0.500 | n/a |" in text
    assert "first 5 of its 10" in text
    assert "LoCoMo" not in text.split("\n\n")[0]  # no LoCoMo rows when it was not run


def test_only_runs_that_lost_the_stack_or_a_child_are_retried() -> None:
    assert bench_ablation13._transient_failure({"stderr_tail": "StackUpError: kafka: port 24092 ..."})
    lost_port = {"langs": {"cn": {"stderr_tail": "OSError: [Errno 98] Address already in use"}}}
    assert bench_ablation13._transient_failure(lost_port)
    assert not bench_ablation13._transient_failure({"stderr_tail": "ValueError: bad case"})
    assert not bench_ablation13._transient_failure(_public(0.7, 0))
