"""A carried referent supplies the thing, never what the memory is (issue 24,
``core.extraction.rules.precision``): a statement that leans on a thing named in an earlier sentence is typed,
kept and judged on its own words; the sentence it leans on is joined before it only in what is stored, so an
update told beside it still retires the old memory. Sentences written for this test (none from an evaluation
set); run through the classifier-gated extractor the factory builds, stage 1 then stage 2 as the pipeline
does."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor

SENT = datetime(2025, 9, 3, 20, 15, tzinfo=UTC)


def _stored(ex: RulesExtractor, data: ExtractionInput) -> list[MemoryCandidate]:
    return [c for c in ex.refine(data, ex.extract(data)) if c.op is not CandidateOp.DELETE]


@pytest.mark.parametrize(("text", "thing", "statement"), [
    ("I keep three Shetland ponies at my aunt's farm. I love riding them.", "Shetland ponies",
     "I love riding them"),
    ("My grandpa left me a box of vinyl records. I play them every Sunday.", "vinyl records",
     "I play them every Sunday"),
    ("我养了两匹设得兰矮马。我超喜欢骑它们", "设得兰矮马", "我超喜欢骑它们"),
])
def test_stage_one_reads_the_statement_alone_and_the_store_gets_its_referent(
        ex: RulesExtractor, text: str, thing: str, statement: str) -> None:
    data = ExtractionInput(text, sent_at=SENT)
    proposed = {c.key for c in ex.extract(data) if c.content.rstrip(".。") == statement}
    assert proposed, ex.extract(data)  # stage 1: the statement in its own words, nothing joined
    stored = [c for c in _stored(ex, data) if c.key in proposed]
    assert stored and all(thing in c.content and statement in c.content for c in stored), stored


@pytest.mark.parametrize(("text", "old_key", "old", "new", "leaning"), [
    ("Moved to a flat in Leeds last month. My cat hates it, too many stairs.",
     "fact-location", "I live in Manchester", "Leeds", "cat hates it"),
    ("Moved to Portland in May. My dog loves it, so many parks.",
     "fact-location", "I live in Phoenix", "Portland", "dog loves it"),
    ("我们搬去厦门了，我家狗狗超喜欢那边。每天都要带它去海边跑",
     "fact-location", "我住在成都", "厦门", "带它去海边跑"),
])
def test_an_update_told_beside_a_statement_leaning_on_it_retires_the_old_memory(
        ex: RulesExtractor, text: str, old_key: str, old: str, new: str, leaning: str) -> None:
    data = ExtractionInput(text, sent_at=SENT, existing=(ExistingMemory(old_key, "fact", old),))
    stored = _stored(ex, data)
    retiring = [c for c in stored if c.supersedes == old_key or c.key == old_key]
    # the new value takes the old slot, and not by way of the statement that merely leans on it
    assert retiring and all(new in c.content and c.key == old_key for c in retiring), stored
    assert any(leaning in c.content and new in c.content for c in stored), stored


def test_a_referent_already_named_in_the_memory_is_not_joined_twice(ex: RulesExtractor) -> None:
    data = ExtractionInput("Sold the Corolla, I drive a Tesla Model 3 now. My husband hates it haha",
                           sent_at=SENT,
                           existing=(ExistingMemory("fact-car", "fact", "I drive a Toyota Corolla"),))
    stored = _stored(ex, data)
    assert any("hates it" in c.content for c in stored), stored
    assert all(c.content.count("Tesla Model 3") <= 1 for c in stored), stored


def test_an_older_memory_merged_before_the_statement_does_not_stand_for_its_referent() -> None:
    from core.extraction.rules.precision import with_referents
    from core.types import MemoryType

    message = "yeah I started with a new climbing coach. I want to learn from him"
    merged = MemoryCandidate(memory_type=MemoryType.GOAL, key="goal-skill",
                             content="I want to stay fit; I want to learn from him")
    told_together = MemoryCandidate(
        memory_type=MemoryType.GOAL, key="goal-climbing",
        content="yeah I started with a new climbing coach, I want to learn from him")
    referents = {"I want to learn from him": "yeah I started with a new climbing coach"}
    got = with_referents([merged, told_together], referents, message)
    assert got[0].content == ("I want to stay fit; yeah I started with a new climbing coach. "
                              "I want to learn from him")
    assert got[1].content == told_together.content
