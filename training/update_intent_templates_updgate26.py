"""Labelled sentences for the update-intent model (issue 24, session 13, helper updgate26).

A row is ``{"text", "label", "group"}``: label 1 when the sentence reports that a state or value the user
told before has changed (a new employer or role, a move, a device or vehicle replacing the old one, a
return to an earlier choice, a standing instruction's value changed, a habit ended, a count that went
up), told WITHOUT the usual change words ("now", "switched", "现在", "改成"...: those already reach the
judge through ``core.extraction.pairs.has_cue``); 0 when it does not: a first statement of a state, an
addition of one more item of a kind ("also into X", "我也在学Y", "又养了只Z"), a question, a wish or a
plan, a one-off request, a past trip or event, small talk. Frames x topics; ``group`` names the frame
family so the trainer's split holds whole frames out. Deterministic. Written apart from the case files
(no sentence and no value of ``bench/data/*_cases.jsonl`` update cases is used on purpose).
"""

from __future__ import annotations

from typing import Any

ORGS_EN = ["Stripe", "a hospital in Leeds", "Deloitte", "a bakery on 5th street", "Airbus",
           "the city council",
           "a startup in Berlin", "IKEA", "Spotify", "a law firm downtown", "Nvidia", "the public library"]
ROLES_EN = ["team lead", "night nurse", "product manager", "sous chef", "high school coach", "staff engineer",
            "paralegal", "store manager", "UX researcher", "data engineer"]
CITIES_EN = ["Lisbon", "Calgary", "Osaka", "Melbourne", "Dublin", "Nairobi", "Phoenix", "Glasgow", "Hanoi",
             "Montreal"]
DEVICES_EN = [("the old pixel", "a OnePlus"), ("my thinkpad", "a MacBook Air"), ("the kindle", "a Kobo"),
              ("my fitbit", "a Garmin"), ("the xbox", "a PS5"), ("my ipad", "a Galaxy Tab"),
              ("the old Honda", "a used RAV4"), ("my scooter", "a road bike"), ("the jetta", "a Model 3"),
              ("my android", "a refurbished pixel")]
VALUES_EN = [("english", "portuguese"), ("celsius", "fahrenheit"), ("bullet points", "full paragraphs"),
             ("python", "typescript"), ("metric", "imperial"), ("formal tone", "casual tone"),
             ("dark mode", "light mode"), ("short answers", "detailed answers"), ("english", "japanese"),
             ("24h time", "am/pm")]
HABITS_EN = ["vaping", "soda", "energy drinks", "doomscrolling", "alcohol", "sugar", "coffee", "gambling"]
HOBBIES_EN = ["pottery", "rock climbing", "chess", "salsa dancing", "birdwatching", "baking sourdough",
              "woodworking", "tennis", "watercolor", "trail running"]
PETS_EN = ["a beagle", "a hamster", "two goldfish", "a rescue cat", "a gecko", "a bunny"]

ORGS_ZH = ["字节", "华为", "一家券商", "美团", "市一医院", "一家外企", "京东", "小红书", "一所中学", "蔚来"]
ROLES_ZH = ["产品经理", "主治医生", "项目组长", "算法工程师", "店长", "班主任", "财务主管", "设计总监"]
CITIES_ZH = ["苏州", "厦门", "西安", "青岛", "昆明", "南京", "大连", "武汉", "合肥", "珠海"]
DEVICES_ZH = [("华为旧手机", "一台 vivo"), ("老笔记本", "一台 MacBook"), ("电动车", "一辆摩托"),
              ("旧平板", "一个 iPad mini"), ("老款手表", "一块 Apple Watch"), ("那辆老捷达", "一辆比亚迪"),
              ("kindle", "一个墨水屏阅读器"), ("旧耳机", "一副 AirPods")]
VALUES_ZH = [("英文", "中文"), ("长回答", "短回答"), ("表格", "列表"), ("Python", "Go"), ("公里", "英里"),
             ("正式的语气", "随意一点的语气"), ("三条建议", "一条建议"), ("拼音", "汉字")]
HABITS_ZH = ["抽烟", "喝奶茶", "熬夜", "喝酒", "刷短视频", "吃夜宵", "喝咖啡"]
HOBBIES_ZH = ["书法", "游泳", "古筝", "羽毛球", "摄影", "烘焙", "围棋", "瑜伽", "滑板", "钓鱼"]
PETS_ZH = ["一只柯基", "一只橘猫", "两只仓鼠", "一缸金鱼", "一只鹦鹉", "一只兔子"]
COUNTS = [("two", "three"), ("three", "four"), ("one", "two"), ("four", "five")]
COUNTS_ZH = [("两", "三"), ("一", "两"), ("三", "四")]

# label 1: a change of a state the user told, without a change word
UPD_EN_ORG = ["just started at {o}", "first week at {o} done, the commute is rough",
              "signed my offer with {o} yesterday",
              "got hired by {o}!!", "my last day at the old place was friday, {o} on monday",
              "officially part of {o} as of this week", "onboarding at {o} all week, so many acronyms"]
UPD_EN_ROLE = ["they made me {r} last week", "got promoted to {r} 🎉", "first month as {r} went ok",
               "took the {r} position, starts monday", "i'm the {r} here as of june"]
UPD_EN_CITY = ["signed a lease in {c}, boxes everywhere", "we live in {c} these past weeks, still unpacking",
               "finally unpacked the last box in {c}", "the move to {c} is done, new address soon",
               "our flat in {c} has a balcony finally", "officially a {c} resident, got the id card"]
UPD_EN_DEV = ["{a} died so i got {b}", "retired {a}, {b} arrived today", "{a} is gone, got {b} to replace it",
              "bought {b}, {a} went to my brother", "gave {a} away and picked {b}",
    "{b} replaced {a} this week"]
UPD_EN_VAL = ["{b} again please", "back to {b} please", "go back to {b}", "let's do {b} from here on",
              "ok {a} was a bad idea, {b} please", "enough {a}, {b} from here",
    "{b} for everything after this",
              "prefer {b} over {a} going ahead"]
UPD_EN_COUNT = ["baby number {b} arrived last night", "we're a family of {b} kids officially",
                "kid {b} was born on sunday!!", "{a} options is too many, give me {b}",
                "cap the list at {b}", "keep it to {b} ideas max from here"]
UPD_EN_HABIT = ["day 30 without {h} 💪", "haven't touched {h} in two months", "been {h}-free since spring",
                "three weeks clean from {h}", "cut out {h} completely after new year's"]

UPD_ZH_ORG = ["上周入职{o}了", "拿了{o}的 offer，下周一报到", "刚去{o}报到，还在熟悉",
              "跳到{o}了，工资涨了点",
              "在{o}干了一个月了，老东家那边交接完了", "这周开始在{o}上班"]
UPD_ZH_ROLE = ["升{r}了，事情多了好多", "领导让我当{r}了", "这个月起是{r}", "调岗做{r}，以前的活不干了"]
UPD_ZH_CITY = ["在{c}租好房子了，下周搬", "到{c}定居了", "户口迁到{c}了", "在{c}安顿下来了，离公司很近",
               "搬完家了，{c}这边房租便宜"]
UPD_ZH_DEV = ["{a}摔坏了，入了{b}", "{a}出掉了，买了{b}", "拿{a}换了{b}", "入手了{b}，{a}退役了",
              "{a}彻底坏了，补了{b}"]
UPD_ZH_VAL = ["还是用回{b}吧", "算了，{b}吧，{a}看着累", "回到{b}吧", "{a}不太习惯，还是{b}", "以后统一{b}",
              "{b}就好，别用{a}"]
UPD_ZH_COUNT = ["老{b}出生了，母子平安", "家里{b}个娃了，热闹", "{a}个太多，给{b}个", "推荐的时候最多{b}个"]
UPD_ZH_HABIT = ["{h}戒掉一个月了", "三个月没{h}了", "彻底告别{h}", "从过年到现在没{h}"]
UPD_MIX = ["上周 join 了 {o}，还在 onboarding", "{b} again 吧，{a} 太累了", "入手了 {b}，{a} 送人",
           "officially 在 {c} 安家了", "升 {r} 了 finally", "{h} 戒了 two months", "用回 {b} 吧"]

# label 0: first statements, additions of one more item of a kind, questions, plans, one-offs, small talk
TELL_EN = ["I work at {o}", "I'm a {r}", "I live in {c}", "I've been at {o} for five years",
           "born and raised in {c}",
           "I have {n} kids", "I {h} way too much", "I'm a {r} at {o}, it's a grind"]
TELL_EN_DEV = ["my phone is {b}", "I drive {b}", "I use {b} for work", "got {b} as a gift years ago",
               "my laptop is {b}, battery is dying", "{b} is what i use, works fine"]
TELL_EN_VAL = ["please answer in {b}", "always give me {b}", "when you reply use {b}",
               "I like {b} in answers",
               "for anything you write me, {b} please", "stick to {b} when we chat"]
ADD_EN = ["also really into {y} lately", "oh and I do {y} too", "we also just got {p}",
          "I do {y} on the side too",
          "besides running I also like {y}", "another hobby: {y}", "on top of that i have {p}",
          "and i love {y} as well", "we got {p} in addition to the dog"]
ASK_EN = ["is {o} a good place to work?", "should i move to {c}?", "what's better, {a} or {b}?",
          "how do i get a job at {o}", "is {y} hard to learn?", "can you explain how {b} works"]
PLAN_EN = ["thinking about applying to {o} someday", "maybe we'll move to {c} in a few years",
           "i want {b} eventually", "might try {y} next summer", "dreaming of a trip to {c}"]
ONCE_EN = ["answer this one in {b}", "give me {n} ideas for this trip", "just for this question use {b}",
           "went to {c} for a long weekend, so fun", "had lunch near {o} today", "tried {y} once, not for me"]
TELL_ZH = ["我在{o}上班", "我是{r}", "我住在{c}", "我在{c}长大的", "我每天都{h}", "我在{o}做{r}，挺累的"]
TELL_ZH_DEV = ["我用的是{b}", "我开的是{b}", "我的手机是{b}，有点卡", "平时用{b}"]
TELL_ZH_VAL = ["回答用{b}", "以后给我回复用{b}", "回答的时候都用{b}",
               "写东西给我的时候用{b}", "跟我聊天用{b}就行"]
ADD_ZH = ["我也在学{y}", "最近还喜欢上了{y}", "又养了{p}", "除了跑步我也练{y}", "另外我还会{y}",
          "家里还有{p}", "我{y}也挺喜欢的"]
ASK_ZH = ["{o}待遇怎么样？", "{c}适合养老吗", "{a}和{b}哪个好", "学{y}难不难", "怎么进{o}"]
PLAN_ZH = ["以后想去{c}发展", "打算明年考虑一下{o}", "有机会想学{y}", "想换{b}但还没定"]
ONCE_ZH = ["这次用{b}回答", "去{c}玩了三天", "今天路过{o}", "给我{n}个周末去处", "试过一次{y}，一般"]
# one-off requests and deferrals: nothing the user told changes
ONCE_VAL_EN = ["this time just use {b}", "for this email only, {b}", "draft this one in {b} first",
               "can you redo that in {b}? just this once", "{b} for this answer, the usual after"]
ONCE_VAL_ZH = ["这次先用{b}写一版吧", "这封邮件用{b}", "这个问题先用{b}回答", "今天这份先用{b}，下次照旧",
               "这段先给我{b}的版本"]
LATER = ["let's pick this up next week", "eh i'll deal with it tomorrow", "not today, too tired",
         "maybe later lol",
         "下周再说吧", "改天再聊", "今天先这样吧", "明天再弄，先躺会儿", "算了先不想了", "周末再看吧"]
PLAIN = ["thanks, that helps", "lol ok", "it's so hot today", "what time is it in Tokyo", "good morning!",
         "tell me a joke", "ugh mondays", "that's wild", "谢谢", "今天好累啊", "哈哈哈好的", "帮我写个周报",
         "明天下雨吗", "晚安", "ok cool", "nice one"]


def _each(frames: list[str], label: int, group: str, slots: dict[str, Any],
          per: int = 6) -> list[dict[str, Any]]:
    out = []
    for i, frame in enumerate(frames):
        for j in range(per):
            k = i * 3 + j
            vals: dict[str, str] = {}
            for name, pool in slots.items():
                v = pool[k % len(pool)]
                if isinstance(v, tuple):
                    vals["a"], vals["b"] = v
                else:
                    vals[name] = v
            needed = {n: vals.get(n, "") for n in ("o", "r", "c", "a", "b", "h", "y", "p", "n")}
            text = frame.format(**needed)
            out.append({"text": text, "label": label, "group": f"{group}{i}"})
    return out


def rows() -> list[dict[str, Any]]:
    """Every labelled row, deterministic order, duplicates dropped (first kept)."""
    en = {"o": ORGS_EN, "r": ROLES_EN, "c": CITIES_EN, "h": HABITS_EN, "y": HOBBIES_EN, "p": PETS_EN}
    zh = {"o": ORGS_ZH, "r": ROLES_ZH, "c": CITIES_ZH, "h": HABITS_ZH, "y": HOBBIES_ZH, "p": PETS_ZH}
    out: list[dict[str, Any]] = []
    out += _each(UPD_EN_ORG, 1, "en-uo", en)
    out += _each(UPD_EN_ROLE, 1, "en-ur", en)
    out += _each(UPD_EN_CITY, 1, "en-uc", en)
    out += _each(UPD_EN_DEV, 1, "en-ud", {"ab": DEVICES_EN})
    out += _each(UPD_EN_VAL, 1, "en-uv", {"ab": VALUES_EN})
    out += _each(UPD_EN_COUNT, 1, "en-un", {"ab": COUNTS})
    out += _each(UPD_EN_HABIT, 1, "en-uh", en)
    out += _each(UPD_ZH_ORG, 1, "zh-uo", zh)
    out += _each(UPD_ZH_ROLE, 1, "zh-ur", zh)
    out += _each(UPD_ZH_CITY, 1, "zh-uc", zh)
    out += _each(UPD_ZH_DEV, 1, "zh-ud", {"ab": DEVICES_ZH})
    out += _each(UPD_ZH_VAL, 1, "zh-uv", {"ab": VALUES_ZH})
    out += _each(UPD_ZH_COUNT, 1, "zh-un", {"ab": COUNTS_ZH})
    out += _each(UPD_ZH_HABIT, 1, "zh-uh", zh)
    out += _each(UPD_MIX, 1, "mix-u", {**en, "ab": VALUES_EN + DEVICES_EN})
    tell_en = {**en, "ab": DEVICES_EN + VALUES_EN, "n": ["two", "three", "one"]}
    tell_zh = {**zh, "ab": DEVICES_ZH + VALUES_ZH, "n": ["两", "三", "五"]}
    out += _each(TELL_EN, 0, "en-t", tell_en)
    out += _each(TELL_EN_DEV, 0, "en-td", {"ab": DEVICES_EN})
    out += _each(TELL_EN_VAL, 0, "en-tv", {"ab": VALUES_EN})
    out += _each(ADD_EN, 0, "en-a", en, per=9)
    out += _each(ASK_EN, 0, "en-q", tell_en)
    out += _each(PLAN_EN, 0, "en-p", tell_en)
    out += _each(ONCE_EN, 0, "en-o", tell_en)
    out += _each(TELL_ZH, 0, "zh-t", tell_zh)
    out += _each(TELL_ZH_DEV, 0, "zh-td", {"ab": DEVICES_ZH})
    out += _each(TELL_ZH_VAL, 0, "zh-tv", {"ab": VALUES_ZH})
    out += _each(ADD_ZH, 0, "zh-a", zh, per=9)
    out += _each(ASK_ZH, 0, "zh-q", tell_zh)
    out += _each(PLAN_ZH, 0, "zh-p", tell_zh)
    out += _each(ONCE_ZH, 0, "zh-o", tell_zh)
    out += _each(ONCE_VAL_EN, 0, "en-ov", {"ab": VALUES_EN})
    out += _each(ONCE_VAL_ZH, 0, "zh-ov", {"ab": VALUES_ZH})
    out += [{"text": t, "label": 0, "group": f"later{i % 3}"} for i, t in enumerate(LATER)]
    out += [{"text": t, "label": 0, "group": f"plain{i % 4}"} for i, t in enumerate(PLAIN)]
    seen: set[str] = set()
    uniq = []
    for r in out:
        if r["text"] not in seen:
            seen.add(r["text"])
            uniq.append(r)
    return uniq
