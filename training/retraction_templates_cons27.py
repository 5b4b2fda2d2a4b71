"""More labelled sentences for the retraction-intent model (issue 24, session 14, helper cons27).

Two frame families the session-12 templates (``retraction_templates_forget24``) lack, and their look-alikes:

- **a part of what was told** ("lose the part about X", "the X bit can go", "X那部分就别留了"): the verbs
  of chat ("scrap", "ditch", "bin", "cut") that also announce updates elsewhere;
- **a bare "that" with its reason** ("<interjection> forget that, <why>", "呃刚才那句删了，<原因>"): what is
  withdrawn is the statement before; the reason after the comma names no topic.

Label 0 (same shapes, no withdrawal): the best / worst "part" or "bit" of something the user tells, an
interjection before a statement, a story with the verbs. Same row format and group naming as the session-12
templates (``group`` names the frame so the trainer's split holds whole frames out). Deterministic. Topics,
reasons and interjections are chosen apart from the cons27 case halves (``bench/data/cons27_*``) and the dev
sets.
"""

from __future__ import annotations

from typing import Any

TOPICS_EN = [
    "my cholesterol",
    "the custody fight",
    "my gambling",
    "the dui",
    "the biopsy",
    "my student loans",
    "the bankruptcy",
    "my brother's arrest",
    "my visa status",
    "the ivf",
    "my stutter",
    "the breakup",
    "the landlord dispute",
    "my blood pressure pills",
    "my night terrors",
    "the overdraft",
    "my eczema",
    "the probation",
    "my sleep apnea",
    "the restraining order",
]
TOPICS_ZH = [
    "胆固醇",
    "抚养权官司",
    "赌博",
    "酒驾",
    "活检",
    "助学贷款",
    "破产",
    "我哥被抓",
    "签证",
    "试管",
    "口吃",
    "分手",
    "房东纠纷",
    "降压药",
    "夜惊",
    "透支",
    "湿疹",
    "缓刑",
    "睡眠呼吸暂停",
]
INTERJ_EN = ["", "hmm ", "meh ", "welp ", "oops ", "ahh ", "nah ", "jk ", "oh ", "ok so ", "argh ", "lol "]
REASONS_EN = [
    "i stopped after a month",
    "that was my roommate not me",
    "i changed my mind",
    "it didn't work out",
    "i was thinking of someone else",
    "that's not true anymore",
    "i got that wrong",
    "i dropped it last spring",
    "that was years ago",
    "mixed up my days",
]
INTERJ_ZH = ["", "呃，", "害，", "哎，", "啊不对，", "emmm ", "诶，", "额，"]
REASONS_ZH = [
    "我早就没做了",
    "说的是我室友",
    "我改主意了",
    "那是好几年前的事了",
    "我记错了",
    "后来没坚持",
    "已经不是这样了",
    "说错人了",
]

PART_EN = [
    "scrap the bit about {t}",
    "lose the part about {t}",
    "the {t} bit can go",
    "ditch the {t} part",
    "bin the stuff about {t}",
    "cut the part where i mentioned {t}",
    "that bit about {t}, you can drop it",
    "nix the {t} part pls",
    "scratch out the {t} piece",
    "the {t} part doesn't need remembering",
    "axe the bit on {t}",
    "the part about {t}? don't hang onto that",
]
PART_ZH = [
    "{t}那部分就别留了",
    "{t}那块你删了吧",
    "关于{t}的那部分不用记",
    "{t}那段就不要了",
    "把{t}那部分拿掉",
    "{t}那茬就算了，别记",
    "{t}相关的那几句都去掉吧",
    "提到{t}的那部分你删一下",
]
PART_MIX = [
    "{t} 那部分 scrap 掉吧",
    "the {t} part 就别记了",
    "关于 {t} 的那段 drop 掉",
    "把 {t} 那个 bit 删了",
]
BARE_EN = [
    "{i}forget that, {r}",
    "{i}scrap that, {r}",
    "{i}never mind that one, {r}",
    "{i}delete that, {r}",
    "{i}bin that, {r}",
    "{i}ignore what i just said, {r}",
    "{i}take that back, {r}",
    "{i}drop that one, {r}",
    "{i}you can forget that last bit, {r}",
]
BARE_ZH = [
    "{i}那个忘了吧，{r}",
    "{i}刚才那句删了，{r}",
    "{i}前面那条不算，{r}",
    "{i}刚说的你别记，{r}",
    "{i}上一句当我没讲，{r}",
    "{i}那条撤了吧，{r}",
]
# not a withdrawal: the same words about something else
NOT_EN = [
    "the best part about {h} is the people",
    "i loved the bit about {h} in that podcast",
    "the worst part of {h} is the early mornings",
    "{i}my knees hurt after {h} again",
    "{i}{h} was so fun this weekend",
    "that part of {h} always gets me",
    "i forgot how much i like {h}",
    "my coach said to scrap the warm-up before {h}, which is weird",
    "we had to cut the part of the trip with {h} because of rain",
    "can you explain the tricky part of {h}?",
]
NOT_ZH = [
    "{h}最好玩的部分是认识新朋友",
    "{i}{h}又把我累坏了",
    "那期节目里讲{h}的那段挺好笑",
    "{h}最难的那部分我还没学会",
    "{i}我好久没{h}了，有点想",
    "{h}那部分你能再讲一遍吗？",
]
HOBBIES_EN = [
    "rock climbing",
    "pottery",
    "salsa dancing",
    "fly fishing",
    "trail running",
    "chess",
    "birdwatching",
    "sourdough baking",
    "kayaking",
    "calligraphy",
]
HOBBIES_ZH = [
    "攀岩",
    "做陶艺",
    "跳莎莎舞",
    "钓鱼",
    "越野跑",
    "下象棋",
    "观鸟",
    "烤面包",
    "划皮划艇",
    "练书法",
]


def rows() -> list[dict[str, Any]]:
    """Every labelled row, deterministic order, without duplicates."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(text: str, label: int, group: str) -> None:
        if text not in seen:
            seen.add(text)
            out.append({"text": text, "label": label, "group": group})

    for i, frame in enumerate(PART_EN):
        for j, t in enumerate(TOPICS_EN[i % 4 :: 4]):
            add(INTERJ_EN[(i + j) % len(INTERJ_EN)] + frame.format(t=t), 1, f"c27-en-part{i}")
    for i, frame in enumerate(PART_ZH):
        for j, t in enumerate(TOPICS_ZH[i % 3 :: 3]):
            add(INTERJ_ZH[(i + j) % len(INTERJ_ZH)] + frame.format(t=t), 1, f"c27-zh-part{i}")
    for i, frame in enumerate(PART_MIX):
        for t in TOPICS_EN[i % 5 :: 5] + TOPICS_ZH[i % 5 :: 5]:
            add(frame.format(t=t), 1, f"c27-mix-part{i}")
    for i, frame in enumerate(BARE_EN):
        for j in range(len(REASONS_EN)):
            add(frame.format(i=INTERJ_EN[(i + j) % len(INTERJ_EN)], r=REASONS_EN[j]), 1, f"c27-en-bare{i}")
    for i, frame in enumerate(BARE_ZH):
        for j in range(len(REASONS_ZH)):
            add(frame.format(i=INTERJ_ZH[(i + j) % len(INTERJ_ZH)], r=REASONS_ZH[j]), 1, f"c27-zh-bare{i}")
    for i, frame in enumerate(NOT_EN):
        for j, h in enumerate(HOBBIES_EN):
            add(frame.format(h=h, i=INTERJ_EN[(i + j) % len(INTERJ_EN)]), 0, f"c27-en-not{i}")
    for i, frame in enumerate(NOT_ZH):
        for j, h in enumerate(HOBBIES_ZH):
            add(frame.format(h=h, i=INTERJ_ZH[(i + j) % len(INTERJ_ZH)]), 0, f"c27-zh-not{i}")
    return out
