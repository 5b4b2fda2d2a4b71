"""``core.extraction.rules.judge_supersede``: the key of a new value and how strongly a change is told. Pure
functions, no model (the decisions through the provider: ``test_update_judge.py``,
``test_update_judge_stages.py``). Moved from ``test_update_judge.py`` (session 17, helper judge30);
sentences written for these tests."""

from __future__ import annotations

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.rules.judge_supersede import (
    SURE_P,
    fresh_key,
    old_value,
    strong_change,
    supersede_new,
    weak_cue,
)
from core.types import MemoryType


def test_a_slug_key_naming_the_old_value_is_not_kept_for_the_new_one() -> None:
    old = ExistingMemory("preference-draw_procreate_ipad", "preference", "i draw in procreate on my ipad")
    assert fresh_key(old, "switched to krita on a wacom tablet") != old.key
    assert fresh_key(old, "procreate, mostly portraits") == old.key  # the old value is still there
    named = ExistingMemory("fact-job", "fact", "i'm a baker")
    assert fresh_key(named, "i'm a plumber now") == "fact-job"  # a named slot keeps its key


def test_a_change_of_count_is_no_weak_cue() -> None:
    assert weak_cue("you can go up to 250 words now", "")
    assert not weak_cue("you can go up to 250 words now", "", "keep your answers under 100 words")


def test_a_bare_now_tells_a_change_only_when_the_model_is_sure() -> None:
    assert strong_change("switched to oat milk", 0.5)
    assert not strong_change("now 3 stations use it", SURE_P - 0.01)
    assert strong_change("now 3 stations use it", SURE_P)


def test_a_statement_nothing_kept_is_read_on_the_update_intent_models_word() -> None:
    bike = ExistingMemory("fact-vehicle", "fact", "i ride an old red vespa")
    sentence = "gave the vespa away and found a second-hand cargo bike"
    assert supersede_new([], sentence, bike, intent=False, reads_change=True)
    # the model reads no change; a sentence without a change word is already read on the model's word
    assert not supersede_new([], sentence, bike, intent=False, reads_change=False)
    assert not supersede_new([], sentence, bike, intent=True, reads_change=True)
    goal = ExistingMemory("goal-savings", "goal", "saving up for a vespa")
    assert not supersede_new([], sentence, goal, intent=False, reads_change=True)  # a goal's news is progress


def test_what_the_message_kept_is_decided_by_the_words() -> None:
    bike = ExistingMemory("fact-vehicle", "fact", "i ride an old red vespa")
    sentence = "gave the vespa away and found a second-hand cargo bike"

    def kept(key: str, content: str) -> MemoryCandidate:
        return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.FACT, key=key, content=content,
                               importance=3, confidence=0.9)

    assert not supersede_new([kept("fact-other", sentence)], sentence, bike, intent=False, reads_change=True)
    assert not supersede_new([kept("fact-vehicle", "a cargo bike")], sentence, bike, intent=False,
                             reads_change=True)
    assert supersede_new([kept("fact-job", "i teach piano")], sentence, bike, intent=False, reads_change=True)


def test_a_second_memory_names_the_old_value_where_the_sentence_leaves_it() -> None:
    # the sentence leaves the old place ("left", "离开"): a memory of another thing there states the old value
    home, other = "i live in tulsa", "i coach a swim team in tulsa"
    assert old_value("left tulsa for boise, coaching there now", home, other)
    assert old_value("毕业离开青岛了，在济南上班", "现在住青岛", "在青岛读研，学的化学")
    assert old_value("从青岛搬到济南了", "现在住青岛", "在青岛读研，学的化学")
    # a move within the old place leaves it nowhere
    assert not old_value("搬到青岛黄岛了，离学校近", "现在住青岛", "在青岛读研，学的化学")
    assert not old_value("moved flats within tulsa, same team", home, other)


def test_untold_is_the_strongly_cued_clauses_no_candidate_holds() -> None:
    from core.extraction.rules.judge_supersede import untold

    assert untold("switch to kg please, i'm living in spain now", ["i'm living in spain now"]) == \
        "switch to kg please"
    assert untold("重量改成公斤吧，我现在住在马德里", ["我现在住在马德里"]) == "重量改成公斤吧"
    # the clause left tells no change with a strong cue: nothing
    assert untold("kg is nicer, i'm living in spain now", ["i'm living in spain now"]) == ""
    # every clause is held by a candidate: nothing
    assert untold("switched to kg", ["switched to kg"]) == ""
