"""Hand-written exchanges for the referent chooser (issue 24, session 18, helper ref32): a statement that
leans on a thing named outside it, and where that thing is named.

Each group is one exchange in chat style, many voices, English, Chinese and mixed, written for this file (none
from an evaluation case): the assistant's turn the message answers (``assistant``, may be empty), the user's
previous turn (``previous``, may be empty), the message's sentences (``message``) and the index of the
statement that leans (``statement``). ``referent`` says where its thing is named: ``m<i>`` (sentence ``i`` of
the message, before the statement), ``prev`` (the user's previous turn), ``asst`` (the assistant's turn) or
``none`` (named nowhere near: the fragment is no memory). The distractors are the families that fooled the
rule: a thanks or a greeting, a question, a day's event, a sentence about another thing, a sentence that
leans itself.
"""

from __future__ import annotations

from typing import Any

_G: list[tuple[str, str, list[str], int, str]] = [
    # (assistant, previous, message sentences, statement index, referent)
    (
        "",
        "",
        ["My uncle keeps two old Land Rovers on his farm", "I love driving them on the dirt roads"],
        1,
        "m0",
    ),
    (
        "",
        "",
        [
            "Thanks for the tips yesterday",
            "I've got three sourdough starters going now",
            "I feed them every morning before work",
        ],
        2,
        "m1",
    ),
    (
        "How was your weekend?",
        "",
        [
            "pretty chill",
            "my neighbour gave me a box of old jazz records",
            "honestly I can't stop playing them",
        ],
        2,
        "m1",
    ),
    (
        "",
        "",
        [
            "I restore vintage typewriters as a side thing",
            "what do you think about that?",
            "most of them come from flea markets",
        ],
        2,
        "m0",
    ),
    (
        "",
        "",
        [
            "we adopted two rescue greyhounds in spring",
            "today it rained all day",
            "they hate getting their paws wet lol",
        ],
        2,
        "m0",
    ),
    (
        "",
        "I grow chillies on my balcony, like six kinds",
        ["yeah", "I dry them and make my own chilli flakes"],
        1,
        "prev",
    ),
    ("Do you have any pets?", "", ["no", "but I'd love to have one someday"], 1, "none"),
    ("", "", ["I love them so much"], 0, "none"),
    ("", "", ["hi there", "I love riding them on weekends"], 1, "none"),
    (
        "Have you ever tried bouldering?",
        "",
        ["yes!", "I go twice a week now and I'm obsessed with it"],
        1,
        "asst",
    ),
    (
        "You could try audiobooks on your commute.",
        "",
        ["I already listen to them every day", "mostly sci-fi"],
        0,
        "asst",
    ),
    (
        "",
        "",
        [
            "My grandma taught me to knit scarves when I was little",
            "I still make them for my whole family every winter",
        ],
        1,
        "m0",
    ),
    (
        "",
        "",
        [
            "I've been collecting fountain pens for about ten years",
            "good morning btw",
            "some of them are older than my dad",
        ],
        2,
        "m0",
    ),
    (
        "",
        "",
        [
            "I bought a secondhand cello last month",
            "the weather here is awful",
            "I practise on it every evening",
        ],
        2,
        "m0",
    ),
    (
        "",
        "",
        ["There's a tiny ramen place near my office", "I go there every Friday", "their broth is unreal"],
        2,
        "m0",
    ),
    (
        "What kind of music do you like?",
        "",
        ["mostly old Motown", "I grew up listening to it with my dad"],
        1,
        "m0",
    ),
    (
        "",
        "",
        ["My partner and I run a small Etsy shop selling ceramic mugs", "we make all of them in our garage"],
        1,
        "m0",
    ),
    (
        "",
        "I've got two kayaks in the shed",
        ["thanks for asking!", "we take them out on the lake most Sundays"],
        1,
        "prev",
    ),
    ("", "", ["can you recommend some podcasts?", "I listen to them while running"], 1, "m0"),
    ("", "", ["what else do you like to do?", "I like to do those things too"], 1, "none"),
    (
        "",
        "",
        ["I play in a five-a-side football team", "we lost again tonight", "I love those guys though"],
        2,
        "m0",
    ),
    (
        "",
        "",
        ["Been learning Korean for a year", "the grammar is brutal", "I practise it on the bus"],
        2,
        "m0",
    ),
    (
        "",
        "",
        ["So I inherited my grandpa's pocket watches", "three of them", "I wind them every Sunday"],
        2,
        "m0",
    ),
    ("Is there a sport you enjoy?", "", ["tennis mostly", "I've played it since high school"], 1, "m0"),
    ("", "", ["my sister breeds ragdoll cats", "I help her with them on weekends"], 1, "m0"),
    ("", "", ["ugh what a day", "I'm so into it lately"], 1, "none"),
    (
        "",
        "",
        [
            "I keep a little herb garden on my windowsill",
            "basil, mint, some thyme",
            "I cook with them almost every day",
        ],
        2,
        "m1",
    ),
    ("", "", ["Thank you so much!", "I really appreciate it", "I'll try them tonight"], 2, "none"),
    (
        "Maybe try some Studio Ghibli films?",
        "",
        ["omg I love those", "Spirited Away is my favourite"],
        0,
        "asst",
    ),
    ("", "", ["We bought an old sailboat with friends", "we named it after my mum"], 1, "m0"),
    (
        "",
        "",
        ["I do stand-up comedy at open mics", "what time is it there?", "I write all my bits on my phone"],
        2,
        "m0",
    ),
    ("", "", ["My twins are obsessed with dinosaurs", "I read to them every night"], 1, "m0"),
    ("", "", ["I drive a 2009 Civic", "I bought it from my cousin"], 1, "m0"),
    # Chinese
    ("", "", ["我舅舅养了好几匹蒙古马", "我每次回老家都要骑它们"], 1, "m0"),
    ("", "", ["谢谢你昨天的建议", "我最近在养多肉", "每天早上都给它们晒太阳"], 2, "m1"),
    ("周末过得怎么样？", "", ["还行", "朋友送了我一台胶片相机", "我现在天天带着它出门"], 2, "m1"),
    ("", "", ["我在学做皮具", "你觉得难吗？", "这些都是我自己缝的"], 2, "m0"),
    ("", "", ["我家有两只布偶猫", "今天下了一整天雨", "它们特别黏人"], 2, "m0"),
    ("", "我阳台上种了好多辣椒", ["嗯嗯", "我会把它们晒干做辣椒油"], 1, "prev"),
    ("你养宠物吗？", "", ["没有", "不过以后很想养一只"], 1, "none"),
    ("", "", ["我超喜欢它们"], 0, "none"),
    ("", "", ["你好呀", "我周末经常骑它们"], 1, "none"),
    ("你试过攀岩吗？", "", ["试过！", "现在每周去两次，完全上瘾了"], 1, "asst"),
    ("通勤的时候可以听听有声书。", "", ["我每天都在听这些", "主要听科幻"], 0, "asst"),
    ("", "", ["我奶奶小时候教我织毛衣", "现在每年冬天我都给家里人织"], 1, "m0"),
    ("", "", ["我收藏钢笔快十年了", "早上好", "其中有几支比我爸年纪还大"], 2, "m0"),
    ("", "", ["上个月买了一把二手大提琴", "这边天气好差", "我每天晚上都练它"], 2, "m0"),
    ("", "", ["公司楼下有家小面馆", "我每周五都去", "他们家的汤底绝了"], 2, "m0"),
    ("你喜欢什么音乐？", "", ["老粤语歌", "我是跟着我爸听这些长大的"], 1, "m0"),
    ("", "", ["我和男朋友开了个卖陶瓷杯的网店", "每一个都是我们在车库里做的"], 1, "m0"),
    ("", "我家棚子里有两艘皮划艇", ["谢谢关心！", "我们周末经常把它们拖去湖里划"], 1, "prev"),
    ("", "", ["能推荐几个播客吗？", "我跑步的时候听它们"], 1, "m0"),
    ("", "", ["你平时还喜欢干嘛？", "这些我也都喜欢"], 1, "none"),
    ("", "", ["我在一个业余足球队踢球", "今晚又输了", "不过我很爱那帮人"], 2, "m0"),
    ("", "", ["学韩语一年了", "语法太难了", "我坐地铁的时候练它"], 2, "m0"),
    ("", "", ["我爷爷留给我几块怀表", "三块", "我每个周日都给它们上弦"], 2, "m0"),
    ("你平时做什么运动？", "", ["主要打网球", "高中就开始打了"], 1, "m0"),
    ("", "", ["我姐姐繁育布偶猫", "周末我去帮她照顾它们"], 1, "m0"),
    ("", "", ["唉今天好累", "最近特别迷它"], 1, "none"),
    ("", "", ["我窗台上种了一排香草", "罗勒、薄荷还有百里香", "我做饭几乎天天用它们"], 2, "m1"),
    ("", "", ["太感谢你了！", "真的帮大忙了", "我今晚就试试它们"], 2, "none"),
    ("可以看看宫崎骏的电影？", "", ["我超爱那些", "千与千寻是我最喜欢的"], 0, "asst"),
    ("", "", ["我和朋友合买了一艘旧帆船", "我们用我妈的名字给它起名"], 1, "m0"),
    ("", "", ["我在开放麦讲脱口秀", "你那边几点了？", "我的段子都是在手机上写的"], 2, "m0"),
    ("", "", ["我家双胞胎特别迷恐龙", "我每晚都给他们读恐龙书"], 1, "m0"),
    ("", "", ["我开一辆2009年的思域", "是从我表哥那买的"], 1, "m0"),
    # mixed
    ("", "", ["我最近在玩 Zelda", "每天下班都玩它两个小时"], 1, "m0"),
    ("", "", ["I just got a Kindle", "我现在每天睡前都用它看书"], 1, "m0"),
    ("", "", ["我在做一个 drone", "想让它能自己飞回家"], 1, "m0"),
    ("Do you like board games?", "", ["超喜欢", "我们每周五都玩它们"], 1, "asst"),
    # more voices: fragments with nothing near (greetings, thanks, moods, the day), the assistant's offer,
    # a nearer sentence about something else
    ("", "", ["good evening!", "had a long shift today", "I really love them"], 2, "none"),
    ("", "", ["lol same", "I've always hated it"], 1, "none"),
    ("", "", ["thx so much for listening", "I'll keep doing it"], 1, "none"),
    ("", "", ["today was rough", "my boss yelled at everyone", "anyway I'm done with those"], 2, "none"),
    ("", "", ["哈哈哈", "我一直都很讨厌它"], 1, "none"),
    ("", "", ["晚上好", "今天加班到九点", "反正我就是很喜欢他们"], 2, "none"),
    ("", "", ["谢谢你听我说这些", "我会一直坚持下去的"], 1, "none"),
    ("Want some tips for growing tomatoes?", "", ["sure", "I already grow them on my roof"], 1, "asst"),
    (
        "Have you been to the night markets in Taipei?",
        "",
        ["many times", "I love their stinky tofu"],
        1,
        "asst",
    ),
    ("Do you play any instruments?", "", ["the ukulele", "I taught myself to play it on YouTube"], 1, "m0"),
    ("要不要试试手冲咖啡？", "", ["我早就在玩了", "每天早上都自己冲它"], 1, "asst"),
    ("你去过大理吗？", "", ["去过好几次", "那里的洱海我特别喜欢"], 1, "asst"),
    ("你会弹什么乐器吗？", "", ["会弹尤克里里", "我是看视频自学的它"], 1, "m0"),
    (
        "",
        "",
        [
            "I volunteer at an animal shelter on Saturdays",
            "the coffee there is awful",
            "I walk the older dogs mostly, they're so sweet",
        ],
        2,
        "m0",
    ),
    (
        "",
        "",
        ["My dad and I rebuild old motorbikes", "mum thinks we're crazy", "we sell them at a bike fair"],
        2,
        "m0",
    ),
    ("", "", ["我周六在流浪动物救助站做义工", "那边的咖啡很难喝", "我主要遛那些老狗，它们特别乖"], 2, "m0"),
    ("", "", ["我跟我爸一起修老摩托", "我妈觉得我们疯了", "修好了就拿到车展上卖掉它们"], 2, "m0"),
    (
        "",
        "I've got a 10-year-old parrot called Mango",
        ["haha yes", "he says my name every morning"],
        1,
        "prev",
    ),
    ("", "我养了一只十岁的鹦鹉叫芒果", ["哈哈是的", "他每天早上都喊我名字"], 1, "prev"),
    ("", "", ["I bake bagels every weekend", "my roommates devour them"], 1, "m0"),
    ("", "", ["周末我都会烤贝果", "室友们每次都抢着吃它们"], 1, "m0"),
    (
        "",
        "",
        ["I got into birdwatching last year", "is it weird at my age?", "I log every one I see"],
        2,
        "m0",
    ),
    ("", "", ["去年开始迷上了观鸟", "我这个年纪是不是有点怪？", "每看到一种我都会记下它"], 2, "m0"),
    ("", "", ["we have a Roomba", "the cat rides on it all day"], 1, "m0"),
    ("", "", ["ok", "I'll try it"], 1, "none"),
    ("", "", ["好的", "我试试它"], 1, "none"),
]


def rows() -> list[dict[str, Any]]:
    """One dict per group: ``assistant``, ``previous``, ``message`` (sentences), ``statement`` (index),
    ``referent`` (``m<i>`` / ``prev`` / ``asst`` / ``none``), ``group`` (its index)."""
    return [
        {"assistant": a, "previous": p, "message": m, "statement": s, "referent": r, "group": i}
        for i, (a, p, m, s, r) in enumerate(_G)
    ]
