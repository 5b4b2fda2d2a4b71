"""Standing instructions said in chat words (issue 24, session 15, ``core.extraction.standing_instruction``
retrained on ``training/instruction_templates_cons28.py``): a rule with a question tag ("…, alright?") that
the rules drop as a question is rescued when the standing model calls it a rule; a diet or allergy fact whose
later clause is such a rule becomes that rule, keeping the fact; the fact told alone, a request with a tag and
a consequence that is no rule stay what they were. Sentences written for this test (none from an evaluation
set or a template file)."""

from __future__ import annotations

from datetime import UTC, datetime

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.extraction.rules.precision import precise
from core.extraction.standing_instruction import STANDING_KEEP
from core.types import MemoryType

SENT = datetime(2025, 10, 7, 19, 40, tzinfo=UTC)


def _fact(key: str, content: str) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.FACT, key=key, content=content,
                           importance=5, confidence=0.88)


def _upserts(ex: RulesExtractor, message: str) -> list[MemoryCandidate]:
    return [c for c in ex.extract(ExtractionInput(message, sent_at=SENT)) if c.op is CandidateOp.UPSERT]


def test_a_diet_fact_with_a_rule_clause_becomes_the_rule_and_keeps_the_fact() -> None:
    data = ExtractionInput("x", sent_at=SENT)
    grounded = _fact("fact-allergy", "我对榛子过敏，挑蛋糕的时候看一眼配料")
    rule = precise([grounded], data, lambda texts: [STANDING_KEEP] * len(texts))
    assert [(c.memory_type, c.content) for c in rule] == [(MemoryType.CONSTRAINT, grounded.content)]
    assert rule[0].key.startswith("constraint-")
    # the standing model calls the later clause no rule: the fact stays a fact
    assert precise([grounded], data, lambda texts: [0.3] * len(texts))[0].memory_type is MemoryType.FACT
    # a fact of one clause is never read as a rule
    alone = _fact("fact-allergy", "allergic to hazelnuts since I was a kid")
    assert precise([alone], data, lambda texts: [1.0] * len(texts))[0].memory_type is MemoryType.FACT


def test_a_rule_with_a_question_tag_is_kept(ex: RulesExtractor) -> None:
    out = _upserts(ex, "skip the motivational quotes when you plan my workouts, alright?")
    assert any(c.memory_type is MemoryType.CONSTRAINT and "motivational" in c.content for c in out)


def test_a_request_with_a_tag_and_a_fact_alone_are_no_rule(ex: RulesExtractor) -> None:
    assert not [c for c in _upserts(ex, "can you tighten up this paragraph for me, ok?")
                if c.memory_type is MemoryType.CONSTRAINT]
    facts = _upserts(ex, "我对尘螨过敏，换季的时候特别难受")
    assert facts and all(c.memory_type is MemoryType.FACT for c in facts)


def test_a_consequence_that_is_no_rule_stays_with_its_fact(ex: RulesExtractor) -> None:
    out = _upserts(ex, "I'm a baker, so my alarm goes off at 4")
    assert not [c for c in out if c.memory_type is MemoryType.CONSTRAINT]
