"""Pairs of helper ``upd26`` (issue 24, session 13): one more item of a kind is no new value.

A user has several hobbies, pets, children, favourite foods, instruments, sports, languages and shows;
telling one more of them ("we got a gecko as well", "另外还会剪纸", "家里又多了只乌龟")
replaces nothing. The earlier templates hold only single-valued slots' new values ("{b} is my new
thing" after a hobby is a supersede there), so a statement of the same kind with a change word
("lately", "最近", "now") was pulled towards ``supersede`` whatever it added. These rows pair an old
memory of a kind that holds many items with a statement adding another item of that kind, told with an
additive word (also, too, as well, another, besides, 也, 还, 又, 另外, 再), as ``unrelated``: nothing
changes; and a count of things raised by one more ("got another one, so three cats now") as ``supersede``.
Chinese, English and zh-en mixed chat; values from lists of their own, never from a case set.
``all_pair_rows(upd26=True)`` in ``training.pair_templates`` includes them
(``python -m training.train_pair_model --upd26-families``); not shipped: every model trained with them
passed fewer update dev cases (bench/RESULTS.md, "Issue 24: session 13, updates (helper upd26)").
"""

from __future__ import annotations

from typing import Any

# slot: (english values, chinese values, english olds, chinese olds, english additions, chinese additions)
_KINDS: dict[str, tuple[list[str], list[str], list[str], list[str], list[str], list[str]]] = {
    "hobby_list": (
        ["birdwatching", "calligraphy", "rock tumbling", "baking sourdough", "woodworking", "origami",
         "geocaching"],
        ["剪纸", "养多肉", "摄影", "拼乐高", "写书法", "放风筝", "做手账"],
        ["i'm into {a}", "{a} is how i unwind", "i do {a} on weekends"],
        ["我喜欢{a}", "周末一般去{a}", "我的爱好是{a}"],
        ["also really into {b} lately", "picked up {b} as well",
         "another hobby of mine: {b}", "besides that i do {b} now and then", "{b} is a new one for me too"],
        ["我也挺喜欢{b}的", "另外还会{b}", "最近又开始{b}了，两个一起玩",
         "除此之外也喜欢{b}", "还有{b}我也超爱"],
    ),
    "pet_list": (
        ["a husky named Storm", "a cat called Miso", "a cockatiel named Pip", "a gecko named Rex",
         "two goldfish", "a rabbit called Bun"],
        ["一只叫旺财的柴犬", "一只叫年年的橘猫", "一只鹦鹉叫豆豆", "两只仓鼠", "一只乌龟",
         "一只叫可乐的兔子"],
        ["i have {a}", "we've got {a} at home", "my pet is {a}"],
        ["家里有{a}", "我养了{a}", "我们家有{a}"],
        ["we also just adopted {b}", "we got {b} too, the house is a zoo", "there's {b} as well now",
         "added {b} to the family, they get along great"],
        ["前两天又养了{b}", "家里还有{b}", "另外又领养了{b}", "我们也养了{b}，跟它处得挺好"],
    ),
    "kids": (
        ["a son, Theo, who's 9", "a daughter named Mira", "a 3 year old boy", "twin girls"],
        ["一个儿子，今年七岁", "一个女儿叫朵朵", "一个上初中的儿子", "一对双胞胎女儿"],
        ["i have {a}", "my kid: {a}", "we have {a}"],
        ["我有{a}", "家里有{a}"],
        ["and i also have {b}", "there's also {b}", "my other kid is {b}"],
        ["还有{b}", "另外还有{b}", "我还有{b}"],
    ),
    "food_list": (
        ["ramen", "falafel", "pho", "tacos", "dim sum", "thai curry", "paella"],
        ["酸菜鱼", "肠粉", "小龙虾", "螺蛳粉", "麻辣烫", "煲仔饭", "饺子"],
        ["i love {a}", "{a} is my comfort food", "i could eat {a} every day"],
        ["我爱吃{a}", "最喜欢吃{a}", "{a}是我的最爱"],
        ["also really into {b} lately", "{b} too, honestly", "oh and {b}, can't forget {b}",
         "i like {b} as well"],
        ["{b}也很喜欢", "另外{b}也爱吃", "再就是{b}，也是心头好"],
    ),
    "instrument_list": (
        ["the harmonica", "the flute", "the violin", "drums", "the ukulele"],
        ["口琴", "长笛", "小提琴", "架子鼓", "葫芦丝"],
        ["i play {a}", "been playing {a} for ten years"],
        ["我会弹{a}", "我学了十年{a}"],
        ["i'm learning {b} too", "also picked up {b} recently", "started {b} lessons as well"],
        ["我最近也在学{b}", "还在学{b}", "另外也开始练{b}了"],
    ),
    "sport_list": (
        ["squash", "volleyball", "running", "yoga", "badminton", "cycling"],
        ["游泳", "打网球", "跑步", "瑜伽", "打羽毛球", "骑行"],
        ["i do {a} most mornings", "{a} keeps me sane", "i'm big on {a}"],
        ["我每周都{a}", "平时{a}", "我喜欢{a}"],
        ["doing {b} too these days", "i also do {b} on weekends", "{b} as well now, on top of that"],
        ["周末也会{b}", "还会{b}", "另外最近也开始{b}了"],
    ),
    "music_list": (
        ["bluegrass", "afrobeats", "k-pop", "metal", "lo-fi", "classical"],
        ["民谣", "摇滚", "古典乐", "说唱", "爵士", "粤语老歌"],
        ["i listen to {a}", "{a} is my go-to music"],
        ["我喜欢听{a}", "平时听{a}多"],
        ["been playing a lot of {b} too", "also into {b} these days", "{b} as well"],
        ["{b}也常听", "{b}我也听", "另外{b}也爱听"],
    ),
    "language_list": (
        ["spanish", "portuguese", "german", "japanese", "french"],
        ["英语", "日语", "粤语", "法语", "韩语"],
        ["i speak {a}", "i'm fluent in {a}"],
        ["我会说{a}", "{a}说得挺好"],
        ["also picking up some {b} on duolingo", "i speak {b} too", "and a bit of {b} as well"],
        ["也会一点{b}", "最近还在学{b}", "另外会说{b}"],
    ),
}


def _pick(vals: list[str], k: int) -> tuple[str, str]:
    a = vals[k % len(vals)]
    b = vals[(k + 1 + k // len(vals)) % len(vals)]
    return a, (b if b != a else vals[(k + 2) % len(vals)])


def additive_rows(fillings: int = 4) -> list[dict[str, Any]]:
    """``(old, new, "unrelated", slot)`` rows: a memory of a kind that holds many items against a
    statement adding one more item of that kind, in both languages and across them (mixed chats)."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for slot, (ven, vzh, oen, ozh, aen, azh) in _KINDS.items():
        for k in range(fillings):
            for vals, olds, adds, ovals, oadds in ((ven, oen, aen, vzh, azh), (vzh, ozh, azh, ven, aen)):
                a, b = _pick(vals, k)
                _, ob = _pick(ovals, k)
                for ot in olds:
                    old = ot.format(a=a)
                    news = [t.format(b=b) for t in adds]
                    news += [t.format(b=ob) for t in oadds[k % 2::2]]  # the other language, half of them
                    for new in news:
                        if (old, new) not in seen:
                            seen.add((old, new))
                            out.append({"old": old, "new": new, "relation": "unrelated", "slot": slot})
    return out


# a count of things the user has, raised by one more ("got another one, so three cats now")
_COUNTS = {
    "en": (["two cats", "one tortoise", "three bikes", "two dogs", "four plants"],
           ["i have {a}", "we've got {a}"],
           ["got another one, so {b} now", "one more arrived, that makes {b}",
            "we're at {b} now, added one more"]),
    "zh": (["两只猫", "一个孩子", "三辆自行车", "两条狗", "四盆花"],
           ["我有{a}", "家里有{a}"],
           ["又添了一个，现在{b}了", "又多了一个，一共{b}", "再加一个，现在是{b}"]),
}
_MORE = {"two": "three", "one": "two", "three": "four", "four": "five",
         "两": "三", "一": "两", "三": "四", "四": "五"}


def count_rows() -> list[dict[str, Any]]:
    """``(old, new, "supersede", "have_count")`` rows: one more of a counted thing changes the count, an
    additive word beside a changed number."""
    out = []
    for lang, (vals, olds, news) in _COUNTS.items():
        for a in vals:
            head = a.split()[0] if lang == "en" else a[0]
            b = a.replace(head, _MORE[head], 1)
            for ot in olds:
                for nt in news:
                    out.append({"old": ot.format(a=a), "new": nt.format(b=b), "relation": "supersede",
                                "slot": "have_count"})
    return out
