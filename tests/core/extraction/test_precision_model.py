"""Issue 24, precision, session 13 (``h-prec26``): the precision model's second opinion in the gate, and a
thing never done is no memory. Sentences written for this test."""

from __future__ import annotations

import pytest

from core.extraction.candidates import CandidateOp, ExtractionInput
from core.extraction.classifier import LOCAL_EMBEDDING_MODEL, shipped_precision_mlp
from core.extraction.rules import RulesExtractor
from core.extraction.rules.gate_opinion import PRECISION_DROP, second_opinion
from core.extraction.rules.precision import _NEVER_DONE
from core.extraction.rules.segment import normalise
from core.types import MemoryType


@pytest.fixture(scope="module")
def alone(ex: RulesExtractor) -> RulesExtractor:
    """The same extractor without the precision model (the memory classifier alone gates)."""
    assert ex.classifier is not None
    return RulesExtractor(ex.classifier, precision=False)


def _upserts(extractor: RulesExtractor, message: str) -> list[tuple[str, str]]:
    return [(c.memory_type.value, c.content) for c in extractor.extract(ExtractionInput(message))
            if c.op is CandidateOp.UPSERT]


def test_the_precision_model_ships_and_loads() -> None:
    model = shipped_precision_mlp()  # since session 19 the model that reads the turn before (``--context``)
    assert model.embedding_model == LOCAL_EMBEDDING_MODEL and model.context


@pytest.mark.parametrize("outing", [
    "I went to see a jazz trio at the harbour and it was really lovely.",
    "I caught a string quartet at the old church and it was beautiful.",
])
def test_an_outing_of_the_day_is_no_memory(ex: RulesExtractor, alone: RulesExtractor, outing: str) -> None:
    assert _upserts(alone, outing)  # the memory classifier alone keeps it (as a taste or a project)
    assert _upserts(ex, outing) == []


@pytest.mark.parametrize(("message", "memory_type"), [
    ("I love restoring old fountain pens.", "preference"),
    ("I'm a radiographer at a children's hospital.", "fact"),
    ("我喜欢周末去钓鱼。", "preference"),
])
def test_durable_statements_stay(ex: RulesExtractor, message: str, memory_type: str) -> None:
    assert [t for t, _ in _upserts(ex, message)] == [memory_type]


def test_the_second_opinion_changes_drop_not_type(ex: RulesExtractor) -> None:
    assert ex.classifier is not None
    precision = shipped_precision_mlp()
    texts = ["I went to see a jazz trio at the harbour and it was really lovely",
             "I love restoring old fountain pens"]
    vectors = ex.classifier.embed(texts)
    first = ex.classifier.predict_vectors(vectors)
    second = second_opinion(precision, vectors, first)
    outing, pens = second
    assert outing.probs[0] >= PRECISION_DROP > first[0].probs[0]  # the precision model's word
    assert outing.memory_type is first[0].memory_type  # the type stays the memory classifier's
    assert abs(sum(outing.probs) - 1.0) < 1e-4
    assert pens is first[1]  # unsure or agreeing: the memory classifier's prediction as it was
    assert second_opinion(precision, vectors, first, [2.0, 2.0]) == first  # a floor above 1: never counts
    assert pens.memory_type is MemoryType.PREFERENCE


@pytest.mark.parametrize(("piece", "never"), [
    ("I've never played squash", True),
    ("Oh, I've never been to Tasmania before", True),
    ("I have never met a glassblower", True),
    ("I've never heard of that band", True),
    ("我从来没去过青海", True),
    ("我还没看过那部纪录片", True),
    # a lasting abstention or state is kept
    ("I've never smoked", False),
    ("I've never been married", False),
    ("I never eat shellfish", False),
    ("我没有时间做饭", False),
])
def test_a_thing_never_done_is_recognised(piece: str, never: bool) -> None:
    assert bool(_NEVER_DONE.search(normalise(piece))) is never


def test_a_thing_never_done_is_not_stored(ex: RulesExtractor) -> None:
    assert _upserts(ex, "I've never played squash before.") == []
    assert _upserts(ex, "Haha, I've never been to Tasmania.") == []
    assert _upserts(ex, "I've never smoked in my life.")  # an abstention is still a memory
