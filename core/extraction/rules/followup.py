"""Short replies to the assistant's question, restated as the user's own statement ("Favorite game?"
-> "Wingspan" becomes "My favorite game is Wingspan"; "所以以后都用中文？" -> "对"; a bare value after a
content question, "搬到哪里去了？" -> "昆明" becomes "我搬到昆明去了", ``bare_answer``). The fact is the
user's answer or confirmation; the question only supplies its frame."""

from __future__ import annotations

from core.extraction.candidates import ExtractionInput
from core.extraction.rules.segment import clean_content
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

_AFFIRM = re.compile(
    r"^(?:对|对的|对对|对啊|是的|是啊|是滴|没错|嗯对|嗯嗯对|就是|确实|正是|yes|yep|"
    r"yeah|yup|correct|exactly|right|"
    r"that'?s right|that'?s correct|true|indeed)(?:[,，!！。.~\s]|$)",
    re.IGNORECASE,
)
_FAV_Q_ZH = re.compile(r"(?:喜欢|爱)(?P<verb>看|听|吃|喝|玩|读|去)?的?(?:是)?(?:哪|什么|"
                       r"啥)(?:类|种|个|部|本|家|款|样的)?"
                       r"(?P<noun>[\u4e00-\u9fff]{0,4}?)[？?]")
_FAV_Q_EN = re.compile(r"\b(?:favou?rite|fave|fav)\s*(?P<x>[a-z]+(?: [a-z]+)?)?\s*\?|"
                       r"\bwhat (?:kind|type|sort) of (?P<y>[a-z]+)", re.IGNORECASE)
# "Where do you teach?" -> "albuquerque": the place is the user's answer, the question's verb its frame
_WHERE_Q_EN = re.compile(r"\bwhere (?P<aux>do|did|are) (?:you|u) (?P<v>(?:[a-z]+ ){0,2}[a-z]+)\s*\?",
                         re.IGNORECASE)
_WHERE_Q_ZH = re.compile(r"(?:^|你)(?:现在|目前|平时)?在哪(?:里|儿|个城市|座城市)?"
                         r"(?P<v>[\u4e00-\u9fff]{0,6}?)(?:呢|呀|啊)?[？?]")
_ENDS_WITH_PREP = re.compile(r"\b(?:to|from|at|in|into|near)$", re.IGNORECASE)
_PLACE_REPLY = re.compile(r"^[a-z][a-z .'-]{1,30}$|^[\u4e00-\u9fff]{2,8}$", re.IGNORECASE)
_YESNO_TAIL = re.compile(r"(?:对吗|是吗|对吧|是吧|吗|吧|呢|, right|, correct|, is that right|"
                         r"right)?\s*[？?]\s*$",
                         re.IGNORECASE)
_YESNO_HEAD = re.compile(r"^(?:所以|那|那么|也就是说|你是说|您是说|意思是|确认一下|so|"
                         r"you mean|just to confirm|to confirm|"
                         r"just checking)[,，:： ]*", re.IGNORECASE)
# speaker swap (assistant's words -> the user's): both directions at once
_SWAP = {
    "你们": "我们", "您": "我", "你": "我", "我们": "你们", "我": "你", "you're": "I'm", "you are": "I am",
    "your": "my", "you've": "I've", "you": "I", "i'm": "you're", "i am": "you are", "my": "your",
    "i've": "you've", "i": "you", "me": "you",
}
_SWAP_RX = re.compile(r"你们|我们|您|你|我|\b(?:you're|you are|your|you've|"
                      r"you|i'm|i am|my|i've|i|me)\b", re.IGNORECASE)


def _swap_speakers(text: str) -> str:
    return _SWAP_RX.sub(lambda m: _SWAP.get(m.group(0).lower(), m.group(0)), text)


def _last_assistant_question(data: ExtractionInput) -> str | None:
    for msg in reversed(data.context):
        if msg.role == "assistant":
            text = msg.content.strip()
            stop = max(text.rfind(c) for c in "。！!.")  # the last sentence of the reply
            tail = text[stop + 1:].lstrip() if stop >= 0 else text
            return tail if tail.endswith(("?", "？")) else None
        if msg.role == "user":
            return None
    return None


def followup_statement(data: ExtractionInput) -> tuple[str, float] | None:
    """A short reply that only makes sense with the assistant's question before it, restated as
    the user's own statement: "Favorite game?" -> "Wingspan" becomes "My favorite game is Wingspan";
    "所以以后都用中文回复你？" -> "对" becomes "所以以后都用中文回复我". The facts are the user's
    (their answer or confirmation); the question only supplies the frame."""
    reply = clean_content(data.user_message or "")
    question = _last_assistant_question(data)
    if not question or not reply or len(reply) > 40 or len(reply.split()) > 8:
        return None
    if _AFFIRM.match(reply):
        body = _YESNO_HEAD.sub("", _YESNO_TAIL.sub("", question)).strip()
        if not body or _FAV_Q_ZH.search(question) or _FAV_Q_EN.search(question):
            return None
        body = re.sub(r"^(?:should|shall|can|could|will|would|do|does|"
                      r"did|is|are|am)\s+", "", body, flags=re.I)
        return _swap_speakers(body), 0.8
    where = _where_answer(question, reply)
    if where is not None:
        return where, 0.8
    zh = _FAV_Q_ZH.search(question)
    if zh:
        verb, noun = zh.group("verb") or "", zh.group("noun") or ""
        return (f"我最喜欢{verb}的{noun}是{reply}" if noun else f"我最喜欢{verb}{reply}"), 0.8
    en = _FAV_Q_EN.search(question)
    if en:
        thing = en.group("x") or en.group("y") or ""
        return f"My favorite {thing} is {reply}".replace("  ", " "), 0.8
    return None


def _where_answer(question: str, reply: str) -> str | None:
    """A bare place answering "where do you …?" / "你在哪…？", restated as the user's statement."""
    if not _PLACE_REPLY.match(reply):
        return None
    en = _WHERE_Q_EN.search(question)
    if en:
        verb = en.group("v") if en.group("aux").lower() != "are" else "am " + en.group("v")
        # "where did you move to?" -> "I move to Denver", not "I move to in Denver"
        prep = "" if _ENDS_WITH_PREP.search(verb) else "in "
        return f"I {verb} {prep}{reply}"
    zh = _WHERE_Q_ZH.search(question)
    if zh:
        return f"我在{reply}{zh.group('v') or '生活'}"
    return None


def first_sentence_answer(data: ExtractionInput) -> tuple[str, float] | None:
    """The first sentence of a longer reply when it alone answers the assistant's "where" question
    ("Where do you teach?" -> "albuquerque. also i brew my own beer…"), restated like a short reply."""
    message = (data.user_message or "").strip()
    cut = _FIRST_STOP.search(message)
    if cut is None:
        return None
    head = clean_content(message[:cut.start()])
    question = _last_assistant_question(data)
    if not head or not question:
        return None
    where = _where_answer(question, head)
    return (where, 0.8) if where is not None else None


_FIRST_STOP = re.compile(r"[.。!！;；\n]|\s-\s|[,，]")


# A bare answer to the assistant's content question ("And what's the new job?" -> "night porter at a
# hotel"; "搬到哪里去了？" -> "昆明"): the reply is the value, the question's frame its slot. The question is
# restated as the user's statement with the answer in the place of the question word, and the rules and the
# classifier read that statement as they read any other (a slot detector, the time filter, the horizon model):
# "搬到哪里去了？" + "昆明" -> "我搬到昆明去了", "what's the new job?" + "welder" -> "my new job is welder",
# "你今天去哪儿了？" + "公园" -> "我今天去公园了" (a thing of the day, dropped like the statement would be).
# Only grammar words: the question words of each language and English auxiliaries, never a topic.
BARE_WORDS = 8  # a reply longer than this says more than an answer
BARE_CJK = 16
_WH_ZH = re.compile(r"哪个城市|哪座城市|哪个地方|什么地方|哪里|哪儿|哪|什么样的|什么|啥|多少|几")
_ZH_TAIL = re.compile(r"(?:呢|呀|啊|哇|嘛|吗)*[？?]\s*$")
_WH_EN = re.compile(
    r"^(?:(?:and|so|oh|ok|okay|well|then|cool|nice|wow)[,!]?\s+)*"
    r"(?P<wh>what|which|who|how (?:old|long|many|much))(?P<noun>(?: (?:kind|sort|type) of)?(?: [a-z]+)?)??"
    r"(?:'s| (?P<aux>do|does|did|are|is|was|were|have|has)) (?P<rest>[a-z' ]+?)\s*\?$", re.IGNORECASE)
_BE = {"are": "am", "were": "was"}
_PARTICIPLE = re.compile(r"(?:ed|called)$")
# a Chinese reply with a predicate of its own ("在一家公司做运营") is a statement, not a bare value
_ZH_PREDICATE = re.compile(r"[在做是去有了过着要想]")
# ... and an English reply that opens with a verb's -ing form ("running a small bakery") has one too
_EN_PREDICATE = re.compile(r"^[a-z]{2,}ing\s+[a-z]", re.IGNORECASE)
_NOT_BARE = re.compile(r"^(?:no|nope|nah|not really|idk|dunno|no idea|not sure|none|nothing|"
                       r"不知道|没有|不是|没|随便|都行|都可以)\b|[？?]$|"
                       # a choice among what the assistant offered ("the second one", "前者"): no value
                       r"\b(?:one|ones|option|former|latter)$|^(?:the )?(?:first|second|third|last|other)\b|"
                       r"^(?:第.个?|前者|后者|这个|那个|这种|那种)", re.IGNORECASE)


def bare_answer(data: ExtractionInput) -> str | None:
    """The user's bare reply restated with the assistant's content question as its frame (see above), or
    None: the reply is long, has its own subject or addressee, a question, a yes/no or a shrug, or the
    question is not a content question of a form restated here."""
    reply = clean_content(data.user_message or "")
    question = _last_assistant_question(data)
    if not question or not reply or _AFFIRM.match(reply) or _NOT_BARE.search(reply):
        return None
    if re.search(r"[.。!！;；\n]", reply.rstrip(".。!！")):
        return None  # several sentences: more than an answer
    if len(reply.split()) > BARE_WORDS or len(re.findall(r"[\u3400-\u9fff]", reply)) > BARE_CJK:
        return None
    if re.search(r"我|你|您|\b(?:i|i'm|im|i've|me|my|we|our|you|your|u|ur)\b", reply, flags=re.I) \
            or _EN_PREDICATE.search(reply):
        return None
    pieces = [p.strip() for p in re.split(r"[？?]", question) if p.strip()]
    if not pieces:
        return None
    tail = pieces[-1] + "?"  # "哦？搬到哪里去了？": the last question
    if re.search(r"[\u3400-\u9fff]", tail):
        if _ZH_PREDICATE.search(reply):
            return None
        body = _ZH_TAIL.sub("", tail)
        if not _WH_ZH.search(body):
            return None
        body = _swap_speakers(body)
        body = body if "我" in body else "我" + body
        return _WH_ZH.sub(lambda _m: reply, body, count=1)
    m = _WH_EN.search(tail)
    if m is None:
        return None
    aux = (m.group("aux") or "is").lower()
    rest = _swap_speakers(m.group("rest").strip())
    if re.match(r"^the\b", rest, flags=re.I):
        rest = "my" + rest[3:]  # "what's the new job?" asks the user's
    if aux in ("do", "does", "did"):
        words = rest.split(" ", 2)  # subject, verb, the rest: "I do now" -> "I do <answer> now"
        if len(words) < 2:
            return None
        if _ENDS_WITH_PREP.search(rest) or rest.endswith(" about"):
            return f"{rest} {reply}"  # "what do you want to talk about?" -> "I want to talk about …"
        return " ".join([words[0], words[1], reply, *words[2:]])
    words = rest.split(" ")
    if words[0].lower() == "i":  # "how old are you?" -> "I am 41"
        if len(words) > 2 and words[1].endswith("ing"):  # "what are you reading now?" -> "I am reading X now"
            return " ".join(["I", _BE.get(aux, aux), words[1], reply, *words[2:]])
        return " ".join(["I", _BE.get(aux, aux), *words[1:], reply])
    if len(words) > 2 and _PARTICIPLE.search(words[-1]):  # "what's your dog called?" -> "my dog is called …"
        return " ".join([*words[:-1], aux, words[-1], reply])
    return f"{rest} {aux} {reply}"
