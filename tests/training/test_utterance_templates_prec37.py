"""The precision model's session-20 rows (``training.utterance_templates_prec37``): companion-chat messages
after the same kinds of assistant turns, dropped when they tell the day, a mood, thanks or a request and
kept when they tell a lasting taste, an ongoing aim, a life change or a standing fact."""

from __future__ import annotations

from training.utterance_templates_prec37 import FAMILIES, prec37_template_rows

DROPS = {"day_told_with_feeling", "mood_of_the_moment", "thanks_and_praise", "request_or_question_back",
         "where_i_am_now", "plan_of_the_moment_warm", "mood_lately_after_advice", "thanks_after_advice"}
KEEPS = {"taste_told_warmly": "preference", "aim_recently_with_mood": "goal", "life_change_warm": "fact",
         "standing_fact_warm": "fact"}


def test_families_are_labelled_and_typed_by_what_they_tell() -> None:
    rows = prec37_template_rows()
    assert {f for f, *_ in FAMILIES} == DROPS | set(KEEPS) | {"taste_or_aim_after_advice"}
    for r in rows:
        if r["family"] in DROPS:
            assert not r["keep"] and r["type"] is None
        else:
            assert r["keep"] and r["type"] == KEEPS.get(r["family"], r["type"]) and r["type"]


def test_the_same_turns_open_kept_and_dropped_messages() -> None:
    rows = prec37_template_rows()
    kept = {r["prev"] for r in rows if r["keep"]}
    dropped = {r["prev"] for r in rows if not r["keep"]}
    assert len(kept & dropped) >= 15  # the companion's turn alone cannot decide


def test_ongoing_aims_with_a_mood_are_kept_in_both_languages() -> None:
    aims = [r for r in prec37_template_rows() if r["family"] == "aim_recently_with_mood"]
    assert sum(r["text"].isascii() for r in aims) >= 6
    assert sum(not r["text"].isascii() for r in aims) >= 6
