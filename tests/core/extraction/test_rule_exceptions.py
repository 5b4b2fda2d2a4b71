"""A rule's exception of the moment (issue 24, session 16): a constraint clause whose whole sentence the
standing-instruction model calls a request of the moment ("just this once, …") is no rule
(``core.extraction.rules.precision``), while the same clause said as a rule stays one. Sentences written for
this test (none from an evaluation set or a line file)."""

from __future__ import annotations

from datetime import UTC, datetime

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.rules.precision import precise
from core.extraction.standing_instruction import STANDING_DROP, STANDING_KEEP
from core.types import MemoryType

SENT = datetime(2025, 11, 2, 9, 15, tzinfo=UTC)


def _rule(content: str) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.CONSTRAINT,
                           key="constraint-language", content=content, importance=5, confidence=0.85)


def _standing(texts: list[str]) -> list[float]:
    """A stand-in model: a sentence that opens with "only today" is of the moment, anything else a rule."""
    return [STANDING_DROP if t.startswith("only today") else STANDING_KEEP for t in texts]


def test_a_rule_clause_inside_an_exception_of_the_moment_is_dropped() -> None:
    data = ExtractionInput("only today, write to me in Dutch, my cousin reads along", sent_at=SENT)
    assert precise([_rule("write to me in Dutch")], data, _standing) == []


def test_the_same_clause_said_as_a_rule_stays() -> None:
    data = ExtractionInput("write to me in Dutch, I'm practising it", sent_at=SENT)
    kept = precise([_rule("write to me in Dutch")], data, _standing)
    assert [c.content for c in kept] == ["write to me in Dutch"]


def test_a_rule_that_is_its_whole_sentence_is_read_once() -> None:
    data = ExtractionInput("write to me in Dutch", sent_at=SENT)
    seen: list[list[str]] = []

    def model(texts: list[str]) -> list[float]:
        seen.append(texts)
        return [STANDING_KEEP] * len(texts)

    assert precise([_rule("write to me in Dutch")], data, model)
    assert all(len(batch) == 1 for batch in seen) and len(seen) == 1
