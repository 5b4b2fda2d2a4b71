"""``core.extraction.rules.judge_cues``: which sentences of a message the update judge reads, and the cue
words a text carries. Pure functions, no model. Sentences written for these tests, none from an evaluation
set (the first test moved from ``test_update_judge.py``, session 17, helper judge30)."""

from __future__ import annotations

from core.extraction.rules.judge_cues import (
    MAX_STATEMENTS,
    cue_context,
    cue_statements,
    is_anaphoric,
    own_referent,
    retracts,
    tells_new_value,
)


def test_statements() -> None:
    assert cue_statements(
        "我辞职了！现在在一家花店帮忙"
    ) == [  # the short first sentence is read with the next
        ("我辞职了，现在在一家花店帮忙", "我辞职了，现在在一家花店帮忙"),
        ("现在在一家花店帮忙", "现在在一家花店帮忙"),
    ]
    assert cue_statements("I like hiking. The hills are nice") == []


def test_a_sentence_the_intent_model_gated_is_read_with_its_context() -> None:
    message = "Long week. The old nikon broke so i grabbed a sony a7"
    gated = frozenset({"The old nikon broke so i grabbed a sony a7"})
    assert cue_statements(message) == []
    assert [s for s, _ in cue_statements(message, gated)] == ["The old nikon broke so i grabbed a sony a7"]
    assert cue_context(message, gated) == ["Long week"]


def test_at_most_max_statements_are_read() -> None:
    message = ". ".join(f"i switched to plan {n} now" for n in range(MAX_STATEMENTS + 2))
    assert len(cue_statements(message)) == MAX_STATEMENTS


def test_a_reminder_is_no_retraction_and_the_old_values_end_no_new_value() -> None:
    assert retracts("please forget my old address")
    assert not retracts("don't forget i'm allergic to shellfish")
    assert not tells_new_value("i don't play tennis anymore, forget that")
    assert tells_new_value("scratch the violin, switching to cello")
    assert is_anaphoric("forget that pls") and not is_anaphoric("forget my old address")


def test_a_statement_before_a_bare_retraction_is_its_own_referent() -> None:
    assert own_referent("argh, spilled coffee all over my laptop")
    assert not own_referent("")  # the first sentence: the previous turn may be the referent
    assert not own_referent("ok")  # no statement
    assert not own_referent("did i tell you about my sister?")  # a question
    assert not own_referent("scratch what i said about the gym")  # a cue of its own
