"""Session 15 (issue 24, helper ``projhal28``): the turn after a project is told that goes on about it
without naming it is the project's news (``progress.told_next``); a claim the user takes back as a joke is
no memory (``others.taken_back``); a person named as one of several ("a friend of mine", "我一个同事")
opens someone else's statement (``others.outsider_statement``). Sentences written for this test, none from
an evaluation set."""

from __future__ import annotations

from core.extraction.candidates import (
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.rules import RulesExtractor
from core.extraction.rules.others import outsider_statement, taken_back, without_joke_mark
from core.extraction.rules.progress import told_next
from core.types import MemoryType

_CANOE = "building a cedar strip canoe in my shed"


def _input(message: str, previous: str, existing: tuple[ExistingMemory, ...],
           assistant: str = "Nice!") -> ExtractionInput:
    return ExtractionInput(user_message=message,
                           context=(ContextMessage("user", previous), ContextMessage("assistant", assistant)),
                           existing=existing)


def _fact(key: str, content: str) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.FACT, key=key, content=content,
                           importance=3, confidence=0.8, ttl_days=None)


def test_the_next_turn_about_a_project_is_its_news_even_when_dropped() -> None:
    existing = (ExistingMemory("project-canoe", "project", _CANOE),)
    (out,) = told_next(_input("hull's fully stripped, fiberglass goes on next week", _CANOE, existing), [])
    assert out.key == "project-canoe" and out.memory_type is MemoryType.PROJECT
    assert out.content.startswith(_CANOE) and "fiberglass" in out.content


def test_news_filed_under_a_generic_fact_moves_to_the_project() -> None:
    told = "在给外甥搭一个树屋"
    existing = (ExistingMemory("project-treehouse", "project", told),)
    stray = _fact("fact-personal", "屋顶的木板昨天全钉好了")
    (out,) = told_next(_input("嗯 屋顶的木板昨天全钉好了", told, existing, "加油！"), [stray])
    assert out.key == "project-treehouse" and "屋顶" in out.content and told in out.content


def test_a_thin_reply_a_question_or_a_statement_of_its_own_is_no_news() -> None:
    existing = (ExistingMemory("project-canoe", "project", _CANOE),)
    for reply in ("haha yeah it's a lot", "how long does epoxy take to cure?", "i'm a dentist btw",
                  "my brother thinks it's a waste of time"):
        assert told_next(_input(reply, _CANOE, existing), []) == [], reply
    job = _fact("fact-job", "i'm a dentist btw, the canoe is my escape")
    assert told_next(_input("i'm a dentist btw, the canoe is my escape", _CANOE, existing), [job]) == [job]


def test_no_news_when_the_previous_turn_told_no_project() -> None:
    existing = (ExistingMemory("fact-pets", "fact", "i have a beagle called bruno"),)
    said = "fenced the whole garden last weekend so he can run"
    assert told_next(_input(said, "i have a beagle called bruno", existing), []) == []


def test_a_claim_taken_back_as_a_joke_is_marked() -> None:
    message = "i'm basically an olympic sprinter lol jk, i drive a forklift at a warehouse"
    assert taken_back("i'm basically an olympic sprinter", message)
    assert not taken_back("i drive a forklift at a warehouse", message)
    assert taken_back("我是火星人", "我是火星人 开玩笑的 我是福州人")
    assert without_joke_mark("jk i drive a forklift") == "i drive a forklift"
    assert without_joke_mark("i drive a forklift") == "i drive a forklift"


def test_a_person_named_as_one_of_several_opens_someone_elses_statement() -> None:
    assert outsider_statement("a colleague of mine breeds ferrets")
    assert outsider_statement("one of my neighbours is a retired judge")
    assert outsider_statement("我有个同学在冰岛当导游")
    assert not outsider_statement("a friend of mine talked me into joining a choir")
    assert not outsider_statement("a coworker and i run a book club")


def test_the_joke_is_dropped_and_the_job_kept_through_the_extractor(ex: RulesExtractor) -> None:
    data = ExtractionInput(user_message="i'm a professional astronaut obviously lmao. jk i teach year 4")
    contents = " | ".join(c.content for c in ex.extract(data))
    assert "teach year 4" in contents and "astronaut" not in contents, contents


def test_making_a_thing_counted_by_any_measure_word_is_a_project_candidate() -> None:
    from core.extraction.rules import patterns

    for said in ("在偷偷给她织一条围巾", "周末都在慢慢做一把椅子",
                 "在给外甥搭一座树屋", "业余在亲手缝一只布偶"):
        assert patterns.PROJECT_MAKING.search(said), said
    for said in ("在写一下周报", "在做一些准备", "在看一部电影"):
        assert not patterns.PROJECT_MAKING.search(said), said


def test_the_consequence_of_a_condition_and_a_games_premise_are_no_memories(ex: RulesExtractor) -> None:
    for said, absent in (("要是我中了彩票，我肯定先环游世界", "环游世界"),
                         ("if i had a bigger flat, i'd get a piano", "piano"),
                         ("let's pretend you're a journalist and i'm a famous chef from lyon", "lyon"),
                         ("我们来玩角色扮演，我是一个住在海边的渔夫", "渔夫")):
        contents = " | ".join(c.content for c in ex.extract(ExtractionInput(user_message=said)))
        assert absent not in contents, (said, contents)
    said = "if i had more time i'd learn the cello. i work in logistics"
    kept = ex.extract(ExtractionInput(user_message=said))
    contents = " | ".join(c.content for c in kept)
    assert "logistics" in contents and "cello" not in contents, contents


def test_a_chinese_sneer_marks_sarcasm_and_a_plain_smile_does_not(ex: RulesExtractor) -> None:
    for said, absent in (("我真是太爱早高峰挤公交了🙂", "挤公交"),
                         ("最喜欢半夜被楼上吵醒了（微笑）", "吵醒")):
        contents = " | ".join(c.content for c in ex.extract(ExtractionInput(user_message=said)))
        assert absent not in contents, (said, contents)
    contents = " | ".join(c.content for c in ex.extract(ExtractionInput(user_message="我很喜欢弹吉他🙂")))
    assert "吉他" in contents, contents
