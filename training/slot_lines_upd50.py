# ruff: noqa: E501  (data: hand-written pairs, one family per block)
"""More hand-written pairs for the slot reading (``core.extraction.slot_reading``; issue 24, session 31,
helper upd50): the wide reading's lines, beside ``training/slot_lines_upd49.py``.

Same shape as upd49's lines: a live memory of the user and a later chat statement. Label 1: the statement
tells a new value of the memory's own slot in words that do not repeat the slot's; here two slots upd49's
reading did not know (a pet, an instrument) and more homes, jobs, routines (bedtimes, commutes) and phones. A
school told as the subject studied (seven pairs) was measured and left out: it drew the school centroid to the
job's, and a job memory ("我是做 backend engineer 的") read no slot (bench/RESULTS.md, session 31). Label 0:
the statement leaves the memory standing (a second pet or instrument added, someone else's pet or major, a
borrowed instrument for a trip, a detail). The wide reading is fitted on the texts of the label-1 lines of both
modules (``slot_texts``). Written for it in strangers' wording, zh,
en and mixed; none is a sentence of a case file (``tests/training``).
"""

from __future__ import annotations

from typing import Any

from training import slot_lines_upd49

# (group, label, memory, statement)
LINES: list[tuple[str, int, str, str]] = [
    # --- a pet, told anew (1)
    ("pet", 1, "I have a corgi named Waffles", "Waffles lives with my ex now, I've got two kittens from the shelter instead"),
    ("pet", 1, "we keep a bearded dragon", "the lizard went to a reptile rescue, now a fat orange cat rules the house"),
    ("pet", 1, "I own a parrot", "the parrot went back to my uncle, I'm fostering a pitbull mix now"),
    ("pet", 1, "my pet is a goldfish", "tank's empty these days, adopted a lop-eared bunny"),
    ("pet", 1, "my dog is a little chihuahua", "said goodbye to him in may, a senior lab mix we took in is napping on my feet"),
    ("pet", 1, "我养了一条金毛", "金毛跟前任了，现在家里是一只英短蓝猫"),
    ("pet", 1, "家里养了只乌龟", "乌龟放生了，上周领养了一只小柴犬"),
    ("pet", 1, "我有一只虎皮鹦鹉", "鹦鹉送给邻居了，现在笼子里换成两只垂耳兔"),
    ("pet", 1, "我养了只橘猫", "橘猫走了，后来抱回来一只边牧"),
    ("pet", 1, "I have a 龙猫 at home", "现在养的是一只 husky，精力旺盛到爆"),
    # --- an instrument, told anew (1)
    ("instrument", 1, "I play acoustic guitar", "these days it's the cello, rented one from the music school"),
    ("instrument", 1, "I'm learning the drums", "moved over to saxophone lessons, the neighbors are happier"),
    ("instrument", 1, "I play trumpet in a brass band", "it's all synths and a midi keyboard in my bedroom now"),
    ("instrument", 1, "I've been taking flute lessons", "the flute stays in its case, harmonica every evening instead"),
    ("instrument", 1, "我在学钢琴", "现在每周去上架子鼓课，敲得特别解压"),
    ("instrument", 1, "我会弹吉他", "最近迷上了二胡，每天晚上拉一会儿"),
    ("instrument", 1, "我在学萨克斯", "换成学长笛了，气息比较好控制"),
    ("instrument", 1, "我业余吹口琴", "现在主要弹电子琴，在家自己编曲"),
    ("instrument", 1, "I play 琵琶 in a small group", "现在在学 classical guitar，指甲都剪短了"),
    # --- a home, a job, a routine, a phone, told anew (1)
    ("home", 1, "I live in a shared flat in Dublin", "signed a lease on a cottage in Galway, the dog loves the garden"),
    ("home", 1, "I live in San Diego", "my mailing address is Boise as of this month"),
    ("home", 1, "我住在成都的老小区", "在重庆买了房，上周刚住进去"),
    ("home", 1, "我住学校宿舍", "出来在外面租了个单间，自由多了"),
    ("job", 1, "I'm a line worker at a car plant", "I sell insurance over the phone these days"),
    ("job", 1, "我是一名公交司机", "现在在小区开了家便利店，自己当老板"),
    ("routine", 1, "I'm a night owl, asleep around 3", "lights out by ten thirty most nights now"),
    ("routine", 1, "I walk to work", "I'm remote now, the commute is my hallway"),
    ("routine", 1, "我每天早上七点起床", "现在五点半就起来晨跑了"),
    ("routine", 1, "我每天骑电动车上班", "单位搬远了，现在每天坐班车"),
    ("phone", 1, "I'm on a Galaxy A52", "a friend sold me his iphone 15, the samsung is in a drawer"),
    # --- look-alikes that leave the memory standing (0)
    ("added", 0, "I have a corgi named Waffles", "we got a kitten too, Waffles keeps sniffing it"),
    ("added", 0, "我在学钢琴", "最近还报了个声乐课"),
    ("added", 0, "I play acoustic guitar", "started messing with a banjo on the side"),
    ("others", 0, "我养了一条金毛", "我妈最近养了只猫"),
    ("others", 0, "I'm majoring in biology", "my roommate switched to film studies"),
    ("visit", 0, "I play acoustic guitar", "borrowed a banjo for the beach trip this weekend"),
    ("visit", 0, "我养了只橘猫", "这周帮朋友看一只哈士奇，家里鸡飞狗跳"),
    ("detail", 0, "I'm majoring in biology", "my lab class is on thursdays"),
    ("detail", 0, "我养了只橘猫", "它最近又胖了两斤"),
    ("detail", 0, "我在学萨克斯", "老师说我换气还不够稳"),
]


def rows() -> list[dict[str, Any]]:
    """The lines as rows (``group``, ``label``, ``memory``, ``text``)."""
    return [{"group": g, "label": y, "memory": m, "text": t} for g, y, m, t in LINES]


def slot_texts() -> list[tuple[str, str]]:
    """``(slot, text)``: both texts of every label-1 line of upd49's lines and these, under its family's
    slot (the wide reading's training texts)."""
    return [*slot_lines_upd49.slot_texts(),
            *((g, text) for g, y, m, t in LINES if y == 1 for text in (m, t))]
