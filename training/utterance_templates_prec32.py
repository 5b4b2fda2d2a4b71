# ruff: noqa: E501  (data: hand-written chat lines, one family per block)
"""A ninth set of rows for the precision model, each a user's message with the assistant's turn before it
(issue 24, precision, session 18; ``prec32``).

Written for this repository on 2026-12-06 by the ``prec32`` helper (an AI agent session): every line is its own,
written as a person would type it in a companion chat (many voices, no slot grid), none copied or paraphrased
from an evaluation set (the dev cases, ``bench/data/*_cases.jsonl``, MemoryBank, Synthetic-Persona-Chat's test
split), the issue texts or the demo samples (a test searches every case file). Built into the precision corpus
with ``PAI_PRECISION_SETS=s18`` (session 15's ``utterance_templates_prec28``, session 16's
``utterance_templates_prec29`` and these), for the precision model that reads the end of the previous turn
(``train_memory_mlp --precision --context``).

Why: session 16's context model (``PAI_PRECISION_SETS=s16``) read every message after the assistant turn before
it, and a message that opens a new topic after an assistant turn that closed another one ("... take care and
drink some water" -> "hey, guess what, I've started <a new hobby>") looked like an echo of a turn it does not
answer and was dropped. Its rows had no such pairs. And the day events typed as goals (a plan of the moment:
an appointment tomorrow, a film tonight, a hike this weekend) were a third of the bad labels of session 17's
samples; no row set said that a plan of the moment is not a long-run goal. The families:

- ``new_topic_durable`` (keeps): the assistant closes one topic (advice, a sign-off, a recap), the user opens
  another with a taste, a habit, a life change or a long-run aim of their own;
- ``new_topic_day`` (drops): the same kind of turn, the user opens another topic with the day's news (a meal,
  a walk, an errand, something that happened this morning);
- ``plan_of_the_moment`` (drops): a plan for today, tomorrow or this weekend, after a question about plans or
  after an unrelated turn;
- ``long_run_goal`` (keeps): an aim that takes months or years, after the same kinds of turns.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import context_rows

Pair = tuple[str, str]
FAMILIES: list[tuple[str, bool, str | None, list[Pair]]] = [
    ("new_topic_durable_taste", True, "preference", [
        ("Anyway, I hope the rest of your evening goes smoothly. Remember to get some sleep!",
         "hey! random thing, I've gotten really into baking sourdough lately, it's become my favourite weekend thing"),
        ("So the key is to keep the receipts in case you need to return it. Good luck!",
         "Oh btw I found out I really love bouldering, been going to the gym like three times a week"),
        ("That should fix the problem with your router. Let me know if it happens again.",
         "hi hi, so I picked up the ukulele a couple months ago and honestly I'm hooked"),
        ("In short, both options have their pros and cons, so go with what feels right.",
         "Morning! So I've discovered I'm a total podcast person now, true crime ones mostly"),
        ("Take care of yourself and don't push too hard at work.",
         "guess what, I started growing succulents and now my whole windowsill is covered, I adore them"),
        ("That's the whole story of how the festival began. Interesting, right?",
         "Hello again! I've been learning to knit since autumn and it's my favourite way to relax now"),
        ("Hope you feel better soon, rest is the best medicine.",
         "Hey there, new obsession: Korean dramas. I watch one every night before bed"),
        ("So yes, the museum is closed on Mondays. Plan accordingly!",
         "hi! fun fact about me, I've become a huge fan of trail running, I'd pick it over the gym any day"),
        ("Alright, I think that covers everything about your tax question.",
         "ok totally different topic but I've been collecting vinyl records for a while now, mostly 70s soul"),
        ("Good night, and try not to worry about it too much.",
         "Hey! So I've got into birdwatching, it's my favourite thing to do on Sunday mornings"),
        ("好的，那就先这样，记得多喝热水早点休息。",
         "哈喽！跟你说个事，我最近迷上了做手冲咖啡，现在每天早上都自己冲一杯"),
        ("总之，两个方案各有优劣，看你自己的需要吧。",
         "对了对了，我最近开始学书法了，越写越喜欢"),
        ("希望这些建议对你的面试有帮助，加油！",
         "嗨，换个话题，我发现我特别喜欢养多肉，阳台上已经摆了二十多盆"),
        ("以上就是这个节日的来历，挺有意思的吧。",
         "你好呀～我最近爱上了夜跑，基本每天晚上都要跑五公里"),
        ("好啦，不早了，晚安哦。",
         "嘿，告诉你个事，我现在是个十足的猫奴了，家里养了两只橘猫"),
        ("这个问题就是这样解决的，下次遇到可以照着做。",
         "早上好！我最近开始玩桌游了，狼人杀和卡坦岛是我的最爱"),
        ("记得按时吃药，身体最重要。",
         "诶我跟你讲，我最近喜欢上了钓鱼，周末基本都泡在水库边"),
        ("所以说这家店的口碑一直不错，你可以放心去。",
         "哈哈换个话题，我从去年开始学弹吉他，现在已经离不开它了"),
    ]),
    ("new_topic_durable_fact", True, "fact", [
        ("Okay, that's how you reset the password. Anything else?",
         "hey, big news, I moved to Lisbon last month, still getting used to it"),
        ("Good luck with the recipe, I'm sure it'll turn out great.",
         "Oh by the way I got a new job! I'm a nurse at the children's hospital now"),
        ("Sounds like a plan. Enjoy the concert!",
         "hi! so we adopted a rescue dog, a greyhound called Pepper, she lives with us now"),
        ("So that's the difference between the two phones. Hope it helps.",
         "Hey, guess what, I got married in the spring! still feels surreal"),
        ("Remember, small steps add up. You've got this.",
         "hello, so I finally finished my degree, I'm officially a civil engineer"),
        ("好的，这个快递的问题应该就解决了。",
         "跟你说个大消息，我上个月搬到成都了，现在在这边定居"),
        ("祝你旅途愉快，注意安全！",
         "哈喽，我换工作啦，现在在一家游戏公司做美术"),
        ("以上就是几种常见的做法，你可以都试试。",
         "嗨，我家里添了个小宝宝，是个女儿，三个月大了"),
        ("好的，那就不打扰你了，有事随时找我。",
         "对了，我前阵子查出来对花生过敏，以后吃东西得小心了"),
        ("这个电影的结局确实有点出人意料。",
         "说个别的，我今年退休了，现在时间多了很多"),
    ]),
    ("new_topic_long_run_aim", True, "goal", [
        ("Glad the fix worked! Have a good one.",
         "hey so I've decided I want to learn Japanese properly, I'm aiming to pass the N3 in a couple of years"),
        ("That's all there is to the recipe. Enjoy!",
         "hi, new plan for my life: I'm saving up to open a small bakery of my own someday"),
        ("Anyway, the weather should clear up by the weekend.",
         "Oh also, I've set myself a goal to run a full marathon before I turn forty"),
        ("好的，希望你今天一切顺利。",
         "嗨，我给自己定了个长期目标，三年内把英语练到能流利交流"),
        ("这个软件就是这么用的，不难吧。",
         "对了，我打算这几年慢慢攒钱，以后回老家开个民宿"),
        ("以上就是我的建议，仅供参考哦。",
         "诶，我最近下定决心要考研了，准备明年底上考场"),
    ]),
    ("new_topic_day", False, None, [
        ("Anyway, I hope the rest of your evening goes smoothly. Remember to get some sleep!",
         "hey! just got back from a walk along the river, the sunset was gorgeous"),
        ("That should fix the problem with your router. Let me know if it happens again.",
         "oh btw I had the best ramen for lunch today"),
        ("Take care of yourself and don't push too hard at work.",
         "hi! guess what, I ran into an old classmate at the supermarket this morning"),
        ("So yes, the museum is closed on Mondays. Plan accordingly!",
         "Hello! I just finished cleaning the whole flat, feeling productive"),
        ("Good night, and try not to worry about it too much.",
         "hey, so my train was delayed an hour today, what a mess"),
        ("In short, both options have their pros and cons, so go with what feels right.",
         "Morning! I watched a really weird documentary about octopuses last night"),
        ("Alright, I think that covers everything about your tax question.",
         "haha ok different topic, my neighbour's cat wandered into my kitchen just now"),
        ("Hope you feel better soon, rest is the best medicine.",
         "hey there, I just got my hair cut, it's a bit shorter than I wanted"),
        ("好的，那就先这样，记得多喝热水早点休息。",
         "哈喽！我刚和朋友吃完火锅回来，撑死了"),
        ("总之，两个方案各有优劣，看你自己的需要吧。",
         "对了，我今天下午去公园散了会儿步"),
        ("希望这些建议对你的面试有帮助，加油！",
         "嗨，跟你说，我今天早上地铁上看到一个人抱着一只鹦鹉"),
        ("以上就是这个节日的来历，挺有意思的吧。",
         "你好呀，我刚把衣服洗完晾好"),
        ("好啦，不早了，晚安哦。",
         "嘿，我今天去超市买了一大堆零食"),
        ("这个问题就是这样解决的，下次遇到可以照着做。",
         "早上好！昨晚下了好大的雨，今天路上都是积水"),
        ("记得按时吃药，身体最重要。",
         "诶我跟你讲，刚才外卖小哥送错了，给了我别人的奶茶"),
        ("所以说这家店的口碑一直不错，你可以放心去。",
         "换个话题哈，我今天下班路上看了场很美的晚霞"),
    ]),
    ("plan_of_the_moment", False, None, [
        ("Any plans for tomorrow?", "going to the dentist tomorrow morning, wish me luck"),
        ("What are you up to this weekend?", "probably a hike with some friends on Saturday if it doesn't rain"),
        ("How's your week looking?", "I've got a job interview on Thursday afternoon, kinda nervous"),
        ("Glad you liked the suggestion!", "I think I'll watch a movie tonight, maybe something funny"),
        ("That sounds like a relaxing evening.", "yeah and later I'm gonna order pizza and call my sister"),
        ("Anything planned for the holiday?", "we're driving to my aunt's place on Friday for a couple of days"),
        ("Hope the meeting went well.", "tomorrow I need to pick up my parcel from the post office"),
        ("Do you have anything fun coming up?", "a friend's birthday dinner next Saturday, need to buy a gift"),
        ("Good luck with everything!", "thanks, gonna try to get to the gym after work today"),
        ("How are you spending your evening?", "planning to finish my book tonight, only 30 pages left"),
        ("That's a great idea.", "so I'll call the landlord tomorrow about the leaking tap"),
        ("明天有什么安排吗？", "明天要去医院复查一下"),
        ("周末打算怎么过？", "打算这周末去爬山，天气好的话"),
        ("最近忙吗？", "这周四下午有个面试，有点紧张"),
        ("希望你喜欢我推荐的那几部电影。", "今晚准备看一部，挑个轻松点的"),
        ("听起来今天挺充实的。", "等会儿还要去接孩子放学"),
        ("假期有什么计划？", "我们打算国庆回趟老家，待三四天"),
        ("好的，祝你一切顺利。", "明天得去银行办张卡"),
        ("最近有什么好玩的事吗？", "下周六同学聚会，我正在想穿什么"),
        ("那你今晚打算做什么？", "今晚想早点睡，明天要早起赶飞机"),
        ("这个主意不错。", "那我下午就去买点菜，晚上自己做饭"),
    ]),
    ("long_run_goal", True, "goal", [
        ("Any plans for the future?", "I want to become a vet one day, that's been my dream since I was a kid"),
        ("What are you working towards these days?", "I'm saving up to buy a flat of my own in the next five years"),
        ("How's your week looking?", "busy, but I'm slowly working towards my pilot's licence, that's the big goal"),
        ("Is there anything you'd like to get better at?", "I'd really like to be fluent in Spanish eventually, I practise a bit every day"),
        ("Glad you liked the suggestion!", "by the way, my long-term goal is to write and publish a novel"),
        ("Do you have any big dreams?", "someday I want to sail around the world with my partner"),
        ("That's a great idea.", "I'm also trying to lose 15 kilos over the next year, slowly and properly"),
        ("What would you do with more free time?", "I'd finally learn to play the piano well, I've always wanted to"),
        ("以后有什么打算吗？", "我打算明年考研，想读心理学"),
        ("你最近在努力什么？", "我在攒钱，计划五年内在老家买套房"),
        ("最近忙吗？", "挺忙的，不过我一直在准备考注册会计师，这是我这两年的目标"),
        ("有什么想提升的地方吗？", "我想把英语口语练好，以后有机会出国工作"),
        ("好的，祝你一切顺利。", "谢谢，我的长期目标是自己开一家咖啡馆"),
        ("你有什么梦想吗？", "我一直想有一天能去南极看企鹅"),
        ("这个主意不错。", "对了，我给自己定了个目标，一年内减重二十斤"),
        ("如果有更多时间你想做什么？", "我想好好学画画，这是我从小的心愿"),
    ]),
]


def prec32_template_rows() -> list[dict[str, Any]]:
    """Every family's (prev, text) pairs, in a fixed order, distinct texts only; ``source`` is
    ``template_prec32``; each row carries its ``prev``."""
    return context_rows(FAMILIES, "template_prec32")
