"""Scoring of the evaluation-case format (pure functions, no services)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.evaluation import (
    CaseResult,
    EvalCase,
    MemoryText,
    case_category,
    category_totals,
    extraction_bursts,
    format_categories,
    score_case,
    timeline,
    totals,
)

CASE = EvalCase.model_validate(
    {
        "id": "t1",
        "lang": "en",
        "conversation": [{"role": "user", "content": "I love rom-coms and live in Oslo"}],
        "expect": [
            {"type": "preference", "any_of": ["rom-com", "romantic"]},
            {"type": "fact", "any_of": ["Oslo"]},
        ],
        "forbid": ["horror"],
        "queries": [{"query": "movie tonight?", "expect_any_of": ["rom-com"], "k": 1}],
    }
)


def test_all_hold() -> None:
    mems = [
        MemoryText("preference", "movies-genre", "Loves ROM-COMs"),
        MemoryText("fact", "home-city", "Oslo"),
    ]
    r = score_case(CASE, mems, [[mems[0]]])
    assert r.passed and r.expect_hits == [True, True] and r.query_hits == [True]


def test_type_must_match_and_forbid_and_rank_cutoff() -> None:
    mems = [MemoryText("fact", "movies", "Loves rom-coms, hates horror")]
    r = score_case(CASE, mems, [[MemoryText("fact", "x", "nothing"), mems[0]]])
    assert r.expect_hits == [False, False]  # rom-com stored with the wrong type, Oslo missing
    assert r.forbid_violations == ["horror"]
    assert r.query_hits == [False]  # the hit is at rank 2 but k = 1
    t = totals([r])
    assert t["expect_recall"] == 0.0 and t["forbid_violation_rate"] == 1.0 and t["query_hit_at_k"] == 0.0


# --- timing: turn-by-turn publishing ----------------------------------------------------------------
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _case(turns: list[dict[str, object]]) -> EvalCase:
    return EvalCase.model_validate({"id": "c", "conversation": turns})


def test_default_pacing_separates_exchanges_and_coalesces_consecutive_user_messages() -> None:
    case = _case([{"role": "user", "content": "u1"}, {"role": "assistant", "content": "a1"},
                  {"role": "user", "content": "u2"}, {"role": "user", "content": "u3"},
                  {"role": "assistant", "content": "a2"}, {"role": "user", "content": "u4"}])
    turns = timeline(case, T0)
    assert [(t.created_at - T0).total_seconds() for t in turns] == [0, 8, 48, 54, 62, 102]
    bursts = extraction_bursts(turns, debounce_sec=12)
    assert [[t.content for t in b] for b in bursts] == [["u1", "a1"], ["u2", "u3", "a2"], ["u4"]]
    # a debounce longer than the pacing coalesces everything into one extraction, as live
    assert len(extraction_bursts(turns, debounce_sec=60)) == 1


def test_timestamps_and_sessions_cut_bursts_and_late_replies_go_with_the_next_segment() -> None:
    day2 = T0 + timedelta(days=1)
    case = _case([
        {"role": "user", "content": "u1", "created_at": T0.isoformat()},
        {"role": "assistant", "content": "a1", "created_at": (T0 + timedelta(seconds=30)).isoformat()},
        {"role": "user", "content": "u2", "created_at": (T0 + timedelta(seconds=35)).isoformat()},
        {"role": "user", "content": "u3", "created_at": day2.isoformat(), "session": "d2"},
    ])
    bursts = extraction_bursts(timeline(case, T0), debounce_sec=12)
    # the reply 30 s later comes after u1 was extracted: it is context of the next segment
    assert [[t.content for t in b] for b in bursts] == [["u1"], ["a1", "u2"], ["u3"]]
    assert bursts[2][0].session == "d2"


def test_a_long_typing_streak_is_cut_at_the_max_wait() -> None:
    at = [(T0 + timedelta(seconds=10 * i)).isoformat() for i in range(7)]
    case = _case([{"role": "user", "content": f"u{i}", "created_at": at[i]} for i in range(7)])
    bursts = extraction_bursts(timeline(case, T0), debounce_sec=12, max_wait_sec=30)
    assert [[t.content for t in b] for b in bursts] == [["u0", "u1", "u2"], ["u3", "u4", "u5"], ["u6"]]


def test_timestamps_going_back_in_time_are_refused() -> None:
    with pytest.raises(ValueError, match="back in time"):
        _case([{"role": "user", "content": "a", "created_at": "2026-01-02T00:00:00Z"},
               {"role": "user", "content": "b", "created_at": "2026-01-01T00:00:00Z"}])
    with pytest.raises(ValueError):
        _case([{"role": "user", "content": "a", "created_at": "2026-01-02T00:00:00"}])  # no zone


# --- per-category pass rates (issue 24) -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("case_id", "category"),
    [
        ("zh-pref-001", "pref"),  # dev ids: the second part
        ("ho-zh-pref-01", "pref"),  # held-out ids: a prefix shifts it to the third
        ("mix-update-007", "update"),
        ("EN-Boundary-3", "boundary"),
        ("multi", "multi"),
        ("t1", None),
        ("zh-preference-001", None),  # only an exact part counts
    ],
)
def test_case_category_finds_the_part_that_names_a_category(case_id: str, category: str | None) -> None:
    assert case_category(case_id) == category


def _result(cid: str, passed: bool) -> CaseResult:
    return CaseResult(cid, "en", expect_hits=[passed])


def test_totals_count_cases_passing_per_category_in_category_order() -> None:
    rs = [_result("en-update-001", False), _result("ho-zh-pref-01", True), _result("zh-update-002", True),
          _result("x1", True), _result("en-pref-002", True), _result("mix-update-003", False)]
    by = totals(rs)["by_category"]
    assert list(by) == ["pref", "update", "other"]
    assert by["pref"] == {"cases": 2, "passed": 2, "pass_rate": 1.0}
    assert by["update"] == {"cases": 3, "passed": 1, "pass_rate": 0.3333}
    assert by["other"] == {"cases": 1, "passed": 1, "pass_rate": 1.0}
    assert category_totals([]) == {}
    lines = format_categories(by).splitlines()
    assert lines[1].split() == ["update", "1/3", "33.3%"]
