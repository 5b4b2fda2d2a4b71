# ruff: noqa: E501  (data: hand-written templates and slot values, one family per block)
"""A fourth set of hand-written chat-style templates for the utterance corpus (issue 24, ``h-cons24``).

Written for this repository on 2026-12-05 by the ``h-cons24`` helper (an AI agent session), with slot
values and sentence shapes of its own, none copied from an evaluation set (the dev cases, the team's
held-out cases, ``bench/data/dev*_cases.jsonl``) or an issue text (``training/build_utterance_corpus.py
--check`` searches every row in them). Three weak families of issue 24 on other people's wording:

- standing instructions said without "from now on" (keeps, ``constraint``): a manner the user prefers
  ("i'd rather you …"), a rule for a kind of task ("whenever u …, …", "你给我…的时候，…"), a format
  ("回答我别用…"); and one-off requests beside them (drops): a script, a summary, a translation;
- personal projects outside any word list (keeps, ``project``): a thing made over time told with a frame
  ("side thing rn: …"), a gerund without subject, "业余时间在…", "在给…做一本…"; and finished one-offs
  (drops): a thing fixed or assembled today;
- what is not the user's (drops): someone else's advice or wish for the user ("she keeps telling me to
  …", "我妈老让我…"), a joke about oneself ("my only real talent is …"), a remark about a thing ("the …
  are impossible to find lol"), sarcasm with an eye-roll or an upside-down face.

**Not built into the shipped corpus.** Wired after ``chat_template_rows()`` in
``build_utterance_corpus.build`` (8,582 rows, +265) and retrained (``train_memory_classifier --l2 1e-5``,
``train_memory_mlp``), the models fixed two of the fifth dev set's cases and broke two others there, and
lost one case of dev4 and two of the third updates set (a standing rule with a count, "每次给我出数学题就出
10 道", no longer replaced; a habit told with "一直用" typed as a project): bench/RESULTS.md, "Issue 24:
session 12, constraints, projects, hallucination (helper cons24)". Kept for a retrain that also carries
keep rows for those update families.

Expansion is deterministic: template ``t`` takes, for its ``k``-th row, value ``(k * step + t) % len``
of each slot (co-prime steps), ``PER_TEMPLATE`` rows at most, distinct texts only.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import family_rows

PER_TEMPLATE = 5
_STEPS = (1, 3, 5, 7, 11, 13, 17, 19)

SLOTS: dict[str, list[str]] = {
    # standing instructions (keeps)
    "manner_en": ["tell me straight when my plan is bad", "point out my typos without being nice about it",
                  "ask me one question at a time", "give me the short answer first and details after",
                  "admit when you're not sure instead of guessing", "skip the pep talk and just list the steps",
                  "use plain words, not textbook ones"],
    "task_en": ["help me with emails", "plan my meals", "check my code", "suggest gifts", "explain news stories",
                "write toasts or speeches for me", "make me a shopping list", "recommend films"],
    "do_en": ["keep it to three bullet points", "put the price next to each item", "flag anything with gluten",
              "show the full function, not a diff", "give me two options max", "say how long it'll take",
              "leave out anything with horror in it", "sort it cheapest first"],
    "stop_en": ["opening with 'sure!'", "ending every answer with a question", "apologising all the time",
                "repeating my question back to me", "adding a summary at the bottom"],
    "zh_task": ["改简历", "做旅行攻略", "推荐电影", "写邮件", "列购物清单", "解释新闻", "看体检单", "改代码"],
    "zh_do": ["先说结论再讲原因", "每样东西后面标上价格", "别超过五条", "把风险点单独列出来", "别给我推荐恐怖片",
              "用大白话讲", "把完整的函数贴出来", "最多给两个方案"],
    "zh_format": ["别用表格", "别加粗体字", "不要分那么多小标题", "少用英文缩写", "别一上来就夸我", "不要列太多条"],
    # one-off requests (drops)
    "lang": ["python", "bash", "powershell", "javascript", "sql"],
    "code_en": ["rename my photos by date", "merge two csv files", "find duplicate files in a folder",
                "resize every image to 800px", "email me when a site goes down"],
    "doc_en": ["article", "paper", "thread", "report", "blog post", "contract"],
    "doc_zh": ["文章", "报告", "论文", "会议纪要", "新闻"],
    "lang_zh": ["英文", "日语", "法语", "韩语"],
    "payload_zh": ["周五的会改到下午三点", "我下周要出差三天", "快递放门口就行", "这个月的报销单已经交了"],
    # projects (keeps)
    "proj_ger_en": ["rebuilding a 1980s arcade cabinet", "making a stop-motion short with lego",
                    "writing a field guide to the mushrooms in our woods", "restoring my uncle's old rowing boat",
                    "building a weather station out of an esp32", "scanning and captioning my parents' slides",
                    "sewing a quilt out of my kid's old t-shirts", "putting together a cookbook of my street's recipes",
                    "carving a chess set out of walnut", "coding a little game for my nephew"],
    "frame_en": ["side thing rn", "weekend project", "my lockdown hobby that never ended", "evening thing lately",
                 "passion project"],
    "proj_zh": ["翻译一本没人出过中文版的游记", "写一本我们村的村史", "做一本全家旅行的手绘相册", "整理外婆的老菜谱",
                "录一档讲老电影的播客", "拼一座一比一百的天坛模型", "给我家猫做一本成长纪念册", "画一套家乡老街的插画"],
    "kin_zh": ["我爸", "我奶奶", "我女儿", "我老公", "我儿子"],
    "group_zh": ["邻居", "同事", "老同学", "几个朋友"],
    "shared_zh": ["楼顶的小花园", "小区图书角", "社区的旧物交换站", "村里的老照片展"],
    # finished one-offs (drops)
    "done_en": ["fixed the wobbly table", "put up the new shelves", "patched the bike tyre", "unclogged the shower drain",
                "assembled the kid's bunk bed", "painted the hallway"],
    "done_zh": ["厨房的水龙头修好了", "书架装好了", "自行车胎补好了", "卫生间的灯换好了", "衣柜拼好了"],
    # not the user's (drops)
    "out_en": ["sister", "coworker", "mum", "best friend", "flatmate", "boss"],
    "out_zh": ["我妈", "我姐", "同事", "我爸", "室友", "我对象"],
    "thing_en": ["learn excel macros", "take up running", "get a cat", "try stand-up comedy", "move to the coast",
                 "study nursing"],
    "thing_zh": ["考个教师资格证", "去学开车", "早点结婚", "去考研", "学游泳", "考公务员"],
    "silly_en": ["napping", "losing umbrellas", "burning toast", "falling asleep in films", "forgetting names"],
    "silly_zh": ["睡懒觉", "丢钥匙", "迷路", "把饭煮糊"],
    "things_en": ["pigeons", "parts", "instructions", "neighbours' kids", "spare keys"],
    "remark_en": ["the real villains here", "impossible to find", "a total joke", "everywhere this year"],
    "bad_en": ["being on hold for an hour", "spending my saturday doing taxes", "when my train gets cancelled",
               "doing the dishes at midnight"],
    "bad_zh": ["周日加班", "排两个小时的队", "被临时拉去开会", "半夜改方案"],
}


FAMILIES: list[tuple[str, bool, str | None, list[str]]] = [
    ("instruction_manner", True, "constraint", [
        "i'd rather you {manner_en}", "for the record, pls {manner_en}", "honestly i'd prefer it if you {manner_en}",
        "whenever u {task_en}, {do_en}", "any time you {task_en} for me, {do_en}", "when you {task_en}, {do_en} pls",
        "pls stop {stop_en}, it bugs me", "can you quit {stop_en} in general, thx",
        "你给我{zh_task}的时候，{zh_do}", "帮我{zh_task}的话，{zh_do}", "回答我问题{zh_format}哈", "以后{zh_task}都{zh_do}",
        "我更希望你{zh_do}",
    ]),
    ("one_off_request", False, None, [
        "can u whip up a {lang} script to {code_en}", "need a quick {lang} thing that can {code_en}",
        "tl;dr this {doc_en} for me?", "summarise this {doc_en} pls, too long", "give me the gist of this {doc_en}",
        "帮我把这句翻成{lang_zh}：{payload_zh}", "帮我总结一下这篇{doc_zh}", "这篇{doc_zh}太长了，帮我概括一下",
    ]),
    ("project_chat", True, "project", [
        "{frame_en}: {proj_ger_en}", "slowly {proj_ger_en}, like an hour a night", "been {proj_ger_en} on weekends",
        "me n my dad are {proj_ger_en}", "outside work i'm {proj_ger_en}, about a third done",
        "业余时间在{proj_zh}，纯属自己喜欢", "最近在给{kin_zh}{proj_zh}", "这阵子在{proj_zh}，进度一半",
        "在跟{group_zh}一起弄{shared_zh}，我负责联系人",
    ]),
    ("finished_one_off", False, None, [
        "{done_en} today, felt like a pro lol", "finally {done_en}, took all afternoon 😤", "{done_en} this morning, done and dusted",
        "今天终于把{done_zh}，累死了", "刚把{done_zh}，搞了一下午",
    ]),
    ("reported_advice", False, None, [
        "my {out_en} keeps telling me to {thing_en}", "she keeps telling me to {thing_en}", "he wants me to {thing_en} but nah",
        "my {out_en} wants me to {thing_en}, not happening", "{out_zh}老让我{thing_zh}", "她非要我{thing_zh}，烦",
        "{out_zh}一直劝我{thing_zh}，我才不要",
    ]),
    ("joke_about_self", False, None, [
        "my only real talent is {silly_en} 😂", "world champion at {silly_en} over here lol", "if {silly_en} was a sport i'd be pro",
        "我唯一的特长就是{silly_zh}哈哈", "论{silly_zh}我是专业的😂",
    ]),
    ("remark_on_thing", False, None, [
        "yeah the {things_en} are {remark_en} lol", "the {things_en} are {remark_en} tbh", "those {things_en}, {remark_en} honestly",
    ]),
    ("sarcasm", False, None, [
        "oh i just ADORE {bad_en} 🙃", "nothing i love more than {bad_en} 🙄", "wow {bad_en}, my favourite thing ever /s",
        "又要{bad_zh}，真是太开心了呢🙄", "我可太喜欢{bad_zh}了呵呵🙃",
    ]),
]


def cons24_template_rows() -> list[dict[str, Any]]:
    """Every family's templates filled ``PER_TEMPLATE`` times (distinct texts only), in a fixed order;
    ``source`` is ``template_cons24``."""
    return family_rows(FAMILIES, SLOTS, _STEPS, PER_TEMPLATE, "template_cons24")
