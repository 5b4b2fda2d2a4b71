"""List-style self-introductions (issue 24, session 18, ``multi32``): a message told as a list of items with
no verb and often no "I" (a job with a place, a bare city, a count of children or pets, a condition in
brackets) has each item read alone, in whichever sentence it sits, and one-word items are read too.
Sentences written for this test (none from an evaluation set); the last ones run through the classifier-gated
extractor."""

from __future__ import annotations

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.extraction.rules.gate_units import list_message, long_enough
from core.extraction.rules.segment import split_clauses
from core.types import MemoryType


def test_a_message_of_short_items_is_a_list() -> None:
    assert list_message(split_clauses("ok so. 29, welder, rotterdam. two kids. lactose intolerant"))
    assert list_message(split_clauses("坐标青岛，38了，在港口开吊车，一儿一女"))


def test_a_message_of_whole_statements_is_not_a_list() -> None:
    assert not list_message(split_clauses(
        "I have been working as a carpenter for about twelve years now, mostly kitchens and stairs, and "
        "lately I have started teaching evening classes at the community college near my house"))
    assert not list_message(split_clauses("i'm a nurse, i like cats"))  # too few clauses


def test_a_list_item_needs_only_one_word() -> None:
    assert long_enough("Rotterdam", item=True) and long_enough("吃素", item=True)
    assert not long_enough("Rotterdam") and not long_enough("", item=True)


def _stored(ex: RulesExtractor, text: str) -> list[MemoryCandidate]:
    data = ExtractionInput(user_message=text)
    return [c for c in ex.refine(data, ex.extract(data)) if c.op is CandidateOp.UPSERT]


def _with(stored: list[MemoryCandidate], word: str) -> list[MemoryCandidate]:
    return [c for c in stored if word in c.content.lower()]


def test_items_in_sentences_of_their_own_are_each_read(ex: RulesExtractor) -> None:
    stored = _stored(ex, "hey! quick context. crane operator at the port. Gdansk. three kids. "
                         "and I'm building a wooden kayak in my garage")
    crane = _with(stored, "crane operator")
    assert crane and crane[0].memory_type is MemoryType.FACT, stored
    assert _with(stored, "three kids"), stored


def test_a_pronoun_inside_a_later_item_does_not_drop_the_list(ex: RulesExtractor) -> None:
    stored = _stored(ex, "about me — optician in Bergen, widowed, a daughter (she's 20), "
                         "I sing in a choir every thursday, and I want to walk the Camino next year")
    assert _with(stored, "optician"), stored


def test_the_leads_and_moods_of_a_list_are_not_stored(ex: RulesExtractor) -> None:
    stored = _stored(ex, "so yeah. librarian, Utrecht. knackered today lol. two cats.")
    assert not _with(stored, "so yeah") and not _with(stored, "knackered"), stored


def test_a_job_that_ends_soon_is_still_the_job() -> None:
    rules = RulesExtractor()
    stored = rules.extract(ExtractionInput(user_message="我在常州一家医院当护士，明年就退休了。腰不太好。"))
    job = [c for c in stored if c.key == "fact-job"]
    assert job and job[0].op is CandidateOp.UPSERT and "护士" in job[0].content, stored
    ended = rules.extract(ExtractionInput(user_message="我上个月退休了"))
    assert any(c.key == "fact-job" and c.op is CandidateOp.DELETE for c in ended), ended


def test_a_where_answer_is_restated_without_a_doubled_preposition() -> None:
    from core.extraction.rules.followup import _where_answer

    assert _where_answer("Oh nice, where did you move to?", "Halifax") == "I move to Halifax"
    assert _where_answer("Where do you live?", "Halifax") == "I live in Halifax"
