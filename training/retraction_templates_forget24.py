"""Labelled sentences for the retraction-intent model (issue 24, session 12, helper forget24).

A row is ``{"text", "label", "group"}``: label 1 when the sentence asks the assistant to withdraw something
the user told (forget it, not keep it, take it back, "当我没说", "那个不算"), 0 when it does not (a statement,
a standing rule with "don't", a reminder to keep something, the user forgetting something themselves, an
update, a question, small talk). Built from frames x topics; ``group`` names the frame family so the
trainer's split holds whole frames out (a held-out frame measures wording the model has not seen).
Deterministic. The topics here are chosen apart from ``bench/data/dev_forget_cases.jsonl``.
"""

from __future__ import annotations

import itertools
from typing import Any

TOPICS_EN = [
    "the insulin", "my antidepressants", "the rehab stuff", "my salary", "my home address", "my ex",
    "the divorce", "the pregnancy", "the adoption", "my debt", "the lawsuit", "my diagnosis", "the migraine",
    "my religion", "the surgery", "the layoff", "my dad's cancer", "the tattoo", "my weight", "the eating disorder",
    "my green card", "the affair", "my credit score", "the spanish goal", "the marathon plan", "the guitar thing",
    "my landlord drama", "the part about my brother", "my allergy", "the diet stuff", "my sleeping pills",
    "the job hunt", "my coworker", "the crypto losses", "my bank", "my age", "the bit about my kid",
]
TOPICS_ZH = [
    "我吃药", "我的工资", "我家地址", "前任", "离婚", "怀孕", "欠款", "我看心理医生", "信教", "我的病", "考研",
    "减肥计划", "我妈住院", "手机号", "身份证号", "我胖", "失眠", "住院", "赌钱", "辞职", "我男朋友", "整容",
    "抽烟", "纹身", "学吉他", "我哥", "血糖", "我的年龄", "贷款", "跳槽",
]

RETRACT_EN = [
    "forget {t}", "please forget {t}", "can you forget {t}", "forget what i said about {t}", "delete {t}",
    "don't keep {t}", "don't keep {t} on file", "leave {t} out", "leave {t} out of your notes",
    "keep {t} out of your memory", "don't hang on to {t}", "don't hold on to {t}", "drop {t}", "scratch {t}",
    "nix {t}", "strike {t}", "take {t} off the list", "take {t} out", "disregard {t}",
    "disregard what i told you about {t}", "ignore {t}", "ignore what i said about {t}",
    "never mind what i said about {t}", "nvm about {t}", "pretend i never mentioned {t}",
    "pretend i didn't say anything about {t}", "i'd rather you didn't remember {t}", "don't count {t}",
    "wipe {t}", "erase {t}", "remove {t}", "don't save {t}", "don't store {t}", "don't write down {t}",
    "unlearn {t}", "forget i said anything about {t}", "you don't need to remember {t}",
    "no need to keep {t}", "get rid of {t}", "toss {t}", "scrap {t}", "let's not keep {t} on file",
    "i take back what i said about {t}", "{t}, forget it", "{t}? never mind, ignore that",
    "strike {t} from the record", "clear {t}", "please don't remember {t}", "lose {t}",
    "don't log {t}", "{t} doesn't need to be saved", "{t} shouldn't be in your notes",
    "i don't want {t} remembered", "i don't want you keeping {t}", "un-remember {t}",
    "{t} was a mistake to share, drop it", "skip {t} in your notes", "don't file {t} away",
]
RETRACT_ZH = [
    "把{t}删了吧", "{t}那个删掉", "别记{t}", "{t}的事别记了", "{t}那个不算", "{t}那个当我没说", "当我没说{t}",
    "{t}你就当没听到", "{t}那条去掉", "{t}就别存了", "不用记{t}", "{t}那个收回", "我收回{t}那句",
    "{t}那段划掉", "忘了{t}吧", "{t}那事忘掉吧", "别把{t}记下来", "{t}不要记", "{t}那句作废", "{t}那个忽略吧",
    "{t}那个不用留着", "{t}那个清掉", "撤回{t}那条", "{t}就当我没提过", "刚才说{t}的不作数", "{t}那个不要保存",
    "{t}的事你别往本子上写", "{t}那个拿掉", "{t}就别记着了", "关于{t}的都删了", "{t}那句不用管，也别记",
    "{t}那个别留档", "把{t}从记忆里清出去", "{t}这事你就忘了吧", "{t}那条撤了",
]
RETRACT_MIX = [
    "{t} 那个 delete 掉", "{t} forget 吧", "{t} 那条 ignore 掉", "{t} 别 save", "please 别记 {t}",
    "{t} 那句 remove 掉", "{t} 的事 drop 掉吧", "{t} 那个 never mind", "forget {t} 吧", "{t} 那段 scratch 掉",
]
PREFIX_EN = ["", "actually ", "hmm ", "oh wait, ", "on second thought ", "pls ", "ok ", "wait, "]
SUFFIX_EN = ["", " pls", ", it's personal", ", not comfy with that", " lol", ", thanks", ", the rest is fine"]
PREFIX_ZH = ["", "等下，", "算了，", "哦对了，", "嗯，", "话说，"]
SUFFIX_ZH = ["", "，谢谢", "，挺私密的", "哈", "，其他的可以留着", "，不想被记着"]

# not a retraction: statements with "don't", reminders to keep, forgetting oneself, updates, questions
KEEP_EN = [
    "don't forget {t}", "remember {t}", "please remember {t}", "keep {t} in mind", "make a note of {t}",
    "what did i tell you about {t}?", "do you remember {t}?", "can you remind me about {t}?",
    "tell me more about {t}", "i forgot about {t} for a while", "i keep forgetting {t}",
    "i wanted to talk about {t}", "save {t} for later", "{t} is really important to me", "write down {t}",
]
KEEP_ZH = [
    "别忘了{t}", "记住{t}", "记得{t}", "你还记得{t}吗", "提醒我{t}", "{t}很重要，帮我记下", "我又忘了{t}",
    "我老是忘记{t}", "聊聊{t}吧", "{t}你帮我记一下", "{t}这事挺重要的",
]
TELL_EN = [
    "so about {t}, it's been rough", "{t} has been on my mind lately", "let me tell you about {t}",
    "i need advice on {t}", "{t} is going better now", "i'm worried about {t}", "i've been dealing with {t} for years",
    "{t} is a big part of my life", "here's the thing with {t}", "my friend asked about {t}",
    "i told my mom about {t}", "i'm okay talking about {t}", "{t} came up at work today", "i looked into {t} again",
]
TELL_ZH = [
    "{t}这事最近挺烦的", "跟你说说{t}", "{t}让我压力很大", "{t}最近好多了", "我很在意{t}", "{t}的事我想问问你",
    "我跟我妈说了{t}", "{t}这块我需要建议", "{t}是我最近最大的事", "今天又想到{t}了",
]
# standing rules and changes that say "no" / "drop" about something else than what was told
OBJECTS_EN = ["emojis", "bullet points", "spicy food", "seafood", "tabs", "jargon", "pork", "series", "cilantro",
              "long answers", "exclamation marks", "sugar", "the word 'synergy'", "meat", "dairy"]
OBJECTS_ZH = ["香菜", "表情", "辣的", "海鲜", "英文", "太长的回答", "感叹号", "猪肉", "乳制品", "繁体字"]
RULE_EN = [
    "no {t} please", "just no {t} pls", "no {t} in anything you write for me", "don't give me {t}",
    "skip the {t} when you answer", "leave {t} out of your replies", "keep {t} out of recipes you send me",
    "never use {t} with me", "drop the {t} in your answers from now on", "nothing with {t}, i can't stand it",
    "no more {t} for me, doctor's orders", "i'm not doing {t} anymore", "{t} is off the menu for me now",
]
RULE_ZH = [
    "不要给我{t}", "以后别用{t}", "回复里别带{t}", "给我推荐的时候都别放{t}", "{t}就不要了", "以后{t}一律去掉",
    "我不吃{t}", "{t}我现在不碰了",
]
PLAIN = [
    "i've been on lithium since college", "i was diagnosed with crohn's in 2019", "my psychologist thinks i'm burnt out",
    "i take melatonin most nights", "i'm in therapy for ptsd", "i have asthma so i carry an inhaler",
    "my mom has dementia and lives with us", "i got divorced two years ago", "i'm two months sober",
    "i owe about 40k in student loans", "my visa runs out next spring", "i had a miscarriage last year",
    "i'm on the pill, just fyi", "i had a hip replacement in june", "i see a dermatologist for my eczema",

    "i'm on insulin for type 1 diabetes", "my therapist says i should journal more", "i make about 70k a year",
    "i live on 5th street near the park", "my ex still texts me sometimes", "we're expecting a baby in may",
    "i'm still paying off my student loans", "i had shoulder surgery last year", "i'm catholic, go to mass on sundays",
    "don't recommend horror movies to me", "don't use emojis when you reply", "never suggest anything with pork",
    "keep your answers short", "leave the jargon out of your answers", "drop the formalities, talk casually",
    "skip the small talk and get to the point", "take the train if it's faster", "ignore the typos in my messages",
    "don't sugarcoat feedback", "keep it under 100 words", "i don't eat meat", "i never drink coffee after 3pm",
    "i quit my job, i'm a chef now", "i don't run anymore, swimming instead", "i moved to denver last month",
    "i forgot my keys again", "i totally forgot my mom's birthday", "i keep forgetting to water my plants",
    "what's a good podcast for a long drive", "thanks, that helps", "lol that's so true", "can you explain that again",
    "never mind, i found it", "scratch my back and i'll scratch yours, as they say", "i dropped my phone in the sink",
    "i deleted instagram from my phone last year", "i removed the carpet in my bedroom", "i'm learning to forgive myself",
    "i want to cancel my gym membership this week", "i erased the whiteboard at work", "the meeting got cancelled",
    "i struck out at the job fair", "i left my umbrella on the bus", "my kid keeps ignoring me",
    "i ignore most of my emails honestly", "i'm trying to drop 10 pounds", "i took the day off",
    "i'm allergic to latex", "i work nights as a nurse", "my dog is called biscuit", "i play pickleball on weekends",
]
PLAIN_ZH = [
    "我有抑郁症，在吃药", "我去年查出来糖尿病", "我每周去做一次心理咨询", "我有哮喘，随身带喷雾", "我离过婚，带着儿子过",
    "我欠了网贷五万", "我做过试管", "我有乙肝", "我爸中风了在住院", "我失眠好几年了", "我在戒酒", "我血压有点高",

    "我在吃降压药", "我每周去看一次心理医生", "我月薪一万五", "我家住在朝阳区", "我前任还老给我发消息", "我怀孕三个月了",
    "我欠了信用卡两万", "我去年做过手术", "我信佛", "别给我推荐恐怖片", "回复别用表情", "以后回答简短一点",
    "不要跟我说客套话", "我不吃香菜", "我辞职了，现在做自媒体", "我搬到杭州了", "我又忘了带钥匙", "我把妈妈生日忘了",
    "推荐个播客呗", "谢谢，懂了", "哈哈哈笑死", "再解释一遍呗", "算了，我自己查到了", "我把微信卸载了",
    "我把客厅的地毯去掉了", "我今天请假了", "我手机掉水里了", "我对芒果过敏", "我是夜班护士", "我家狗叫豆豆",
    "周末喜欢打羽毛球", "我在减肥，想瘦十斤", "会议取消了", "我老公总是不理我", "我不喝咖啡", "我把头发剪短了",
    "我最近在学吉他", "我戒烟三个月了", "这个不算难吧？", "那个不算贵", "我收回了借给朋友的钱",
]


def rows() -> list[dict[str, Any]]:
    """Every labelled row, deterministic order."""
    out: list[dict[str, Any]] = []
    for i, frame in enumerate(RETRACT_EN):
        pre = PREFIX_EN[i % len(PREFIX_EN)]
        for j, topic in enumerate(TOPICS_EN[i % 7::7]):
            suf = SUFFIX_EN[(i + j) % len(SUFFIX_EN)]
            out.append({"text": pre + frame.format(t=topic) + suf, "label": 1, "group": f"en-r{i}"})
    for i, frame in enumerate(RETRACT_ZH):
        pre = PREFIX_ZH[i % len(PREFIX_ZH)]
        for j, topic in enumerate(TOPICS_ZH[i % 5::5]):
            suf = SUFFIX_ZH[(i + j) % len(SUFFIX_ZH)]
            out.append({"text": pre + frame.format(t=topic) + suf, "label": 1, "group": f"zh-r{i}"})
    for i, frame in enumerate(RETRACT_MIX):
        for topic in itertools.chain(TOPICS_ZH[i % 6::6], TOPICS_EN[i % 9::9]):
            out.append({"text": frame.format(t=topic), "label": 1, "group": f"mix-r{i}"})
    for i, frame in enumerate(KEEP_EN):
        for topic in TOPICS_EN[i % 5::5]:
            out.append({"text": frame.format(t=topic), "label": 0, "group": f"en-k{i}"})
    for i, frame in enumerate(KEEP_ZH):
        for topic in TOPICS_ZH[i % 4::4]:
            out.append({"text": frame.format(t=topic), "label": 0, "group": f"zh-k{i}"})
    for i, frame in enumerate(TELL_EN):
        for topic in TOPICS_EN[i % 3::3]:
            out.append({"text": frame.format(t=topic), "label": 0, "group": f"en-t{i}"})
    for i, frame in enumerate(TELL_ZH):
        for topic in TOPICS_ZH[i % 3::3]:
            out.append({"text": frame.format(t=topic), "label": 0, "group": f"zh-t{i}"})
    for i, frame in enumerate(RULE_EN):
        for topic in OBJECTS_EN[i % 3::3]:
            out.append({"text": frame.format(t=topic), "label": 0, "group": f"en-c{i}"})
    for i, frame in enumerate(RULE_ZH):
        for topic in OBJECTS_ZH[i % 2::2]:
            out.append({"text": frame.format(t=topic), "label": 0, "group": f"zh-c{i}"})
    for i, text in enumerate(PLAIN):
        out.append({"text": text, "label": 0, "group": f"en-p{i % 10}"})
    for i, text in enumerate(PLAIN_ZH):
        out.append({"text": text, "label": 0, "group": f"zh-p{i % 10}"})
    return out
