"""The own-subject head (issue 24, session 29): a sentence no rule fired on whose opening clause names a
subject of its own ("that new ramen place is overrated", "新来的同事很安静") keeps being read as written when
the subject-elided reading is on (``gate_rescue.ELIDED_SENTENCE``); a sentence that elides the user
("scared of spiders, …") is still read as the user's statement. Sentences written for this test."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from core.extraction.candidates import ExtractionInput
from core.extraction.classifier import MemoryClassifier
from core.extraction.own_subject import OWN_SUBJECT_BAR, OWN_SUBJECT_PATH, OwnSubject
from core.extraction.rules import gate_rescue
from core.extraction.rules.analysis import analyse
from core.extraction.rules.gate_rescue import own_subjects, rescue_units
from core.extraction.rules.gate_units import Unit

_MESSAGE = ("I fix boilers for a living, mostly around Hull. Scared of spiders, cant even go in the loft. "
            "That new ramen place downtown is really overrated.")


@pytest.fixture(autouse=True)
def _on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_rescue, "ELIDED_SENTENCE", True)  # the elided reading, shipped as measured


def _whole(units: list[Unit]) -> dict[str, Unit]:
    return {u.text: u for u in units if u.whole}


def _read(message: str) -> dict[str, Unit]:
    units = rescue_units(analyse(ExtractionInput(message)))
    return _whole(own_subjects(units, MemoryClassifier().embed))


def test_an_elided_unit_carries_its_opening_clause_for_the_head() -> None:
    units = _whole(rescue_units(analyse(ExtractionInput(_MESSAGE))))
    spiders = next(u for t, u in units.items() if t.startswith("Scared of spiders"))
    assert spiders.read is not None and spiders.read.startswith("i'm scared of spiders")
    assert spiders.elided.startswith("Scared of spiders")


def test_a_noun_subject_is_read_as_written_and_an_elided_one_as_the_users() -> None:
    units = _read(_MESSAGE)
    spiders = next(u for t, u in units.items() if t.startswith("Scared of spiders"))
    ramen = [u for t, u in units.items() if t.startswith("That new ramen")]
    assert spiders.read is not None and spiders.read.startswith("i'm scared")
    assert ramen and all(u.read is None and not u.elided for u in ramen)


def test_dropped_with_the_drop_arm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_rescue, "OWN_SUBJECT_DROP", True)
    units = _read(_MESSAGE)
    assert not [t for t in units if t.startswith("That new ramen")]
    assert [t for t in units if t.startswith("Scared of spiders")]


def test_off_every_elided_reading_stands_and_nothing_is_embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> npt.NDArray[np.float32]:
        calls.append(texts)
        return MemoryClassifier().embed(texts)

    monkeypatch.setattr(gate_rescue, "OWN_SUBJECT_ON", False)
    units = _whole(own_subjects(rescue_units(analyse(ExtractionInput(_MESSAGE))), embed))
    assert [u for t, u in units.items() if t.startswith("That new ramen") and u.read is not None]
    assert calls == []


def test_with_the_elided_reading_off_the_head_is_never_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_rescue, "ELIDED_SENTENCE", False)
    units = rescue_units(analyse(ExtractionInput(_MESSAGE)))
    assert not any(u.elided for u in units)
    assert own_subjects(units, lambda texts: pytest.fail("embedded")) == units


def test_the_shipped_head_reads_noun_subjects_over_its_bar() -> None:
    head = OwnSubject.load(OWN_SUBJECT_PATH)
    own = ["the pub quiz last night was rigged", "the bowling alley by the station is shabby",
           "楼下的健身房又涨价了"]
    elided = ["hopeless at parallel parking", "massive fan of snooker", "对芒果过敏"]
    p = head.predict_proba(MemoryClassifier().embed(own + elided))
    assert all(q >= OWN_SUBJECT_BAR for q in p[: len(own)]), p
    assert all(q < OWN_SUBJECT_BAR for q in p[len(own):]), p
