"""Hand-written lines for the rule-opener head (``core.extraction.rule_opener``; issue 24, session 32, helper
cons51).

A rule is often said over two turns: the first names only what it is about ("about the playlists you make me",
"做饭的话", "旅游攻略这块"), the second what to do. Session 31 (cons50) read the first turn with a word list
(``rules/two_turn.py``: an "about / re / 关于 / 说到" lead naming what the assistant does, or an ending
"…这块 / …的事"); a domain said as "<domain> 的话" or "for my <x>" was not read. Label 1: a short message that
names only a domain or a task the assistant does for the user, as a lead for what comes next; 0: a message
complete in itself of the same length and look: a whole rule, a question, a fact or a taste of the user's,
the day's news, a conditional ("要是下雨的话…"), thanks and chat, a request to do something now.
Written for this file, in new wording; no line is taken from an evaluation case or from a public store
(``tests/training`` checks the case files).
"""

from __future__ import annotations

from typing import Any

_OPENERS: dict[str, list[str]] = {
    "en-about": [
        "about the meal plans you put together for me", "re the gift ideas you come up with",
        "regarding the emails you draft for me", "so about the workouts you plan for me",
        "on the subject of the news you summarise for me", "quick one about my grocery runs",
        "as for the hotels you look up for me", "about the jokes you tell me",
        "one thing about the reading lists", "re: the tv shows you suggest",
        "ok so about my cover letters", "about translations you do for me",
    ],
    "en-domain": [
        "for the recipes you send me", "when you plan my weekends", "your song picks for me",
        "the restaurant suggestions", "for my travel itineraries", "when you write code comments for me",
        "with the summaries you write me", "for any cocktails you suggest",
        "the podcast recs", "birthday party ideas", "when you pick movies for family night",
        "for the flights you look up",
    ],
    "zh-dehua": [
        "做饭的话", "旅游攻略的话", "给我推荐电影的话", "订酒店的话", "帮我写周报的话", "健身计划的话",
        "点奶茶的话", "买衣服的话", "挑礼物的话", "推荐书的话", "安排出差的话", "找餐厅的话",
    ],
    "zh-about": [
        "关于你给我做的食谱", "说到你帮我订的机票", "至于你推荐的综艺", "对于你帮我写的邮件",
        "给我推荐音乐这块", "帮我规划路线这一块", "还有一个关于菜谱的事", "有关你帮我找的兼职",
        "你帮我挑的护肤品这块", "旅行安排的事情", "你给我列的购物清单", "你推荐的那些纪录片",
    ],
    "lead-in": [
        "有件事跟你说下，关于你帮我订的餐厅", "先说好啊，你给我挑的电影", "跟你讲一下，做攻略这块",
        "还有个事，你帮我回的消息", "one more thing, about the books you pick for me",
        "oh and real quick, the workouts you plan me", "also re the recipes you find me",
        "hey, about the dinner ideas you give me",
    ],
    "mixed": [
        "关于你帮我写的 slides", "podcast 推荐的话", "做 meal prep 的话", "你给我挑的 playlist",
        "about 我的健身计划", "写 email 的话", "你推荐的 YouTube 频道这块", "订 Airbnb 的话",
    ],
}

_COMPLETE: dict[str, list[str]] = {
    "en-rule": [
        "no mushrooms in the recipes you send me", "always give me the price in euros",
        "never book me a middle seat", "skip anything with jump scares when you pick movies",
        "keep the emails you draft for me short", "about the playlists: nothing slow please",
        "don't suggest chain restaurants", "only aisle seats for me", "no emojis in my cover letters",
        "keep the summaries under five lines",
    ],
    "en-question": [
        "about how long does it take to boil an egg?", "what's a good gift for my sister?",
        "can you find me a hotel in lisbon?", "do you know any good podcasts?",
        "regarding the weather, will it rain tomorrow?", "what do you think about my plan?",
        "is the museum open on mondays?", "any recipes with leftover rice?",
    ],
    "en-fact": [
        "i work at a bakery downtown", "my kids are 4 and 7", "i've been pescatarian since college",
        "we just moved to leeds",
        "i'm about to head out", "my sister is visiting this weekend", "i love cooking for friends",
        "i hate the cold", "i'm reading a book about whales", "my train is stuck outside reading again",
    ],
    "en-chat": [
        "thanks, that's perfect", "haha ok", "sounds good", "nah i'm good", "that makes sense",
        "lol true", "ok cool thx", "got it", "never mind", "hmm let me think",
    ],
    "en-now": [
        "write me a packing list for a beach trip", "turn this paragraph into german for me",
        "make the last paragraph shorter", "give me three dinner ideas", "summarise this article",
        "plan my saturday", "fix the typo in the second line", "draft a reply to my landlord",
    ],
    "zh-rule": [
        "做饭的话别放香油", "以后推荐电影别推鬼片", "订酒店一律要有窗户的", "帮我写周报别用感叹号",
        "健身计划里别安排跑步", "点奶茶都要少糖", "买衣服别推荐黄色的", "找餐厅的时候人均别超过一百",
    ],
    "zh-question": [
        "做饭的话放多少盐合适？", "你会推荐电影吗", "明天会下雨吗", "这个酒店怎么样？",
        "有没有好看的纪录片", "你觉得我该买哪个", "去成都玩几天合适", "这个菜谱难不难",
    ],
    "zh-fact": [
        "我在一家医院当护士", "我家有两只猫", "我不太能吃辣", "我下个月要搬家", "我老婆在学日语",
        "我最近在减肥", "我是做设计的", "我特别喜欢爬山",
    ],
    "zh-conditional": [
        "要是下雨的话就不去了", "有空的话我们周末去看展", "如果方便的话帮我看一下", "累的话就早点睡",
        "不行的话就算了", "顺利的话下周就能搬", "喜欢的话可以多买点", "早知道的话我就不来了",
    ],
    "zh-chat": [
        "好的谢谢", "哈哈哈哈", "嗯嗯知道了", "算了不用了", "今天好累啊", "外面下大雨了", "刚吃完饭",
        "这个不错", "行吧", "晚安",
    ],
    "en-request": [
        "write me a short poem about autumn", "find me a cheap flight to oslo", "list some easy houseplants",
        "show me how to tie a tie", "suggest a cozy mystery novel", "book a table for two at eight",
        "make me a playlist for running", "tell me a joke",
    ],
    "zh-request": [
        "帮我写一首关于秋天的诗", "给我推荐几本小说", "帮我订明天的车票", "把这段改短一点", "给我讲个笑话",
        "帮我查一下天气", "列一下周末要买的东西", "推荐几个好玩的地方",
    ],
    "mixed-complete": [
        "帮我写个 email 给房东", "podcast 推荐几个", "我在做 meal prep", "这个 playlist 不错",
        "slides 别用红色", "订 Airbnb 要带厨房的", "我明天去 gym", "YouTube 上有教程吗",
    ],
}


def rows() -> list[dict[str, Any]]:
    """The lines as training rows (``text``, ``label``: 1 an opener naming only a domain, 0 a message complete
    in itself; ``group``: ``cons51-<family>-<n>``, four lines a group)."""
    out: list[dict[str, Any]] = []
    for label, families in ((1, _OPENERS), (0, _COMPLETE)):
        for family, lines in families.items():
            out.extend({"text": t, "label": label, "group": f"cons51-{family}-{i // 4}"}
                       for i, t in enumerate(lines))
    return out
