"""Remarks to the companion typed as rules (``core.extraction.rules.written_news.without_remarks`` and the
shipped companion-remark head, ``core.extraction.companion_remark``): what a constraint's write would add that
the head reads as a remark is not written; a rule, a diet or allergy key, another type and a replacement are;
the shipped head reads thanks and praise of the assistant over its bar and standing rules under it."""

from __future__ import annotations

from core.extraction.candidates import ExistingMemory
from core.extraction.classifier import MemoryClassifier
from core.extraction.companion_remark import (
    COMPANION_REMARK_DROP,
    COMPANION_REMARK_PATH,
    CompanionRemark,
)
from core.extraction.rules.written_news import without_remarks
from core.types import MemoryType
from tests.support.extraction import upsert_candidate as _cand
from tests.support.head_readers import recording_reader

PRAISE = "you've always given me such useful ideas"
PROMISE = "I'll try what you said and tell you how it goes"
RULE = "always give me temperatures in celsius"


def test_a_rule_that_is_a_remark_is_not_written_and_one_call_reads_the_burst() -> None:
    read, calls = recording_reader({PRAISE, PROMISE, "I'm allergic to peanuts"})
    cands = [_cand("constraint-help", MemoryType.CONSTRAINT, PRAISE),
             _cand("constraint-reminder", MemoryType.CONSTRAINT, PROMISE),
             _cand("constraint-units", MemoryType.CONSTRAINT, RULE),
             _cand("constraint-food", MemoryType.CONSTRAINT, "I'm allergic to peanuts"),  # never read
             _cand("preference-ideas", MemoryType.PREFERENCE, PRAISE)]  # not a rule: not read here
    kept = without_remarks(cands, (), read, 0.9)
    assert [c.content for c in kept] == [RULE, "I'm allergic to peanuts", PRAISE]
    assert len(calls) == 1


def test_a_merge_keeps_the_rule_and_a_replacement_is_never_read() -> None:
    read, _ = recording_reader({PROMISE})
    old = ExistingMemory(key="constraint-units", memory_type="constraint", content=RULE)
    merged = _cand("constraint-units", MemoryType.CONSTRAINT, RULE + "; " + PROMISE)
    assert without_remarks([merged], (old,), read, 0.9) == []  # nothing new but the remark: the rule stays
    wind = "wind speeds in km/h too"
    both = _cand("constraint-units", MemoryType.CONSTRAINT, "; ".join((RULE, PROMISE, wind)))
    assert [c.content for c in without_remarks([both], (old,), read, 0.9)] == [RULE + "; " + wind]
    replaced = _cand("constraint-units", MemoryType.CONSTRAINT, PROMISE)  # the old rule is gone: an update
    assert without_remarks([replaced], (old,), read, 0.9) == [replaced]


def test_the_shipped_head_reads_remarks_over_its_bar_and_rules_under_it() -> None:
    head = CompanionRemark.load(COMPANION_REMARK_PATH)
    assert head.head.bars["calibrated_bar"] == COMPANION_REMARK_DROP
    remarks = ["your advice has always helped me so much, thank you", "谢谢你，你的建议一直都对我很有帮助"]
    rules = ["always answer me in metric units", "以后给我推荐菜谱都别放香菜",
             "keep your replies under 100 words"]
    p = head.predict_proba(MemoryClassifier().embed(remarks + rules))
    assert all(q >= COMPANION_REMARK_DROP for q in p[: len(remarks)]), p
    assert all(q < COMPANION_REMARK_DROP for q in p[len(remarks):]), p
