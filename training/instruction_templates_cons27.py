"""More labelled sentences for the standing-instruction model (issue 24, session 14, helper cons27).

Frame families the session-13 templates (``instruction_templates_cons26``) lack:

- label 1, **a standing assumption for a kind of request** ("for any X stuff assume I'm …", "when it comes to
  X, assume …", "只要是X的事，都默认…"): a rule for the future that states a circumstance instead of a manner;
  and chat abbreviations of "going forward" ("going fwd", "moving fwd", "from here on out");
- label 0, **a one-off request that carries a constraint of its own** ("write me a limerick without …",
  "give me 4 lunch ideas w/o … for today", "sum this up in 3 lines, no …", "帮我写个…，不要…"), and a
  request for code whose specification says "never" / "always" ("write a go function that never panics").

Same row format as the session-13 templates; ``group`` names the frame (the trainer holds whole frames out).
Deterministic. Tasks, circumstances and objects are chosen apart from the cons27 case halves
(``bench/data/cons27_*``) and the dev sets.
"""

from __future__ import annotations

from typing import Any

KINDS_EN = [
    "hotel",
    "flight",
    "grocery",
    "restaurant",
    "gift",
    "budget",
    "meal prep",
    "commute",
    "gym",
    "weekend plan",
    "car rental",
    "concert",
]
CTX_EN = [
    "i'm on a tight budget",
    "i'm travelling with a toddler",
    "i'm in the central time zone",
    "i don't own a car",
    "i'm flying from boston logan",
    "i'm a total beginner",
    "i'm left-handed",
    "i'm cooking for one",
    "i use a wheelchair",
    "i'm paid every other friday",
    "i'm in melbourne",
    "my partner is vegan",
]
DO_EN = [
    "show prices in euros",
    "list the cheapest option first",
    "put times in 24-hour format",
    "include the walking distance",
    "mention the cancellation policy",
    "give me a backup option",
    "skip anything that needs a reservation",
    "flag anything with nuts",
]
KINDS_ZH = [
    "订酒店",
    "买机票",
    "买菜",
    "找餐馆",
    "挑礼物",
    "记账",
    "备餐",
    "通勤",
    "健身",
    "周末安排",
    "租车",
    "看演出",
]
CTX_ZH = [
    "我预算很紧",
    "我带着小孩",
    "我在东八区",
    "我没有车",
    "我从虹桥出发",
    "我是新手",
    "我是左撇子",
    "我一个人吃饭",
    "我坐轮椅",
    "我月底才发工资",
    "我在深圳",
    "我对象吃素",
]
DO_ZH = [
    "价格用人民币",
    "最便宜的放第一个",
    "时间用24小时制",
    "标上步行距离",
    "写清退改规则",
    "多给一个备选",
    "需要预约的就别推荐",
    "含坚果的标出来",
]

POS_EN = [
    ("assume", "for any {kind} stuff assume {ctx}"),
    ("assume", "when it comes to {kind} things, assume {ctx}"),
    ("assume", "whenever it's {kind} related, keep in mind {ctx}"),
    ("assume", "for all {kind} questions just take it as given that {ctx}"),
    ("default", "for {kind} stuff default to this: {do}"),
    ("default", "anything {kind}, {do}, that's the standing rule"),
    ("fwd", "going fwd pls {do}"),
    ("fwd", "moving fwd, {do} whenever it's about {kind}"),
    ("fwd", "from here on out {do}"),
    ("fwd", "for future {kind} stuff, {do} thx"),
]
POS_ZH = [
    ("assume", "只要是{kind}的事，都默认{ctx}"),
    ("assume", "以后{kind}的时候你就当{ctx}"),
    ("assume", "凡是跟{kind}有关的，记住{ctx}"),
    ("default", "{kind}这类的，一律{do}"),
    ("default", "往后{kind}都按这个来：{do}"),
]
POS_MIX = [
    ("mix", "for any {kind_en} stuff，默认{ctx_zh}"),
    ("mix", "以后 {kind_en} 相关的都 assume {ctx_en}"),
]

THINGS_EN = [
    "limerick about my commute",
    "toast for my cousin's retirement",
    "short story about a lighthouse",
    "riddle for my nephew",
    "rap verse about tax season",
    "product blurb for my candle shop",
    "bio for my climbing club",
    "wedding card message",
]
NOUNS_EN = [
    "puns",
    "the letter e",
    "metaphors",
    "any names",
    "big words",
    "adverbs",
    "cliches",
    "the word love",
]
MEALS_EN = ["lunch ideas", "snack ideas", "breakfast ideas", "dessert ideas", "picnic ideas"]
ITEMS_EN = ["nuts", "gluten", "eggs", "soy", "sugar"]
CODE_EN = [
    ("go function", "never panics"),
    ("bash script", "always exits with 0"),
    ("rust function", "never allocates"),
    ("java method", "always closes the stream"),
    ("typescript helper", "never mutates its input"),
    ("sql query", "always sorts by date"),
    ("python class", "never blocks the event loop"),
    ("regex", "never matches empty strings"),
]
THINGS_ZH = [
    "打油诗",
    "生日贺卡的话",
    "公司年会的开场白",
    "朋友圈文案",
    "给房东的道歉短信",
    "小红书标题",
    "婚礼致辞",
    "请假条",
]
NOUNS_ZH = ["成语", "表情", "英文单词", "网络用语", "排比句", "“亲爱的”", "感叹句", "长句子"]
CODE_ZH = [
    ("Go 函数", "永远不要 panic"),
    ("shell 脚本", "总是返回 0"),
    ("Python 类", "从不阻塞"),
    ("SQL", "一律按日期排序"),
    ("正则", "永远不匹配空串"),
    ("Java 方法", "每次都关闭流"),
]

NEG_EN = [
    ("oneoff", "write me a {thing} without {noun}"),
    ("oneoff", "can u do a {thing}? no {noun} tho"),
    ("oneoff", "quick {thing} pls, skip the {noun}"),
    ("meal", "give me {n} {meal} w/o {item} for today"),
    ("meal", "need {n} {meal} with no {item}, just for this weekend"),
    ("sum", "sum this up in {n} lines, no {noun}"),
    ("sum", "rewrite this paragraph in {n} sentences and drop the {noun}"),
    ("code", "write a {lang} that {spec}"),
    ("code", "can you show me a {lang} that {spec}?"),
    ("code", "fix this {lang} so it {spec}"),
]
NEG_ZH = [
    ("oneoff", "帮我写个{thing}，不要用{noun}"),
    ("oneoff", "来一段{thing}呗，别带{noun}"),
    ("sum", "把这段压缩成{n}句话，别用{noun}"),
    ("code", "帮我写个{lang}，要求{spec}"),
    ("code", "这个{lang}改一下，{spec}"),
]
NUMS = ["2", "3", "4", "5", "two", "three"]


def _fill(frame: str, i: int) -> str:
    lang, spec = CODE_EN[i % len(CODE_EN)]
    lang_zh, spec_zh = CODE_ZH[i % len(CODE_ZH)]
    zh = any("\u4e00" <= ch <= "\u9fff" for ch in frame)
    vals = {
        "kind": (KINDS_ZH if zh else KINDS_EN)[i % 12],
        "ctx": (CTX_ZH if zh else CTX_EN)[(i * 5) % 12],
        "do": (DO_ZH if zh else DO_EN)[(i * 3) % 8],
        "kind_en": KINDS_EN[i % 12],
        "ctx_en": CTX_EN[(i * 5) % 12],
        "ctx_zh": CTX_ZH[(i * 7) % 12],
        "thing": (THINGS_ZH if zh else THINGS_EN)[i % 8],
        "noun": (NOUNS_ZH if zh else NOUNS_EN)[(i * 3) % 8],
        "n": NUMS[i % len(NUMS)],
        "meal": MEALS_EN[i % 5],
        "item": ITEMS_EN[(i * 2) % 5],
        "lang": lang_zh if zh else lang,
        "spec": spec_zh if zh else spec,
    }
    return frame.format(**vals)


PER_FRAME = 12


def rows() -> list[dict[str, Any]]:
    """The template rows, deterministic, without duplicates."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for frames, label, lang in (
        (POS_EN, 1, "en"),
        (POS_ZH, 1, "zh"),
        (POS_MIX, 1, "mix"),
        (NEG_EN, 0, "en"),
        (NEG_ZH, 0, "zh"),
    ):
        for group, frame in frames:
            for i in range(PER_FRAME):
                text = _fill(frame, i)
                if text not in seen:
                    seen.add(text)
                    out.append({"text": text, "label": label, "group": f"c27-{lang}-{group}{label}"})
    return out
