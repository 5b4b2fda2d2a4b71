"""Hand-written lines for the dated-change head (``core.extraction.dated_change``; issue 24, session 32,
helper past51): a dated event told in the past tense, often without "I", that changes who the user is or what
they have (label 1: moved, married, split up, a new job, a diagnosis, a pet, a habit given up, a licence, a
home bought) against the day's news told the same way (label 0: an outing, a meal, a party, a trip, a chore, a
borrowed tool, a mood, a small purchase, a passing illness). A change only planned ("maybe do a 10k in the
spring") is never read by the head: ``gate_rescue._TO_COME`` rules it out first.

Written for this file, in new wording, in English, Chinese and mixed chat style; no line is taken from an
evaluation case or from a public store (``tests/training`` checks the case files). Groups are the families, so
out-of-fold reads never see a family's other lines.
"""

from __future__ import annotations

from typing import Any

_CHANGES: dict[str, list[str]] = {
    "move": [
        "relocated to glasgow back in 2019",
        "moved up north to inverness last spring",
        "packed up and moved to austin in march",
        "finally left london for good in 2021",
        "moved in with my boyfriend in january",
        "emigrated to new zealand a couple of years ago",
        "前年搬到了苏州，现在住园区",
        "去年十月搬回老家合肥了",
        "上个月正式搬到深圳了",
        "2020年就从北京搬去了青岛",
        "去年 moved to 新加坡 for good",
    ],
    "relationship": [
        "got engaged over christmas!!",
        "tied the knot in september, small registry office thing",
        "divorced since 2018, its fine now",
        "broke up with my girlfriend in the spring, been single since",
        "had our first baby in july, sleep is a distant memory",
        "became a grandad last year lol",
        "去年国庆结的婚",
        "前年离的婚，现在一个人带孩子",
        "今年三月生了二胎，是个女儿",
        "年初跟男朋友分手了，现在单身",
    ],
    "job": [
        "started at the council as a planner in august",
        "got promoted to head nurse last month",
        "retired from the fire service in 2020",
        "went freelance back in february, no boss now",
        "switched to teaching after ten years in finance, three years ago",
        "joined a fintech as a backend dev last autumn",
        "got made redundant in june and now i drive for a courier",
        "去年七月进了一家国企做会计",
        "今年开春转行做了程序员",
        "前年退休了，现在在家带孙子",
        "上个月升了主管",
        "去年 joined 字节 做产品经理",
        "left the bank in may and started at a bakery a week later",
        "handed my notice in at the garage in spring, driving buses now",
        "quit the agency last year and started out as a gardener",
        "去年底从银行辞了职，年后进了一家律所",
        "三月份离职了，现在在送外卖",
    ],
    "health": [
        "diagnosed with type 1 diabetes at 30, insulin pump ever since",
        "found out i was coeliac in 2021, no gluten since",
        "got told i have asthma last winter, inhaler everywhere now",
        "had a hip replacement in may, walking with a stick for now",
        "been on antidepressants since the autumn",
        "去年体检查出来高血压，一直在吃药",
        "前年确诊了甲减，每天早上吃优甲乐",
        "今年五月查出对青霉素过敏",
        "去年年底做了心脏支架",
        "got diagnosed 焦虑症 去年夏天, still seeing a therapist",
    ],
    "pet": [
        "rescued a three legged staffie in april, hes called tank",
        "got a pair of budgies at christmas",
        "adopted a retired greyhound over the summer",
        "took in a stray tabby last winter, she runs the house now",
        "去年冬天收养了一只流浪狗，叫土豆",
        "上个月领回来一只柯基",
        "前年开始养了两只龟",
        "got a 布偶猫 in june, 超粘人",
    ],
    "quit": [
        "quit smoking in 2022 and never looked back",
        "stopped eating meat in january, fully veggie now",
        "went teetotal after my 40th, two years dry",
        "kicked the energy drinks in september",
        "deleted instagram back in spring and stayed off it",
        "去年就把酒戒了，滴酒不沾",
        "前年开始吃素，一直坚持到现在",
        "今年年初戒了奶茶，半年没喝了",
        "烟是去年夏天戒掉的",
        "gave up coffee in march, 现在只喝茶",
    ],
    "have": [
        "bought our first house in 2023, tiny terrace but its ours",
        "passed my motorbike test in june",
        "finished my phd last year, doctor now haha",
        "got my british citizenship in august",
        "paid off the mortgage in spring 🎉",
        "got my black belt back in october",
        "去年在昆明买了套小房子",
        "今年六月拿到了驾照",
        "前年考下了注册会计师",
        "去年年底入了籍，现在是加拿大公民",
        "上个月提了新车，比亚迪",
    ],
}

_NEWS: dict[str, list[str]] = {
    "outing": [
        "went to a pub quiz last thursday, came third",
        "took the kids to the zoo on saturday",
        "did a parkrun this morning, new pb",
        "went to see a band in leeds last month, so loud",
        "had a day at the beach in august, got sunburnt",
        "上周去看了场话剧，还行吧",
        "周六带娃去了趟动物园",
        "上个月去听了一场演唱会",
        "前几天去爬了趟香山",
        "went 逛街 with my sister last weekend",
    ],
    "meal": [
        "had the best ramen of my life on friday",
        "cooked a massive roast for everyone on sunday",
        "tried a new thai place last week, meh",
        "ate way too much at the wedding buffet in june",
        "上周末吃了顿日料，贵得要死",
        "中午点了个外卖，难吃",
        "前天跟同事去吃了烤鱼",
        "last night 吃了顿麻辣烫 lol",
    ],
    "party": [
        "went to my cousin's wedding in may, danced all night",
        "had a leaving do for a colleague on friday",
        "hosted a games night last saturday",
        "went to a halloween party dressed as a banana",
        "上个月参加了大学同学的婚礼",
        "周五公司年会，喝多了",
        "去年圣诞去朋友家开了个派对",
    ],
    "trip": [
        "spent a week in crete in june, so hot",
        "did a weekend in paris back in march",
        "flew to berlin for a conference in october",
        "drove up to the lakes over easter",
        "去年五一去了趟西安",
        "上个月出差去了趟广州",
        "国庆去云南玩了一圈",
        "went to 日本 for two weeks in april, 超好玩",
    ],
    "chore": [
        "borrowed my brother's ladder on saturday to clear the gutters",
        "spent all of sunday painting the fence",
        "fixed the leaky tap last week, proud of myself",
        "returned the hoover i bought in the sales",
        "assembled a bookshelf on saturday, took 4 hours",
        "上周末把阳台收拾了一下",
        "昨天借了邻居的电钻挂了幅画",
        "前两天把车送去保养了",
        "cleaned out 冰箱 on sunday, so gross",
        "left work early on friday and started a new book",
        "handed in my essay on monday, such a relief",
        "上周交了论文，终于解放了",
    ],
    "mood": [
        "had a rubbish day at work on monday",
        "was so stressed last week with deadlines",
        "felt really low over the weekend",
        "got soaked walking home on tuesday",
        "上周心情特别差",
        "周一被老板骂了一顿，郁闷",
        "前天失眠到三点",
    ],
    "buy": [
        "picked up a new pair of trainers in the sale last week",
        "ordered a pizza on friday night",
        "bought a plant for the kitchen on saturday",
        "got a new phone case in september",
        "上周买了件羽绒服",
        "双十一囤了一堆纸巾",
        "昨天在网上买了个保温杯",
    ],
    "ill": [
        "had a stomach bug in october, off work three days",
        "sprained my ankle playing five a side last week",
        "had the flu over christmas",
        "got a filling at the dentist on wednesday",
        "上周发烧请了两天假",
        "前几天扭到脚了",
        "上个月拔了颗牙，疼了好几天",
    ],
}


def rows() -> list[dict[str, Any]]:
    """Every line as a row (``text``, ``label`` 1 a lasting change / 0 the day's news, ``group`` per
    family)."""
    out = [{"text": t, "label": 1, "group": f"past51-change-{family}"}
           for family, lines in _CHANGES.items() for t in lines]
    return out + [{"text": t, "label": 0, "group": f"past51-news-{family}"}
                  for family, lines in _NEWS.items() for t in lines]
