"""``core.extraction.rules.judge_supersede``: the key of a new value and how strongly a change is told. Pure
functions, no model (the decisions through the provider: ``test_update_judge.py``,
``test_update_judge_stages.py``). Moved from ``test_update_judge.py`` (session 17, helper judge30);
sentences written for these tests."""

from __future__ import annotations

from core.extraction.candidates import ExistingMemory
from core.extraction.rules.judge_supersede import SURE_P, fresh_key, strong_change, weak_cue


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
