# ruff: noqa: E501  (data: hand-written templates and slot values, one family per block)
"""A third set of hand-written chat-style templates for the utterance corpus (issue 24, ``h-forbid24``).

Written for this repository on 2026-12-05 by the ``h-forbid24`` helper (an AI agent session), with
slot values and sentence shapes of its own, none copied from an evaluation set (the dev cases, the
team's held-out cases, ``bench/data/dev2_cases.jsonl``, ``bench/data/dev3_cases.jsonl``) or an issue
text (``training/build_utterance_corpus.py --check`` searches every row in them). What the user says
that is not about the user, as drops: hypotheticals, another person's fact outside the household, a
wish for someone else, a plan considered and rejected, a question about a thing, a mocking self-claim,
a request for code; as keeps: hedged and habitual tastes, standing instructions without "from now on",
projects outside any word list, goals said as "trying to get my X up to Y", jobs said as "doing X for a
Y company". ``relabel`` also turns the earlier sets' rows about a person outside the household ("my
roommate is a welder") into drops, the line the rules draw (``core.extraction.rules.others``).

Expansion is deterministic: template ``t`` takes, for its ``k``-th row, value ``(k * step + t) % len``
of each slot (co-prime steps), ``PER_TEMPLATE`` rows at most, distinct texts only.
"""

from __future__ import annotations

from typing import Any

from core.extraction.rules.others import outsider_statement
from training.template_rows import family_rows

PER_TEMPLATE = 6
_STEPS = (1, 3, 5, 7, 11, 13, 17, 19)

SLOTS: dict[str, list[str]] = {
    "place_en": ["reykjavik", "montreal", "hanoi", "porto", "tbilisi", "cape town", "kyoto", "oslo", "perth", "krakow"],
    "place_zh": ["大理", "厦门", "哈尔滨", "西宁", "珠海", "景德镇", "拉萨", "烟台", "柳州", "延吉"],
    "out_en": ["cousin", "roommate", "flatmate", "coworker", "boss", "neighbour", "best friend", "buddy", "sister",
               "older brother", "aunt", "mate from uni", "dad", "mom"],
    "out_zh": ["表妹", "室友", "同事", "老板", "邻居", "闺蜜", "哥们", "姐姐", "弟弟", "舅舅", "发小", "我爸", "我妈"],
    "job_en": ["firefighter", "tattoo artist", "court interpreter", "sommelier", "flight attendant", "zookeeper",
               "locksmith", "midwife", "stunt double", "ship's engineer"],
    "job_zh": ["消防员", "纹身师", "空乘", "兽医", "调酒师", "列车长", "锁匠", "助产士", "飞行员", "船员"],
    "trait_en": ["allergic to shellfish", "vegan", "diabetic", "afraid of flying", "obsessed with marathons",
                 "into birdwatching", "lactose intolerant", "colour blind"],
    "trait_zh": ["对芒果过敏", "吃素", "有糖尿病", "恐高", "特别迷马拉松", "喜欢钓鱼", "乳糖不耐受", "是色盲"],
    "wish_en": ["gets the scholarship", "passes the bar exam", "finds a job soon", "makes the team",
                "gets into art school", "recovers quickly"],
    "wish_zh": ["考上研究生", "找到好工作", "早点康复", "顺利拿到签证", "考进重点中学", "升职加薪"],
    "plan_en": ["getting a tattoo", "buying a boat", "learning the bagpipes", "moving abroad", "adopting a parrot",
                "doing a phd", "opening a cafe"],
    "plan_zh": ["买个二手房", "去考公务员", "学架子鼓", "养一只鹦鹉", "读个在职研究生", "开家奶茶店"],
    "thing_en": ["go", "elixir", "svelte", "haskell", "a standing desk", "a gravel bike", "mirrorless cameras",
                 "index funds"],
    "thing_zh": ["学吉他", "买电车", "考教资", "学滑雪", "用 Linux", "买基金"],
    "fake_en": ["a rock star", "a duke", "the pope", "a secret agent", "a famous chef", "a pro gamer"],
    "code_en": ["parses a csv into a dict", "dedupes a list while keeping order", "pings a url every minute",
                "converts png files to webp", "counts words in a text file", "validates an email address"],
    "code_zh": ["把json转成excel", "批量重命名照片", "统计日志里的报错次数", "定时备份数据库", "抓取网页标题"],
    "lang": ["python", "bash", "javascript", "go", "sql", "rust"],
    # keeps
    "activity_en": ["crocheting", "long train rides", "thrift shopping", "bird photography", "baking bagels",
                    "word puzzles", "trail running", "fixing old watches", "karaoke nights", "tinkering with synths"],
    "activity_zh": ["拼乐高", "做手账", "逛菜市场", "爬野山", "骑公路车", "听相声", "拍星空", "种多肉"],
    "option_en": ["the vegetarian curry", "an oat latte", "the window seat", "the early train", "dark mode",
                  "the smallest size", "paper maps"],
    "option_zh": ["无糖的", "靠过道的座位", "素的那份", "小杯", "最早那班车", "纸质书"],
    "style_zh": ["宽松的衣服", "浅色系", "运动风", "格子衬衫", "黑白灰"],
    "units_en": ["kilometres", "miles", "24-hour time", "metric", "fahrenheit", "pounds and ounces"],
    "words_en": ["exclamation marks", "emoji", "jargon", "the word 'delve'", "filler phrases", "hashtags"],
    "domain_en": ["cover letters", "meal plans", "my essays", "travel itineraries", "budget sheets", "code reviews"],
    "do_en": ["flag anything risky first", "keep it under one page", "list the costs at the end",
              "point out typos separately", "cite where each number comes from"],
    "domain_zh": ["简历", "旅行计划", "周报", "体检报告", "装修报价", "论文"],
    "do_zh": ["先把问题列出来", "重点标红", "最后给个总结", "别改我的原意", "金额单独列一栏"],
    "proj_en": ["restoring a 1960s sailboat", "writing a history of my street", "building a cedar canoe",
                "digitising my grandad's slides", "rebuilding an old tractor engine", "making a zine about local bands",
                "mapping the footpaths around my village", "recording an album in my bedroom"],
    "proj_zh": ["修一台老式缝纫机", "给小区写一本口述史", "翻新一辆老嘉陵摩托", "把外公的老照片扫描整理", "自己做一把木吉他",
                "给村里的老房子画测绘图", "写一本家乡美食小册子"],
    "metric_en": ["my squat up to 100 kg", "my 5k under 25 minutes", "my savings up to three months of rent",
                  "my reading up to a book a week", "my french up to b2", "my sleep up to seven hours"],
    "metric_zh": ["体脂降到百分之二十", "每个月存下三千块", "雅思考到七分", "五公里跑进二十五分钟", "每周读完一本书"],
    "workjob_en": ["payroll for a logistics firm", "customer support for a bank", "quality control at a bottling plant",
                   "bookkeeping for a few small shops", "night shifts at a warehouse"],
    "kin_en": ["dad", "brother", "grandpa", "uncle", "best mate"],
}


FAMILIES: list[tuple[str, bool, str | None, list[str]]] = [
    ("hypothetical", False, None, [
        "if i ever ended up in {place_en} i'd probably open a bakery", "say i moved to {place_en}, would i need a car?",
        "hypothetically if i lived in {place_en} what would rent be", "imagine me as a {job_en} lol, never happening",
        "要是哪天我搬去{place_zh}，估计得天天吃海鲜", "假设我去{place_zh}工作，工资大概多少", "如果我是个{job_zh}就好了，哈哈",
    ]),
    ("someone_elses_fact", False, None, [
        "my {out_en} is a {job_en}, crazy hours", "my {out_en} is {trait_en}", "my {out_en} just moved to {place_en}",
        "my {out_en} started working as a {job_en} last month", "so my {out_en} is {trait_en}, fun times at dinner",
        "我{out_zh}是{job_zh}，天天值班", "我{out_zh}{trait_zh}", "我{out_zh}刚搬去{place_zh}了", "我{out_zh}最近在当{job_zh}",
    ]),
    ("wish_for_other", False, None, [
        "really hope my {out_en} {wish_en}", "fingers crossed my {out_en} {wish_en}", "praying my {kin_en} {wish_en}",
        "希望我{out_zh}能{wish_zh}", "但愿我{out_zh}{wish_zh}", "真心希望我儿子以后能{wish_zh}",
    ]),
    ("plan_rejected", False, None, [
        "was thinking about {plan_en} but nah", "i considered {plan_en}, decided against it",
        "was gonna try {plan_en} but changed my mind", "toyed with the idea of {plan_en}, not happening",
        "本来想{plan_zh}的，后来还是算了", "之前打算{plan_zh}，想想作罢了", "一度考虑过{plan_zh}，最后放弃了这个念头",
    ]),
    ("question_about_thing", False, None, [
        "is {thing_en} worth learning in 2025?", "what do you think of {thing_en}", "{thing_en} or something else, which is better?",
        "would {thing_en} suit a beginner", "你觉得{thing_zh}靠谱吗", "{thing_zh}难不难啊", "现在{thing_zh}还来得及吗？",
    ]),
    ("mocking_claim", False, None, [
        "oh sure, next you'll say i'm {fake_en} 🙄", "yeah right, i'm {fake_en} too lol", "oh totally, i'm {fake_en} in my spare time /s",
        "对对对，我还是{job_zh}呢🙄", "当然，我还是宇航员呢，呵呵",
    ]),
    ("code_request", False, None, [
        "write me a {lang} script that {code_en}", "can u give me {lang} code that {code_en}", "{lang} snippet that {code_en} pls",
        "帮我用{lang}写个{code_zh}的脚本", "写段{lang}代码，{code_zh}",
    ]),
    ("preference_hedged_habitual", True, "preference", [
        "i guess i kinda like {activity_en}?", "not gonna lie, i sort of enjoy {activity_en}", "i always end up ordering {option_en}",
        "every time i get the choice i go for {option_en}", "lowkey i'm into {activity_en}, is that weird",
        "我还是习惯{activity_zh}", "我平时基本都选{option_zh}", "我平时基本都穿{style_zh}", "说实话我挺喜欢{activity_zh}的",
    ]),
    ("instruction_no_from_now_on", True, "constraint", [
        "going forward, {units_en} please", "keep {words_en} out of anything you write for me", "when you do {domain_en} for me, {do_en}",
        "for {domain_en}, always {do_en}", "stick to {units_en} with me", "no {words_en} in stuff you draft for me, ever",
        "以后你帮我看{domain_zh}的时候，{do_zh}", "你帮我弄{domain_zh}，都要{do_zh}", "之后给我做{domain_zh}，记得{do_zh}",
    ]),
    ("project_outside_words", True, "project", [
        "i've been {proj_en} for a while now", "slowly {proj_en}, maybe halfway", "me and my {kin_en} are {proj_en}",
        "weekends lately = {proj_en}", "我最近在{proj_zh}，进度一半", "业余时间一直在{proj_zh}", "我跟我爸在{proj_zh}",
    ]),
    ("goal_metric", True, "goal", [
        "trying to get {metric_en} this year", "working on getting {metric_en}", "aiming to get {metric_en} eventually",
        "我在努力{metric_zh}", "今年想{metric_zh}",
    ]),
    ("job_doing", True, "fact", [
        "i'm still doing {workjob_en}", "these days i do {workjob_en}", "my job is basically {workjob_en}",
        "meanwhile i'm doing {workjob_en}, it pays the bills",
    ]),
]


def forbid24_template_rows() -> list[dict[str, Any]]:
    """Every family's templates filled ``PER_TEMPLATE`` times (distinct texts only), in a fixed order;
    ``source`` is ``template_forbid24``."""
    return family_rows(FAMILIES, SLOTS, _STEPS, PER_TEMPLATE, "template_forbid24")


def relabel(row: dict[str, Any]) -> dict[str, Any]:
    """A template row kept as a fact about someone outside the household ("my roommate is a welder")
    becomes a drop: not the user's memory (``core.extraction.rules.others``)."""
    if row.get("source", "hand") != "hand" and row.get("keep") and outsider_statement(row["text"]):
        return {**row, "keep": False, "type": None}
    return row
