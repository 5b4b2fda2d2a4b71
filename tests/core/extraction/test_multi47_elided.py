"""Sentences of ordinary prose that elide their subject (issue 24, session 28): a sentence no rule fired on
("terrified of deep water, cant even paddle at the beach") is read by the classifier as the user's statement
("i'm terrified of …"), not bare; the stored content keeps the user's words. Sentences written for this
test. The arm is shipped off (``gate_rescue.ELIDED_SENTENCE``)."""

from __future__ import annotations

import pytest

from core.extraction.candidates import ExtractionInput
from core.extraction.rules import gate_rescue
from core.extraction.rules.analysis import analyse
from core.extraction.rules.gate_rescue import rescue_units
from core.extraction.rules.gate_units import elided_statement
from core.extraction.rules.segment import Clause

_MESSAGE = ("So I drive buses around Derby for a living and I share a house with my brother. "
            "Terrified of deep water, cant even paddle at the beach lol. Rainy again today though.")


@pytest.fixture(autouse=True)
def _on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_rescue, "ELIDED_SENTENCE", True)  # shipped off (measured); this holds the arm


def _reads(message: str) -> dict[str, str | None]:
    return {u.text: u.read for u in rescue_units(analyse(ExtractionInput(message))) if u.whole}


def test_an_elided_sentence_is_read_as_the_users_statement() -> None:
    reads = _reads(_MESSAGE)
    told = [t for t in reads if t.startswith("Terrified of deep water")]
    assert told and reads[told[0]] == f"i'm t{told[0][1:]}"  # the unit's text stays the user's words


def test_a_sentence_with_its_own_subject_is_read_as_said() -> None:
    reads = _reads("I drive buses around Derby. My landlord is a nightmare, never fixes anything.")
    assert all(r is None for t, r in reads.items() if "landlord" in t)


def test_off_the_elided_sentence_is_read_bare(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_rescue, "ELIDED_SENTENCE", False)
    reads = _reads(_MESSAGE)
    assert all(r is None for t, r in reads.items() if t.startswith("Terrified"))


@pytest.mark.parametrize(("text", "read"), [
    ("terrified of wasps", "i'm terrified of wasps"),
    ("Plan to move to the coast", "i plan to move to the coast"),
    ("HR manager at a clinic", "i'm HR manager at a clinic"),
    ("不吃香菜", "我不吃香菜"),
    ("my sister teaches yoga", None),
    ("she runs a bakery", None),
])
def test_the_subject_restored(text: str, read: str | None) -> None:
    clause = Clause(index=0, sentence=0, start=0, end=len(text), text=text, norm=text.lower(),
                    had_emoji=False)
    assert elided_statement(clause, text) == read


def test_a_one_sentence_message_is_read_so_too() -> None:
    reads = _reads("petrified of needles, nearly faint at blood tests")
    assert list(reads.values()) == ["i'm petrified of needles, nearly faint at blood tests"]


def test_a_chinese_sentence_is_read_as_said(monkeypatch: pytest.MonkeyPatch) -> None:
    # off: "我" before it would make someone else's news the user's ("同事离职了" read "我同事离职了")
    message = "我在苏州做会计。特别怕打雷，一打雷就睡不着。"
    assert [r for t, r in _reads(message).items() if t.startswith("特别怕打雷")] == [None]
    monkeypatch.setattr(gate_rescue, "ELIDED_CJK", True)
    restored = [r for t, r in _reads(message).items() if t.startswith("特别怕打雷")]
    assert restored == ["我特别怕打雷，一打雷就睡不着"]
