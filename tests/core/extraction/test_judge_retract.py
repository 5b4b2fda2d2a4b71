"""``core.extraction.rules.judge_retract``: a retraction's topic and the part of a memory it names. Pure
functions, no model (the decisions through the provider: ``test_update_judge.py``). Moved from
``test_update_judge.py`` (session 17, helper judge30); sentences written for these tests."""

from __future__ import annotations

import os
import subprocess
import sys

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


def test_a_middle_item_of_a_chinese_list_goes_whole() -> None:
    # the topic's salient bigrams ("下象", "象棋") each name the item: the item goes whole with its joint,
    # never a bigram with the joint beside it ("钓鱼棋和养多肉", "钓鱼、下养多肉")
    assert drop_conjunct("我周末喜欢爬山、下围棋和做面包", "下围棋") == "我周末喜欢爬山和做面包"
    assert drop_conjunct("我喜欢悬疑剧、纪录片和韩综", "纪录片") == "我喜欢悬疑剧和韩综"


def test_the_cut_does_not_depend_on_the_hash_seed() -> None:
    code = ("from core.extraction.rules.judge_retract import drop_conjunct as d; "
            "print(d('我周末喜欢爬山、下围棋和做面包', '下围棋'))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2", "3", "4")}
    assert len(outs) == 1, outs
