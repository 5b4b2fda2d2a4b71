"""The gate's rescues read with their turn (``written_news.without_rescue_turns``, the rescue-turn head
``core.extraction.rescue_turn``): a statement the rescue wrote that the head reads as no memory is not
written; a rule's candidate, a list item, a replacement and a rule type are never read; the shipped head
reads the day's outing told in a chat turn over its bar and a lasting habit under it."""

from __future__ import annotations

import numpy as np

from core.extraction.candidates import ExistingMemory
from core.extraction.classifier import MemoryClassifier
from core.extraction.rescue_turn import RESCUE_TURN_DROP, RescueTurn
from core.extraction.rules.refine import CandidateMeta
from core.extraction.rules.written_news import rescued_pieces, without_rescue_turns
from core.types import MemoryType
from tests.support.extraction import upsert_candidate as _cand
from tests.support.head_readers import recording_reader

OUTING = "I spent most of the visit in the dinosaur hall"
TICKETS = "我已经把机票和酒店都订好了"


def test_a_rescue_read_as_no_memory_is_not_written_and_one_call_reads_the_burst() -> None:
    read, calls = recording_reader({OUTING, TICKETS, "I love the trumpet"})
    outing = _cand("preference-museums", MemoryType.PREFERENCE, OUTING)
    tickets = _cand("goal-travel", MemoryType.GOAL, TICKETS)
    rule_said = _cand("preference-music", MemoryType.PREFERENCE, "I love the trumpet")  # a rule fired on it
    habit = _cand("preference-routine", MemoryType.PREFERENCE, "I swim before work most days")
    meta = {"preference-museums": CandidateMeta(rescued=True), "goal-travel": CandidateMeta(rescued=True),
            "preference-music": CandidateMeta(), "preference-routine": CandidateMeta(rescued=True)}
    cands = [outing, tickets, rule_said, habit]
    kept = without_rescue_turns(cands, (), rescued_pieces(cands, meta), read, 0.65)
    assert kept == [rule_said, habit]
    assert calls == [[OUTING, TICKETS, "I swim before work most days"]]


def test_a_merge_adding_only_an_outing_is_no_write_and_lists_replacements_rules_are_never_read() -> None:
    read, _ = recording_reader({OUTING, "no peanuts in anything"})
    old = ExistingMemory(key="preference-museums", memory_type="preference", content="I love natural history")
    merge = _cand("preference-museums", MemoryType.PREFERENCE, f"I love natural history; {OUTING}")
    kept = without_rescue_turns([merge], [old], frozenset({OUTING}), read, 0.65)
    assert kept == []  # the merge adds nothing but the outing: no write, the memory stays as it was
    listed = _cand("preference-museums", MemoryType.PREFERENCE, OUTING)
    assert without_rescue_turns([listed], (), frozenset({OUTING}), read, 0.65,
                                listed=frozenset({"preference-museums"})) == [listed]
    replacement = _cand("preference-museums", MemoryType.PREFERENCE, OUTING, supersedes="preference-museums")
    assert without_rescue_turns([replacement], (), frozenset({OUTING}), read, 0.65) == [replacement]
    rule = _cand("constraint-food", MemoryType.CONSTRAINT, "no peanuts in anything")
    assert without_rescue_turns([rule], (), frozenset({"no peanuts in anything"}), read, 0.65) == [rule]
    assert without_rescue_turns([listed], (), frozenset(), read, 0.65) == [listed]  # nothing rescued
    habit = _cand("preference-routine", MemoryType.PREFERENCE, "每天都早起去公园打太极")
    read_all, calls = recording_reader({"每天都早起去公园打太极"})
    assert without_rescue_turns([habit], (), frozenset({habit.content}), read_all, 0.65) == [habit]
    assert calls == []  # a habit word: never read


def test_the_shipped_head_reads_the_days_outing_over_its_bar_and_a_lasting_habit_under_it() -> None:
    head = RescueTurn.load()
    embed = MemoryClassifier().embed
    turn_out = "We went to the natural history museum today. I spent most of the visit in the dinosaur hall."
    turn_habit = "Thanks! I swim before work most days, it clears my head. Do you like swimming?"
    out = head.predict_proba(embed([OUTING]), embed([turn_out])[0])
    habit = head.predict_proba(embed(["I swim before work most days"]), embed([turn_habit])[0])
    assert float(out[0]) >= RESCUE_TURN_DROP > float(habit[0])
    assert np.all((out >= 0) & (out <= 1))
