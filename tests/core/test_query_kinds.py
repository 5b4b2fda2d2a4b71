"""Retrieval finds what is stored (issue 24): a question about a kind of thing (hobbies, food,
evenings, trips, music, work) reaches the memories of that kind through a bounded rerank bonus
(``core.query_kinds`` + ``RerankWeights.topic``); exact and dense signals still dominate. Sentences
written for this test."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.memory.tools import MemoryView
from core.query_kinds import memory_kinds, query_kinds
from core.retrieval import Candidate, RerankWeights, rerank

NOW = datetime(2025, 5, 1, tzinfo=UTC)


def _view(memory_id: int, key: str, memory_type: str, content: str) -> MemoryView:
    return MemoryView(memory_id, key, memory_type, content, 3, 0.9, NOW, NOW, None, None)


@pytest.mark.parametrize(("question", "kind"), [
    ("so what do I usually do for fun?", "hobby"),
    ("你还记得我有什么爱好吗", "hobby"),
    ("Any idea what I'd want for dinner? what food do I like", "food"),
    ("我一般喜欢吃什么", "food"),
    ("what do I do on weekends", "evening"),
    ("我下班以后一般干嘛", "evening"),
    ("where did I go on my last vacation", "travel"),
    ("我去过哪些地方旅游", "travel"),
    ("which bands am I into", "music"),
    ("我喜欢听什么音乐", "music"),
    ("what is my job again", "work"),
    ("我在哪个公司上班", "work"),
])
def test_a_question_names_its_kind_in_either_language(question: str, kind: str) -> None:
    assert kind in query_kinds(question)


def test_a_question_about_nothing_in_particular_has_no_kind() -> None:
    assert query_kinds("what should I keep in mind?") == frozenset()


def test_a_taste_answers_a_question_about_hobbies_without_saying_hobby() -> None:
    assert "hobby" in memory_kinds("preference-exercise", "preference", "been really into bouldering lately")
    assert "hobby" not in memory_kinds("fact-job", "fact", "works night shifts at a bakery")
    assert "work" in memory_kinds("fact-job", "fact", "works night shifts at a bakery")
    assert "food" in memory_kinds("preference-food", "preference", "超爱吃酸菜鱼")


def _ranked(question: str, cands: list[Candidate]) -> list[int]:
    out = rerank(cands, set(), RerankWeights(), NOW, len(cands), normalise="window",
                 kinds=query_kinds(question))
    return [r.memory.id for r in out]


def test_a_memory_of_the_asked_kind_overtakes_a_near_tie() -> None:
    fact = Candidate(_view(1, "fact-home_city", "fact", "lives in a flat near the harbour"), 0.842)
    hobby = Candidate(_view(2, "preference-crafts", "preference", "makes tiny clay figurines"), 0.836)
    assert _ranked("what are my hobbies?", [fact, hobby]) == [2, 1]
    assert _ranked("tell me something about me", [fact, hobby]) == [1, 2]  # no kind: cosine decides


def test_the_bonus_is_bounded_so_dense_similarity_still_dominates() -> None:
    fact = Candidate(_view(1, "fact-home_city", "fact", "lives in a flat near the harbour"), 0.86)
    hobby = Candidate(_view(2, "preference-crafts", "preference", "makes tiny clay figurines"), 0.80)
    assert _ranked("what are my hobbies?", [fact, hobby]) == [1, 2]
    top = rerank([fact, hobby], set(), RerankWeights(), NOW, 2, normalise="window",
                 kinds=query_kinds("what are my hobbies?"))
    assert [r.components.topic for r in top] == [0.0, 1.0]
