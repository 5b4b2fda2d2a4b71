"""``core.extraction.rules.judge_retract``: a retraction's topic and the part of a memory it names. Pure
functions, no model (the decisions through the provider: ``test_update_judge.py``). Moved from
``test_update_judge.py`` (session 17, helper judge30); sentences written for these tests."""

from __future__ import annotations

from core.extraction.pairs import topic_text
from core.extraction.rules.judge_retract import clauses_of, drop_conjunct, retraction_topic


def test_a_memorys_clauses() -> None:
    assert clauses_of("i'm a welder, and i earn about 60k") == ["i'm a welder", "i earn about 60k"]


def test_a_conjunct_and_the_retraction_clause_name_the_part() -> None:
    assert drop_conjunct("i like sci-fi novels and cooking shows", "cooking") == "i like sci-fi novels"
    assert drop_conjunct("i like cooking shows and sci-fi novels", "cooking") == "i like sci-fi novels"
    assert drop_conjunct("我对猫毛和尘螨过敏", "尘螨") == "我对猫毛过敏"
    assert drop_conjunct("i like tea, coffee and juice", "coffee") == "i like tea, juice"
    assert drop_conjunct("i like tea and coffee", "matcha") == ""  # names no conjunct
    assert retraction_topic("don't keep the rent thing, just the neighbourhood") == "rent"
    assert retraction_topic("please wipe the rent thing") == topic_text("please wipe the rent thing")
