"""Third parties (issue 13): a relative's taste or fact is stored as a fact about the user's family
(``fact-family``), never as the user's own preference; the user's own taste stays a preference."""

from __future__ import annotations

import pytest

from core.extraction.candidates import ExtractionInput
from core.extraction.rules import RulesExtractor


def _typed(ex: RulesExtractor, text: str) -> list[tuple[str, str]]:
    data = ExtractionInput(user_message=text)
    return [(c.memory_type.value, c.key) for c in ex.refine(data, ex.extract(data))]


@pytest.mark.parametrize("text", ["我儿子今年五岁，特别喜欢恐龙。", "我老婆不吃辣。", "我妈喜欢跳广场舞。",
                                  "My sister Ana loves jazz.", "My husband hates cilantro.",
                                  "My son is six and loves dinosaurs."])
def test_a_relatives_taste_is_a_family_fact(ex: RulesExtractor, text: str) -> None:
    assert _typed(ex, text) == [("fact", "fact-family")]


@pytest.mark.parametrize("text", ["我特别喜欢恐龙。", "I love jazz."])
def test_the_users_own_taste_stays_a_preference(ex: RulesExtractor, text: str) -> None:
    assert [t for t, _ in _typed(ex, text)] == ["preference"]
