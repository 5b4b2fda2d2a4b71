# ruff: noqa: E501  (data: hand-written messages, one clause a row)
"""Hand-written update messages cut into clauses, for the value-clause head (``core.extraction.value_clause``;
issue 24, session 31, helper upd50).

Each group is a live memory of the user and a later chat message telling that memory's new value, written
clause by clause as people tell it: the old value's end, a reason, a mood, a side remark and the new value in
any order, the cue word in one clause and the value in another, or no cue at all. Label 1: the clause that
carries the new value (what the memory should now say); label 0: every other clause (the old value's end or
disposal, a reason, a feeling, news of something else). The message is the clauses joined by the language's
comma. Written for the head in strangers' wording, zh, en and mixed, over jobs, homes, phones, sports, diets,
routines, commutes, schools, pets, instruments, plans and instruction values; none is a sentence of a case file
(``tests/training``).
"""

from __future__ import annotations

from typing import Any

# (family, memory, [(clause, label), ...])
GROUPS: list[tuple[str, str, list[tuple[str, int]]]] = [
    ("job", "I'm a bank teller", [("counting other people's money got old", 0), ("I'm a personal trainer at a gym downtown now", 1), ("clients are way nicer", 0)]),
    ("job", "I work retail at a shoe store", [("handed back my name tag in may", 0), ("been driving a forklift at a warehouse since", 1), ("my back hates me", 0)]),
    ("job", "I'm a copywriter at an ad agency", [("the agency lost its biggest client", 0), ("so i got let go", 0), ("doing freelance UX research for startups these days", 1)]),
    ("job", "I'm a waiter at a steakhouse", [("no more aprons", 0), ("I answer phones at a vet clinic now", 1), ("the puppies are a perk", 0)]),
    ("job", "I do data entry for an insurer", [("i got certified as an electrician's apprentice", 1), ("the spreadsheets can rot", 0)]),
    ("job", "我在超市当收银员", [("收银台那边不干了", 0), ("现在在一家健身房当前台", 1), ("每天还能蹭器材", 0)]),
    ("job", "我是一名外卖骑手", [("风里雨里跑了三年", 0), ("终于上岸了", 0), ("考进了区里的社区服务中心", 1)]),
    ("job", "我在广告公司做文案", [("公司裁员把我裁了", 0), ("目前在一家书店做店长", 1), ("工资少点但开心", 0)]),
    ("job", "I'm a 前端 developer", [("写代码写吐了", 0), ("now I'm a 产品经理 at the same company", 1)]),
    ("home", "home is Phoenix, az", [("the heat finally broke me", 0), ("we bought a townhouse in Minneapolis", 1), ("ask me again in january lol", 0)]),
    ("home", "I rent a room in Queens", [("lease ended last month", 0), ("my address is a studio in Jersey City now", 1), ("the PATH is fine", 0)]),
    ("home", "I live in a dorm on campus", [("dorm life is behind me", 0), ("splitting a two bedroom off campus with a friend", 1)]),
    ("home", "我住在上海闵行", [("房东要卖房", 0), ("只好搬走", 0), ("在杭州余杭租了个一居室", 1), ("通勤反而近了", 0)]),
    ("home", "我家在沈阳", [("东北太冷了受不了", 0), ("今年在珠海安了家", 1)]),
    ("home", "我住在公司宿舍", [("宿舍退了", 0), ("跟男朋友在城中村租了个小单间", 1), ("虽然小但是自在", 0)]),
    ("home", "I live in 台北", [("現在搬到 Tokyo 了", 1), ("台北的房子租出去了", 0)]),
    ("phone", "I use an iPhone 12", [("dropped it in a lake", 0), ("rip", 0), ("rocking a Galaxy S23 now", 1)]),
    ("phone", "my phone is a Pixel 4a", [("the pixel finally gave up", 0), ("picked up a nothing phone 2", 1), ("the lights are silly but i like it", 0)]),
    ("phone", "我用华为Mate 30", [("那台被我儿子摔坏了", 0), ("现在拿的是 iPhone 14", 1)]),
    ("phone", "我的手机是红米Note", [("卡得不行", 0), ("换了台一加 Ace", 1), ("打游戏流畅多了", 0)]),
    ("sport", "I lift weights 4 days a week", [("shoulder surgery put an end to that", 0), ("swimming laps is my thing now", 1), ("low impact", 0)]),
    ("sport", "I play pickup basketball on weekends", [("my knees said no more", 0), ("doing yoga at the community center instead", 1)]),
    ("sport", "I run trails on sundays", [("sundays are for the climbing gym now", 1), ("trails got too muddy", 0)]),
    ("sport", "我每周踢两次足球", [("上次崴了脚", 0), ("足球暂时踢不了", 0), ("开始练八段锦", 1), ("慢悠悠的挺舒服", 0)]),
    ("sport", "我平时练瑜伽", [("瑜伽馆倒闭了", 0), ("现在改去打网球", 1), ("教练超级凶", 0)]),
    ("sport", "I play 乒乓球 with my dad", [("现在 mostly 打 pickleball", 1), ("爸爸嫌太累不打了", 0)]),
    ("diet", "I'm a pescatarian", [("doctor wanted more iron in my diet", 0), ("eating red meat twice a week again", 1)]),
    ("diet", "I drink a ton of soda", [("cut that out completely", 0), ("sparkling water with lime is all i drink these days", 1)]),
    ("diet", "I don't eat breakfast", [("my nutritionist yelled at me", 0), ("overnight oats every morning now", 1), ("not bad actually", 0)]),
    ("diet", "我每天喝三杯咖啡", [("心悸太厉害", 0), ("咖啡戒了", 0), ("早上换成一杯绿茶", 1)]),
    ("diet", "我不吃海鲜", [("去了趟青岛", 0), ("现在虾和蛤蜊都爱吃", 1), ("真香", 0)]),
    ("diet", "I'm on a low carb diet", [("low carb made me so cranky", 0), ("doing 16:8 intermittent fasting instead", 1)]),
    ("routine", "bedtime for me is usually 2ish", [("the new job starts at 7", 0), ("so lights out at 10 these days", 1), ("feels like a different life", 0)]),
    ("routine", "I work out at night", [("my gym sessions moved to 6am before work", 1), ("evenings are for my kid now", 0)]),
    ("routine", "我每天中午不休息", [("下午老犯困", 0), ("现在午饭后会睡二十分钟", 1)]),
    ("routine", "我周末都在家躺着", [("躺久了腰疼", 0), ("现在周末都去郊区徒步", 1), ("晒黑了好多", 0)]),
    ("commute", "I drive to the office", [("gas prices are insane", 0), ("taking the express bus every morning now", 1), ("i get to read", 0)]),
    ("commute", "I bike to work", [("someone stole my bike", 0), ("so it's the subway for me now", 1), ("ugh", 0)]),
    ("commute", "我每天挤地铁上班", [("公司给配了车位", 0), ("现在开车去公司", 1), ("但是停车场好难找", 0)]),
    ("commute", "我坐公交去学校", [("换了个学校", 0), ("现在骑电动车十分钟就到", 1)]),
    ("school", "I'm studying nursing", [("clinicals were not for me", 0), ("transferred into the accounting program", 1), ("wish me luck lol", 0)]),
    ("school", "I go to a community college", [("got my acceptance letter", 0), ("I'm at UC Davis this fall", 1), ("so nervous", 0)]),
    ("school", "我在读法学", [("背法条背到崩溃", 0), ("下学期转去读心理学了", 1)]),
    ("school", "我在读高二", [("一晃眼", 0), ("已经是大一新生了", 1), ("在武汉上学", 1)]),
    ("pet", "I have a rabbit named Clover", [("Clover passed in the spring", 0), ("a tiny tabby kitten adopted us last week", 1), ("she bites everything", 0)]),
    ("pet", "we have an old labrador", [("we lost him in june", 0), ("the house was too quiet", 0), ("so we brought home a rescue pug", 1)]),
    ("pet", "我养了一只柯基", [("柯基送给我姐了", 0), ("她一个人住需要陪伴", 0), ("我现在养了一缸孔雀鱼", 1)]),
    ("pet", "我家有两只猫", [("猫都送回老家了", 0), ("换成养一只小泰迪", 1), ("天天拆家", 0)]),
    ("instrument", "I play the clarinet", [("haven't touched it in months", 0), ("bought an electric guitar and i'm obsessed", 1)]),
    ("instrument", "I'm learning violin", [("my wrists couldn't take it", 0), ("piano lessons twice a week now", 1), ("way more forgiving", 0)]),
    ("instrument", "我在学古典吉他", [("吉他先放下了", 0), ("最近在学打非洲鼓", 1), ("节奏感练起来了", 0)]),
    ("instrument", "我会吹长笛", [("乐团解散了", 0), ("现在每天练电钢琴", 1)]),
    ("plan", "my goal is to get into med school", [("the mcat crushed me", 0), ("going for physician assistant programs instead", 1)]),
    ("plan", "I want to open a bakery", [("the numbers didn't work out", 0), ("new plan is a food truck selling pastries", 1)]),
    ("plan", "我今年想考公务员", [("考了两次都没上岸", 0), ("准备改考教师编", 1), ("压力小一点", 0)]),
    ("plan", "我的目标是减到60公斤", [("60太难了", 0), ("先把目标定在65", 1)]),
    ("instruction", "format every answer as bullet points pls", [("bullets feel robotic", 0), ("just write normal paragraphs from now on", 1)]),
    ("instruction", "answers under 100 words, always", [("100 words is too short for code questions", 0), ("make it 250 tops", 1)]),
    ("instruction", "回答的时候多用表情", [("表情太多看着乱", 0), ("以后纯文字就行", 1)]),
    ("instruction", "叫我小王", [("小王听着像同事叫的", 0), ("以后叫我阿杰吧", 1)]),
]


def rows() -> list[dict[str, Any]]:
    """One row per clause: ``group`` (the family and the group's index), ``family``, ``memory``, ``text`` (the clause),
    ``message`` (the clauses joined), ``label``."""
    out: list[dict[str, Any]] = []
    for g, (family, memory, clauses) in enumerate(GROUPS):
        sep = "，" if any("\u4e00" <= ch <= "\u9fff" for c, _ in clauses for ch in c) else ", "
        message = sep.join(c for c, _ in clauses)
        out.extend({"group": f"{family}-{g}", "family": family, "memory": memory, "text": c, "message": message, "label": y}
                   for c, y in clauses)
    return out
