"""Written clauses for the keep-clause head (``core.extraction.retraction_keep``; issue 24, session 32, helper
edge51).

A partial retraction says what goes and what may stay, often in one message: "don't hold on to the X thing,
the Y part is ok", "X那段别存，Y无所谓". The resolver (``core.extraction.rules.retraction``) reads the
clause that may stay by a word list (``_KEEP``: "just", "keep", "is fine", "可以记", "留着"); the list
misses the stay clauses told in other words ("Y is ok", "Y无所谓", "Y没关系", "don't mind Y") and fires on
the withdrawals that carry its words ("can u not keep X", "no need to keep X", "别留着X").

Label 1: a clause that lets something stay (the user does not mind it being remembered). Label 0: a clause
that withdraws something (with or without the list's words), a reason told beside a withdrawal ("bit too
private tbh", "感觉不太安全") and whose it was ("he's the runner, not me", "是我表哥在学法语"). Each row is
a frame filled with a topic, or a written reason; ``group`` names the frame, so the trainer's split holds
whole frames out (the split every logistic-head trainer here shares). Topics are chosen apart
from the dev sets' retractions; no row is copied from a case file
(``tests/training/test_retraction_keep_rows_edge51.py``). Deterministic.
"""

from __future__ import annotations

from typing import Any

TOPICS_EN = ["the divorce", "my therapist", "the loan", "my landlord", "the rehab stint", "my salary",
             "the knee surgery", "my ex", "the court date", "my insulin", "the layoff", "my street name",
             "the fertility stuff", "my debt", "the panic attacks", "my zip code"]
STAY_EN = ["the cooking", "the running", "my job", "the cat", "the gardening", "the chess club", "my band",
           "the teaching", "the climbing", "my kids' names", "the vegetarian thing", "the spanish classes",
           "the woodworking", "my shift hours", "the hiking", "the dog"]
TOPICS_ZH = ["离婚", "贷款", "房租", "病历", "工资", "住址", "吃药", "前任", "欠债", "手术", "体检结果",
             "门牌号", "失业", "心理咨询", "打官司", "血糖"]
STAY_ZH = ["做饭", "跑步", "上学", "养猫", "种花", "下棋", "乐队", "教书", "爬山", "孩子", "吃素", "学日语",
           "木工", "上班时间", "徒步", "养狗"]

# label 1: a clause that lets something stay
STAY_FRAMES_EN = {
    "ok": "{s} part is ok",
    "okay_to_keep": "{s} is okay to keep",
    "dont_mind": "i don't mind you knowing about {s}",
    "no_problem": "{s}, no problem there",
    "cool": "{s} bit is cool tho",
    "whatever": "{s} whatever, that's not a secret",
    "go_ahead": "go ahead and hang on to {s}",
    "all_good": "{s} is all good",
    "can_stay": "{s} can stay in there",
    "leave_in": "leave {s} in, that's harmless",
    "sure_remember": "sure, remember {s}",
    "not_secret": "{s} isn't a big deal, keep that one",
}
STAY_FRAMES_ZH = {
    "wusuowei": "{s}那个无所谓",
    "meiguanxi": "{s}的没关系",
    "keyi": "{s}那块可以",
    "jizhe": "{s}记着也行",
    "buyaojin": "{s}的不要紧",
    "suibian": "{s}随便你记",
    "bujieyi": "{s}我不介意",
    "meishi": "{s}存着没事",
    "mixed_ok": "{s}那个 ok 的",
    "liuzhe": "{s}你留着吧",
    "meishier": "{s}的没啥",
    "keyicun": "{s}那部分存着可以",
}
# label 0: a clause that withdraws something, many with the word list's own words
GO_FRAMES_EN = {
    "not_keep_q": "can you not keep {t}",
    "rather_not": "i'd rather you not keep {t}",
    "no_need": "no need to keep {t}",
    "dont_hold": "don't hold on to {t}",
    "stop_keeping": "stop keeping {t} around",
    "pls_dont_save": "pls don't save {t}",
    "just_drop": "just drop {t}",
    "only_lose": "only lose {t} bit",
    "not_ok": "{t} part is not ok to keep",
    "toss": "toss {t} from your notes",
    "pretend": "pretend i never said anything about {t}",
    "off_record": "{t} is off the record",
    "can_go": "{t} bit can go",
    "can_be_dropped": "{t} can be dropped from your notes",
}
GO_FRAMES_ZH = {
    "bieliu": "别留着{t}那段",
    "buyongbaoliu": "不用保留{t}的事",
    "biecun": "{t}那个别存",
    "shanle": "{t}的删了吧",
    "dangmeishuo": "{t}就当我没说",
    "buyaoji": "{t}不要记",
    "mixed_dont": "{t}那个 don't save 哈",
    "buxiang": "{t}我不想被你记着",
    "nadiao": "把{t}拿掉",
    "suanle": "{t}的算了别记",
}
# label 0: a reason told beside a withdrawal (names nothing to keep)
REASONS = {
    "reason_en": ["bit too private tbh", "not comfy with that", "my partner reads this sometimes",
                  "feels weird", "too personal", "i overshared", "that's nobody's business",
                  "just paranoid i guess"],
    "reason_zh": ["感觉不太安全", "太隐私了", "我妈会看到", "有点别扭", "说多了", "不想留底", "怕泄露",
                  "心里不踏实"],
    # why it is withdrawn: it was someone else's, or it was wrong (a statement, never a stay clause)
    "whose_en": ["he's the runner, not me", "she's the one with the bakery", "that was my roommate's thing",
                 "my twin is the pilot", "got it mixed up with my cousin", "it's my dad who fishes",
                 "my sister does the triathlons", "he's the guitarist in the family", "that's my boss's car",
                 "my neighbour is the beekeeper", "confused myself with my flatmate", "she's the vegan one"],
    "whose_zh": ["是我表哥在学法语", "那是我同事的事", "我说成自己了，其实是我妹", "跑马拉松的是我老公",
                 "我搞混了，是我室友", "养蜂的是我舅舅", "开店的是我闺蜜", "我记错了，那是我爸的"],
}


def rows() -> list[dict[str, Any]]:
    """Every row: ``text``, ``label`` (1: lets something stay), ``group`` (the frame's name)."""
    out: list[dict[str, Any]] = []
    families = ((STAY_FRAMES_EN, STAY_EN, 1, "stay_en"), (STAY_FRAMES_ZH, STAY_ZH, 1, "stay_zh"),
                (GO_FRAMES_EN, TOPICS_EN, 0, "go_en"), (GO_FRAMES_ZH, TOPICS_ZH, 0, "go_zh"))
    for frames, fillers, label, family in families:
        for i, (name, frame) in enumerate(frames.items()):
            out += [{"text": frame.format(s=f, t=f), "label": label, "group": f"{family}_{name}"}
                    for f in fillers[i % 3::3]]
    for name, texts in REASONS.items():
        out += [{"text": t, "label": 0, "group": f"{name}_{i % 4}"} for i, t in enumerate(texts)]
    return out
