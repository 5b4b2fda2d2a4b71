"""A bare answer to the assistant's content question (issue 24, session 21): the reply is the value, the
question's frame its slot. Lines written for this test (none from an evaluation set), through
``RulesExtractor``'s public interface (the classifier-gated extractor, the ``ex`` fixture)."""

from __future__ import annotations

from core.extraction.candidates import CandidateOp, ContextMessage, ExtractionInput
from core.extraction.rules import RulesExtractor


def _reply(ex: RulesExtractor, question: str, reply: str, before: str = "hey") -> dict[str, str]:
    data = ExtractionInput(reply, (ContextMessage("user", before), ContextMessage("assistant", question)))
    return {c.key: c.content for c in ex.extract(data) if c.op is CandidateOp.UPSERT}


def test_a_bare_place_answering_where_the_user_moved_is_their_city(ex: RulesExtractor) -> None:
    out = _reply(ex, "真不错！那搬去哪座城市了？", "昆明", "我们家上个月搬走了")
    assert "fact-home_city" in out and "昆明" in out["fact-home_city"]


def test_a_bare_job_answering_the_job_question_is_their_job(ex: RulesExtractor) -> None:
    zh = _reply(ex, "那现在做什么工作呀？", "幼儿园老师", "我换工作了")
    assert "fact-job" in zh and "幼儿园老师" in zh["fact-job"]
    assert "fact-family" not in zh  # a teacher the user is, not a relative
    en = _reply(ex, "Oh cool. What do you do these days?", "night porter at a hotel", "new job, finally")
    assert any("night porter" in content for key, content in en.items() if key.startswith("fact-"))


def test_a_bare_answer_about_the_user_fills_the_questions_slot(ex: RulesExtractor) -> None:
    assert "fact-allergy" in _reply(ex, "Good to know. What are you allergic to?", "shellfish")
    assert "fact-age" in _reply(ex, "And how old are you?", "57")
    assert "fact-hometown" in _reply(ex, "你老家是哪儿的？", "河北")


def test_an_answer_of_the_moment_or_a_choice_is_no_memory(ex: RulesExtractor) -> None:
    assert _reply(ex, "What did you have for dinner?", "tacos") == {}
    assert _reply(ex, "你今天下午去哪儿了？", "图书馆") == {}
    assert _reply(ex, "Which option do you like better?", "the first one") == {}
    assert _reply(ex, "你想先看哪个？", "后者") == {}


def test_a_reply_with_its_own_subject_is_read_as_itself(ex: RulesExtractor) -> None:
    # a reply that states something in its own words is no bare value: the question frames nothing
    out = _reply(ex, "What do you do for fun?", "I love hiking in the mountains")
    assert list(out.values()) == ["I love hiking in the mountains"]

