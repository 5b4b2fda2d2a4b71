"""Scoring of the evaluation-case format (pure functions, no services)."""

from __future__ import annotations

from core.evaluation import EvalCase, MemoryText, score_case, totals

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
