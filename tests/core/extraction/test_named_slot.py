"""``slots.names_a_slot``: which keys the update judge treats as a slot someone named."""

from __future__ import annotations

import pytest

from core.extraction.rules.slots import names_a_slot


@pytest.mark.parametrize("key", ["constraint-reply_length", "fact-home_city", "diet-restriction",
                                 "reply-format", "sport-running_goal"])
def test_catalogue_slots_and_keys_another_writer_chose_are_named(key: str) -> None:
    assert names_a_slot(key)


@pytest.mark.parametrize("key", ["goal-move_japan_work_game", "project-pennywise",
                                 "constraint-xue_sheng_chu_ti", "fact-event-moved_new_job"])
def test_the_rules_per_statement_keys_are_not(key: str) -> None:
    assert not names_a_slot(key)
