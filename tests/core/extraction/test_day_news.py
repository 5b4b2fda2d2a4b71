"""The day's-news head (``core.extraction.day_news``) and its reading in the precision pass
(``core.extraction.rules.precision``): a goal's, a taste's or a fact's statement the head reads as the day's
news is dropped; a single identity slot, a life event, a rule and a statement naming a horizon beyond the day
are never read."""

from __future__ import annotations

from core.extraction.candidates import ExistingMemory, ExtractionInput
from core.extraction.classifier import MemoryClassifier
from core.extraction.day_news import DAY_NEWS_DROP, shipped_day_news
from core.extraction.rules.precision import precise_parts
from core.types import MemoryType
from tests.support.extraction import upsert_candidate as _cand
from tests.support.head_readers import recording_reader


def _fake(news: set[str]):  # type: ignore[no-untyped-def]
    return recording_reader(news)


def test_the_days_news_leaves_goals_tastes_and_facts_and_the_rest_stays() -> None:
    read, calls = _fake({"went to the art museum this afternoon", "feeling a bit low these days",
                         "next year I want to walk the length of Japan", "keep film tips short"})
    cands = [_cand("preference-hobby", MemoryType.PREFERENCE,
                   "I love painting; went to the art museum this afternoon"),
             _cand("preference-routine", MemoryType.PREFERENCE, "feeling a bit low these days"),
             _cand("goal-travel", MemoryType.GOAL, "next year I want to walk the length of Japan"),
             _cand("fact-job", MemoryType.FACT, "went to the art museum this afternoon"),
             _cand("fact-event-moved_york", MemoryType.FACT, "went to the art museum this afternoon"),
             _cand("constraint-recommendations", MemoryType.CONSTRAINT, "keep film tips short")]
    kept = precise_parts(cands, ExtractionInput(user_message="x"), day_news=read).candidates
    assert [(c.key, c.content) for c in kept] == [
        ("preference-hobby", "I love painting"),
        ("goal-travel", "next year I want to walk the length of Japan"),  # a horizon beyond the day
        ("fact-job", "went to the art museum this afternoon"),  # a single identity slot is never read
        ("fact-event-moved_york", "went to the art museum this afternoon"),  # nor a life event
        ("constraint-recommendations", "keep film tips short")]  # nor a rule
    assert len(calls) == 1  # one call for the whole burst


def test_a_habit_or_every_day_is_never_the_days_news() -> None:
    read, _ = _fake({"每天下午两点前得回酒店午休", "I usually go for a walk in the park"})
    cands = [_cand("preference-routine", MemoryType.PREFERENCE, "每天下午两点前得回酒店午休"),
             _cand("preference-exercise", MemoryType.PREFERENCE, "I usually go for a walk in the park")]
    assert precise_parts(cands, ExtractionInput(user_message="x"), day_news=read).candidates == cands


def test_news_of_a_topic_the_user_told_before_is_a_change_not_the_days_news() -> None:
    read, _ = _fake({"spicy is back on the menu", "picked up sushi for lunch"})
    cands = [_cand("preference-food", MemoryType.PREFERENCE, "spicy is back on the menu")]
    before = (ExistingMemory(key="constraint-food", memory_type="constraint",
                             content="No spicy food recommendations"),)
    assert precise_parts(cands, ExtractionInput(user_message="x", existing=before),
                         day_news=read).candidates == cands
    assert precise_parts(cands, ExtractionInput(user_message="x"), day_news=read).candidates == []


def test_a_statement_the_standing_model_may_read_as_a_rule_is_never_the_days_news() -> None:
    read, _ = _fake({"no spicy food recs pls", "went to the art museum this afternoon"})
    cands = [_cand("preference-food", MemoryType.PREFERENCE, "no spicy food recs pls"),
             _cand("preference-hobby", MemoryType.PREFERENCE, "went to the art museum this afternoon")]

    def standing(texts: list[str]) -> list[float]:
        return [0.57 if "recs" in t else 0.31 for t in texts]
    kept = precise_parts(cands, ExtractionInput(user_message="x"), standing, day_news=read).candidates
    assert [c.content for c in kept] == ["no spicy food recs pls"]


def test_without_the_head_nothing_changes() -> None:
    cands = [_cand("preference-hobby", MemoryType.PREFERENCE, "went to the art museum this afternoon")]
    assert precise_parts(cands, ExtractionInput(user_message="x")).candidates == cands


def test_the_shipped_head_reads_the_days_news_not_the_topic() -> None:
    model = shipped_day_news()
    assert model is not None
    texts = ["我最近想去旅游", "I just watched a romantic movie, Titanic",
             "我喜欢看动作片和喜剧片", "I've been a nurse for ten years"]
    p = model.predict_proba(MemoryClassifier().embed(texts))
    assert p[2] < DAY_NEWS_DROP and p[3] < DAY_NEWS_DROP
