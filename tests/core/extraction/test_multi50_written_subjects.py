"""Session 31 (multi50), issue 24: the own-subject head reads each statement a write would add
(``core.extraction.rules.written_subjects``): a remark about a thing or a person outside the household cut
from a long message ("the gym's showers are always cold", "公司楼下的打印店老板脾气很怪") is neither written
nor glued onto the statement of its slot; a statement that names the user, a relative or a change, and one
eliding the user, stay. Sentences written for this test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import written_subjects
from core.extraction.rules.extractor import RulesExtractor
from core.extraction.rules.written_subjects import without_own_subjects
from core.types import MemoryType


def _cand(key: str, content: str, kind: MemoryType = MemoryType.FACT) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=kind, key=key, content=content,
                           importance=3, confidence=0.8)


def _reader(own: set[str]) -> tuple[Callable[[list[str]], list[float]], list[list[str]]]:
    seen: list[list[str]] = []

    def read(texts: list[str]) -> list[float]:
        seen.append(list(texts))
        return [0.95 if t in own else 0.1 for t in texts]

    return read, seen


def test_a_glued_remark_goes_and_the_statement_of_its_slot_stays() -> None:
    read, seen = _reader({"隔壁打印店老板脾气很怪"})
    glued = _cand("fact-family", "老公在医院上班；隔壁打印店老板脾气很怪")
    out = without_own_subjects([glued], (), read, 0.7)
    assert [c.content for c in out] == ["老公在医院上班"]
    assert seen == [["隔壁打印店老板脾气很怪"]]  # the relative's statement is never read


def test_a_remark_alone_is_no_write_and_first_person_or_change_is_never_read() -> None:
    read, seen = _reader({"the gym's showers are always cold", "my gym's showers are always cold"})
    cands = [_cand("preference-gym", "the gym's showers are always cold", MemoryType.PREFERENCE),
             _cand("fact-health", "my gym's showers are always cold"),
             _cand("fact-job", "switched to nights now")]
    out = without_own_subjects(cands, (), read, 0.7)
    assert [c.key for c in out] == ["fact-health", "fact-job"]
    assert seen == [["the gym's showers are always cold"]]


def test_a_rule_a_replacement_and_a_memory_already_held_are_not_read() -> None:
    read, seen = _reader({"the office wifi is awful"})
    rule = _cand("constraint-style", "the office wifi is awful", MemoryType.CONSTRAINT)
    held = _cand("fact-work", "welder at the docks; the office wifi is awful")
    live = ExistingMemory(key="fact-work", memory_type="fact",
                          content="welder at the docks; the office wifi is awful")
    out = without_own_subjects([rule, held], (live,), read, 0.7)
    assert out == [rule, held]
    assert seen == []


def test_through_the_extractor_on_and_off(monkeypatch: pytest.MonkeyPatch) -> None:
    message = "在杭州做外贸业务员，平时爱打乒乓球。公司楼下的打印店老板脾气很怪"
    extractor = RulesExtractor(classifier=MemoryClassifier())
    data = ExtractionInput(message)
    monkeypatch.setattr(written_subjects, "OWN_SUBJECT_PIECES_ON", True)
    on = " ".join(c.content for c in extractor.refine(data, extractor.extract(data)))
    assert "乒乓球" in on and "打印店" not in on
    monkeypatch.setattr(written_subjects, "OWN_SUBJECT_PIECES_ON", False)
    off = extractor.refine(data, extractor.extract(data))
    assert any("乒乓球" in c.content for c in off)


def test_a_bare_item_or_answer_is_never_read() -> None:
    read, seen = _reader({"Lisbon", "深圳南山", "the harbour pub is loud"})
    cands = [_cand("fact-personal", "Lisbon"), _cand("fact-place", "深圳南山"),
             _cand("fact-local", "the harbour pub is loud")]
    out = without_own_subjects(cands, (), read, 0.7)
    assert [c.content for c in out] == ["Lisbon", "深圳南山"]
    assert seen == [["the harbour pub is loud"]]
