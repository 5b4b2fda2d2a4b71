"""Third parties (issue 13, narrowed by issue 24): a household member's taste or fact (a child, a spouse)
is stored as a fact about the user's family (``fact-family``), never as the user's own preference; a
person outside the household (a parent, a sibling) is not the user and stores nothing (issue 24's
hallucination cases: "a sister's allergy"); the user's own taste stays a preference."""

from __future__ import annotations

import pytest

from core.extraction.candidates import ExtractionInput
from core.extraction.rules import RulesExtractor


def _typed(ex: RulesExtractor, text: str) -> list[tuple[str, str]]:
    data = ExtractionInput(user_message=text)
    return [(c.memory_type.value, c.key) for c in ex.refine(data, ex.extract(data))]


@pytest.mark.parametrize("text", ["我儿子今年五岁，特别喜欢恐龙。", "我老婆不吃辣。",
                                  "My husband hates cilantro.", "My son is six and loves dinosaurs."])
def test_a_household_members_taste_is_a_family_fact(ex: RulesExtractor, text: str) -> None:
    assert _typed(ex, text) == [("fact", "fact-family")]


@pytest.mark.parametrize("text", ["我妈喜欢跳广场舞。", "My sister Ana loves jazz."])
def test_a_taste_of_someone_outside_the_household_stores_nothing(ex: RulesExtractor, text: str) -> None:
    assert _typed(ex, text) == []


@pytest.mark.parametrize("text", ["我特别喜欢恐龙。", "I love jazz."])
def test_the_users_own_taste_stays_a_preference(ex: RulesExtractor, text: str) -> None:
    assert [t for t, _ in _typed(ex, text)] == ["preference"]
