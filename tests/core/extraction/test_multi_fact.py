"""Multi-fact messages, facts told over several turns and a project's later news (issue 24, multi26)."""

from __future__ import annotations

from core.extraction.candidates import (
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.rules import RulesExtractor
from core.extraction.rules.answers import answer_folded, pronoun_details
from core.extraction.rules.extractor import build
from core.extraction.rules.gate_units import Unit, fold_third_party, partition_long_runs
from core.extraction.rules.progress import with_progress
from core.extraction.rules.segment import split_clauses
from core.types import MemoryType


def _cand(key: str, content: str, memory_type: MemoryType = MemoryType.FACT) -> MemoryCandidate:
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=memory_type, key=key, content=content,
                           importance=3, confidence=0.85)


def test_and_im_after_a_place_opens_a_new_clause() -> None:
    texts = [c.text for c in split_clauses(
        "I teach chemistry at a high school in Porto and I'm learning to play cello in my spare time")]
    assert texts == ["I teach chemistry at a high school in Porto",
                     "and I'm learning to play cello in my spare time"]
    # a pair subject stays one clause
    assert len(split_clauses("Sarah and I moved to Leeds last year")) == 1
    assert len(split_clauses("me and my wife and I both love hiking")) == 1


def _folded(message: str) -> list[MemoryCandidate]:
    built = build(ExtractionInput(message))
    assert built.analysis is not None
    return fold_third_party(built.analysis, list(built.candidates))


def test_a_taste_after_the_users_own_statement_is_the_users() -> None:
    out = _folded("老公是程序员，我对海鲜过敏，喜欢看悬疑小说")
    family = next(c for c in out if c.key == "fact-family")
    assert "悬疑" not in family.content
    assert any(c.memory_type is MemoryType.PREFERENCE and "悬疑" in c.content for c in out)
    # the taste right after a relative's fact is still that relative's
    out = _folded("老公是程序员，喜欢看悬疑小说")
    assert not any(c.memory_type is MemoryType.PREFERENCE for c in out)
    assert any(c.key == "fact-family" and "悬疑" in c.content for c in out)


def test_kept_clauses_of_a_long_run_cover_the_run() -> None:
    message = ("my life rn: night shifts as a nurse, living in Glasgow, two cats, "
               "I drink black coffee, no sugar")
    clauses = split_clauses(message)
    run = (clauses[0].start, clauses[-1].end)
    units = [Unit(c.text, 0, None, 0.9, 7, False, None, (c.start, c.end), run) for c in clauses]
    chosen = {1, 4}  # "night shifts as a nurse" and "I drink black coffee"
    out = partition_long_runs(units, chosen, message)
    assert out[1].text == "my life rn: night shifts as a nurse, living in Glasgow, two cats"
    assert out[4].text == "I drink black coffee, no sugar"
    assert set(out) <= chosen


def _turns(*texts: str) -> tuple[ContextMessage, ...]:
    return tuple(ContextMessage("user" if i % 2 == 0 else "assistant", t) for i, t in enumerate(texts))


def test_an_answer_to_the_assistants_question_joins_what_the_user_just_said() -> None:
    data = ExtractionInput("she's nine, obsessed with horses", _turns("I have a kid", "How old?"),
                           existing=(ExistingMemory("fact-family", "fact", "I have a kid"),))
    out = answer_folded(data, [])
    assert [(c.key, c.content) for c in out] == [
        ("fact-family", "I have a kid; she's nine, obsessed with horses")]
    # a statement of the user's own is no answer: left alone
    data = ExtractionInput("nah I'm more of a cyclist", _turns("she's nine", "Do you ride too?"),
                           existing=(ExistingMemory("fact-family", "fact", "she's nine"),))
    assert answer_folded(data, []) == []
    # no question asked: left alone
    data = ExtractionInput("Mochi", _turns("我养了只猫", "好的。"),
                           existing=(ExistingMemory("fact-pets", "fact", "我养了只猫"),))
    assert answer_folded(data, []) == []


def test_an_answer_understood_on_its_own_keeps_its_slot() -> None:
    job = _cand("fact-job", "在一家新能源车企做电池研发")
    data = ExtractionInput("在一家新能源车企做电池研发", _turns("我换工作了", "现在做什么？"),
                           existing=(ExistingMemory("fact-personal", "fact", "我换工作了"),))
    assert answer_folded(data, [job]) == [job]


def test_a_reply_that_refers_back_joins_its_memory_whatever_slot_it_was_read_as() -> None:
    # "do you like it?" -- "love it tbh, ...": about the job the user just told, not a taste of its own
    taste = _cand("preference-schedule", "love it tbh, the weekend shifts are the best",
                  MemoryType.PREFERENCE)
    data = ExtractionInput("love it tbh, the weekend shifts are the best",
                           _turns("I work as a ferry deckhand", "Oh nice, do you like it?"),
                           existing=(ExistingMemory("fact-job", "fact", "I work as a ferry deckhand"),))
    assert [(c.key, c.content) for c in answer_folded(data, [taste])] == [
        ("fact-job", "I work as a ferry deckhand; love it tbh, the weekend shifts are the best")]


def test_an_answer_of_another_kind_stands_on_its_own() -> None:
    # the classifier reads the reply as a fact, the memory it would join is a goal: two kinds, two memories
    job = _cand("fact-career_switch", "从sales转到了data analyst, 在一家电商公司")
    data = ExtractionInput(job.content, _turns("我最近转行了", "转去做什么？"),
                           existing=(ExistingMemory("goal-career", "goal", "我最近转行了"),))
    assert answer_folded(data, [job]) == [job]
    # the same kind joins the memory it answers
    pet = _cand("fact-dog_breed", "border collie, her name's Juno")
    data = ExtractionInput("border collie, her name's Juno", _turns("I have a dog", "What breed?"),
                           existing=(ExistingMemory("fact-pets", "fact", "I have a dog"),))
    assert [(c.key, c.content) for c in answer_folded(data, [pet])] == [
        ("fact-pets", "I have a dog; border collie, her name's Juno")]


def test_a_detail_told_with_a_pronoun_joins_its_memory() -> None:
    existing = (ExistingMemory("fact-pets", "fact", "我养了只猫；Mochi, 是只橘猫"),)
    new = _cand("fact-pets", "它只吃一种grain-free的猫粮").model_copy(update={"supersedes": "fact-pets"})
    (out,) = pronoun_details(existing, [new])
    assert "Mochi" in out.content and "grain-free" in out.content and out.supersedes is None
    # what a retraction leaves of the memory is not touched
    existing = (ExistingMemory("fact-relationship", "fact", "i've been seeing marco, he's a chef"),)
    left = _cand("fact-relationship", "he's a chef")
    assert pronoun_details(existing, [left]) == [left]


def test_a_projects_news_updates_the_project() -> None:
    existing = (ExistingMemory("project-renovation", "project", "I'm refurbishing an old Vespa scooter"),)
    news = _cand("project-scooter", "the Vespa engine finally starts", MemoryType.PROJECT)
    (out,) = with_progress("update on the Vespa: the engine finally starts!", existing, [news])
    assert out.key == "project-renovation"
    assert out.content == "I'm refurbishing an old Vespa scooter; the Vespa engine finally starts"
    # nothing kept from the message (the day's numbers beside the project's name): no news
    assert with_progress("today was wild on the Vespa forum, 14 posts", existing, []) == []
    # a message that replaces the thing is an update, not news
    plan = (ExistingMemory("project-event", "project", "i'm on the spotify family plan w my roommates"),)
    said = "cancelled spotify, moved everything over to apple music"
    moved = _cand("project-event", said, MemoryType.PROJECT)
    assert with_progress(said, plan, [moved]) == [moved]
    # a message naming no live project: unchanged
    other = _cand("fact-pets", "I have a greyhound")
    assert with_progress("I have a greyhound", existing, [other]) == [other]


def test_news_told_before_the_project_is_not_repeated_when_the_project_is_told() -> None:
    # a tool appended the project's news first; the message telling the project itself must not glue that
    # news twice ("X; X; I'm building ..."): each clause of the merged memory is there once
    news = "Pennywise will add CSV import from banks next"
    existing = (ExistingMemory("project-pennywise", "project", news),)
    message = ("I'm building an open-source budgeting app called Pennywise, "
               "written in Flutter with a Rust core.")
    extractor = RulesExtractor()
    data = ExtractionInput(message, existing=existing)
    out = [c for c in extractor.refine(data, extractor.extract(data)) if c.key == "project-pennywise"]
    assert out, "the project is told: its memory is written"
    pieces = [p.strip() for p in out[0].content.replace("；", "; ").split("; ")]
    assert len(pieces) == len(set(pieces)), out[0].content
    assert any("budgeting app" in p for p in pieces) and any("CSV import" in p for p in pieces)


def test_the_whole_pipeline_keeps_a_pets_name_told_over_turns() -> None:
    extractor = RulesExtractor()
    first = ExtractionInput("我养了只猫")
    (pet,) = [c for c in extractor.refine(first, extractor.extract(first)) if c.key == "fact-pets"]
    second = ExtractionInput("Mochi, 是只橘猫, 三岁了", _turns("我养了只猫", "叫什么名字？"),
                             existing=(ExistingMemory(pet.key, pet.memory_type.value, pet.content),))
    out = extractor.refine(second, extractor.extract(second))
    assert any(c.key == "fact-pets" and "Mochi" in c.content and "猫" in c.content for c in out)
