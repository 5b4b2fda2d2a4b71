"""Labelled sentences for the standing-instruction model (issue 24, session 13, helper cons26).

A row is ``{"text", "label", "group"}``: label 1 when the sentence sets a rule the assistant is to follow
from now on in the user's future requests (however it is phrased: "going forward", "keep X out of",
"always", "never", "whenever you", "以后", "别再", "记得每次", "每次…都", or no frame word at all), 0 when it
does not: a one-off request of the moment ("can you write …", "translate this", "帮我写一段…"), an
instruction scoped to this answer ("just this once", "in this one", "这次"), a question, the user's own
habit or plan ("I always take the bus", "我以后想当老师"), someone else's habit, a hypothetical, a thank-you,
a request to withdraw something told (the retraction-intent templates' positives: "don't count the X").
Built from frames x tasks x manners; ``group`` names the frame so the trainer's split holds whole frames out
(a held-out frame measures wording the model has not seen). Deterministic. The topics are chosen apart from
the cons26 check set (``bench/data/cons26_check_cases.jsonl``) and the dev sets.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).with_name("data") / "memory_utterances" / "utterances.jsonl"
# families of the labelled utterance corpus that are requests or things of the moment, never a rule
_CORPUS_NEGATIVE = {"question_request", "task_request", "short_term", "conditional_short_lived",
                    "task_payload",
                    "hypothetical", "weather_finance_todo", "thanks_ack", "about_the_other", "retraction"}
# a taste or fact the user tells with a word of habit ("I always…", "我每次都…"): their own habit, no rule
_HABIT = re.compile(r"\b(?:always|never|every time|whenever|usually)\b|每次|总是|从不|从来|一直|平时",
                    re.IGNORECASE)

TASKS_EN = ["write emails", "draft texts", "plan trips", "suggest recipes", "explain code",
            "summarize articles", "recommend podcasts", "make workout plans", "give me book recs",
            "help with my budget",
            "write cover letters", "answer me", "reply", "proofread my essays", "pick gifts"]
TASK_NOW_EN = ["write an email to my landlord", "draft a text to my sister", "plan a weekend in lisbon",
               "suggest a recipe with chickpeas", "explain this regex", "summarize this article",
               "recommend a podcast for the drive", "make me a leg day routine",
               "give me a book for the beach",
               "check this budget", "write a cover letter for this job", "proofread this paragraph",
               "pick a gift for my coworker", "name my new plant", "make a packing list for the trip"]
DO_EN = ["use metric units", "keep it under 200 words", "skip the small talk", "use plain english",
         "put the key point first", "include prices", "mention where the info comes from", "use 24-hour time",
         "avoid jargon", "give two options max", "flag anything with gluten", "use british spelling",
         "write in a casual tone", "number the steps"]
NEG_EN = ["use exclamation marks", "suggest pork dishes", "add hashtags", "use passive voice",
          "recommend chain restaurants", "use corporate buzzwords", "include links to paywalled sites",
          "suggest anything that needs a car"]
NOUN_EN = ["exclamation marks", "hashtags", "corporate buzzwords", "pork", "jargon", "cliches", "slang",
           "long disclaimers"]

POS_EN = [
    ("going", "going forward, {do} please"),
    ("going", "going forward when you {task}, {do}"),
    ("keepout", "keep {noun} out of anything you {task} for me"),
    ("keepout", "keep {noun} out of your replies, thanks"),
    ("always", "always {do} when you {task}"),
    ("always", "always {do}, i mean it"),
    ("never", "never {neg} when you {task}"),
    ("never", "never {neg}, it drives me nuts"),
    ("whenever", "whenever you {task}, {do}"),
    ("whenever", "whenever u {task} pls {do}"),
    ("fromnow", "from now on {do}"),
    ("future", "in future, {do} when you {task}"),
    ("rule", "as a rule, {do}"),
    ("rule", "house rule: {do} whenever you {task}"),
    ("everytime", "every time you {task}, {do}"),
    ("stop", "pls stop doing this: you {neg}, i don't want that anymore when you {task}"),
    ("noany", "no {noun} in anything you {task} for me, ever"),
    ("foranything", "for anything you {task} for me, {do}"),
    ("remember", "remember to {do} each time you {task}"),
    ("dontever", "don't ever {neg}"),
    ("when", "when you {task}, {do}"),
    ("plain", "{do} when you {task}, that's how i like it"),
    ("habit", "make it a habit to {do} when you {task}"),
    ("default", "by default {do} when you {task}"),
]
NEG_FRAMES_EN = [
    ("can", "can you {now} for me?"),
    ("can", "could you {now} real quick"),
    ("now", "{now} pls"),
    ("now", "ok now {now}"),
    ("once", "just this once, {do}"),
    ("once", "for this one only, {do}"),
    ("thisone", "{do} in this answer, i'm in a rush"),
    ("thisone", "don't {neg} in this one, just this draft"),
    ("today", "today when you {now}, {do}"),
    ("question", "what's the best way to {task}?"),
    ("question", "is it normal to {do}?"),
    ("ownhabit", "i always {own} on weekdays"),
    ("ownhabit", "i never {own} before noon"),
    ("other", "my sister always {own}, it's her thing"),
    ("other", "my boss never lets us {own}"),
    ("hypo", "if i ever had to {now} i'd panic"),
    ("plan", "i'm going to {now} tomorrow"),
    ("thanks", "thanks for helping me {now}, that was great"),
    ("asked", "can you {now}? make it nice"),
    ("oneoff", "quick favour: {now}"),
]
OWN_EN = ["take the bus", "drink coffee", "go for a run", "check my email", "skip breakfast", "read the news",
          "call my mom", "wear headphones"]

TASKS_ZH = ["写邮件", "做旅行计划", "推荐菜谱", "解释代码", "总结文章", "推荐播客", "做健身计划", "推荐书",
            "帮我算账", "写周报", "改作文", "挑礼物", "回答问题", "写文案"]
TASK_NOW_ZH = ["写一封请假邮件", "做个去青岛的计划", "推荐一道用鸡胸肉的菜", "解释一下这段代码",
               "总结这篇文章", "推荐一个通勤听的播客", "做个练背的计划", "推荐一本适合旅行看的书",
               "算一下这个月的账", "写这周的周报", "改一下这篇作文", "挑个送同事的礼物", "给我的新猫起个名字",
               "列个出差要带的东西"]
DO_ZH = ["用公制单位", "控制在两百字以内", "先说结论", "用大白话", "标上价格", "注明出处", "用24小时制",
         "少用专业术语", "最多给两个选项", "标出含麸质的东西", "用口语", "把步骤编上号", "用简体字"]
NEG_ZH = ["用感叹号", "推荐猪肉做的菜", "加话题标签", "推荐连锁店", "用网络流行语", "放付费链接",
          "推荐需要开车去的地方"]
NOUN_ZH = ["感叹号", "话题标签", "网络流行语", "猪肉", "术语", "套话"]

POS_ZH = [
    ("yihou", "以后{task}的时候{do}"),
    ("yihou", "以后都{do}吧"),
    ("wanghou", "往后{task}都{do}"),
    ("biezai", "别再{neg}了"),
    ("biezai", "{task}的时候别再{neg}了，拜托"),
    ("buyaozai", "不要再{neg}了，我不喜欢"),
    ("buyaozai", "不要再给我{neg}了"),
    ("biezai", "以后别再给我{neg}了"),
    ("bieji", "{neg}这种事以后就免了"),
    ("jide", "记得每次{task}都{do}"),
    ("jide", "记得{task}的时候要{do}"),
    ("meici", "每次{task}都{do}"),
    ("yilv", "{task}的时候一律{do}"),
    ("yongyuan", "给我{task}，永远{do}"),
    ("jizhu", "你{task}的时候记住，{do}"),
    ("zongshi", "{task}总是{do}就好"),
    ("guiju", "给你立个规矩：{task}都{do}"),
    ("bieyong", "{task}别{neg}"),
    ("fanshi", "凡是{task}，都{do}"),
    ("morenn", "默认{do}，{task}的时候也一样"),
]
NEG_FRAMES_ZH = [
    ("bang", "帮我{now}"),
    ("bang", "帮我{now}吧，谢谢"),
    ("keyi", "可以帮我{now}吗"),
    ("zhe", "这次{do}就行"),
    ("zhe", "这一篇先{do}，急用"),
    ("jintian", "今天{now}的时候{do}"),
    ("wen", "{task}用什么工具好？"),
    ("wen", "{do}是不是更好？"),
    ("ownhabit", "我每次{own}都很开心"),
    ("ownhabit", "我总是{own}"),
    ("ownplan", "我以后想{own}"),
    ("other", "我同事从来不{own}"),
    ("other", "我妈每天都{own}"),
    ("hypo", "要是让我{now}，我肯定搞砸"),
    ("thanks", "谢谢你帮我{now}"),
    ("ji", "急！{now}"),
]
OWN_ZH = ["坐地铁上班", "喝咖啡", "跑步", "看新闻", "给家里打电话", "早起", "戴耳机", "自己做饭"]

MIX_POS = [
    ("mix", "以后 {task_en} 的时候 {do_en}"),
    ("mix", "going forward {do_zh}"),
    ("mix", "每次 {task_en} 都 {do_en} 好吗"),
    ("mix", "whenever you {task_en}，{do_zh}"),
    ("mix", "别再 {neg_en} 了 pls"),
]
MIX_NEG = [
    ("mixneg", "帮我 {now_en} 一下"),
    ("mixneg", "can you {now_zh}"),
    ("mixneg", "这次 {do_en} 就好，just this once"),
    ("mixneg", "我 always {own_en}，习惯了"),
]


def _fill(frame: str, i: int, zh: bool) -> str:
    """One sentence of ``frame``, its slots filled by the ``i``-th pick of each list (a stride over the lists,
    so every frame meets many tasks and manners)."""
    if zh:
        vals = {"task": TASKS_ZH[i % len(TASKS_ZH)], "now": TASK_NOW_ZH[(i * 3) % len(TASK_NOW_ZH)],
                "do": DO_ZH[(i * 5) % len(DO_ZH)], "neg": NEG_ZH[(i * 2) % len(NEG_ZH)],
                "noun": NOUN_ZH[i % len(NOUN_ZH)], "own": OWN_ZH[(i * 3) % len(OWN_ZH)]}
    else:
        vals = {"task": TASKS_EN[i % len(TASKS_EN)], "now": TASK_NOW_EN[(i * 3) % len(TASK_NOW_EN)],
                "do": DO_EN[(i * 5) % len(DO_EN)], "neg": NEG_EN[(i * 2) % len(NEG_EN)],
                "noun": NOUN_EN[i % len(NOUN_EN)], "own": OWN_EN[(i * 3) % len(OWN_EN)]}
    vals |= {"task_en": TASKS_EN[i % len(TASKS_EN)], "do_en": DO_EN[(i * 5) % len(DO_EN)],
             "neg_en": NEG_EN[(i * 2) % len(NEG_EN)], "now_en": TASK_NOW_EN[(i * 3) % len(TASK_NOW_EN)],
             "do_zh": DO_ZH[(i * 5) % len(DO_ZH)], "now_zh": TASK_NOW_ZH[(i * 3) % len(TASK_NOW_ZH)],
             "own_en": OWN_EN[(i * 3) % len(OWN_EN)]}
    return frame.format(**vals)


PER_FRAME = 24  # sentences per frame


def rows() -> list[dict[str, Any]]:
    """The template rows, deterministic, without duplicates."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    sets = [(POS_EN, 1, False), (NEG_FRAMES_EN, 0, False), (POS_ZH, 1, True), (NEG_FRAMES_ZH, 0, True),
            (MIX_POS, 1, False), (MIX_NEG, 0, False)]
    for frames, label, zh in sets:
        for group, frame in frames:
            for i in range(PER_FRAME):
                text = _fill(frame, i, zh)
                if text not in seen:
                    seen.add(text)
                    out.append({"text": text, "label": label, "group": f"{'zh' if zh else 'en'}-{group}"})
    return out + corpus_rows() + retraction_rows()


def retraction_rows() -> list[dict[str, Any]]:
    """The retraction requests of the retraction-intent templates (``retraction_templates_forget24``): a
    request to withdraw something told ("don't count the X", "disregard what i told u about X", "那个别记")
    is no rule for the future either, though it is an imperative to the assistant with "don't"."""
    from training.retraction_templates_forget24 import rows as forget_rows

    return [{"text": r["text"], "label": 0, "group": f"forget24-{r['group']}"}
            for r in forget_rows() if r["label"] == 1]


def corpus_rows(path: Path = CORPUS, split: str = "train") -> list[dict[str, Any]]:
    """Weak labels from the labelled utterance corpus (its ``split``; the trainer fits on "train" only): its
    constraints are standing
    instructions; its requests, questions and short-term rules, and the user's own tastes and facts said with
    a word of habit, are not. ``group`` is the corpus family."""
    out: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r["split"] != split:
                continue
            if r["keep"] and r["type"] == "constraint":
                label = 1
            elif (not r["keep"] and r["family"] in _CORPUS_NEGATIVE) or (
                    r["keep"] and r["type"] in ("preference", "fact") and _HABIT.search(r["text"])):
                label = 0
            else:
                continue
            out.append({"text": r["text"], "label": label, "group": f"corpus-{r['family']}"})
    return out
