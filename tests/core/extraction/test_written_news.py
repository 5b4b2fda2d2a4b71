"""The day's news read where it is written (``core.extraction.rules.written_news``): what a write would add
that the day's-news head reads as the day's news is not written, whatever path proposed it; a merge keeps its
memory's old statements; a replacement, a rule, a habit and a list item are never read."""

from __future__ import annotations

from core.extraction.candidates import ExistingMemory
from core.extraction.rules.refine import CandidateMeta
from core.extraction.rules.written_news import rescued_pieces, without_written_news
from core.types import MemoryType
from tests.support.extraction import upsert_candidate as _cand
from tests.support.head_readers import recording_reader


def _fake(news: set[str]):  # type: ignore[no-untyped-def]
    return recording_reader(news)


COFFEE = "I went to a little coffee shop this afternoon"
EXHIBIT = "我今天去看了一个古代雕塑的展览"
NEWS = {COFFEE, EXHIBIT, "I'm feeling low today"}


def test_a_new_memory_that_is_the_days_news_is_not_written_and_one_call_reads_the_burst() -> None:
    read, calls = _fake(NEWS)
    cands = [_cand("preference-coffee", MemoryType.PREFERENCE, COFFEE),
             _cand("fact-health", MemoryType.FACT, "I'm feeling low today"),
             _cand("preference-music", MemoryType.PREFERENCE, "I love jazz")]
    kept = without_written_news(cands, (), read, 0.7)
    assert [c.content for c in kept] == ["I love jazz"]
    assert len(calls) == 1


def test_a_merge_keeps_the_old_statements_and_drops_the_news_glued_to_them() -> None:
    read, _ = _fake(NEWS)
    old = ExistingMemory(key="preference-hobby", memory_type="preference", content="我很喜欢绘画和弹钢琴")
    blob = _cand("preference-hobby", MemoryType.PREFERENCE, "我很喜欢绘画和弹钢琴；" + EXHIBIT)
    assert without_written_news([blob], (old,), read, 0.7) == []  # nothing new but the news: no write
    two = _cand("preference-hobby", MemoryType.PREFERENCE,
                "我很喜欢绘画和弹钢琴；我今天去看了一个古代雕塑的展览；我也喜欢拍照")
    kept = without_written_news([two], (old,), read, 0.7)
    assert [c.content for c in kept] == ["我很喜欢绘画和弹钢琴；我也喜欢拍照"]


def test_a_replacement_a_rule_a_habit_a_list_item_and_a_reading_under_the_bar_are_written() -> None:
    read, _ = _fake({*NEWS, "I usually grab a coffee on the way to work", "no cafe tips for me today pls"})
    old = ExistingMemory(key="preference-drink", memory_type="preference", content="I love tea")
    cands = [_cand("preference-drink", MemoryType.PREFERENCE, COFFEE,
                   supersedes="preference-drink"),
             _cand("constraint-recommendations", MemoryType.CONSTRAINT, "no cafe tips for me today pls"),
             _cand("preference-routine", MemoryType.PREFERENCE, "I usually grab a coffee on the way to work"),
             _cand("preference-items", MemoryType.PREFERENCE, "I'm feeling low today"),
             _cand("fact-job", MemoryType.FACT, "I'm feeling low today")]  # a single identity slot
    assert without_written_news(cands, (old,), read, 0.7, listed=frozenset({"preference-items"})) == cands
    assert without_written_news(cands[3:4], (), read, 1.0) == cands[3:4]  # under the bar


def test_a_clause_in_which_the_user_does_not_speak_of_themself_is_never_read() -> None:
    read, calls = _fake({"two cats (Miso and Tofu)", "对花粉过敏"})
    cands = [_cand("fact-pets", MemoryType.FACT, "two cats (Miso and Tofu)"),
             _cand("fact-allergy", MemoryType.FACT, "对花粉过敏")]
    assert without_written_news(cands, (), read, 0.7) == cands
    assert calls == []


def test_a_statement_the_standing_model_reads_as_a_rule_is_written() -> None:
    read, _ = _fake(NEWS)
    cand = _cand("preference-coffee", MemoryType.PREFERENCE, COFFEE)
    assert without_written_news([cand], (), read, 0.7, standing=lambda texts: [0.6] * len(texts)) == [cand]
    assert without_written_news([cand], (), read, 0.7, standing=lambda texts: [0.2] * len(texts)) == []


def test_a_statement_the_gates_rescue_wrote_is_read_at_the_rescue_bar() -> None:
    """A rescue (no rule fired; kept on p(keep) alone) is not written from the lower rescue bar; a rule's
    candidate with the same reading is, and so is a rescue read under the rescue bar."""
    plan = "I plan to stay in Spain for about two weeks"
    readings = {plan: 0.65, "I'm in the office now, no fan": 0.65, "I quite like playing guitar": 0.3}
    read = lambda texts: [readings[t] for t in texts]  # noqa: E731
    rescue = _cand("goal-travel", MemoryType.GOAL, plan)
    rule = _cand("fact-health", MemoryType.FACT, "I'm in the office now, no fan")
    liking = _cand("preference-music", MemoryType.PREFERENCE, "I quite like playing guitar")
    meta = {"goal-travel": CandidateMeta(rescued=True), "fact-health": CandidateMeta(),
            "preference-music": CandidateMeta(rescued=True)}
    rescued = rescued_pieces([rescue, rule, liking], meta)
    assert rescued == {plan, "I quite like playing guitar"}
    kept = without_written_news([rescue, rule, liking], (), read, 0.85, rescued=rescued, rescue_bar=0.6)
    assert kept == [rule, liking]
    assert without_written_news([rescue], (), read, 0.85, rescued=rescued) == [rescue]  # no rescue bar
