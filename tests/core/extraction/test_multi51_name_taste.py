"""Session 32 (multi51), issue 24: long self-introductions. The user's own name said in passing no longer
rules out the job and city after it (``gate_rescue.NAME_LEAD_ON``); a clause about a relative or a friend
starts a run of its own in a sentence no rule fired on (``OTHERS_SPLIT_ON``); a noun-subject taste for a
kind of thing is read by the taste head and kept as a preference (``TASTE_SUBJECT_ON``). Sentences written
for this test."""

from __future__ import annotations

import numpy as np
import pytest

from core.extraction.candidates import ExtractionInput
from core.extraction.classifier import LABELS, MemoryClassifier, Prediction
from core.extraction.rules import gate_rescue
from core.extraction.rules.analysis import analyse
from core.extraction.rules.extractor import RulesExtractor
from core.extraction.rules.gate_rescue import rescue_units, tasted
from core.extraction.rules.gate_units import Unit


def _texts(message: str) -> list[str]:
    return [u.text for u in rescue_units(analyse(ExtractionInput(message))) if not u.taste]


@pytest.mark.parametrize("text", ["hi 我叫Leo", "hello hello 我是Mia", "Rosa here 👋", "我叫阿青 哈哈",
                                  "hey im Tomás lol", "my name is Dana"])
def test_the_users_own_name_said_in_passing(text: str) -> None:
    assert gate_rescue._OWN_NAME.search(text)


@pytest.mark.parametrize("text", ["我是护士", "I'm vegetarian", "im allergic to nuts", "call me later"])
def test_a_statement_is_no_name(text: str) -> None:
    assert not gate_rescue._OWN_NAME.search(text)


def test_a_name_no_longer_blocks_the_job_and_city_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    message = "hi 我叫Ravi，work as a surveyor for a mining firm in Perth"
    monkeypatch.setattr(gate_rescue, "NAME_LEAD_ON", True)
    assert any("surveyor" in t and "Perth" in t and "Ravi" not in t for t in _texts(message))
    monkeypatch.setattr(gate_rescue, "NAME_LEAD_ON", False)
    assert not any("surveyor" in t for t in _texts(message))


def test_a_clause_about_a_friend_starts_a_run_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    message = "doing a masters in soil science up in Aberdeen, my flatmate is a barber and he never sleeps"
    monkeypatch.setattr(gate_rescue, "OTHERS_SPLIT_ON", True)
    on = _texts(message)
    assert "doing a masters in soil science up in Aberdeen" in on
    assert not any("soil" in t and "barber" in t for t in on)
    monkeypatch.setattr(gate_rescue, "OTHERS_SPLIT_ON", False)
    assert "doing a masters in soil science up in Aberdeen" not in _texts(message)


def test_a_bare_pronoun_clause_does_not_split_its_run(monkeypatch: pytest.MonkeyPatch) -> None:
    message = "honestly so done with soda, it's sparkling water only for me now"
    monkeypatch.setattr(gate_rescue, "OTHERS_SPLIT_ON", True)
    on = _texts(message)
    monkeypatch.setattr(gate_rescue, "OTHERS_SPLIT_ON", False)
    assert on == _texts(message)


def test_taste_units_only_for_a_clause_that_names_no_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_rescue, "TASTE_SUBJECT_ON", True)

    def tastes(message: str) -> list[str]:
        return [u.text for u in rescue_units(analyse(ExtractionInput(message))) if u.taste]

    assert tastes("Bluegrass is honestly the best, caught a banjo set once") == \
        ["Bluegrass is honestly the best"]
    assert tastes("my sister's new flat is tiny lol") == []
    assert tastes("I think opera is lovely") == []
    monkeypatch.setattr(gate_rescue, "TASTE_SUBJECT_ON", False)
    assert tastes("Bluegrass is honestly the best, caught a banjo set once") == []


def test_a_taste_unit_is_kept_as_a_preference_only_at_the_heads_bar() -> None:
    classifier = MemoryClassifier()
    units = [Unit("waffles are the best breakfast ever", 0, taste=True),
             Unit("the office printer was broken again today", 1, taste=True),
             Unit("i restore old bikes", 2)]
    vectors = classifier.embed([u.text for u in units])
    reading = Prediction(tuple(1.0 / len(LABELS) for _ in LABELS))
    out = tasted(units, [reading, reading, reading], vectors)
    assert out[0].p_keep == 1.0 and out[0].memory_type.value == "preference"
    assert out[1].p_keep == 0.0
    assert out[2] is reading
    assert isinstance(vectors, np.ndarray)


def test_through_the_extractor_on_and_off(monkeypatch: pytest.MonkeyPatch) -> None:
    message = "hi 我叫Ravi，work as a surveyor for a mining firm in Perth. Bluegrass is honestly the best"
    extractor = RulesExtractor(classifier=MemoryClassifier())
    data = ExtractionInput(message)
    monkeypatch.setattr(gate_rescue, "TASTE_SUBJECT_ON", True)
    on = " ".join(c.content for c in extractor.refine(data, extractor.extract(data)))
    assert "surveyor" in on and "Bluegrass" in on and "Ravi" not in on
    monkeypatch.setattr(gate_rescue, "TASTE_SUBJECT_ON", False)
    off = " ".join(c.content for c in extractor.refine(data, extractor.extract(data)))
    assert "surveyor" in off and "Bluegrass" not in off
