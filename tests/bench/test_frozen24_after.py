"""The "after" tables of ``bench/bench_frozen24.py``: before and after side by side, the frozen set's gap to
the tuned sets, and the frozen set's failing cases never named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.bench_frozen24 import after_section, public_after_section

REPO = Path(__file__).resolve().parents[2]


def _set(passed: int, cases: int, recall: float, forbid: float, hit: float,
         failing: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"cases": cases, "passed": passed, "expect_recall": recall,
                           "forbid_violation_rate": forbid, "query_hit_at_k": hit,
                           "by_category": {"update": {"cases": cases, "passed": passed,
                                                      "pass_rate": passed / cases}}}
    if failing is not None:
        out["failing"] = failing
    return out


def _run(frozen: dict[str, Any], dev: dict[str, Any]) -> dict[str, Any]:
    return {"commit": "abc1234", "sets": {"frozen": frozen, "dev": dev},
            "load_avg_at_start": [1.0, 1.0, 1.0], "load_avg_at_end": [2.0, 2.0, 2.0]}


def test_after_section_puts_before_and_after_side_by_side_with_the_gap() -> None:
    before = _run(_set(3, 10, 0.5, 0.2, 0.6), _set(4, 4, 1.0, 0.0, 1.0, []))
    after = _run(_set(6, 10, 0.7, 0.1, 0.8, ["frozen-case-007"]), _set(3, 4, 0.9, 0.0, 1.0, ["dev-x"]))
    md = after_section(before, after)
    assert "| frozen test set (issue 24) | before | 0.500 | 20.0% | 0.600 | 3 of 10 |" in md
    assert "| frozen test set (issue 24) | after | 0.700 | 10.0% | 0.800 | 6 of 10 |" in md
    assert "| `update` | 3/10 -> 6/10 | 4/4 -> 3/4 |" in md
    # frozen minus dev: recall 0.7 - 0.9, forbidden 10 - 0 points, hit 0.8 - 1.0, passing 60 % - 75 %
    assert "| dev cases | after | -0.200 | +10.0 | -0.200 | -15.0 |" in md
    assert "`dev-x`" in md
    assert "frozen-case-007" not in md


def test_after_section_and_public_table_say_when_nothing_was_run() -> None:
    assert "Not run yet" in after_section(None, None)
    md = public_after_section({"memorybank": None, "persona": None},
                              {"memorybank": {"langs": {"cn": {"expect_recall": 0.9, "memories": 7}}},
                               "persona": None})
    assert "| MemoryBank cn | before | not run |" in md
    assert "| MemoryBank cn | after | 0.900 |" in md
    assert "| Persona-Chat (50) | after | not run |" in md


def test_precision_table_shows_both_judgements_per_set() -> None:
    from bench.bench_frozen24 import precision_after_table

    judged = {"n": 2, "good": 1, "good_share": 0.5, "labels": {"good": 1, "blob": 1}}
    before = {"overall": judged, "per_set": {"persona": judged}}
    md = precision_after_table(before, None)
    assert "| persona | before | 2 | 1 | 50.0% | blob 1 |" in md
    assert "| persona | after | not judged |" in md
    assert "| all | before | 2 | 1 | 50.0% | blob 1 |" in md
