# ruff: noqa: E501  (data: hand-written templates and slot values, one family per block)
"""A seventh set of hand-written templates for the precision model, each row with the assistant's turn before it
(issue 24, precision, session 15; ``prec28``).

Written for this repository on 2026-12-05 by the ``prec28`` helper (an AI agent session), with slot values and
sentence shapes of its own, none copied or paraphrased from an evaluation set (the dev cases,
``bench/data/*_cases.jsonl``, MemoryBank, Synthetic-Persona-Chat's test split), the issue texts or the demo
samples (``training/build_utterance_corpus.py --check`` searches every row in them). Built into the precision
model's corpus only (``build_utterance_corpus --precision``), for the precision model that reads the previous
turn (``train_memory_mlp --precision --context``).

Every row is a pair: ``prev`` (what the assistant just said) and ``text`` (the user's reply). The families are
the ones the precision samples of sessions 13 and 14 read as bad because of what came before them, and their
counterweights, whose text is a memory whatever the assistant said:

- drops: an echo of the assistant's advice ("I'll give {advice} a try", "我会试着{advice}的"); a promise to
  keep the advice in mind; a self-assessment of these days answering "how have you been" ("I feel like I
  can't {fail}", "我最近总觉得{fail}"); a reaction whose object is only in the assistant's turn ("I love the
  way it {verb}", "这种感觉我很喜欢"); the plot of a film or book the assistant asked about, retold; the
  sights and logistics of a trip the assistant asked about; a work only heard of ("I've heard of {title} but
  never watched it");
- keeps: a taste, a habit, a job, a home, a health fact, a spare-time project or a standing favourite told in
  answer to the assistant's question or advice ("what do you do in your free time?" -> "I paint
  watercolours most weekends"; advice to run -> "I have a bad knee, so I swim instead").

Expansion: template ``t`` (a ``prev`` and a ``text`` filled together, the same slot values in both) takes, for
its ``k``-th row, slot value ``(k * step_s + t) % len(values)`` of each slot ``s`` (``template_rows.fill``),
``PER_TEMPLATE`` rows at most, distinct texts only (a text has one ``prev``: rows are keyed by their text).
"""

from __future__ import annotations

from typing import Any

from training.template_rows import fill

SEP = " ||| "
PER_TEMPLATE = 8
_STEPS = (1, 3, 5, 7, 11)

ADVICE_EN = ["a short walk after dinner", "writing down three good things each night", "a breathing exercise before bed",
             "putting the phone away an hour before sleep", "a weekly call with an old friend", "a yoga class",
             "a gratitude journal", "cooking one new dish a week", "a ten-minute stretch in the morning",
             "a digital detox on Sundays"]
ADVICE_ZH = ["饭后散散步", "每天睡前写下三件开心的事", "睡前做做深呼吸", "睡前一小时放下手机", "每周给老朋友打个电话",
             "去上一节瑜伽课", "写感恩日记", "每周学做一道新菜", "早上拉伸十分钟", "周日远离电子产品"]
FAIL_EN = ["keep up with everyone else", "finish anything I start", "focus on my work", "get out of this rut",
           "sleep properly", "stay motivated", "stop worrying about small things", "feel good about myself"]
FAIL_ZH = ["跟不上别人", "做什么都半途而废", "没法专心工作", "走不出这段低谷", "睡不好觉", "提不起劲", "老是为小事焦虑",
           "对自己很不满意"]
FEEL_EN = ["a bit flat", "tired all the time", "kind of restless", "stressed", "low", "on edge", "unmotivated"]
FEEL_ZH = ["有点低落", "总是很累", "心里很烦躁", "压力很大", "没什么精神", "很焦虑", "提不起兴趣"]
TITLE_EN = ["The Quiet Harbour", "Paper Lanterns", "Winter Orchard", "The Last Ferry", "Salt and Copper",
            "A River of Glass", "Northern Lights Diner", "The Clockmaker's Son"]
TITLE_ZH = ["《静港》", "《纸灯笼》", "《冬日果园》", "《末班渡轮》", "《盐与铜》", "《玻璃之河》", "《北方小馆》", "《钟表匠的儿子》"]
THEME_EN = ["grief and forgiveness", "growing up poor", "loyalty between brothers", "an immigrant family",
            "memory and loss", "a small town's secrets"]
THEME_ZH = ["悲伤与原谅", "贫穷中成长", "兄弟之间的情义", "一个移民家庭", "记忆和失去", "小镇的秘密"]
VERB_EN = ["handles the silences", "shows the family falling apart", "builds up to the ending",
           "treats the old characters", "mixes humour and sadness", "lets the music carry the story"]
PLOT_EN = ["a fisherman loses his boat and has to rebuild his life with his daughter",
           "two sisters inherit a failing bakery and slowly turn it around",
           "a retired teacher walks across the country to find his old student",
           "a young nurse moves to a mining town and uncovers a scandal",
           "an orphan boy is raised by a travelling circus and becomes its ringmaster",
           "a widow opens a radio station to keep her husband's voice alive"]
PLOT_ZH = ["一个渔夫失去了船，带着女儿重新开始生活", "两姐妹继承了一家快倒闭的面包店，慢慢把它救了回来",
           "一位退休老师徒步穿越全国去找他当年的学生", "一个年轻护士来到矿区小镇，揭开了一桩丑闻",
           "一个孤儿在马戏团长大，最后成了团长", "一位寡妇开了一家电台，让丈夫的声音继续留在世上"]
PLACE_EN = ["Porto", "Hokkaido", "Oaxaca", "Krakow", "Queenstown", "Marrakech", "Tasmania", "Valparaiso"]
PLACE_ZH = ["厦门", "西双版纳", "敦煌", "呼伦贝尔", "黄山", "泉州", "腾冲", "稻城"]
SIGHT_EN = ["the old cathedral and the fish market", "a couple of hot springs and a whisky distillery",
            "the ruins outside town and a cooking class", "the salt mine and the old Jewish quarter",
            "a glacier hike and a wine tour", "the souks and a night in the desert"]
SIGHT_ZH = ["老城区和海鲜市场", "热带植物园和夜市", "莫高窟和鸣沙山", "草原和湿地公园", "日出和云海", "老街和开元寺"]
HOBBY_EN = ["paint watercolours", "go bouldering", "bake sourdough", "play chess online", "restore old radios",
            "grow chillies on my balcony", "sing in a choir", "knit scarves"]
HOBBY_ZH = ["画水彩", "去攀岩", "烤欧包", "下围棋", "修老收音机", "在阳台种辣椒", "在合唱团唱歌", "织围巾"]
JOB_EN = ["a pharmacist", "a bus driver", "a wedding photographer", "a school librarian", "a marine biologist",
          "a locksmith", "a sound engineer", "a dental nurse"]
JOB_ZH = ["药剂师", "公交司机", "婚礼摄影师", "中学图书管理员", "海洋生物研究员", "锁匠", "录音师", "牙科护士"]
CONDITION_EN = ["a bad knee", "asthma", "a back injury", "flat feet", "a heart murmur", "arthritis in my hands"]
CONDITION_ZH = ["膝盖有旧伤", "有哮喘", "腰椎间盘突出", "有低血糖", "心脏不太好", "手腕有腱鞘炎"]
PROJECT_EN = ["translating my grandfather's letters into English", "building a wooden canoe in my garage",
              "writing a cookbook of my mum's recipes", "making a board game about our town",
              "restoring a 1970s motorbike", "recording an album of folk songs"]
PROJECT_ZH = ["把爷爷的信翻译成英文", "在车库里造一艘木头独木舟", "把我妈妈的菜谱整理成一本书", "设计一款关于我们小城的桌游",
              "修复一辆七十年代的老摩托", "录一张民谣专辑"]

SLOTS = {"advice_en": ADVICE_EN, "advice_zh": ADVICE_ZH, "fail_en": FAIL_EN, "fail_zh": FAIL_ZH,
         "feel_en": FEEL_EN, "feel_zh": FEEL_ZH, "title_en": TITLE_EN, "title_zh": TITLE_ZH,
         "theme_en": THEME_EN, "theme_zh": THEME_ZH, "verb_en": VERB_EN, "plot_en": PLOT_EN, "plot_zh": PLOT_ZH,
         "place_en": PLACE_EN, "place_zh": PLACE_ZH, "sight_en": SIGHT_EN, "sight_zh": SIGHT_ZH,
         "hobby_en": HOBBY_EN, "hobby_zh": HOBBY_ZH, "job_en": JOB_EN, "job_zh": JOB_ZH,
         "cond_en": CONDITION_EN, "cond_zh": CONDITION_ZH, "project_en": PROJECT_EN, "project_zh": PROJECT_ZH}

Pair = tuple[str, str]
FAMILIES: list[tuple[str, bool, str | None, list[Pair]]] = [
    ("prev_advice_echo", False, None, [
        ("Maybe you could try {advice_en}; small routines often help when things feel heavy.", "I'll give {advice_en} a try"),
        ("It might help to start with {advice_en}. How does that sound?", "Guess I should start with {advice_en} then"),
        ("One idea is {advice_en}, it can make the evenings calmer.", "That sounds like a good idea, I'll try {advice_en} this week"),
        ("You could consider {advice_en}. Be patient with yourself too.", "Thanks, noted, I'll remember that one"),
        ("Try not to be too hard on yourself. {advice_en} could be a gentle first step.", "I think you're right, I should go easy on myself"),
        ("你可以试试{advice_zh}，慢慢来，会好起来的。", "好的，我会试着{advice_zh}的"),
        ("我建议你先从{advice_zh}开始，你觉得怎么样？", "我觉得我确实需要{advice_zh}"),
        ("也许{advice_zh}能帮你放松一下心情。", "谢谢你的建议，我会记住的"),
        ("别给自己太大压力，{advice_zh}就是很好的开始。", "嗯，我会尽量放松，好好享受生活"),
    ]),
    ("prev_mood_answer", False, None, [
        ("How have you been feeling these days?", "I've been feeling {feel_en} lately"),
        ("How are things going for you at the moment?", "honestly I can't seem to {fail_en} whatever I do"),
        ("Is something on your mind?", "I doubt I'll ever {fail_en} tbh"),
        ("最近心情怎么样？", "我最近总觉得自己{fail_zh}"),
        ("你这几天过得还好吗？", "这段时间我一直{feel_zh}"),
        ("是有什么心事吗？", "说实话我觉得自己一直{fail_zh}"),
    ]),
    ("prev_referent_reaction", False, None, [
        ("Have you seen {title_en}? It's a film about {theme_en}.", "I love the way it {verb_en}"),
        ("{title_en} is a novel about {theme_en}, many readers find it moving.", "it got me right in the heart tbh"),
        ("Did you like the actors in {title_en}?", "the cast was great and so was the story"),
        ("你看过{title_zh}吗？讲的是{theme_zh}。", "这种氛围我特别喜欢"),
        ("{title_zh}这本书写的是{theme_zh}，很多人看哭了。", "这本书真的让我很感动"),
        ("你觉得{title_zh}的结局怎么样？", "里面每个角色都挺有血有肉的"),
    ]),
    ("prev_plot_retold", False, None, [
        ("What is {title_en} about?", "It's about how {plot_en}"),
        ("Can you tell me the story of {title_en}?", "In the story {plot_en}"),
        ("{title_zh}讲的是什么故事？", "讲的是{plot_zh}的故事"),
        ("你能说说{title_zh}的剧情吗？", "电影里{plot_zh}"),
    ]),
    ("prev_trip_plan", False, None, [
        ("Have you planned what to do in {place_en}?", "mostly gonna wander around {sight_en} while I'm there"),
        ("What are you most looking forward to on your trip to {place_en}?", "I want to visit {sight_en} and try the local food"),
        ("Have you booked everything for {place_en} yet?", "I've already bought the flights and booked a guesthouse near {sight_en}"),
        ("去{place_zh}有什么安排吗？", "我打算去看看{sight_zh}"),
        ("去{place_zh}的行程都准备好了吗？", "机票酒店都搞定了，还查了{sight_zh}怎么走"),
    ]),
    ("prev_heard_of", False, None, [
        ("Have you watched {title_en}?", "I know of {title_en} but never got round to watching it"),
        ("Do you know the book {title_en}?", "I know the name {title_en} but never read it"),
        ("你看过{title_zh}吗？", "{title_zh}只听朋友提过，自己还没看"),
        ("你知道{title_zh}这本书吗？", "听过{title_zh}这个名字，不过没读过"),
    ]),
    ("prev_answer_taste", True, "preference", [
        ("What do you like to do in your free time?", "I {hobby_en} most weekends"),
        ("Do you have any hobbies?", "I've loved to {hobby_en} since I was a teenager"),
        ("Maybe you could try {advice_en} to unwind.", "What really relaxes me is to {hobby_en}"),
        ("你平时有什么爱好吗？", "我平时喜欢{hobby_zh}"),
        ("周末一般怎么过？", "周末我基本都会{hobby_zh}"),
        ("你可以试试{advice_zh}来放松。", "我最喜欢的放松方式其实是{hobby_zh}"),
    ]),
    ("prev_answer_fact", True, "fact", [
        ("What do you do for a living?", "I'm {job_en} by trade"),
        ("It might help to try {advice_en}.", "I've been {job_en} for twelve years, so my hours are long"),
        ("Running could be a good way to relieve stress.", "I have {cond_en}, so running is hard for me"),
        ("你是做什么工作的？", "我是一名{job_zh}"),
        ("你可以试试{advice_zh}。", "我{cond_zh}，不太能做剧烈运动"),
        ("要不要试试跑步减压？", "我做{job_zh}已经十年了，平时很少有空"),
    ]),
    ("prev_answer_project", True, "project", [
        ("What keeps you busy outside work?", "In my spare time I'm {project_en}"),
        ("You could try {advice_en} to relax.", "Lately my evenings go into {project_en}, it's a long project"),
        ("工作之外你在忙些什么？", "我业余时间在{project_zh}"),
        ("你可以试试{advice_zh}。", "我最近晚上都在{project_zh}，打算花一两年做完"),
    ]),
    ("prev_answer_favourite", True, "preference", [
        ("Have you watched {title_en}?", "Yes, {title_en} has been my favourite film for years"),
        ("Any books you'd recommend?", "{title_en} is my all-time favourite, I reread it every winter"),
        ("你看过{title_zh}吗？", "看过，{title_zh}是我最喜欢的电影，看了好多遍"),
        ("有什么书推荐吗？", "{title_zh}是我一直最爱的书"),
    ]),
]


def prec28_template_rows() -> list[dict[str, Any]]:
    """Every family's (prev, text) templates filled ``PER_TEMPLATE`` times (distinct texts only), in a fixed
    order; ``source`` is ``template_prec28``; each row carries its ``prev``."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for family, keep, memory_type, pairs in FAMILIES:
        for t, (prev_template, text_template) in enumerate(pairs):
            joined = prev_template + SEP + text_template
            for k in range(PER_TEMPLATE if "{" in joined else 1):
                prev, text = fill(joined, SLOTS, _STEPS, k, t).split(SEP)
                if text in seen:
                    continue
                seen.add(text)
                out.append({"text": text, "keep": keep, "type": memory_type, "family": family,
                            "relation": None, "source": "template_prec28", "prev": prev})
    return out


# What a companion assistant says before a user's turn, for the precision model with context: a row of the corpus
# without a previous turn is also read once after one of these (``train_memory_mlp --precision --context``), so
# the model learns that an assistant's question or advice alone changes nothing; what changes the reading is how
# the reply relates to it (an echo, a reaction to its object). Chosen per row by a hash of the row's id.
NEUTRAL_PREVS_EN = [
    "That sounds like a lot to carry. Do you want to talk about it?",
    "It's great that you're thinking about this. What matters most to you right now?",
    "Maybe you could try setting aside a little time each day just for yourself.",
    "How did that make you feel?",
    "That's interesting! Tell me more about it.",
    "Have you thought about talking to a friend or someone you trust?",
    "A regular routine, enough sleep and some exercise can make a real difference.",
    "What do you usually do when you want to relax?",
    "I'm glad to hear that. Is there anything else you'd like to share?",
    "Everyone has days like that. Be kind to yourself.",
    "Good question! There are a few things you could consider, like your budget and your schedule.",
    "What kind of music, books or films do you enjoy?",
]
NEUTRAL_PREVS_ZH = [
    "听起来你最近压力不小，想聊聊吗？",
    "你能这样想很好。现在对你来说最重要的是什么？",
    "也许你可以每天留一点时间给自己。",
    "那件事让你有什么感受呢？",
    "真有意思！能多说一点吗？",
    "有没有想过找信任的朋友聊一聊？",
    "规律作息、充足睡眠和适量运动都会有帮助。",
    "你平时想放松的时候会做些什么？",
    "很高兴听你这么说。还有什么想分享的吗？",
    "每个人都会有这样的日子，别对自己太苛刻。",
    "好问题！你可以从预算和时间安排几个方面考虑。",
    "你喜欢什么样的音乐、书或者电影呢？",
]
