"""Hand-written clauses for the own-subject head (``core.extraction.own_subject``; issue 24, session 29,
helper multi48): does the opening clause of a sentence no rule fired on name a subject of its own (a noun
phrase: a thing, a place, a person or a group other than the user), or does it elide the user as its subject?

The subject-elided reading (``gate_rescue.ELIDED_SENTENCE``, session 28) reads a sentence with no "I" as
"i'm <sentence>" ("terrified of heights" -> "i'm terrified of heights"); it also read sentences whose subject
is a noun phrase ("jazz music is really great", "lunch was bad", "landlord is being a pain") as the user's.
Label 1: a subject of its own (a noun phrase, then its verb; the day's news and opinions of things, en and
zh); 0: the subject elided (a trait, a condition, a job, a taste, a habit or a plan told without "I").
Written for this file, in new wording; no line is taken from an evaluation case or from a public store
(``tests/training`` checks the case files).
"""

from __future__ import annotations

from typing import Any

_OWN: dict[str, list[str]] = {
    "en-thing-opinion": [
        "the soup at that cafe is fantastic", "classical music is so relaxing", "this book is really long",
        "the new season of that show was disappointing", "dinner was pretty bland tonight",
        "the museum downtown is worth a visit", "that bakery's croissants are unreal",
        "the film had a terrible ending", "fresh bread is the best thing ever",
        "the park near here is lovely", "Their garlic naan was amazing",
        "The hotel breakfast was average at best", "modern art is kind of confusing",
        "the lecture was surprisingly interesting", "the wifi in this building is so slow",
        "The food there was overpriced", "rock climbing gyms are getting expensive",
        "the weather forecast looks grim",
    ],
    "en-person": [
        "the new manager seems nice enough", "my landlord's agent is being difficult",
        "the teacher gave us loads of homework", "the plumber never showed up",
        "Our neighbour's dog barks all night", "the doctor was running late",
        "the kids had a blast at the party", "the coach shouted at everyone",
        "The receptionist was really rude", "the guy upstairs is learning the drums",
        "her brother is moving to Canada", "the team lost again", "the students were very noisy",
        "The driver missed my stop", "grandma is feeling better now", "the lads were out till 3am",
        "the boss wants the report by monday", "The waiter forgot our drinks",
    ],
    "en-news": [
        "the power went out for an hour", "the train was packed this morning", "the meeting ran over again",
        "the car broke down on the motorway", "the heating is broken in the flat", "the roads were icy",
        "the match got rained off", "the shop was out of milk", "The flight got delayed by three hours",
        "the printer jammed twice", "the queue at the post office was huge", "the bins didn't get collected",
        "the concert sold out in minutes", "the bus route changed again", "The parcel finally arrived",
        "the hot water stopped working", "the lift is out of order", "the fire alarm went off at work",
    ],
    "zh-thing": [
        "这家的饺子特别香", "那部电影太无聊了", "楼下的咖啡馆环境不错", "今天的天气真好", "公司的空调坏了",
        "这本书写得很好", "食堂今天的饭很咸", "那个公园人太多了", "地铁早上特别挤", "网上买的鞋子质量很差",
        "小区门口新开了一家超市", "这里的房价涨得厉害", "晚上的烟花很好看", "快递又延迟了",
    ],
    "zh-person": [
        "同事今天请假了", "新来的经理挺严格的", "楼上的小孩天天弹钢琴", "老师布置了好多作业",
        "邻居家的狗一直叫", "服务员态度很差", "司机开得太快了", "房东又要涨房租", "领导让我们周末加班",
        "表哥下个月结婚", "室友把厨房弄得很乱", "医生说问题不大",
    ],
}

_ELIDED: dict[str, list[str]] = {
    "en-condition": [
        "allergic to kiwi fruit", "scared of deep water", "terrible at remembering names",
        "short sighted since i was ten", "Asthmatic, always carry an inhaler",
        "lactose intolerant so no cheese for me", "afraid of dogs tbh",
        "colour blind, can't tell green from brown", "deaf in one ear", "Epileptic, so no flashing lights",
        "bad knees, can't run anymore", "claustrophobic, hate lifts", "not a big fan of crowds",
        "hopeless at cooking", "a massive night owl", "totally useless with computers",
    ],
    "en-job-life": [
        "primary school teacher in Leeds", "mechanic by trade", "Retired nurse, 70 this year",
        "self employed electrician", "mum of two boys", "single dad, one daughter",
        "grew up on a farm in Devon", "originally from Lagos", "living in a shared house in Manchester",
        "studying law at Durham", "Part-time barista, full-time student", "married with three kids",
        "work from home most days", "born and raised in Cork", "just turned 40",
        "been a chef for fifteen years",
    ],
    "en-taste-habit": [
        "big fan of jazz", "into birdwatching lately", "Obsessed with true crime podcasts",
        "love a good crossword", "crazy about motorbikes", "huge Liverpool supporter", "mad keen gardener",
        "addicted to iced coffee", "play five-a-side every tuesday", "go swimming before work most mornings",
        "collect old railway tickets", "really into k-pop", "massive foodie, will try anything",
        "can't stand musicals", "never eat red meat", "always up for a board game night",
    ],
    "en-plan": [
        "planning to learn italian next year", "hoping to buy a house by 35",
        "want to run a marathon someday", "saving for a camper van", "trying to read 50 books this year",
        "thinking of going back to uni", "keen to get my motorbike licence", "Aiming to quit sugar",
        "would love to visit Iceland", "learning to play the banjo",
    ],
    "zh-elided": [
        "对猫毛过敏", "特别怕打雷", "在上海做会计", "喜欢看悬疑小说", "晕船很严重", "不喝酒", "每天早上跑步",
        "在读研究生 学的是化学", "养了两只仓鼠", "老家是湖南的", "想明年去日本旅游", "不太会做饭",
        "是个夜猫子", "平时爱打羽毛球", "近视八百度", "退休了 以前当兵",
    ],
}


def rows() -> list[dict[str, Any]]:
    """The lines as training rows (``text``, ``label``: 1 a subject of its own, 0 the user's subject elided;
    ``group``: ``multi48-<family>-<n>``, four lines a group)."""
    out: list[dict[str, Any]] = []
    for label, families in ((1, _OWN), (0, _ELIDED)):
        for family, lines in families.items():
            out.extend({"text": t, "label": label, "group": f"multi48-{family}-{i // 4}"}
                       for i, t in enumerate(lines))
    return out
