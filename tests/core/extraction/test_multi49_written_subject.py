"""Session 30 (multi49), issue 24: a Chinese sentence no rule fired on, read as written, whose opening clause
the own-subject head reads as naming a subject of its own ("隔壁的装修声吵了一整天") is not rescued
(``gate_rescue.OWN_SUBJECT_WRITTEN``); a sentence that elides the user ("一紧张就咬指甲") or names a relative
stays; "pretend i never mentioned the X thing" is a retraction cue. Sentences written for this test."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from core.extraction.candidates import ExtractionInput
from core.extraction.classifier import MemoryClassifier
from core.extraction.pairs import topic_text
from core.extraction.rules import gate_rescue
from core.extraction.rules.analysis import analyse
from core.extraction.rules.gate_rescue import own_subjects, rescue_units
from core.extraction.rules.retraction import cued

_MESSAGE = "一紧张就咬指甲，改不掉。隔壁的装修声吵了一整天"


def _texts(message: str) -> list[str]:
    units = own_subjects(rescue_units(analyse(ExtractionInput(message))), MemoryClassifier().embed)
    return [u.text for u in units if u.whole]


def test_a_noun_subject_chinese_sentence_is_not_rescued_and_an_elided_one_is() -> None:
    texts = _texts(_MESSAGE)
    assert any(t.startswith("一紧张就咬指甲") for t in texts)
    assert not any("装修" in t for t in texts)


def test_a_sentence_naming_a_relative_is_never_asked() -> None:
    message = "wife is Korean, 我们有个女儿叫 Mina. 隔壁的装修声吵了一整天"
    units = rescue_units(analyse(ExtractionInput(message)))
    assert [u for u in units if u.whole and u.text.startswith("wife is Korean") and not u.opening]
    assert any(t.startswith("wife is Korean") for t in _texts("wife is Korean, 我们有个女儿叫 Mina"))


def test_off_it_is_rescued_as_before_and_nothing_is_embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> npt.NDArray[np.float32]:
        calls.append(texts)
        return MemoryClassifier().embed(texts)

    monkeypatch.setattr(gate_rescue, "OWN_SUBJECT_WRITTEN", False)
    monkeypatch.setattr(gate_rescue, "LONE_OWN_SUBJECT", False)
    units = own_subjects(rescue_units(analyse(ExtractionInput(_MESSAGE))), embed)
    assert any("装修" in u.text for u in units if u.whole)
    assert calls == []


def test_pretend_i_never_mentioned_is_a_retraction_with_its_topic() -> None:
    assert cued("pretend i never mentioned the fishing trip thing ok")
    assert topic_text("pretend i never mentioned the fishing trip thing ok") == "fishing trip"
    assert cued("act like i didnt say that")
    assert not cued("i never said i like overtime")
