# ruff: noqa: E501  (data: hand-written chat lines, one family per block)
"""A tenth set of rows for the precision model, each a user's message with the assistant's turn before it,
and a pool of short acknowledgements for the trainer's neutral turns (issue 24, precision, session 19;
``ctx34``).

Written for this repository on 2026-12-06 by the ``ctx34`` helper (an AI agent session) before any public run
of its model: every line is its own, written as a person would type it in a companion chat (many voices, no
slot grid), none copied or paraphrased from an evaluation set (the dev cases, ``bench/data/*_cases.jsonl``,
MemoryBank, Synthetic-Persona-Chat's test split), the issue texts or the demo samples (a test searches every
case file). Built into the precision corpus with ``PAI_PRECISION_SETS=s19`` (sessions 15, 16 and 18's sets and
these); ``SHORT_ACKS_EN``/``SHORT_ACKS_ZH`` join the trainer's neutral turns with ``train_memory_mlp
--short-acks``.

Why: session 18's context model (``PAI_PRECISION_SETS=s18``) lost two families. (1) A message after a short
acknowledgement ("Got it.", "好的。") read as an echo of that turn: the neutral turns the trainer pairs with
turn-less rows were all whole sentences, so a two-word turn was never seen beside a durable statement. (2) A
durable wish or taste told in the words of the assistant's question ("would you like to ... one day?" -> "I'd
love to ...") read as an echo: the rows that take up the turn's topic rarely repeat its words. The families:

- ``short_ack_durable`` (keeps): after a two-to-five-word acknowledgement, a fact, a taste or a long-run aim;
- ``short_ack_day`` (drops): after the same kind of turn, the day's news, thanks, a mood or a question;
- ``wish_in_question_words`` (keeps, goal): a long-run wish or plan told in answer to a question about it, in
  the question's own words ("would you like to ... someday?" -> "I would like to ... one day");
- ``taste_in_question_words`` (keeps, preference): a lasting taste or habit told in the question's words;
- ``echo_of_the_moment`` (drops): the same kind of echo of the question when what it answers is for now (a plan
  for tonight, an offer of help, a request, an agreement).
"""

from __future__ import annotations

from typing import Any

from training.template_rows import context_rows

# short acknowledgements an assistant says before the user goes on: the trainer's neutral turns with --short-acks
SHORT_ACKS_EN = [
    "Got it.", "Okay!", "Nice!", "Oh wow.", "Sounds good.", "I see.", "Noted.", "Ah, okay.", "Cool!",
    "That's great!", "Oh nice!", "Fair enough.", "Mm-hmm, go on.", "Wow, congrats!", "Haha, true.",
    "Right, makes sense.",
]
SHORT_ACKS_ZH = [
    "好的。", "嗯嗯。", "明白了。", "哇！", "收到～", "原来如此。", "好呀！", "不错哦！", "哈哈，是的。", "懂了。",
    "真棒！", "恭喜呀！", "这样啊。", "嗯，你说。", "挺好的。", "了解～",
]

Pair = tuple[str, str]
FAMILIES: list[tuple[str, bool, str | None, list[Pair]]] = [
    ("short_ack_durable", True, None, [
        ("Got it.", "also, I work night shifts at a bakery, so my mornings are my evenings haha"),
        ("Okay!", "oh and I'm allergic to shellfish, just so you know"),
        ("Nice!", "my favourite thing in the world is a long bike ride along the coast"),
        ("Oh wow.", "yeah, and I've lived in Glasgow for about ten years now"),
        ("Sounds good.", "btw I'm a primary school teacher, year three"),
        ("I see.", "I'm really into jigsaw puzzles, the 2000-piece ones are my thing"),
        ("Noted.", "my partner and I have two kids, a boy and a girl"),
        ("Cool!", "I've always preferred tea over coffee, earl grey mostly"),
        ("That's great!", "long term I want to get my private pilot licence"),
        ("Fair enough.", "I mostly cook vegan at home, have done for years"),
        ("Wow, congrats!", "thanks! I'm a physiotherapist now, started at a clinic near my flat"),
        ("Ah, okay.", "I don't drive, I get everywhere by bike or bus"),
        ("好的。", "对了，我是做会计的，在一家物流公司"),
        ("嗯嗯。", "我一直很喜欢听评书，睡前必听"),
        ("明白了。", "顺便说一下，我不吃辣，一点都不行"),
        ("哇！", "是啊，我老家在大连，现在在杭州工作"),
        ("收到～", "我家有一只十岁的老狗，叫豆豆"),
        ("好呀！", "我以后想去读个园林设计的硕士"),
        ("不错哦！", "我平时最喜欢的就是周末去郊外骑行"),
        ("恭喜呀！", "谢谢～我现在是一名外科护士了"),
        ("懂了。", "另外我是左撇子，用剪刀都得买专门的"),
        ("这样啊。", "我其实一直在学日语，打算明年考N2"),
    ]),
    ("short_ack_day", False, None, [
        ("Got it.", "anyway I just had a massive bowl of noodles, so full"),
        ("Okay!", "thanks, that helps a lot"),
        ("Nice!", "I'm so tired today, ugh"),
        ("Oh wow.", "yeah and then the bus broke down on the way home lol"),
        ("Sounds good.", "can you give me a quick recipe for pancakes?"),
        ("I see.", "it's raining again here, kinda gloomy"),
        ("Noted.", "ok cool, talk later"),
        ("Cool!", "I just finished a long call with my landlord"),
        ("That's great!", "haha yeah, I'm in a good mood today"),
        ("Fair enough.", "what time is it in Tokyo right now?"),
        ("好的。", "谢谢你啊，帮了大忙"),
        ("嗯嗯。", "我今天中午吃了个煎饼果子"),
        ("明白了。", "今天好累啊，不想动"),
        ("哇！", "哈哈是吧，刚才路上还看到一只松鼠"),
        ("收到～", "那你帮我查一下明天的天气吧"),
        ("好呀！", "我刚洗完澡，准备躺一会儿"),
        ("不错哦！", "今天心情还不错"),
        ("这样啊。", "好吧，那我先去忙了"),
    ]),
    ("wish_in_question_words", True, "goal", [
        ("Would you like to live by the sea one day?",
         "I would really like to live by the sea one day, somewhere small and quiet"),
        ("Have you ever thought about learning to sail?",
         "I have thought about learning to sail, and I'd like to do it properly in the next few years"),
        ("Is there a country you'd love to visit someday?",
         "there is! I'd love to visit Iceland someday and see the northern lights"),
        ("Would you ever want to open your own café?",
         "honestly yes, I'd want to open my own little café when the kids are older"),
        ("Do you think you'd like to go back to university at some point?",
         "I think I'd like to go back to university at some point and study history"),
        ("Would you like to get a dog in the future?",
         "I would love to get a dog in the future, once I have a place with a garden"),
        ("Have you considered running a half marathon?",
         "I've considered it a lot, and I'd like to run a half marathon before I'm 35"),
        ("Would you want to write a book one day?",
         "I'd want to write a book one day, a children's book probably"),
        ("Is learning another language something you'd like to do?",
         "learning Portuguese is something I'd really like to do, my in-laws are Brazilian"),
        ("Would you like to build your own house someday?",
         "I'd like to build a small wooden cabin myself someday, that's the dream"),
        ("Do you hope to travel more in the coming years?",
         "I do hope to travel more in the coming years, especially around South America"),
        ("Have you ever wanted to learn to dive?",
         "I've always wanted to learn to dive, and I'd like to get certified eventually"),
        ("Would you like to switch careers eventually?",
         "I would like to switch careers eventually, into something like nursing"),
        ("你以后想不想去国外生活？", "想啊，我以后想去新西兰生活几年"),
        ("有没有想过学一门乐器？", "想过，我一直想学大提琴，打算这几年慢慢学起来"),
        ("你将来想不想开一家自己的店？", "想开一家自己的花店，这是我一直以来的心愿"),
        ("有没有特别想去的地方？", "特别想去西藏，以后一定要去一次"),
        ("你会考虑以后读个研究生吗？", "会考虑，我以后想读个教育学的研究生"),
        ("你有没有想过以后养只猫？", "想过，等我搬到大一点的房子就养一只猫"),
        ("你想不想有一天去跑个全马？", "想啊，我希望五年内能跑完一次全程马拉松"),
        ("以后想换个行业吗？", "我以后想换到心理咨询这个行业，正在慢慢准备"),
        ("你有没有想过自己写本书？", "有想过，我希望以后能写一本关于家乡的书"),
        ("你希望以后住在什么样的地方？", "我希望以后能住在山脚下，有个小院子种菜"),
    ]),
    ("taste_in_question_words", True, "preference", [
        ("Do you enjoy cooking?", "I do enjoy cooking, especially slow stews on a Sunday"),
        ("What kind of books do you like to read?", "the kind of books I like to read are old detective novels, always have"),
        ("Are you more of a morning person or a night owl?", "definitely more of a night owl, I do my best work after ten"),
        ("Do you like spending time outdoors?", "I like spending time outdoors more than anything, I hike most weekends"),
        ("What's your favourite way to unwind?", "my favourite way to unwind is a hot bath and a crossword"),
        ("Do you prefer cats or dogs?", "I prefer cats, always have, they're calmer"),
        ("What kind of films do you usually watch?", "I usually watch old black-and-white films, they're my comfort"),
        ("Do you like to travel?", "I love to travel, I try to take two long trips a year"),
        ("你喜欢做饭吗？", "喜欢做饭，尤其喜欢做各种面食"),
        ("你平时喜欢看什么书？", "我平时喜欢看历史类的书，特别是明朝那段"),
        ("你是早起型还是夜猫子？", "我是典型的夜猫子，晚上脑子最清醒"),
        ("你喜欢户外活动吗？", "很喜欢户外活动，周末基本都去徒步"),
        ("你最喜欢怎么放松？", "我最喜欢的放松方式就是泡一壶茶听相声"),
        ("你更喜欢猫还是狗？", "我更喜欢狗，从小家里就一直养狗"),
    ]),
    ("echo_of_the_moment", False, None, [
        ("Would you like to try that recipe tonight?", "yeah I would like to try it tonight actually"),
        ("Would you like some more tips on that?", "yes I would like some more tips please"),
        ("Do you want to talk about what happened?", "I do want to talk about it a little, it was a weird day"),
        ("Would you like me to set a reminder for it?", "yes, I'd like you to set a reminder"),
        ("Do you want to watch something funny this evening?", "I want to watch something funny this evening for sure"),
        ("Would you like to go for a walk to clear your head?", "I would like to go for a walk now, good idea"),
        ("Would you like a few restaurant ideas for tonight?", "I'd like a few ideas, yes, something near the station"),
        ("Do you feel like resting a bit today?", "I do feel like resting today, I'm wiped out"),
        ("要不要今晚试试这个菜谱？", "好啊，今晚就试试这个菜谱"),
        ("需要我再给你一些建议吗？", "需要，再给我一些建议吧"),
        ("想不想聊聊今天发生的事？", "想聊聊，今天发生的事有点烦"),
        ("要不要我帮你定个闹钟？", "要，帮我定个明早七点的闹钟"),
        ("今晚想不想看个轻松的电影？", "想看个轻松的，今晚不想动脑子"),
        ("要不要出去走走散散心？", "嗯，我现在就想出去走走散散心"),
    ]),
]

_DURABLE_TYPES: dict[str, str] = {
    "also, I work night shifts at a bakery, so my mornings are my evenings haha": "fact",
    "oh and I'm allergic to shellfish, just so you know": "fact",
    "my favourite thing in the world is a long bike ride along the coast": "preference",
    "yeah, and I've lived in Glasgow for about ten years now": "fact",
    "btw I'm a primary school teacher, year three": "fact",
    "I'm really into jigsaw puzzles, the 2000-piece ones are my thing": "preference",
    "my partner and I have two kids, a boy and a girl": "fact",
    "I've always preferred tea over coffee, earl grey mostly": "preference",
    "long term I want to get my private pilot licence": "goal",
    "I mostly cook vegan at home, have done for years": "preference",
    "thanks! I'm a physiotherapist now, started at a clinic near my flat": "fact",
    "I don't drive, I get everywhere by bike or bus": "fact",
    "对了，我是做会计的，在一家物流公司": "fact",
    "我一直很喜欢听评书，睡前必听": "preference",
    "顺便说一下，我不吃辣，一点都不行": "preference",
    "是啊，我老家在大连，现在在杭州工作": "fact",
    "我家有一只十岁的老狗，叫豆豆": "fact",
    "我以后想去读个园林设计的硕士": "goal",
    "我平时最喜欢的就是周末去郊外骑行": "preference",
    "谢谢～我现在是一名外科护士了": "fact",
    "另外我是左撇子，用剪刀都得买专门的": "fact",
    "我其实一直在学日语，打算明年考N2": "goal",
}


def ctx34_template_rows() -> list[dict[str, Any]]:
    """Every family's (prev, text) pairs, in a fixed order, distinct texts only; ``source`` is
    ``template_ctx34``; each row carries its ``prev``; a kept line after a short acknowledgement is typed by
    what it tells."""
    rows = context_rows(FAMILIES, "template_ctx34")
    for r in rows:
        if r["family"] == "short_ack_durable":  # typed by what the line tells
            r["type"] = _DURABLE_TYPES[r["text"]]
    return rows
