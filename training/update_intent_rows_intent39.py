"""Rows for the update-intent model (issue 24, session 20, helper intent39): a standing instruction's value
changed WITHOUT a change word, and its hard negatives.

Session 20's judge38 found that a changed instruction told with no cue of ``core.extraction.pairs.has_cue``
(a language, a script, a unit, a length, a count, a format told again with its new value, often beside a
word on why the old one did not suit) never reaches the update judge: the model read such lines 0.38-0.61.
Label 1: the new value asked for as the rule from here, with or without the old one dismissed (zh, en,
mixed; many voices). Label 0, the hard negatives: the same kind of rule told for the first time, a one-off
request for one reply (also told with why it is one-off), a complaint or a first "don't" that names no new
value, a question about the values, a liking restated against what others say. Same row shape
and ``group`` scheme as ``training/update_intent_templates_updgate26.py`` (frames x values; the trainer holds
whole frame groups out). Written apart from the case files: no sentence of ``bench/data/*_cases.jsonl``.
"""

from __future__ import annotations

from typing import Any

from training.update_intent_templates_updgate26 import _each

# (old value, new value) of an instruction
VALS_EN = [
    ("spanish", "english"),
    ("fahrenheit", "celsius"),
    ("miles", "kilometers"),
    ("the table", "plain text"),
    ("emoji everywhere", "no emoji"),
    ("long paragraphs", "short bullets"),
    ("pounds", "kilos"),
    ("british spelling", "american spelling"),
    ("markdown", "plain sentences"),
    ("german", "english"),
    ("the formal voice", "a relaxed voice"),
    ("am/pm", "the 24 hour clock"),
]
LENS_EN = [
    ("100", "300"),
    ("two hundred", "five hundred"),
    ("50", "150"),
    ("800", "400"),
    ("one line", "a paragraph"),
    ("3", "5"),
    ("ten", "four"),
    ("a page", "half a page"),
]
VALS_ZH = [
    ("繁体字", "简体字"),
    ("英文", "中文"),
    ("华氏度", "摄氏度"),
    ("英里", "公里"),
    ("表格", "分点"),
    ("文言一点的", "大白话"),
    ("日文", "中文"),
    ("长段落", "短句"),
    ("拼音", "汉字"),
    ("磅", "公斤"),
    ("粤语", "普通话"),
    ("十二小时制", "二十四小时制"),
]
LENS_ZH = [("一百", "三百"), ("200", "500"), ("五十", "一百五"), ("800", "400"), ("三", "五"), ("十", "四")]
VALS_MIX = [*VALS_EN[:6], ("繁体", "简体"), ("英文", "中文")]

# label 1: the new value asked for as the rule from here, no change word
CHG_EN = [
    "{b} please, {a} was getting hard to follow",
    "ok {a} was fun but {b} is easier for me",
    "could you go with {b} again? {a} isn't working for me",
    "{a} isn't my thing, stick with {b}",
    "on second thought, {b} for me",
    "i think i prefer {b} after all",
    "{b} suits me better than {a}, use that",
    "hmm {a} is a bit much, {b} from here",
    "can we do {b}? {a} is tiring to read",
    "{b} works better for me than {a}, keep to that",
    "you know what, {b} is fine, let's not do {a}",
    "ugh {a} again... {b} please, for good this time",
]
CHG_EN_LEN = [
    "feel free to write {b} words, {a} cuts too much",
    "{a} words is too tight, give me about {b}",
    "let it run to {b} words, {a} leaves stuff out",
    "{b} suggestions is better than {a}, do that",
    "give me {b} options each time, {a} isn't enough",
    "{a} is too few, go with {b} per answer",
    "ok {a} items was too many, {b} per list",
    "aim for {b} words, {a} felt rushed",
]
CHG_ZH = [
    "{b}吧，{a}读着费劲",
    "给我用{b}，{a}看不惯",
    "{a}看不太懂，用{b}",
    "想了想还是{b}顺手",
    "{b}比较舒服，{a}就别用了",
    "{a}太累眼睛了，{b}",
    "咱们用回{b}，{a}不习惯",
    "{b}看着舒服，以后就{b}",
    "{a}读起来太慢，{b}好一点",
    "还是用{b}写，{a}我老看错",
]
CHG_ZH_LEN = [
    "字数放宽到{b}吧，{a}太短了",
    "{a}字不够，写到{b}字左右",
    "{a}条太多了，{b}条正好",
    "一次给{b}个，{a}个挑不过来",
    "{a}个不够挑，每次给{b}个",
    "{a}字说不清楚，写{b}字",
]
CHG_MIX = [
    "{b} 吧，{a} 看着好累",
    "还是 {b} please，{a} 太难了",
    "用 {b} 回我，{a} 太 formal 了",
    "{a} 不太 ok，{b} 比较好",
    "{b} again 吧，{a} 我看不懂",
]

# label 0: the rule told the first time, a one-off request, a complaint with no new value, a question
FIRST_EN = [
    "please use {b} when you answer me",
    "i'd like everything in {b}",
    "could you always write {b} for me",
    "one thing about me: i read {b} best",
    "for our chats, {b} is what i like",
    "when you list stuff, {b} works for me",
]
FIRST_EN_LEN = [
    "keep answers around {b} words",
    "give me {b} options when i ask for ideas",
    "i like replies of about {b} words",
    "lists of {b} items are perfect for me",
]
ONCE_EN = [
    "just this reply in {b}",
    "this paragraph in {b}, thanks",
    "translate that last bit to {b}",
    "for this one table, {b} would help",
    "only here, {b} please, it's for my boss",
    "show me this one in {b} too",
]
ONCE_EN_LEN = [
    "this email should be {b} words",
    "give me {b} names for the cat",
    "shorten this one to {b} words",
    "{b} ideas for tonight's dinner?",
]
GRIPE_EN = [
    "{a} is kind of hard to read",
    "hmm that answer was too long",
    "that felt a bit short tbh",
    "the formatting looks off",
    "not a fan of {a} honestly",
    "that reply was a lot",
    "{a} always confuses me lol",
]
ASK_EN = [
    "is {b} easier to read than {a}?",
    "how do i convert {a} to {b}",
    "which do most people use, {a} or {b}?",
    "can you do {b} at all?",
]
FIRST_ZH = [
    "回答我的时候用{b}",
    "我看{b}比较习惯，平时都用{b}吧",
    "给我写东西都用{b}",
    "我喜欢{b}的回答",
    "聊天的时候请用{b}",
]
FIRST_ZH_LEN = ["每次回答控制在{b}字左右", "推荐东西一次给{b}个", "回复大概{b}字就好"]
ONCE_ZH = [
    "这一段翻成{b}",
    "这封信先用{b}写",
    "把刚才那段用{b}再发一遍",
    "这个表用{b}给我看看",
    "就这一次，用{b}",
]
ONCE_ZH_LEN = ["这篇写{b}字", "给我{b}个猫的名字", "这段压到{b}字"]
GRIPE_ZH = [
    "{a}看着有点累",
    "这个回答太长了",
    "刚才那段太短了",
    "格式有点乱",
    "{a}我不太看得懂",
    "读得好累啊",
]
ASK_ZH = ["{a}和{b}哪个好读", "{a}怎么换算成{b}", "你会写{b}吗"]
# one-off requests told with the reason they are one-off; a first "don't" with no new value
ONCE_WHY_EN = [
    "draft this one in {b} first, the client reads it",
    "for today's report use {b}, my manager asked",
    "this time write it in {b}, the reviewer needs that",
    "friday's slides in {b} please, mixed audience",
    "the invite for the party in {b}, my aunt will read it",
]
ONCE_WHY_ZH = [
    "这次的报告先用{b}写一版，领导要看",
    "这份材料用{b}出一版吧，客户要的",
    "这封先用{b}写，对方是外地的",
    "今天的周报用{b}吧，老板要转发",
    "这次的 slides 先用{b}做一版吧，client 要看",
    "明天的发言稿用{b}写，台下有外宾",
]
DONT_EN = [
    "please no {a}, it's hard on my eyes",
    "skip the {a}, i read on my phone",
    "don't use {a} with me",
    "not {a}, it's a pain to read",
]
DONT_ZH = ["别用{a}，我看着累", "不要{a}，手机上看不清", "别整{a}，我读不进去", "{a}就免了，看着头大"]
# a liking or a habit restated against what others say: nothing the user told changes
DEFY_EN = [
    "people tease me but i still have {y} every week",
    "laugh all you want, {y} twice a week minimum",
    "my wife hates it, i keep buying {y} anyway",
    "yeah yeah, {y} is my guilty pleasure, not stopping",
]
DEFY_ZH = [
    "嫌弃就嫌弃吧，{y}我照样每周吃",
    "说我土也没用，我还是天天{y}",
    "随便别人怎么说，{y}我每周都要",
    "贵就贵吧，{y}我每个月都买",
    "同事笑我也没办法，{y}戒不掉",
]
THINGS_EN = [
    "instant ramen",
    "pineapple pizza",
    "boy band albums",
    "reality tv",
    "gas station sushi",
    "those cheesy novels",
]
THINGS_ZH = ["螺蛳粉", "臭豆腐", "听老情歌", "刷偶像剧", "喝可乐", "吃辣条"]


def rows() -> list[dict[str, Any]]:
    """The rows, deterministic order."""
    en = {"ab": VALS_EN}
    en_len = {"ab": LENS_EN}
    zh = {"ab": VALS_ZH}
    zh_len = {"ab": LENS_ZH}
    out: list[dict[str, Any]] = []
    out += _each(CHG_EN, 1, "i39-en-c", en)
    out += _each(CHG_EN_LEN, 1, "i39-en-cl", en_len)
    out += _each(CHG_ZH, 1, "i39-zh-c", zh)
    out += _each(CHG_ZH_LEN, 1, "i39-zh-cl", zh_len)
    out += _each(CHG_MIX, 1, "i39-mix-c", {"ab": VALS_MIX})
    out += _each(FIRST_EN, 0, "i39-en-f", en)
    out += _each(FIRST_EN_LEN, 0, "i39-en-fl", en_len)
    out += _each(ONCE_EN, 0, "i39-en-o", en)
    out += _each(ONCE_EN_LEN, 0, "i39-en-ol", en_len)
    out += _each(GRIPE_EN, 0, "i39-en-g", en, per=3)
    out += _each(ASK_EN, 0, "i39-en-q", en, per=3)
    out += _each(FIRST_ZH, 0, "i39-zh-f", zh)
    out += _each(FIRST_ZH_LEN, 0, "i39-zh-fl", zh_len)
    out += _each(ONCE_ZH, 0, "i39-zh-o", zh)
    out += _each(ONCE_ZH_LEN, 0, "i39-zh-ol", zh_len)
    out += _each(GRIPE_ZH, 0, "i39-zh-g", zh, per=3)
    out += _each(ASK_ZH, 0, "i39-zh-q", zh, per=3)
    out += _each(ONCE_WHY_EN, 0, "i39-en-ow", en)
    out += _each(ONCE_WHY_ZH, 0, "i39-zh-ow", zh)
    out += _each(DONT_EN, 0, "i39-en-d", en, per=4)
    out += _each(DONT_ZH, 0, "i39-zh-d", zh, per=4)
    out += _each(DEFY_EN, 0, "i39-en-y", {"y": THINGS_EN}, per=4)
    out += _each(DEFY_ZH, 0, "i39-zh-y", {"y": THINGS_ZH}, per=4)
    return out
