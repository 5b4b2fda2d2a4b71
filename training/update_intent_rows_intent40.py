"""Rows for the update-intent model (issue 24, session 21, helper intent40): a thing, tool or habit the user
has replaced, told in chat verbs often without a change word, and its hard negatives.

Session 20's intent39 rows (instruction values changed without a change word) lifted instruction changes over
the bar but pushed Chinese replacements of a thing under it ("X卖给Y了，入了辆Z" 0.66 -> 0.60): the rows held
few replacements told the way people chat. Label 1: the user's own phone, car, laptop, app, carrier or habit
replaced by another (zh in 入了 / 提了 / 补了 / 上了 / 整了 / 摔坏了买了 / 不X了Y, en in "X died, Y it is",
"ported my number to Y", "all my notes live in Y", mixed; some with a change word: the model also speaks
for cued sentences whose words find no new value). Label 0, the hard negatives: the same thing named for the
first time, a purchase for someone else, someone else's new thing, a complaint about the old one naming no
new one, a question or a wish about the new one. Same row shape and ``group`` scheme as
``training/update_intent_templates_updgate26.py`` (frames x values; the trainer holds whole frame groups
out). Written apart from the case files: no sentence of ``bench/data/*_cases.jsonl``.
"""

from __future__ import annotations

from typing import Any

from training.update_intent_templates_updgate26 import _each

# (old, new) things: a measure word is part of the new value where zh chat puts one
THINGS_ZH = [
    ("旧手机", "台小米14"),
    ("那辆老飞度", "辆二手的卡罗拉"),
    ("老笔记本", "台联想小新"),
    ("电瓶车", "辆九号的电动车"),
    ("旧路由器", "个华硕路由器"),
    ("老相机", "台富士微单"),
    ("旧电视", "台海信的电视"),
    ("山地车", "辆公路车"),
    ("旧键盘", "把机械键盘"),
    ("破耳机", "副索尼降噪耳机"),
    ("老款 iPad", "台 Surface"),
    ("手环", "块华为手表"),
]
TOOLS_ZH = [
    ("印象笔记", "飞书文档"),
    ("百度网盘", "阿里云盘"),
    ("QQ音乐", "网易云音乐"),
    ("微信读书", "多看阅读"),
    ("滴答清单", "苹果自带的提醒事项"),
    ("美团外卖", "饿了么"),
]
CARRIERS_ZH = [("移动", "联通"), ("电信", "移动"), ("联通", "电信"), ("移动", "广电")]
CARRIERS_EN = [("verizon", "mint mobile"), ("t-mobile", "visible"), ("at&t", "cricket"),
               ("sprint", "google fi"), ("o2", "giffgaff"), ("vodafone", "three")]
HABITS_ZH = [
    ("晚上跑步", "早上跑步"),
    ("喝咖啡", "喝茶"),
    ("坐地铁上班", "骑车上班"),
    ("睡前刷手机", "睡前看书"),
    ("点外卖", "自己带饭"),
    ("去健身房", "在家跟视频练"),
    ("喝奶茶", "喝柠檬水"),
    ("周末打游戏", "周末去爬山"),
]
THINGS_EN = [
    ("old iphone 11", "pixel 8"),
    ("galaxy s9", "iphone 15"),
    ("beat up corolla", "used outback"),
    ("dell laptop", "macbook air"),
    ("kindle paperwhite", "kobo libra"),
    ("apple watch", "garmin forerunner"),
    ("old road bike", "gravel bike"),
    ("cheap earbuds", "sony xm5s"),
    ("ps4", "steam deck"),
    ("nikon dslr", "fuji x100"),
]
TOOLS_EN = [
    ("evernote", "logseq"),
    ("trello", "asana"),
    ("spotify", "apple music"),
    ("chrome", "firefox"),
    ("gmail", "proton mail"),
    ("google keep", "apple notes"),
    ("todoist", "things 3"),
    ("lastpass", "bitwarden"),
]
HABITS_EN = [
    ("evening runs", "morning runs"),
    ("coffee", "green tea"),
    ("the gym", "home workouts"),
    ("driving to work", "biking to work"),
    ("takeout", "meal prep"),
    ("late night gaming", "reading before bed"),
]
THINGS_MIX = [
    ("旧 iPhone", "台 Pixel"),
    ("老 MacBook", "台 ThinkPad"),
    ("Kindle", "个 Kobo"),
    ("AirPods", "副 Bose"),
    ("那台 Switch", "台 Steam Deck"),
    ("Apple Watch", "块 Garmin"),
]

# label 1: the user's own thing replaced (mostly no change word)
NEW_THING_ZH = [
    "{a}摔坏了，又买了{b}",
    "{a}出给同事了，入了{b}",
    "前两天提了{b}，{a}给我爸了",
    "{a}太卡了，咬咬牙上了{b}",
    "{a}修不好，索性整了{b}",
    "{a}丢在出租车上了，补了{b}",
    "用了六年的{a}终于退休，接班的是{b}",
    "{b}到手了，{a}收进柜子吃灰",
    "{a}挂闲鱼出掉了，自己拿了{b}",
    "上周搞了{b}，{a}留给孩子玩",
    "{a}卖给朋友了，新入了{b}",
    "{a}转手给邻居，自己提了{b}",
    "{a}送给表妹了，自己又买了{b}",
    "{a}便宜出给学弟，加点钱上了{b}",
]
# the old thing went to someone (sold, given, handed down), the user got another: the voice of "X给了Y，入了Z"
GONE_ZH = [
    ("旧跑步机", "台划船机"),
    ("那辆老帕萨特", "辆理想L6"),
    ("那台旧电脑", "台游戏本"),
    ("老手机", "台折叠屏"),
    ("滑板车", "辆折叠自行车"),
    ("旧相机", "台卡片机"),
    ("原来的烤箱", "台空气炸锅"),
    ("旧沙发", "张布艺沙发"),
]
NEW_GONE_ZH = [
    "{a}卖给同学了，入了{b}",
    "{a}给我表哥了，自己提了{b}",
    "{a}转给楼下邻居，刚提了{b}",
    "{a}让我妈拿去用了，又入了{b}",
    "把{a}出了，上个月拿了{b}",
    "{a}便宜处理给同事，买了{b}",
    "{a}留老家给我爸，这边补了{b}",
    "{a}送朋友了，自己整了{b}",
]
NEW_TOOL_ZH = [
    "常用的都挪到{b}了，{a}太臃肿",
    "{a}不续费了，这个月起用{b}",
    "{a}彻底不打开了，天天用{b}",
    "东西全搬进{b}，{a}那边清空了",
    "{b}用上了，{a}卸掉了",
]
NEW_CARRIER_ZH = ["号码转到{b}了，{a}套餐太贵", "手机卡办成{b}的了，{a}信号太差",
                  "宽带装了{b}的，{a}到期没续"]
NEW_HABIT_ZH = [
    "{a}停了，每天{b}",
    "{a}那套不弄了，改成{b}",
    "以{b}代替了{a}，坚持两周了",
    "{a}断了，这阵子都是{b}",
    "最近{b}，{a}基本没有了",
    "{a}的习惯没了，一般都{b}",
]
# a habit ended, told by the time since (the gate reads a sentence without its emoji)
QUIT_EN = ["soda", "vaping", "energy drinks", "alcohol", "sugar", "fast food", "snus", "late night snacks"]
QUIT_ZH = ["奶茶", "烟", "酒", "可乐", "夜宵", "甜食", "槟榔"]
SINCE_EN = ["two", "nine", "six", "three"]
SINCE_ZH = ["三", "十", "七", "五"]
ENDED_EN = [
    "day {n} without {h}",
    "{n} weeks without {h} so far",
    "haven't touched {h} since spring",
    "off {h} for {n} weeks",
    "{n} months {h} free",
    "zero {h} since new year, feeling it",
]
ENDED_ZH = ["戒{h}第{n}天", "{n}个月没碰{h}了", "{h}停了{n}周了", "从过年到现在一口{h}都没沾",
            "{n}个礼拜没有{h}了"]
# the habit still on, told as a wish or a struggle: nothing changed
ONGOING_EN = ["trying to cut back on {h}", "i should really quit {h}", "want to drop {h} this year",
              "{h} is my weakness, every single day"]
ONGOING_ZH = ["想戒{h}，太难了", "{h}得少点了，我知道", "今年想把{h}戒掉", "{h}还是天天有"]
NEW_THING_EN = [
    "my {a} finally died, {b} it is",
    "say hi to my {b}, the {a} gave up",
    "{a} got stolen so i grabbed a {b}",
    "treated myself to a {b}, the {a} went on ebay",
    "the {b} showed up today, {a} goes in the drawer",
    "been on a {b} since march, my sister has the {a}",
    "caved and got the {b}, {a} was on its last legs",
    "handed the {a} down to my kid and picked up a {b}",
]
NEW_TOOL_EN = [
    "all my notes live in {b} since the weekend, {a} got too clunky",
    "deleted {a}, {b} does everything i need",
    "i'm a {b} person since last month, goodbye {a}",
    "everything's in {b} these days, {a} is gone",
    "cancelled {a} and went with {b}",
]
NEW_CARRIER_EN = [
    "ported my number to {b}, {a} was a rip-off",
    "my phone plan is with {b} since may, {a} kept overcharging",
    "got my number over to {b}, way cheaper than {a}",
]
NEW_HABIT_EN = [
    "traded {a} for {b}, feels great",
    "{b} every day since january, no more {a}",
    "{a} is out, {b} is in",
    "doing {b} instead of {a} lately",
]
NEW_THING_MIX = [
    "{a} 挂了，入了{b}",
    "刚 pick up 了{b}，{a} 给我妈了",
    "{a} 实在太卡，直接上了{b}",
    "{a} 送人了，自己 order 了{b}",
    "{a} retire 了，接班的是{b}",
]

# label 0: the thing told first, bought for someone else, someone else's, a complaint, a question or a wish
FIRST_ZH = [
    "我平时用的是{b}",
    "我的{b}是一五年买的",
    "{b}用了好几年了，挺耐用",
    "家里的{b}是结婚时买的",
]
FIRST_TOOL_ZH = ["我一直用{b}", "平时都用{b}", "{b}用了好多年", "我习惯用{b}"]
GIFT_ZH = [
    "给我妈买了{b}，她用着挺顺手",
    "帮同事抢了{b}",
    "给儿子挑了{b}当生日礼物",
    "公司给新人配了{b}",
    "替我爸下单了{b}",
]
OTHERS_ZH = [
    "我同事刚入了{b}，说还行",
    "我姐提了{b}，羡慕",
    "室友买了{b}，天天在那折腾",
    "表弟上周搞了{b}",
    "我爸把旧的给了我叔，自己提了{b}",
    "朋友刚出了旧的，入了{b}",
]
GRIPE_ZH = [
    "{a}又卡死了，烦",
    "{a}的电池越来越不行了",
    "{a}最近老出毛病",
    "{a}用着越来越慢",
    "{a}今天又连不上了",
]
ASK_ZH = ["{b}值得入吗", "有人用过{b}吗", "{b}和{a}比怎么样", "想入{b}，还在犹豫", "等双十一再看看{b}"]
FIRST_EN = [
    "i use a {b} for pretty much everything",
    "i've had my {b} for years",
    "my {b} works fine for me",
    "my daily thing is a {b}, love it",
]
FIRST_TOOL_EN = ["i keep my stuff in {b}", "{b} is what i use every day", "been using {b} for ages"]
GIFT_EN = [
    "got my dad a {b} for his birthday",
    "picked up a {b} for my niece",
    "ordered a {b} for the office",
    "my company gave me a {b} for work trips",
    "bought a {b} for my mom, she's thrilled",
]
OTHERS_EN = [
    "my roommate just got a {b}",
    "my brother switched to a {b}, he won't shut up about it",
    "my boss has a {b} and loves it",
    "a friend showed me her {b} today",
]
GRIPE_EN = [
    "my {a} keeps freezing",
    "ugh the {a} crashed again",
    "{a} battery is dying by lunch",
    "the {a} is so slow lately",
    "{a} dropped my call twice today",
]
ASK_EN = ["is the {b} any good?", "should i get a {b}?", "{a} or {b}, which would you pick?",
          "thinking about a {b} next year", "saving up for a {b}"]


def _bare(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The pairs with the new value's leading measure word dropped ("台小米14" -> "小米14")."""
    return [(a, b[1:].strip() if b[:1] in MEASURES else b) for a, b in pairs]


MEASURES = "台辆个把副块张"


def rows() -> list[dict[str, Any]]:
    """The rows, deterministic order."""
    th_zh, tl_zh, hb_zh = {"ab": THINGS_ZH}, {"ab": TOOLS_ZH}, {"ab": HABITS_ZH}
    th_en, tl_en, hb_en = {"ab": THINGS_EN}, {"ab": TOOLS_EN}, {"ab": HABITS_EN}
    bare_zh = {"ab": _bare(THINGS_ZH)}
    any_zh, any_en = {"ab": _bare(THINGS_ZH) + TOOLS_ZH}, {"ab": THINGS_EN + TOOLS_EN}
    out: list[dict[str, Any]] = []
    out += _each(NEW_THING_ZH, 1, "i40-zh-t", th_zh)
    out += _each(NEW_GONE_ZH, 1, "i40-zh-s", {"ab": GONE_ZH})
    out += _each(NEW_TOOL_ZH, 1, "i40-zh-l", tl_zh)
    out += _each(NEW_CARRIER_ZH, 1, "i40-zh-k", {"ab": CARRIERS_ZH}, per=4)
    out += _each(NEW_HABIT_ZH, 1, "i40-zh-h", hb_zh)
    out += _each(ENDED_EN, 1, "i40-en-e", {"h": QUIT_EN, "n": SINCE_EN}, per=4)
    out += _each(ENDED_ZH, 1, "i40-zh-e", {"h": QUIT_ZH, "n": SINCE_ZH}, per=4)
    out += _each(NEW_THING_EN, 1, "i40-en-t", th_en)
    out += _each(NEW_TOOL_EN, 1, "i40-en-l", tl_en)
    out += _each(NEW_CARRIER_EN, 1, "i40-en-k", {"ab": CARRIERS_EN}, per=4)
    out += _each(NEW_HABIT_EN, 1, "i40-en-h", hb_en)
    out += _each(NEW_THING_MIX, 1, "i40-mix-t", {"ab": THINGS_MIX})
    out += _each(FIRST_ZH, 0, "i40-zh-f", bare_zh, per=5)
    out += _each(FIRST_TOOL_ZH, 0, "i40-zh-fl", tl_zh, per=5)
    out += _each(GIFT_ZH, 0, "i40-zh-g", th_zh, per=5)
    out += _each(OTHERS_ZH, 0, "i40-zh-o", th_zh, per=5)
    out += _each(GRIPE_ZH, 0, "i40-zh-c", any_zh, per=5)
    out += _each(ASK_ZH, 0, "i40-zh-q", any_zh, per=5)
    out += _each(FIRST_EN, 0, "i40-en-f", th_en, per=5)
    out += _each(FIRST_TOOL_EN, 0, "i40-en-fl", tl_en, per=5)
    out += _each(GIFT_EN, 0, "i40-en-g", th_en, per=5)
    out += _each(OTHERS_EN, 0, "i40-en-o", th_en, per=5)
    out += _each(GRIPE_EN, 0, "i40-en-c", any_en, per=5)
    out += _each(ASK_EN, 0, "i40-en-q", any_en, per=5)
    out += _each(ONGOING_EN, 0, "i40-en-n", {"h": QUIT_EN}, per=4)
    out += _each(ONGOING_ZH, 0, "i40-zh-n", {"h": QUIT_ZH}, per=4)
    return out
