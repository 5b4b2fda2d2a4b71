"""More hand-written clauses for the own-subject head (``core.extraction.own_subject``; issue 24, session 30,
helper multi49), Chinese and mixed: multi48's rows held 26 Chinese noun-subject clauses and 16 elided ones,
none of them a project or a pastime under way ("最近在…搭…", "家里…在装修"), and read such clauses over the
bar; the head now also reads a Chinese sentence no rule fired on, as written
(``gate_rescue.OWN_SUBJECT_WRITTEN``). Label 1: a subject of its own (a thing, a place, a person other than
the user, then its verb; the day's news and remarks); 0: the user's subject elided or said ("我…"): a
project, a pastime, a habit, a plan, a condition.
Written for this file, in new wording; no line is taken from an evaluation case or from a public store
(``tests/training`` checks the case files).
"""

from __future__ import annotations

from typing import Any

_OWN: dict[str, list[str]] = {
    "zh-thing": [
        "楼下那家面馆换老板了", "这周的快递全堆在门卫室", "那条步行街周末挤得走不动", "电梯又停了半天",
        "学校附近的书店要拆了", "公司新买的咖啡机特别难用", "这次的展览票一下就卖光了",
        "小区的路灯坏了好几盏",
        "隔壁那栋楼晚上一直在施工", "新开的商场停车特别贵", "地铁新线路下个月通车", "医院排队排了一上午",
    ],
    "zh-person": [
        "隔壁王阿姨天天在楼道里跳舞", "新来的实习生特别能干", "部门主管说话很冲", "班主任又在群里发通知",
        "外卖小哥今天迟到了半小时", "物业的人态度一般", "那个教练要求很严", "客服一直在推销",
        "楼上的大爷每天五点起来练嗓子", "前台小姑娘人挺好的", "组长最近老是加班", "对面的邻居刚搬走",
    ],
    "mixed-own": [
        "那个 client 又改需求了", "我们组的 manager 脾气很急", "楼下的 gym 涨价了", "这家 cafe 的 wifi 很慢",
        "新来的 intern 挺聪明", "公司的 VPN 又断了", "那部 Netflix 剧结局很烂", "office 的空调太冷了",
    ],
}

_ELIDED: dict[str, list[str]] = {
    "zh-project": [
        "最近在院子里砌一个烧烤炉", "这几个月一直在翻修老家的房子", "在网上自学剪视频，想做个频道",
        "周末在给孩子做一个木头书架", "今年在跟着视频学做皮具", "正在写一本关于家乡小吃的书",
        "在阳台上养了一箱蚯蚓做堆肥", "一直在收集各地的火车票根", "最近在拼一个超大的乐高城堡",
        "这半年在学编程 想转行做数据", "在给老家的果园搭一个网店", "每周在社区教老人用智能手机",
    ],
    "zh-first-person": [
        "我最近在学做陶艺", "我在准备注册会计师考试", "我家在城郊有块菜地", "我一直在练毛笔字",
        "我们全家都吃素", "我在帮朋友打理一个民宿", "我周末在夜校学日语", "我去年开始跑马拉松",
    ],
    "zh-habit-trait": [
        "不太能吃辣", "睡眠一直不好 常常失眠", "每天晚上都要泡脚", "对花粉过敏 春天最难受",
        "一紧张就爱咬嘴唇", "开车十几年了", "从小就怕狗", "周末基本都去郊外骑车",
    ],
    "mixed-elided": [
        "在深圳做 software engineer", "每周去两次 yoga", "最近在学 guitar 指弹", "对 gluten 不耐受",
        "正在准备 CFA 二级", "平时喜欢玩 board games", "在搞一个 side project 做记账 app",
        "一直在用 Kindle 看书",
    ],
}


def rows() -> list[dict[str, Any]]:
    """The lines as training rows (``text``, ``label``: 1 a subject of its own, 0 the user's subject, elided
    or said; ``group``: ``multi49-<family>-<n>``, four lines a group)."""
    out: list[dict[str, Any]] = []
    for label, families in ((1, _OWN), (0, _ELIDED)):
        for family, lines in families.items():
            out.extend({"text": t, "label": label, "group": f"multi49-{family}-{i // 4}"}
                       for i, t in enumerate(lines))
    return out
