"""Hand-written groups for the retraction-target model (issue 24, session 20, helper forget37).

Each group is one retraction a user might send and the clauses of that user's live memories: which clause
(if any) the retraction withdraws when it names the thing by another word than the memory does: a category
("the health stuff" for a diagnosis), a paraphrase ("my love life" for a partner's name), a relation
("家里人的信息" for a husband's name), a hypernym ("anything financial" for a salary). The target
mostly shares no salient word with the retraction, so only meaning finds it; the other clauses are other
lasting things about the same user, some near the target's domain (a hard negative: "my dad plays golf" beside
"my mum has early alzheimer's"). A group with no target names a thing the user never told (the retraction
must withdraw nothing there).

Written once each, in many voices (English, Chinese, mixed; typos, slang, emoji, hedges), apart from the
sentences of the case halves and the dev sets. A group is the fold unit of the trainer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TargetGroup:
    """A retraction, the user's live memory clauses, and the indexes of the clauses it withdraws."""

    retraction: str
    clauses: tuple[str, ...]
    targets: frozenset[int]


def _g(retraction: str, clauses: list[str], *targets: int) -> TargetGroup:
    return TargetGroup(retraction, tuple(clauses), frozenset(targets))


GROUPS: tuple[TargetGroup, ...] = (
    # -- health, by a category or a paraphrase
    _g("pls forget the medical stuff",
       ["i was diagnosed with type 1 diabetes at 12", "i work nights at a warehouse",
        "i have a cat called biscuit"], 0),
    _g("can u not keep anything about my health",
       ["i've got crohn's, so some days are rough", "i'm a junior dev at a fintech startup",
        "i'm learning korean on duolingo"], 0),
    _g("drop the mental health bit, too personal",
       ["i see a therapist every tuesday", "i live in a tiny flat in glasgow",
        "i'm obsessed with bouldering"], 0),
    _g("the pregnancy thing, please don't hang on to it",
       ["we're expecting our first baby in march", "my husband is a chef",
        "i drink way too much coffee"], 0),
    _g("身体的情况别记了",
       ["我有高血压，每天吃降压药", "我在杭州做外贸", "我喜欢周末去爬山"], 0),
    _g("病的事删掉吧，不太想被记录",
       ["我去年查出来甲状腺结节", "我家有两只猫", "我在读会计的在职研究生"], 0),
    _g("心理那方面的别存",
       ["我一直在看心理咨询师", "我老家在湖南岳阳", "我是做平面设计的"], 0),
    _g("the meds thing, wipe it",
       ["i take sertraline every morning", "i run a small etsy shop",
        "my partner and i live in austin"], 0),
    _g("health 相关的都别记",
       ["我有哮喘，换季就犯", "I work remote for a berlin company", "我喜欢听播客"], 0),
    _g("uhh forget the doctor stuff lol",
       ["my gp thinks i might have endometriosis", "i play bass in a cover band",
        "i've been veggie for years"], 0),
    # -- money
    _g("forget the money stuff",
       ["i make about 95k a year", "i'm a nurse in a children's hospital",
        "i love hiking in the lake district"], 0),
    _g("don't keep anything financial about me",
       ["i owe around 30 grand on credit cards", "i'm training for a half marathon",
        "i grew up in cork"], 0),
    _g("钱的事别记了",
       ["我每个月工资一万二", "我在深圳做产品经理", "我养了一只柯基"], 0),
    _g("收入那块删了吧",
       ["我一年大概挣三十万", "我女儿今年上小学", "我喜欢喝手冲咖啡"], 0),
    _g("the debt thing, can you erase it",
       ["i'm still paying off 40k in student loans", "i teach yoga on weekends",
        "my favourite band is radiohead"], 0),
    _g("pay 的那部分别存",
       ["我现在月薪两万五", "我在上海住", "我平时喜欢打羽毛球"], 0),
    # -- love life and family
    _g("can you forget my love life lol",
       ["i'm seeing a guy called marco", "i work in hr at a hospital", "i'm allergic to cats"], 0),
    _g("the relationship stuff, delete pls",
       ["my girlfriend and i just broke up", "i'm a second year law student", "i collect vinyl"], 0),
    _g("感情的事别记了",
       ["我刚跟男朋友分手", "我在成都做新媒体运营", "我喜欢吃火锅"], 0),
    _g("家里人的信息别存了",
       ["我老公叫陈浩", "我在一家银行上班", "我喜欢画水彩"], 0),
    _g("anything about my kids, don't keep it",
       ["my son is 7 and my daughter is 4", "i'm an electrician", "i'm trying to cut down on sugar"], 0),
    _g("forget what i said about my family",
       ["my mum has dementia and lives with us", "i work in logistics", "i love sci-fi novels"], 0),
    _g("孩子的事删了吧",
       ["我儿子今年三岁，叫乐乐", "我在做跨境电商", "我不吃香菜"], 0),
    _g("don't save anything about my ex",
       ["jake still owes me money from when we lived together", "i'm a barista",
        "i speak french and spanish"], 0),
    _g("my sibling stuff, scrap it",
       ["my brother is in rehab right now", "i live in leeds", "i play cello in a community orchestra"], 0),
    _g("另一半的事别记",
       ["我老婆是护士", "我在北京做程序员", "我每天早上跑步"], 0),
    # -- where they live, work, identity
    _g("pls forget where i live",
       ["my flat is on 14 mill lane, bristol", "i'm a graphic designer", "i hate coriander"], 0),
    _g("住址别留",
       ["我住在朝阳区望京西园", "我在一家车企做销售", "我喜欢看悬疑剧"], 0),
    _g("the work stuff, forget it, i'm job hunting anyway",
       ["i'm a cashier at tesco", "i have two rabbits", "i'm learning to knit"], 0),
    _g("工作那些别存了",
       ["我在腾讯做后端开发", "我养了一缸热带鱼", "我喜欢周末露营"], 0),
    _g("forget the religion thing",
       ["i'm a practising muslim", "i work in marketing", "i love spicy food"], 0),
    _g("信仰那块别记了",
       ["我是基督徒，每周去教会", "我在做幼师", "我喜欢做烘焙"], 0),
    _g("the immigration stuff, delete it",
       ["my work permit runs out next spring", "i'm a data analyst", "i love board games"], 0),
    _g("don't keep my politics",
       ["i volunteer for the green party", "i'm a plumber", "i have a border collie"], 0),
    _g("the sexuality thing, pls forget",
       ["i'm bi and only a few friends know", "i'm studying nursing", "i'm into mountain biking"], 0),
    _g("legal 那块别记",
       ["我在跟前公司打劳动仲裁", "我是做审计的", "我喜欢喝奶茶"], 0),
    _g("drop the school stuff",
       ["i'm doing a masters in civil engineering", "i live with my parents", "i love horror films"], 0),
    _g("学历那个删掉吧",
       ["我是大专毕业的", "我在苏州上班", "我养了只鹦鹉"], 0),
    _g("宠物的就别记了",
       ["我家狗狗叫旺财，八岁了", "我在银行做柜员", "我最近在学吉他"], 0),
    _g("the food stuff, never mind it",
       ["i can't stand mushrooms", "i'm a firefighter", "i live in denver"], 0),
    _g("吃的那条删了",
       ["我特别爱吃螺蛳粉", "我有点胃病", "我在做自媒体"], 0),
    _g("actually forget the hobby thing",
       ["i do pottery on thursdays", "i'm an accountant", "i have a twin sister"], 0),
    _g("the music taste bit is outdated, drop it",
       ["i'm really into k-pop right now", "i work in a bakery", "i have a peanut allergy"], 0),
    _g("forget my addiction stuff",
       ["i've been sober for eight months", "i work as a roofer", "i love fishing"], 0),
    _g("喝酒那个别存了",
       ["我戒酒半年了", "我在做装修", "我喜欢钓鱼"], 0),
    _g("the car stuff can go",
       ["i drive a 2009 honda civic", "i'm a vet nurse", "i like true crime podcasts"], 0),
    _g("房子的事删掉",
       ["我在还房贷，每月八千", "我在做教培", "我喜欢养多肉"], 0),
    _g("the pet thing is old news, delete",
       ["we have a hamster named peanut", "i'm a lawyer", "i do crossfit"], 0),
    # -- a part of a blob by a paraphrase (two clauses of one memory)
    _g("forget the therapy part, keep the rest",
       ["i'm a welder", "i've been going to counselling since my divorce", "i live near the coast"], 1),
    _g("那个看医生的部分别记",
       ["我在做外卖骑手", "我每个月去医院复查一次肝", "我喜欢打游戏"], 1),
    _g("scrap the money part",
       ["i'm a primary school teacher", "i earn about 32k", "i love baking bread"], 1),
    _g("the kid bit, pls don't keep",
       ["i'm a single dad", "my daughter has autism", "i'm into cycling"], 1),
    # -- nothing of what it names was told (withdraws nothing)
    _g("forget my address",
       ["i'm a nurse in leeds", "thai food is my fave", "i have a corgi"]),
    _g("don't keep anything about my health",
       ["i work in retail", "i like jazz", "i'm learning to drive"]),
    _g("钱的事别记",
       ["我在广州做设计", "我喜欢看动漫", "我家里有只橘猫"]),
    _g("forget the stuff about my kids",
       ["i'm a software tester", "i live in dublin", "i love snowboarding"]),
    _g("感情的事删了",
       ["我在读研究生", "我喜欢摄影", "我不吃辣"]),
    _g("the religion stuff, wipe it",
       ["i'm a chef", "i support arsenal", "i live with two flatmates"]),
    _g("身体的情况别存",
       ["我在做会计", "我喜欢旅游", "我住在南京"]),
    _g("don't hang on to my salary",
       ["i work as a paramedic in the city", "i have three cats", "i like reading fantasy"]),
    _g("forget my ex lol",
       ["i'm an architect", "sushi is my comfort food", "i do kickboxing"]),
    _g("家里人的事别记了",
       ["我在做程序员", "我喜欢弹钢琴", "我对海鲜过敏"]),
    _g("the legal stuff pls forget",
       ["i'm a baker", "i live in manchester", "i'm into birdwatching"]),
    _g("学校的事删了",
       ["我在做快递员", "我喜欢钓鱼", "我住在郑州"]),
    _g("my medication, don't keep that",
       ["i'm a copywriter", "i hate mornings", "i have a vegetable garden"]),
    _g("pls forget the visa thing",
       ["i'm a mechanic", "i love indian food", "i have a daughter"]),
    _g("病的事别记",
       ["我在做外贸", "我喜欢跳舞", "我养了条金毛"]),
    _g("forget the stuff about my partner",
       ["i'm a plumber", "i love cricket", "i grew up in perth"]),
    # -- a near distractor beside the target: the same domain, another thing
    _g("forget the stuff about my mum",
       ["my mum has early alzheimer's", "my dad plays golf every sunday", "i'm a bus driver"], 0),
    _g("我妈的事别记了",
       ["我妈妈在住院化疗", "我爸是退休老师", "我在做客服"], 0),
    _g("the diagnosis thing, drop it",
       ["i was told i have adhd last year", "i go to the gym 4x a week", "i'm a dental hygienist"], 0),
    _g("forget the loan thing",
       ["i took out a 15k loan for my car", "i save 200 a month for a holiday", "i'm a welder"], 0),
    _g("老公的工作别记了",
       ["我老公在华为做硬件", "我自己在做HR", "我喜欢瑜伽"], 0),
    _g("my brother's situation, pls don't keep it",
       ["my brother's in prison", "my sister is a doctor", "i'm a student"], 0),
)
