"""Hand-written clauses for the noun-subject taste head (``core.extraction.taste_subject``; issue 24,
session 32, helper multi51): a clause whose subject is a noun phrase, read for whether it tells the
user's lasting taste for a kind of thing (a genre, a food, a sport, a pastime, an animal: "<a kind
of thing> is the best", "<food> is life lol", "火锅yyds") or remarks on one particular thing, place,
person or event (the canteen, the new café, last night's gig, the weather, a boss, a friend's car).

Label 1: a taste for a kind of thing, liked or disliked, said with the kind as the subject; 0: a
remark about a particular thing, place, person, group or event (the day's news, an opinion of one
shop or one film), en and zh and mixed. Written for this file in new wording; no line is taken from
an evaluation case or a public store (``tests/training`` checks the case files).
"""

from __future__ import annotations

from typing import Any

_TASTE: dict[str, list[str]] = {
    "en-music": [
        "blues is honestly the best genre", "techno is my whole vibe", "country music is so underrated",
        "classical piano is pure therapy", "punk rock never gets old", "lofi beats are perfect for studying",
        "reggae is such a mood lol", "opera is kinda magical tbh", "hip hop from the 90s is unmatched",
        "synthwave is amazing for night drives", "folk music is my comfort zone", "k-pop is so addictive",
        "drum and bass is life", "acoustic covers are the best thing ever",
    ],
    "en-food": [
        "ramen is life lol", "sushi is my love language", "spicy curry is everything",
        "dark chocolate is the best", "pineapple on pizza is honestly great",
        "pho is the ultimate comfort food",
        "cheese is my weakness", "bubble tea is so good", "olives are disgusting lol", "mushrooms are gross",
        "fresh mango is heaven", "tacos are the best food ever", "brunch is my favourite meal",
        "coffee is basically my personality", "licorice is the worst", "black coffee is the only way",
        "pasta is my go-to always", "kimchi is amazing",
    ],
    "en-activity": [
        "swimming is the best workout", "yoga is so calming", "road cycling is my happy place",
        "camping is the best way to spend a weekend", "running is therapy for me lol",
        "chess is so much fun", "knitting is weirdly relaxing", "gardening is the best hobby",
        "skiing is pure joy", "video games are my escape", "crosswords are my thing",
        "photography is my favourite hobby", "surfing is life", "pottery is so satisfying",
        "reading fantasy novels is the best", "baking bread is so therapeutic", "tennis is great fun",
        "karaoke is my jam", "anime is the best thing ever", "horror movies are my favourite",
        "true crime podcasts are addictive", "rock climbing is amazing",
    ],
    "en-animal": [
        "dogs are the best", "cats are just superior lol", "birds are fascinating",
        "otters are the cutest animals", "snakes are terrifying",
    ],
    "zh-taste": [
        "烧烤真的是yyds", "奶茶是我的续命水", "川菜永远的神", "榴莲太好吃了", "香菜是世界上最难吃的东西",
        "羽毛球真的太好玩了", "游泳是最好的运动", "摇滚永远不过时", "民谣太治愈了", "古典音乐特别放松",
        "狗狗是天使", "猫是最可爱的动物", "日剧永远看不腻", "钓鱼太解压了", "咖啡是我的命",
        "麻辣烫yyds", "甜食是快乐源泉", "徒步真的太爽了", "剧本杀超好玩", "动漫是我的精神食粮",
        "面食永远吃不腻", "跑步是最好的解压方式",
    ],
    "mixed-taste": [
        "jazz piano 真的太好听了", "bbq 永远的神", "hotpot is life 哈哈", "摄影 is my favourite hobby",
        "k-drama 真的太上头了", "骑行 is the best", "sushi 是我的最爱", "board game 超好玩的",
    ],
}

_PARTICULAR: dict[str, list[str]] = {
    "en-place": [
        "the new cafe on main street is kinda mid", "the gym near work is always packed",
        "that pizza place downtown is overpriced", "the office canteen food is awful",
        "the library at uni is so quiet", "our local pub is closing down", "the hotel pool was freezing",
        "the train station is a mess right now", "this airport is huge", "the mall was rammed today",
        "the park by my flat is lovely in autumn", "the hospital car park is a nightmare",
        "that sushi bar we tried was great", "the noodle shop next door is really good",
    ],
    "en-event": [
        "the concert last night was amazing", "the match on sunday was so boring",
        "the wedding food was really good", "the party was a bit much", "dinner tonight was bland",
        "the movie we saw was great", "the meeting dragged on forever", "the flight was delayed again",
        "the exam was brutal", "the festival was a total washout", "traffic was insane this morning",
        "the weather today is perfect", "the lecture was really interesting",
        "the game last night was unreal", "the show's finale was disappointing",
        "lunch was pretty good today", "the rain has been nonstop", "the gig was loud as hell",
    ],
    "en-person": [
        "the new manager is really strict", "my friend's boyfriend is so annoying",
        "the landlord is being difficult", "our teacher is hilarious", "the neighbours are loud again",
        "her new puppy is adorable", "the barista there is super friendly", "my coworker's kid is so cute",
        "the coach is kind of intense", "the plumber was useless", "my sister's cat is a menace",
        "the guy next door is always shouting", "the new intern is great",
    ],
    "en-thing": [
        "my uncle's old van is a wreck", "this laptop is so slow", "the wifi here is terrible",
        "that book was way too long", "the new update is buggy", "this chair is killing my back",
        "the dress she wore was stunning", "the tv in the lounge is broken", "our fridge is making noises",
        "this song on the radio is catchy", "the heating in the flat is rubbish",
    ],
    "zh-particular": [
        "楼下那家烧烤店太贵了", "今天的午饭一般般", "新来的主管特别凶", "昨晚的演唱会太棒了",
        "公司食堂难吃得要命", "隔壁邻居又在装修", "这周的天气真好", "那部电影结局好烂",
        "小区门口的超市关门了", "地铁今天挤爆了", "我同事的新车真帅", "这家店的服务太差了",
        "昨天的比赛好无聊", "老板今天心情不好", "学校的图书馆好安静", "新开的那家咖啡馆还不错",
        "今天的会开得好累", "他家的狗好凶", "那个老师讲课超有意思", "这台电脑太卡了",
    ],
    "mixed-particular": [
        "公司楼下那家 coffee shop 好难喝", "昨晚的 party 太吵了", "新来的 manager 人挺好的",
        "the new 奶茶店 is so crowded", "今天的 traffic 太离谱了", "那个 app 更新之后好卡",
    ],
}


def rows() -> list[dict[str, Any]]:
    """The lines as training rows: ``text``, ``label`` (1 a taste for a kind of thing, 0 a remark on a
    particular one), ``group`` (the lines' family, for out-of-fold readings by group)."""
    out: list[dict[str, Any]] = []
    for label, families in ((1, _TASTE), (0, _PARTICULAR)):
        for group, lines in families.items():
            out.extend({"text": t, "label": label, "group": f"{group}-{i % 3}"} for i, t in enumerate(lines))
    return out
