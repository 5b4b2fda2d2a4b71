# ruff: noqa: E501  (data: hand-written chat lines, one family per block)
"""More rows for the horizon model (``core.extraction.horizon``): lasting statements that carry a near date,
against plans of the day on the same topics with the same time words (issue 24, precision, session 19; ``hz35``).

Written for this repository on 2026-12-06 by the ``hz35`` helper (an AI agent session): every line is its own,
typed as a person would in a companion chat (lowercase, typos, slang, hedges, formal, zh, en and mixed), none
copied or paraphrased from an evaluation set (the dev cases, ``bench/data/*_cases.jsonl``, MemoryBank,
Synthetic-Persona-Chat's test split), the issue texts or the demo samples. No emoji.

Why: the rules' hard time filter (``patterns.TIME_HARD``: "tomorrow", "next week", "下周", "这个月") drops a
clause outright; the horizon model may overrule it where it is sure the statement lasts
(``core.extraction.horizon.HORIZON_KEEP``). Of prec34's 413 rows only 10 lasting ones carried such a word, so the
model had little to learn the difference from: a life change (moved, married, a new job, a diagnosis, a pet, a
baby, retired) or a long-run goal told with a near date lasts; an errand, an outing or a task with the same date
and often the same topic (a friend's wedding, helping someone move, a vet visit for the dog one has) does not;
nor does a figure or a trial of this week or month (a sum spent, a bill, a count, a diet tried: the seed's
short-term stats).
"""

from __future__ import annotations

from typing import Any

from training.template_rows import written_rows

MOMENT: dict[str, list[str]] = {
    "same_topic_day_en": [
        "helping my buddy move his couch tomorrow, wish me luck",
        "my cousin's wedding is this weekend and I still need a gift",
        "taking the dog to the vet next tuesday for her shots",
        "I have a job interview tomorrow at 10, kinda nervous",
        "gotta sign some forms at the bank next week",
        "picking up my new glasses tomorrow",
        "baby shower for my coworker this sunday, what do I bring",
        "we're viewing two apartments this saturday just to look around",
        "next week I'm covering a colleague's shift",
        "my doctor's appointment got moved to tomorrow",
        "tonight I'm packing boxes for the garage sale",
        "i gotta drop my resume off at the cafe tmrw",
    ],
    "same_topic_day_zh": [
        "明天帮朋友搬家，估计要累死",
        "这周末要去参加表姐的婚礼，还没想好送什么",
        "下周二带猫去打疫苗",
        "明天上午有个面试，有点紧张",
        "这周要去银行签个材料",
        "下周去医院拿体检报告",
        "今晚得把这周的报销单填完",
        "这周六去看两套房子，先看看",
        "明天要替同事值一天班",
        "下个月初要交季度报告",
        "待会儿去给宝宝买点尿不湿",
    ],
    "same_topic_day_mixed": [
        "明天要去 DMV renew 一下驾照",
        "this weekend 去朋友家 housewarming",
        "下周 have a quick check-up at the clinic",
        "tmr 早上要 drop off 一个 package",
        "今晚 meal prep 一下明天的午饭",
        "next week 要去 IKEA 买个书架",
    ],
    # the period's figures and trials: a sum spent, a bill, a count or a diet tried this week or month is of
    # that period (the seed's short-term finance stats), not who the user is
    "period_figure_en": [
        "my phone bill came to 95 bucks this month, kinda steep",
        "I've already spent like 600 on takeout this month oops",
        "ran 40 miles this month so far",
        "this week I only slept five hours a night",
        "made about 2k from tutoring this month",
        "my gas bill this month is double what it was",
        "I've watched 12 movies this month lol",
    ],
    "period_figure_zh": [
        "这个月光打车就花了八百多",
        "本月电费三百二，有点离谱",
        "这周一共加了二十个小时的班",
        "这个月已经看完四本书了",
        "这个月兼职赚了三千块",
        "这周步数平均一万二",
    ],
    "period_trial_en": [
        "this month I'm giving the whole no-sugar thing a shot, we'll see",
        "trying out intermittent fasting this week just to see",
        "this month I'm testing whether I can live without my car",
        "doing a no-spend challenge this month",
        "I'm trying cold showers this week, day 3 lol",
    ],
    "period_trial_zh": [
        "这个月试试不喝奶茶",
        "这周在试着十点前睡觉，看能坚持几天",
        "这个月先试一下素食，看看身体反应",
        "本月挑战不网购",
        "这周试着每天走路上班",
    ],
    "period_mixed": [
        "this month 在试 low carb",
        "这个月 spending 有点超了，花了四千多",
        "this week 试着 no caffeine",
    ],
}

LASTING: dict[str, list[str]] = {
    "change_near_en": [
        "we're moving to Lisbon next month for good",
        "I officially retire this friday after 31 years",
        "I got diagnosed with celiac disease today so no more gluten for me",
        "we're bringing home a rescue greyhound this weekend, he's ours now",
        "I'm getting married next saturday!!",
        "our first kid is due next month",
        "just signed the papers today, we own a house now",
        "I'm starting my new role as a charge nurse on monday",
        "the divorce is final this week, it's just me and the kids now",
        "I move into my own place tomorrow, first time living alone",
        "starting next week I'm a full time freelancer",
        "found out today I'm pregnant",
    ],
    "change_near_zh": [
        "我下个月就正式调去上海分公司了",
        "明天我就退休了，干了三十年",
        "今天确诊了二型糖尿病，以后饮食得注意",
        "这周末我们把领养的小狗接回家",
        "我们下个月领证",
        "下周一开始我就是一名小学老师了",
        "今天签了购房合同，终于有自己的房子了",
        "宝宝下个月出生",
        "明天搬去新家，以后就住在城东了",
        "这个月我辞职开始自己创业",
        "今天拿到了永久居留",
    ],
    "change_near_mixed": [
        "下周一 officially 入职一家 startup 做 PM",
        "next month 我们就搬去 Vancouver 了",
        "今天 got my diagnosis, 是 ADHD",
        "this weekend 领养了一只 shiba, 叫豆豆",
        "我 next week 就正式退休了",
        "明天开始我就是 full-time remote 了",
    ],
    "goal_near_en": [
        "my exam for the nursing license is next month and passing it is everything I'm working toward",
        "I run my first marathon next week, been training for two years",
        "next month I defend my phd, the whole goal of the last five years",
        "this month is when I finally become debt free, that's been the plan forever",
        "the citizenship interview is next week and it's the biggest thing in my life right now",
        "I sit the CPA exam next month, I've been studying for it every night",
        "my novel goes to the publisher next week, it's been my dream since college",
        "by next month I want to have quit vaping for good",
        "I'm aiming to pass my driving test next month, it's my main goal this year",
        "tomorrow is my last day of chemo and then I want to get back to running",
    ],
    "goal_near_zh": [
        "下个月考CPA，这是我这几年最大的目标",
        "下周就要论文答辩了，读博五年就为了这一天",
        "这个月一定要把烟彻底戒掉",
        "下个月考研，我准备了两年",
        "下周去考教师资格证面试，当老师是我一直的梦想",
        "这个月底我就能把房贷还清了，奋斗了十年",
        "下个月要参加第一个全程马拉松，练了一年多",
        "明天去考雅思，为了出国读书准备很久了",
    ],
}


def rows() -> list[dict[str, Any]]:
    """The rows, deterministic order: ``text``, ``label`` (1: of this day, week or trip; 0: lasting),
    ``group`` (``hz35-<family>``)."""
    return written_rows(MOMENT, LASTING, "hz35")
