# ruff: noqa: E501  (data: hand-written templates and slot values, one family per block)
"""Chat-style templates for durable tastes, facts and goals the gate dropped (issue 24, helper ``pref27``).

Written for this repository on 2026-12-05 by the ``pref27`` helper (an AI agent session), with slot values
and sentence shapes of its own, none copied or paraphrased from an evaluation set (the dev cases, the team's
held-out set, the ``bench/data/*_cases.jsonl`` sets, its own tune and check halves) or the issue texts
(``training/build_utterance_corpus.py --check`` searches every row in them). What the gate lacked, found by
reading which stage lost a statement: tastes said as idioms ("X is unbeatable", "X 是我的心头好") or as
dislikes ("X isn't really for me"), tastes given as a bare answer ("mostly X, could live on it"), household
facts told with "we" and facts told in passing in a chatty message ("sorry, slow reply, i'm a X and …"),
goals with a hedge or a horizon ("i'd like to X eventually", "aiming to X by 2029", "今年争取X"); and as drops
what only reports on something already told: progress on a goal ("update: 40 pages in"). (A family of replies
that evaluate "it" as drops was tried and taken out: the classifier then dropped "I love riding them", whose
referent ``precision`` restores.) **Not built into the shipped corpus**: retrained with it, the MLP cut fewer
multi-topic messages apart (dev5 and dev6 lost cases, ``bench/RESULTS.md``, issue 24 session 14); build it in
by adding ``pref27_template_rows()`` after ``chat_template_rows()`` in ``build_utterance_corpus.build``.

Expansion is deterministic like the other sets': template ``t`` takes, for its ``k``-th row, slot value
``(k * step_s + t) % len(values)`` of each slot ``s`` (co-prime steps), ``PER_TEMPLATE`` rows at most,
distinct texts only.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import family_rows

TASTE_EN = ["a long soak in the tub", "fresh sourdough", "thunderstorms at night", "vinyl on a sunday morning",
            "iced matcha", "a good murder mystery podcast", "spicy ramen", "open-world games", "museum hopping",
            "trail running", "old kung fu movies", "homemade dumplings", "a slow morning with the paper",
            "tabletop rpgs", "karaoke nights"]
TASTE_ZH = ["泡脚", "撸串", "逛菜市场", "听相声", "爬野山", "吃火锅", "看老港片", "打桌游", "喝手冲", "逛博物馆",
            "拼乐高", "吃螺蛳粉", "看纪录片", "夜跑", "听播客"]
DISLIKE_EN = ["reality tv", "musicals", "sweet wine", "crowded beaches", "escape rooms", "raw onions",
              "stand-up comedy", "theme parks", "country music", "cruises", "slasher films", "olives"]
DISLIKE_ZH = ["香菜", "恐怖片", "综艺节目", "榴莲", "广场舞音乐", "甜豆腐脑", "密室逃脱", "韩剧", "KTV", "过山车"]
FOOD_EN = ["pho", "bibimbap", "lasagna", "fish and chips", "tacos al pastor", "pierogi", "dal and rice", "paella"]
FOOD_ZH = ["饺子", "麻辣烫", "煎饼果子", "牛肉面", "生蚝", "酸菜鱼", "烧鹅饭", "臭豆腐"]
CAR_EN = ["an old Civic", "a 2015 Golf", "a beat-up minivan", "a Prius", "a pickup truck", "a Mazda 3"]
CAR_ZH = ["一辆二手宝来", "比亚迪", "五菱宏光", "一辆老捷达", "特斯拉 Model 3", "一辆电动小车"]
HOME_EN = ["a two-bed flat", "a tiny studio", "a terraced house", "a houseboat", "a farmhouse"]
CITY_EN = ["Malmo", "Halifax", "Leipzig", "Fresno", "Hobart", "Tampere", "Cluj", "Tucson"]
CITY_ZH = ["烟台", "株洲", "大理", "襄阳", "湛江", "吉林", "台州", "柳州"]
JOB_EN = ["bike courier", "night porter", "dental nurse", "sous chef", "paramedic", "flight attendant",
          "warehouse supervisor", "barista", "vet tech", "bus mechanic", "locksmith", "court reporter"]
JOB_ZH = ["外卖骑手", "急诊科医生", "幼师", "快递员", "酒店前台", "地铁司机", "健身教练", "药剂师", "保安", "面包师"]
GOAL_EN = ["get my Spanish to conversational", "run a sub-2 half marathon", "save up for a deposit on a flat",
           "learn to play the cello", "get my pilot's license", "do a handstand unassisted", "publish a short story",
           "hike the whole coast path", "clear my credit card debt", "become a certified sommelier",
           "read the whole Dune series", "switch careers into nursing"]
GOAL_ZH = ["把雅思考到7分", "考下教师资格证", "攒够首付", "学会自由泳", "跑完一个全马", "把体脂降到20%", "学会弹尤克里里",
           "去一趟新疆自驾", "把信用卡还清", "拿到一级建造师证", "读完《资治通鉴》", "转行做产品经理"]
YEAR = ["2027", "2028", "2029", "2030", "next summer", "the end of next year"]
AGE_ZH = ["三十岁", "三十五岁", "四十岁", "退休"]
PROGRESS_EN = ["40 pages", "3 kilos", "12 lessons", "two chapters", "1,500 dollars", "six runs", "half the course"]
PROGRESS_ZH = ["三分之一", "一半", "十节课", "两千块", "五公斤", "八章", "二十次"]

_STEPS = (1, 3, 7, 11, 13)
PER_TEMPLATE = 6
SLOTS: dict[str, list[str]] = {
    "taste_en": TASTE_EN, "taste_zh": TASTE_ZH, "dislike_en": DISLIKE_EN, "dislike_zh": DISLIKE_ZH,
    "food_en": FOOD_EN, "food_zh": FOOD_ZH, "car_en": CAR_EN, "car_zh": CAR_ZH, "home_en": HOME_EN,
    "city_en": CITY_EN, "city_zh": CITY_ZH, "job_en": JOB_EN, "job_zh": JOB_ZH, "goal_en": GOAL_EN,
    "goal_zh": GOAL_ZH, "year": YEAR, "age_zh": AGE_ZH, "progress_en": PROGRESS_EN,
    "progress_zh": PROGRESS_ZH,
}

# (family, keep, type, [templates])
Fam = tuple[str, bool, str | None, list[str]]
FAMILIES: list[Fam] = [
    ("preference_idiom", True, "preference", [
        "{taste_en} is unbeatable tbh", "honestly can't beat {taste_en}", "{taste_en} is my jam",
        "{taste_en} just hits different for me", "give me {taste_en} over anything", "{taste_en} > literally everything",
        "my happy place is {taste_en}", "{taste_en} is kind of my thing ngl", "nothing tops {taste_en} for me 😌",
        "{taste_en}, always and forever", "没有什么比{taste_zh}更舒服的了", "{taste_zh}是我的心头好", "{taste_zh} yyds",
        "我对{taste_zh}毫无抵抗力", "{taste_zh}永远的神", "要说最快乐的事，那就是{taste_zh}", "{taste_zh}真的是我的快乐源泉",
        "{taste_en} 是我的 comfort thing",
    ]),
    ("preference_dislike", True, "preference", [
        "{dislike_en} isn't really for me", "not big on {dislike_en} tbh", "{dislike_en}? hard pass",
        "i've never been into {dislike_en}, kinda boring to me", "{dislike_en} just isn't my thing",
        "can't get into {dislike_en} at all lol", "我对{dislike_zh}真的无感", "{dislike_zh}我实在欣赏不来",
        "{dislike_zh}不太是我的菜", "我是真的受不了{dislike_zh}", "{dislike_zh}这种我一向不碰", "{dislike_en} 我是真的 not a fan",
    ]),
    ("preference_bare_answer", True, "preference", [
        "mostly {food_en}, could live on it", "{food_en} hands down", "probably {food_en}, i never get sick of it",
        "easy, {taste_en}", "{taste_en} for sure, every chance i get", "{food_en} i'd say, had it three times this week lol",
        "{food_zh}吧，百吃不厌", "应该是{food_zh}，每周都要来一次", "肯定是{taste_zh}啊", "{taste_zh}吧，一有空就去",
        "{food_zh}，怎么吃都不腻", "{food_en} 吧，吃不腻",
    ]),
    ("fact_household_we", True, "fact", [
        "we drive {car_en}, does the job", "we've got {car_en}, nothing special", "we rent {home_en} in {city_en}",
        "we live in {home_en} just outside {city_en}", "we only have {car_en} between the two of us",
        "我们家开的是{car_zh}", "我们一家住在{city_zh}郊区", "我们家就一辆{car_zh}，够用了", "我们租在{city_zh}的老小区",
    ]),
    ("fact_in_passing", True, "fact", [
        "sorry for the slow reply, i'm a {job_en} and my shift just ended", "lol yeah i'm a {job_en} so weekends are a myth",
        "haha that's the {job_en} life for you, i've done it 6 years", "ugh long day, being a {job_en} is no joke",
        "brb, {job_en} life, gotta start my rounds", "sorry typos, i'm a {job_en} and typing on a break",
        "刚下班，我是{job_zh}，累死了", "哈哈没办法，干{job_zh}的就是这样", "我是{job_zh}啦，所以作息很乱",
        "回晚了，{job_zh}这行太忙", "sorry 回晚了，我是{job_zh}，刚忙完",
    ]),
    ("goal_hedged_horizon", True, "goal", [
        "i think i'd like to {goal_en} eventually", "aiming to {goal_en} by {year}", "trying to {goal_en} this year",
        "hoping to {goal_en} within the next couple years", "might try to {goal_en} at some point, we'll see",
        "kinda want to {goal_en} before {year}, no pressure", "the plan is to {goal_en} by {year}",
        "low-key working towards being able to {goal_en}", "今年打算{goal_zh}", "想要今年{goal_zh}",
        "{age_zh}之前想{goal_zh}", "争取明年{goal_zh}", "我给自己定了个小目标，{goal_zh}", "希望有一天能{goal_zh}吧",
        "今年的 goal 是{goal_zh}", "trying to 今年{goal_zh}",
    ]),
    ("progress_report", False, None, [
        "update: {progress_en} in so far", "so far so good, {progress_en} done", "quick update, i'm {progress_en} in now",
        "halfway there lol, {progress_en} down", "progress check: {progress_en} this month", "still going, {progress_en} so far",
        "进度还行，已经{progress_zh}了", "目前完成了{progress_zh}", "汇报一下，已经搞定{progress_zh}", "最近一直在坚持，差不多{progress_zh}了",
        "update 一下，{progress_zh}了",
    ]),
]


def pref27_template_rows() -> list[dict[str, Any]]:
    """Every family's templates filled ``PER_TEMPLATE`` times (distinct texts only), in a fixed order;
    ``source`` is ``template_pref27``."""
    return family_rows(FAMILIES, SLOTS, _STEPS, PER_TEMPLATE, "template_pref27")
