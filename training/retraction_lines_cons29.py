"""Hand-written chat lines for the retraction-intent model (issue 24, session 16, helper cons29).

Not frame x slot templates: each line is written once, in its own voice (English, Chinese, mixed; typos,
slang, emoji, hedges). Label 1: the user withdraws something they told, named directly or indirectly
("forget the medication part", "the thing about my ex, wipe it", "pretend i never said the loan stuff",
"我刚说的那个病的事别记了", "撤回上一条", "too personal, take it off"), sensitive things first (health,
money, family, legal trouble), with or without a reason. Label 0, the hard negatives of the same surface: a
bare "forget it / never mind / 算了" about the moment ("nvm, found it", "forget it, i'll do it tomorrow"), the
user forgetting something, a reminder ("don't forget to …", "别忘了…"), an edit of a text of the moment
("delete the last paragraph", "删掉第二段"), cancelling a plan of the day, talk about memory in general,
someone else forgetting, and a request about the answer ("forget the formatting, just answer"). ``group``
names the family (the trainer holds whole families out). Written from the issue's family list, apart from the
sentences of the case halves and the dev sets.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import written_rows

POSITIVE: dict[str, list[str]] = {
    "sensitive": [
        "forget the bit about my antidepressants",
        "pls don't keep the part about my therapy sessions",
        "can you drop what i said about my debt, i'd rather it not be saved",
        "the stuff about my divorce, wipe that",
        "scratch what i told you about my court date",
        "don't hold on to the thing about my miscarriage",
        "erase the part where i mentioned my dad's drinking",
        "the hiv test thing, please don't remember that",
        "remove my salary from whatever you saved",
        "take my address off your notes",
        "i'd rather you didn't store anything about my kid's school",
        "delete the part about my panic attacks",
    ],
    "indirect": [
        "actually that last thing i said, pretend you never heard it",
        "hmm on second thought i don't want that on record",
        "that was more than i meant to share, can you let it go",
        "ok that was TMI, unsave it lol",
        "wait don't write that down",
        "uhh yeah ignore my last message, wrong chat",
        "oops that wasn't meant for you, disregard",
        "can u un-remember what i said about my neighbour",
        "you didn't hear that from me 😅 don't keep it",
        "strike that from the record pls",
        "that one's private, please don't hang onto it",
        "the second thing i told you, lose it",
    ],
    "withreason": [
        "forget i said i'm moving to lisbon, it fell through",
        "scrap the part about learning piano, i was just daydreaming",
        "drop the thing about my sister being pregnant, she hasn't told anyone yet",
        "ignore what i said about being a vegetarian, i was joking",
        "don't save my phone number, i shouldn't have shared it",
        "the job offer stuff, forget it, i turned it down and don't want it remembered",
        "that allergy thing was my roommate not me, remove it",
        "take back the marathon goal, not happening this year, just erase it",
    ],
    "zh": [
        "我刚说的吃药那个事别记了",
        "把我前任那段删了吧",
        "撤回上一条，说多了",
        "刚才说的工资的事你就当没听到",
        "我爸住院那个别存",
        "关于我欠钱那部分删掉",
        "我说我在看心理医生那句，忘了吧",
        "家庭住址那条不要记",
        "前面说的离婚的事别留着了",
        "那个太私人了，删了吧",
        "刚说的那个不作数哈，别记",
        "我女儿学校那个信息别保存",
        "哎呀说漏嘴了，那条你删掉",
        "体检结果那个不要记录",
    ],
    "mixed": [
        "那个 therapy 的事 forget it pls",
        "my salary 那条 delete 掉",
        "刚才说的 loan 的事 pls don't save",
        "ignore 我刚说的搬家那个",
        "那段关于我 ex 的 wipe 掉吧",
        "the 体检 stuff 别记了 thx",
    ],
}

NEGATIVE: dict[str, list[str]] = {
    "moment": [
        "forget it, i'll just do it myself tomorrow",
        "nvm found it, it was in my bag the whole time",
        "never mind, the bus finally came",
        "ah forget it, the shop's closed anyway",
        "nah never mind, my friend already sorted it",
        "forget it lol, not worth the stress",
        "nvm the rain stopped, going for the run after all",
        "oh never mind, the package just arrived",
        "算了算了，今天太累了不去了",
        "算了，外卖已经到了",
        "不用了不用了，我自己搞定了",
        "没事了，钥匙找到了",
    ],
    "selfforget": [
        "i forgot my lunch at home again ugh",
        "i keep forgetting my gym bag",
        "totally forgot it was my anniversary, oops",
        "i forgot how to do long division lol",
        "我又忘了交水费",
        "我老是忘记密码",
        "i'm so forgetful these days, left my keys in the door",
        "forgot to text my mum back, she's mad",
    ],
    "reminder": [
        "don't forget i'm vegetarian when you suggest food",
        "don't forget to remind me about the vet on friday",
        "remember i have a meeting at 3",
        "pls remember my sister's birthday is in may",
        "别忘了我对芒果过敏",
        "记得提醒我周五交报告",
        "make sure you remember i hate cilantro",
        "keep in mind i work nights",
    ],
    "textedit": [
        "delete the last paragraph of this draft",
        "remove the bullet points from the email",
        "scrap the intro, it's too long",
        "cut the second sentence, it sounds weird",
        "drop the bit about pricing from the slide",
        "删掉第二段，太啰嗦",
        "把结尾那句去掉",
        "take out the joke from the toast, too risky",
    ],
    "answerformat": [
        "forget the formatting, just give me the number",
        "never mind the details, what's the short answer",
        "skip the intro and get to the point",
        "ignore the spelling, just tell me if the logic works",
        "不用管格式，直接说结论",
        "forget the table, a sentence is fine",
    ],
    "plan": [
        "cancel my 3pm with Dave",
        "we scrapped the beach trip because of the storm",
        "they cancelled the concert so i'm home tonight",
        "my flight got cancelled, ugh",
        "今天的聚会取消了",
        "i dropped my phone in the sink lol",
    ],
    "memorytalk": [
        "can you remember things i tell you?",
        "do you keep a record of our chats?",
        "my grandma keeps forgetting my name, it's hard",
        "i read that forgetting is good for the brain",
        "你会把我说的都记下来吗？",
        "what do you remember about me?",
        "my boss forgot my birthday again lol",
        "forgetting names is my superpower haha",
    ],
    "statement": [
        "i take antidepressants every morning",
        "my ex still texts me sometimes",
        "i'm moving to lisbon next spring",
        "我最近在看心理医生",
        "my salary went up this year",
        "我前任上个月结婚了",
    ],
}


def rows() -> list[dict[str, Any]]:
    """The lines as trainer rows (``text``, ``label``, ``group``: ``cons29-<family>``), no duplicates."""
    return written_rows(POSITIVE, NEGATIVE, "cons29")
