"""A job that ends soon is still the job, and a bare place answering "where did you move to?" is restated
without a doubled preposition (issue 24, session 18, ``multi32``). Sentences written for this test."""

from __future__ import annotations

from core.extraction.candidates import CandidateOp, ExtractionInput
from core.extraction.rules import RulesExtractor
from core.extraction.rules.followup import _where_answer


def test_a_job_that_ends_soon_is_still_the_job() -> None:
    rules = RulesExtractor()
    stored = rules.extract(ExtractionInput(user_message="我在常州一家医院当护士，明年就退休了。腰不太好。"))
    job = [c for c in stored if c.key == "fact-job"]
    assert job and job[0].op is CandidateOp.UPSERT and "护士" in job[0].content, stored
    ended = rules.extract(ExtractionInput(user_message="我上个月退休了"))
    assert any(c.key == "fact-job" and c.op is CandidateOp.DELETE for c in ended), ended


def test_a_where_answer_is_restated_without_a_doubled_preposition() -> None:
    assert _where_answer("Oh nice, where did you move to?", "Halifax") == "I move to Halifax"
    assert _where_answer("Where do you live?", "Halifax") == "I live in Halifax"
