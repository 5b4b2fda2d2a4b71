"""Issue 24, session 11 (Persona-Chat types): a rescue never takes over a single slot the user already has,
and in a sentence no rule fired on, each of two self-statements is read alone."""

from __future__ import annotations

from core.extraction.candidates import ExistingMemory, ExtractionInput
from core.extraction.rules import RulesExtractor


def _run(ex: RulesExtractor, text: str,
         existing: tuple[ExistingMemory, ...] = ()) -> list[tuple[str, str, str]]:
    data = ExtractionInput(user_message=text, existing=existing)
    return [(c.memory_type.value, c.key, c.content) for c in ex.refine(data, ex.extract(data))]


def test_a_rescue_does_not_overwrite_the_job_the_user_told(ex: RulesExtractor) -> None:
    # nearest to the job by embedding, the rescue used to overwrite "I'm an electrician" with it
    text = "I get to work on a variety of projects and meet new people all the time."
    out = _run(ex, text, (ExistingMemory("fact-job", "fact", "I'm an electrician"),))
    assert [c[1] for c in out] == ["fact-personal"], out
    # without a job on file the same rescue still fills the slot
    assert [c[1] for c in _run(ex, text)] == ["fact-job"]


def test_a_change_still_replaces_the_job(ex: RulesExtractor) -> None:
    data = ExtractionInput(user_message="I'm a handyman now.",
                           existing=(ExistingMemory("fact-job", "fact", "I'm a bee farmer"),))
    out = ex.refine(data, ex.extract(data))
    assert any(c.supersedes == "fact-job" and "handyman" in c.content for c in out), out


def test_two_self_statements_are_each_read_alone(ex: RulesExtractor) -> None:
    out = _run(ex, "I'm a handyman and I restore classic cars.")
    assert any(c[0] == "fact" and "handyman" in c[2] for c in out), out
    out = _run(ex, "I'm from a small town and I want to move to the city.")
    assert any(c[0] == "fact" and "small town" in c[2] for c in out), out
    assert any(c[0] == "goal" and "move to the city" in c[2] for c in out), out


def test_a_liking_of_doing_is_a_taste_and_an_intent_stays_a_goal(ex: RulesExtractor) -> None:
    for text in ("Oh, that sounds really interesting! I love learning about animals.", "我很喜欢研究历史。"):
        assert [c[0] for c in _run(ex, text)] == ["preference"], text
    for text in ("I love folk music and hope to make it big someday.", "I'd love to learn Spanish.",
                 "我想学日语。"):
        assert [c[0] for c in _run(ex, text)] == ["goal"], text


def test_a_retyped_rule_candidate_does_not_overwrite_the_job_either(ex: RulesExtractor) -> None:
    # a project the classifier retypes as a fact, nearest to the job: detail, not a new job
    text = "I work on a lot of different projects, but I mostly focus on protecting our natural resources."
    out = _run(ex, text, (ExistingMemory("fact-job", "fact", "I'm an environmentalist"),))
    assert out and not [c for c in out if c[1] == "fact-job"], out


def test_a_message_that_adds_replaces_no_other_memory(ex: RulesExtractor) -> None:
    from core.extraction.rules.extractor import additions_kept

    job = (ExistingMemory("fact-job", "fact", "I'm a professional wrestler"),)
    data = ExtractionInput(user_message="It's a lot of fun. I get to travel the world and meet new people. "
                                        "I also get to do things that most people would never get to do.",
                           existing=job)
    out = ex.refine(data, ex.extract(data))
    assert out and all(c.supersedes is None for c in out), out
    # a word of change still lets the judge's supersede through
    moved = [c.model_copy(update={"supersedes": "fact-home_city"}) for c in out]
    assert additions_kept("I also moved to Denver.", moved)[0].supersedes == "fact-home_city"
