"""Long multi-topic chat messages (issue 24, session 25): each statement of a message reaches a memory of its
own, and none is glued to the one before it. Sentences written for this test."""

from __future__ import annotations

from core.extraction.candidates import CandidateOp, ExtractionInput
from core.extraction.rules import RulesExtractor
from core.extraction.rules.segment import split_clauses
from core.types import MemoryType


def _texts(message: str) -> list[str]:
    return [c.text for c in split_clauses(message)]


def _upserts(ex: RulesExtractor, message: str) -> list[tuple[MemoryType, str, str]]:
    return [(c.memory_type, c.key, c.content) for c in ex.extract(ExtractionInput(message))
            if c.op is CandidateOp.UPSERT]


def test_and_my_with_a_verb_starts_a_statement_of_its_own() -> None:
    assert _texts("i repair pianos in bergen and my passion is growing chillies") == [
        "i repair pianos in bergen", "and my passion is growing chillies"]
    assert _texts("we run a tiny cafe in ghent and honestly i'm happiest baking bread") == [
        "we run a tiny cafe in ghent", "and honestly i'm happiest baking bread"]


def test_a_pair_subject_or_an_object_is_never_cut() -> None:
    assert len(_texts("me and my brother are moving to porto soon")) == 1
    assert len(_texts("i walk my dog and my neighbour's dog every morning")) == 1
    assert len(_texts("i adore my husband and my kids are great")) == 1  # "my husband and my kids"


def test_a_taste_told_after_a_job_with_and_my_is_its_own_memory(ex: RulesExtractor) -> None:
    got = _upserts(ex, "i work as a glazier in dundee and my passion is restoring old sailing dinghies")
    jobs = [c for t, k, c in got if "glazier" in c]
    assert jobs and all("dinghies" not in c for c in jobs)
    assert any("dinghies" in c and "glazier" not in c for t, k, c in got)


def test_a_relative_after_a_connector_owns_their_statement(ex: RulesExtractor) -> None:
    # (read as the brother's, the clause is a relationship fact, never part of the user's job)
    got = _upserts(ex, "I work as a radiographer in Perth, and my brother teaches music in Darwin")
    assert any("radiographer" in c for t, k, c in got)
    assert not any("radiographer" in c and "brother" in c for t, k, c in got)


def test_an_intent_with_its_subject_elided_leaves_a_taste(ex: RulesExtractor) -> None:
    got = _upserts(ex, "我平时最爱钓鱼，退休后打算和老伴回老家盖个小院子")
    assert any(t is MemoryType.PREFERENCE and "钓鱼" in c and "院子" not in c for t, k, c in got)
    assert any(t is not MemoryType.PREFERENCE and "院子" in c and "钓鱼" not in c for t, k, c in got)


def test_a_lone_clause_among_facts_is_read_as_the_users(ex: RulesExtractor) -> None:
    # "work as a …" with "I" elided, between two statements the rules found: read "i work as …"
    got = _upserts(ex, "i live in swansea, work as a welder, and i am learning welsh")
    assert any(t is MemoryType.FACT and "welder" in c for t, k, c in got)


def test_a_besides_frame_is_never_a_statement_of_its_own(ex: RulesExtractor) -> None:
    """"除了X，我还…" / "apart from work, i …": the frame names what the next clause adds to; read with the
    user as elided subject it became a memory holding only the frame (MemoryBank, session 25)."""
    for message in ("谢谢你。除此之外，今天我还学会了做红烧肉，挺好吃的。",
                    "确实，每当我来到海边我就很放松。除了海边，我还喜欢森林。"):
        got = _upserts(ex, message)
        assert got, message
        assert all(c not in ("除此之外", "除了海边") for _, _, c in got), got
