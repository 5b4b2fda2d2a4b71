"""Hand-written lines for the companion-remark head (``core.extraction.companion_remark``; issue 24, session
28, helper prec47): what a companion-chat user says *to* the assistant or about themself that is no rule for
it.

MemoryBank's nine stored constraints were all such remarks (thanks and praise of the assistant said with
"always", a promise to try the advice and report back, a worry or doubt of the day, a plan of the user's own
told after advice), which the standing-instruction model reads 0.40-0.91: its rows set rules against one-off
requests, not against talk to a companion. Label 1: a remark (no rule for the assistant); 0: a standing
limitation the assistant must respect, said as a statement of the user (a diet, an allergy, a condition, a
format the user needs), the rule rows' hard counterpart. Written for this file, in new wording; no line is
taken from an evaluation case or from a public store (``tests/training`` checks the case files).
"""

from __future__ import annotations

from typing import Any

_REMARKS: dict[str, list[str]] = {
    "praise": [
        "you're always so patient with my rambling",
        "honestly you always know what to say to cheer me up",
        "your tips have always been really useful for me",
        "talking with you always makes my evening better",
        "you always explain things in a way i get",
        "your ideas always help me see things differently",
        "I always feel calmer after we talk",
        "you've always been such a good listener",
        "every time I talk to you I learn something new",
        "you never judge me, that means a lot",
        "你总是能给我很实用的建议",
        "每次跟你聊完心情都好多了",
        "你的点子一直都帮了我很大的忙",
        "和你聊天总是特别轻松",
        "你一直都很耐心地听我说",
        "你讲的东西我每次都能听懂",
    ],
    "thanks": [
        "thanks a lot, that really helps",
        "thank you so much for listening to me today",
        "I really appreciate all the advice you gave me",
        "thanks buddy, you've been a great help",
        "many thanks for the tips, they sound good",
        "谢谢你，真的帮了我很多",
        "太感谢你的建议了",
        "谢谢你一直陪我聊天",
        "非常感谢你的耐心解答",
    ],
    "promise": [
        "I'll give your suggestions a try and let you know how it goes",
        "I will follow the advice and see if it works for me",
        "I'll keep you posted if anything changes",
        "if it works out I'll come back and tell you",
        "I will take your words to heart and try harder",
        "I'll think about what you said and report back",
        "I will try to be more careful next time",
        "I'll talk to my doctor as you suggested and stay positive",
        "next time something happens I'll share it with you",
        "I'm going to try the breathing exercise you mentioned",
        "我会试试你说的方法，有进展再告诉你",
        "我会听你的建议，好好调整一下作息",
        "有什么变化我会第一时间跟你分享",
        "我会认真考虑你说的话",
        "我回头按你说的做一下看看效果",
        "下次有什么新鲜事我再来跟你说",
    ],
    "hope": [
        "I hope we can keep chatting like this",
        "hope we can talk again soon",
        "I hope you'll keep helping me out in the future",
        "looking forward to our next chat",
        "希望以后还能经常跟你聊天",
        "希望我们能一直这样聊下去",
        "期待下次再和你聊",
    ],
    "worry": [
        "I don't want to let everyone down because of one slip",
        "I'm scared I'll mess it up again",
        "I don't want my nerves to ruin the whole thing",
        "I still have a few questions about how loops work",
        "I'm still a bit confused about the last step",
        "I don't think I'm good enough for this yet",
        "I worry that I'll never get the hang of it",
        "I'm not sure I can handle all this pressure",
        "我怕自己又搞砸了",
        "我还是有点不太明白最后那一步",
        "我担心自己做不好，让大家失望",
        "我觉得自己还差得远呢",
        "我有点怀疑自己能不能坚持下去",
    ],
    "feeling": [
        "I was really touched by that story",
        "that film moved me a lot",
        "I feel so much lighter after saying it out loud",
        "that makes me feel a lot more confident",
        "that really made my day",
        "这个故事让我特别感动",
        "听你这么说我感觉好多了",
        "这让我信心大增",
        "我心里一下子踏实了",
    ],
    "own_plan": [
        "I could also ask a few senior colleagues for their advice, that would make me feel surer",
        "I think learning these basics will make editing my photos a lot easier",
        "maybe I can join a study group and learn from the others",
        "I might read a couple of books on the topic first",
        "I guess I'll start with the easier exercises and build up",
        "我也可以去请教一下身边有经验的朋友",
        "我觉得学会这些以后自己修图会顺手很多",
        "我打算先从简单的练习开始慢慢来",
        "我可以先找几本相关的书看看",
        "也许我可以报个班跟着老师系统地学",
    ],
}

_LIMITS: list[str] = [
    "I'm allergic to peanuts",
    "I can't eat anything with gluten",
    "I don't eat pork for religious reasons",
    "I'm lactose intolerant so dairy is out",
    "I'm vegan, no animal products at all",
    "I have a bad back so no heavy lifting for me",
    "I'm colour blind, so charts in red and green don't work for me",
    "I need large print, my eyesight is poor",
    "I'm on a low-salt diet",
    "shellfish makes me sick",
    "我对海鲜过敏",
    "我不吃牛肉",
    "我乳糖不耐受，牛奶不能喝",
    "我膝盖不好，不能做跳跃类的运动",
    "我是素食者，肉类都不吃",
    "我有高血压，饮食要少盐",
    "我眼睛不好，字要大一点",
    "我是色弱，红绿色的图我分不清",
]


def rows() -> list[dict[str, Any]]:
    """The lines as trainer rows (``text``, ``label``: 1 remark / 0 a limitation, ``group``)."""
    out = [{"text": t, "label": 1, "group": f"prec47-{g}"} for g, lines in _REMARKS.items() for t in lines]
    return out + [{"text": t, "label": 0, "group": "prec47-limit"} for t in _LIMITS]
