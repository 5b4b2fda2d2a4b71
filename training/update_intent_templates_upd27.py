"""More negatives for the update-intent model (issue 24, session 14, helper upd27): what is said about a
state the user told that does NOT replace it, without change words.

Session 13's gate read news of a goal's progress as a change ("managed N of them", "又瘦了N斤") at
0.73-0.75, above most real updates, and so replaced a goal with its progress. These rows are labelled 0:
progress on a goal or a habit (a count reached, a first step taken, a setback), a detail or refinement of a
state told before (where in the city, what the job involves, what the pet is like), a fragment naming a
thing (what a retraction message names beside its cue sentence). Same row shape and ``group`` scheme as
``training/update_intent_templates_updgate26.py`` (frames x topics; the trainer holds whole frame groups
out). Written apart from the case files: no sentence and no value of ``bench/data/*_cases.jsonl``.
"""

from __future__ import annotations

from typing import Any

from training.update_intent_templates_updgate26 import _each

# goals and habits being worked on, and counts reached
AIMS_EN = ["the 10k", "my thesis", "the guitar songs", "pull-ups", "the french course", "my savings target",
           "the novel draft", "the cert exam", "meditation streak", "the garden beds"]
AIMS_ZH = ["考研", "论文", "减脂", "雅思", "存钱计划", "练字", "背单词", "游泳课", "驾照", "马拉松训练"]
NUMS_EN = ["3", "seven", "11", "two", "15", "four"]
NUMS_ZH = ["三", "7", "十", "两", "12", "五"]
PROGRESS_EN = ["managed {n} more this week, getting there", "{n} weeks into {o} and still going",
               "hit a new best on {o} today", "halfway through {o} already", "did {n} sessions of {o} so far",
               "first real step on {o} done today", "bit of a setback with {o} this week, back at it monday",
               "{o} is going better than i expected", "finally finished chapter {n}",
               "logged {n} hours on {o} this month"]
PROGRESS_ZH = ["{o}这周又进步了一点", "{o}已经坚持{n}周了", "{o}进度过半了", "今天{o}终于有点感觉了",
               "{o}这个月完成了{n}次", "{o}最近卡住了，下周继续", "{o}比想象的顺利",
               "{o}今天练了{n}个小时", "又攒了{n}千块", "{o}第一阶段搞定了"]
# details and refinements of a state told before
PLACES_EN = ["near the old harbour", "on the east side", "right by the university", "close to the stadium",
             "in a quiet suburb", "above a bakery"]
PLACES_ZH = ["在地铁站旁边", "在老城区", "离公司很近", "在大学附近", "在江边", "在一个安静的小区"]
DETAIL_EN = ["our place is {c}, love the area", "the office is {c}",
             "mostly i handle the client side of things",
             "she's a rescue, a bit shy with strangers", "he's three now and very loud",
             "especially the spicy ones", "mostly the older stuff from the 90s",
             "the team is tiny, just five of us", "it's a hybrid role, two days in the office"]
DETAIL_ZH = ["我们家{c}", "公司{c}", "主要负责对接客户", "它是领养的，有点怕生", "尤其是辣一点的",
             "主要是九十年代的老歌", "团队不大，就五个人", "一周去两天办公室", "是只三岁的小公猫"]
# what a withdrawal message names beside its cue sentence
FRAGMENTS_EN = ["the {o} thing", "about {o}", "that bit on {o}", "re: {o}", "the stuff about {o}"]
FRAGMENTS_ZH = ["{o}那个", "关于{o}的", "{o}那件事", "刚才说的{o}", "{o}那块"]


def rows() -> list[dict[str, Any]]:
    """The extra negative rows, deterministic order."""
    en = {"o": AIMS_EN, "n": NUMS_EN, "c": PLACES_EN}
    zh = {"o": AIMS_ZH, "n": NUMS_ZH, "c": PLACES_ZH}
    out: list[dict[str, Any]] = []
    out += _each(PROGRESS_EN, 0, "u27-en-pr", en)
    out += _each(PROGRESS_ZH, 0, "u27-zh-pr", zh)
    out += _each(DETAIL_EN, 0, "u27-en-de", en, per=2)
    out += _each(DETAIL_ZH, 0, "u27-zh-de", zh, per=2)
    out += _each(FRAGMENTS_EN, 0, "u27-en-fr", en, per=3)
    out += _each(FRAGMENTS_ZH, 0, "u27-zh-fr", zh, per=3)
    return out
