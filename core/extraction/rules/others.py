"""What the user says that is not about the user (issue 24, hallucination cases), read piece by piece
by ``core.extraction.rules.precision`` on every candidate, whatever rule or rescue proposed it:

- *someone else's fact*: a statement whose subject is a person outside the user's household (a
  friend, flatmate, colleague, boss, neighbour, sibling, parent, cousin...) and that never speaks of the
  user after it ("my buddy just got hired as a sous chef", "我姐对花生过敏", "我表哥在大厂做运维") is
  theirs; a household member's (spouse or partner, child) stays a fact about the user's family, as
  before; "my coworker got me into climbing" speaks of the user and stays;
- *a wish for someone else* ("really hoping my brother gets into med school", "希望我闺女以后能当医生")
  is nobody's goal;
- *a plan considered and rejected* ("was thinking about getting a motorbike but nah",
  "本来想报个班，想了想还是算了") is no goal: it names what the user will *not* do;
- *a denied identity* ("no, I'm not vegan", "你搞错了，我不是老师") is cut out of the piece, and with it
  the correction's preface; the rest ("I just can't stand mushrooms", "我在幼儿园当保育员") stays;
- *someone else's view of the user* ("people always assume i'm a teacher", "my dad keeps saying i should
  become an electrician", "大家都以为我是北方人") is cut out of the piece like a denied identity;
- *a mocking self-claim* ("sure, and I'm also a billionaire astronaut 🙄") is no fact: a sentence with a
  sarcasm marker whose text before the claim agrees mockingly ("sure", "yeah right", "当然").

Pure functions on normalised text (``segment.normalise``: lower case, NFKC).
"""

from __future__ import annotations

from core.extraction.rules import lexicon
from core.extraction.rules.segment import has_cjk, normalise
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

_HOUSEHOLD_EN = frozenset({
    "wife", "husband", "spouse", "son", "sons", "daughter", "daughters", "kid", "kids", "child", "children",
    "baby", "toddler", "twins", "stepson", "stepdaughter", "newborn", "boyfriend", "girlfriend", "fiance",
    "fiancé", "fiancee", "fiancée", "partner",
})
_HOUSEHOLD_ZH = frozenset({
    "女儿", "儿子", "孩子", "小孩", "娃", "宝宝", "闺女", "老婆", "老公", "妻子", "丈夫", "爱人",
    "媳妇", "双胞胎", "大宝", "二宝", "对象", "男朋友", "女朋友", "男友", "女友", "未婚夫", "未婚妻",
    "另一半", "npy",
})
# the household, whose members' facts and tastes are facts about the user's family (``holders``)
HOUSEHOLD_EN = _HOUSEHOLD_EN
HOUSEHOLD_ZH = _HOUSEHOLD_ZH
_OUT_KIN_EN = sorted({w.lower() for w in lexicon.FAMILY_EN} - _HOUSEHOLD_EN | {
    "cousin", "cousins", "uncle", "aunt", "auntie", "niece", "nephew", "brother-in-law", "sister-in-law",
    "mother-in-law", "father-in-law", "gran", "granny", "grandparents", "stepmom", "stepdad", "stepbrother",
    "stepsister"}, key=len, reverse=True)
_OUT_KIN_ZH = sorted(set(lexicon.FAMILY_ZH) - _HOUSEHOLD_ZH | {
    "表哥", "表姐", "表弟", "表妹", "堂哥", "堂姐", "堂弟", "堂妹", "舅舅", "叔叔", "阿姨", "姑姑",
    "舅妈", "婶婶", "姨妈", "小姨", "大姨", "姐夫", "嫂子", "妹夫", "弟媳"}, key=len, reverse=True)
_ACQ_EN = ("friend", "friends", "buddy", "mate", "pal", "bff", "colleague", "coworker", "co-worker", "boss",
           "manager", "roommate", "flatmate", "housemate", "neighbour", "neighbor", "classmate", "client",
           "teammate", "landlord", "ex")
_ACQ_ZH = ("好朋友", "朋友", "同事", "老板", "领导", "同学", "室友", "舍友", "邻居", "哥们", "闺蜜", "客户",
           "发小", "前任", "房东")
_LEAD_EN = (r"^(?:(?:ya|yeah|yea|so|and|but|lol|lmao|ok|okay|well|also|btw|fyi|honestly|tbh|oh|haha|ugh)"
            r"[,!. ]+)*")
_OUTSIDER_WORDS_EN = "|".join(re.escape(w) for w in (*_OUT_KIN_EN, *_ACQ_EN))
# the person named by who they are to the user ("my flatmate"), or as one of several ("a friend of mine",
# "one of my coworkers", "this guy at work" is no kin word and stays the rescue's to judge)
_OUTSIDER_EN = re.compile(
    _LEAD_EN + r"(?:(?:my|our) (?:(?:little|big|older|younger|best|close|old|good|twin|older) )?(?:"
    + _OUTSIDER_WORDS_EN + r")s?(?:'s|'re)?\b|"
    r"(?:a|an|some|this|one of my|one of our) (?:(?:close|old|good|best) )?(?:" + _OUTSIDER_WORDS_EN
    + r")s?(?: of (?:mine|ours))?(?:'s|'re)?\b)")
_OUTSIDER_ZH = re.compile(r"^(?:(?:我|我的|我家|我们家)(?:的)?(?:有)?(?:一个|一位|个|几个)?|有(?:一)?个|有位)"
                          r"(?:的)?(?:大|小|二|亲)?(?:"
                          + "|".join(re.escape(w) for w in (*_OUT_KIN_ZH, *_ACQ_ZH)) + r")")
# the user speaks of themselves after the subject ("... got me into climbing", "我妈让我...", "... and i")
_USER_AFTER = re.compile(r"我|\b(?:i|i'm|im|i've|i'd|i'll|me|my|mine|myself)\b")
_ALL_KIN_EN = "|".join(re.escape(w.lower()) for w in (*lexicon.FAMILY_EN, *lexicon.PARTNER_EN, *_OUT_KIN_EN,
                                                      *_ACQ_EN))
_ALL_KIN_ZH = "|".join(re.escape(w) for w in (*lexicon.FAMILY_ZH, *lexicon.PARTNER_ZH, *_OUT_KIN_ZH,
                                                *_ACQ_ZH))
_WISH_FOR_OTHER = re.compile(
    r"\b(?:hope|hoping|hopes|wish|wishing|praying|fingers crossed)(?: that| so much that| really)? "
    r"(?:my|our) (?:(?:little|big|older|younger|best|close|old|good) )?(?:" + _ALL_KIN_EN + r")s?\b|"
    r"(?:希望|但愿|盼着|祝愿?|指望)(?:我的?|我家|我们家)?(?:的)?(?:大|小|二)?(?:" + _ALL_KIN_ZH + r")")
_CONSIDERED_EN = re.compile(
    r"\b(?:was|were|i'd been|been) (?:seriously |really |kinda |kind of |half )?(?:thinking (?:about|of)|"
    r"going to|gonna|planning (?:on|to)|considering|tempted to|about to)\b|"
    r"\b(?:thought|toyed with the idea) about\b|"
    r"\bconsidered\b")
_REJECTED_EN = re.compile(r"\b(?:nah|nope|decided (?:against|not)|not doing it|not gonna (?:happen|do it)|"
                          r"changed my mind|talked myself out of|scrapped (?:it|that|the idea)|"
                          r"not worth it|not happening|never did|ended up not|"
                          r"didn'?t (?:end up|go through with))\b")
_CONSIDERED_ZH = re.compile(r"(?:本来|原本|本打算|之前|一度|曾经|还)(?:想|打算|准备|计划|考虑)|"
                            r"想过|考虑过|纠结过")
_REJECTED_ZH = re.compile(r"(?:还是)?算了|作罢|打消|不(?:打算|准备|考虑|想)(?:\S{0,6})?了|"
                          r"放弃了(?:这个)?(?:念头|想法|打算)|(?:就|也|最后|最终|后来|所以|终究)没(?:有)?\S{0,2}(?:了|成)?$")
_NEW_VALUE = re.compile(r"\b(?:instead|switch(?:ed|ing)?|now i'?m|going with|went with|sticking with)\b|"
                        r"改成|换成|改为|改学|改报|现在(?:改|换|在)|转而|还是(?:继续|选|用|去)")
# a denied identity ("no no i'm not vegan at all", "我不是老师啦") and a correction's preface
_DENIED_EN = re.compile(r"^(?:(?:no|nope|nah|lol|uh|um|well|actually|wait)[,!. ]+)*i(?:'m| am|m) not "
                        r"(?:actually |really |even |some )?(?:an? )?([a-z-]+)(?: [a-z-]+)?"
                        r"(?: at all| lol| haha| tho| though)?[.!?]*$")
_NOT_IDENTITY_EN = frozenset({
    "fan", "big", "huge", "into", "sure", "allowed", "able", "good", "great", "keen", "allergic",
    "much", "very", "too", "that", "so", "going", "gonna", "trying", "a", "really", "the", "feeling",
    "in", "on", "at",
    "used", "working", "doing",
})
_DENIED_ZH = re.compile(r"^(?:哈哈+|嗯|额|呃)?(?:其实|不是的?|不对)?我(?:又|并|其实|才|根本|可)?"
                        r"不是(?:一个|个|什么)?"
                        r"(.{1,10}?)"
                        r"(?:啦|啊|哦|呢|哈|呀|嘛)?[。！!?？]*$")
_NOT_IDENTITY_ZH = ("很", "太", "特别", "那么", "不", "说", "因为", "故意", "每", "一直", "非常", "真", "想")
_CORRECTION = re.compile(r"^(?:你(?:搞|弄|记|说|想)错了|不对|不是的|你误会了|"
                         r"(?:no|nope)?[, ]*you(?:'ve| have)? got (?:it|that|me) wrong|"
                         r"that'?s (?:not right|wrong)|"
                         r"you'?re wrong)[,!. 。！啦呀]*$")
# the user disowns a statement put in their mouth ("i never said i like overtime", "who said i'm into golf",
# "我可没说我喜欢加班", "谁说我爱吃辣了"): a negated verb of saying with the user as the one who said, then
# what
# was (not) said; the statement after it is not the user's
_DISOWNED = re.compile(r"^(?:(?:no|nope|nah|um|uh|well|wait|lol|haha|hey)[, ]+)*"
                       r"(?:i (?:never|didn'?t|did not|don'?t (?:remember|recall) (?:ever )?)\s*"
                       r"(?:say|said|saying|tell|told|mention|mentioned)|"
                       r"who (?:said|says|told you))\b|"
                       r"^(?:我(?:可|又|也|从来|从|根本|压根|并)?(?:没|没有|不曾)|谁)(?:说|讲|提)(?:过|到)?我")
_NO_LONGER = re.compile(r"\b(?:anymore|any more|no longer)\b|了[。！!]*$")
_FILLER = re.compile(r"^(?:(?:no|nope|nah|lol|uh|um|well|actually|wait|haha|oh|but|不不|不是|哈哈)[.!, ]*)+$")
# someone else's view of the user, not the user's own statement ("people always assume i'm a teacher",
# "my dad keeps saying i should become an electrician", "别人都以为我是老师", "我妈总说我太瘦")
_REPORTED = re.compile(
    r"^(?:(?:and|but|so|lol|honestly|like|ugh)[, ]+)*(?:people|everyone|everybody|folks|others|some people|"
    r"(?:my|our) (?:(?:little|big|older|younger|best|old) )?(?:" + _ALL_KIN_EN + r")s?|she|he|they)"
    r"(?: (?:always|often|usually|still|all|keep|keeps|kept|kinda|sometimes|just|constantly))* "
    r"(?:assume[sd]?|think|thinks|thought|say|says|said|saying|tell me|tells me|told me|telling me|"
    r"want me to|wants me to|wanted me to|expect me to|expects me to|"
    r"keep(?:s)? (?:pushing|nagging|bugging) me)\b|"
    r"^(?:别人|大家|人家|身边的人|[他她](?:们)?|(?:我的?)?(?:" + _ALL_KIN_ZH + r"))(?:们)?"
    r"(?:都|总|老|一直|总是|老是|经常|还|也)*"
    r"(?:以为|觉得|认为|说|劝|想让|非要|希望|逼)我")
_SUBCLAUSE = re.compile(r"[,，;；]")
_CJK_PAUSE = re.compile(r"([\u4e00-\u9fff]) ([\u4e00-\u9fff])")  # a space between Chinese characters
_MOCK_AGREE = re.compile(r"\b(?:sure|yeah right|ya right|of course|totally|right)\b|"
                         r"当然|对对对|是是是|没错没错")


def _outsider_only(sub: str) -> bool:
    """``sub`` (normalised) has a person outside the household as its subject and never speaks of the
    user."""
    for subject in (_OUTSIDER_EN, _OUTSIDER_ZH):
        m = subject.search(sub)
        if m and "朋友圈" not in sub[m.start():m.end() + 1] and not _USER_AFTER.search(sub[m.end():]):
            return True
    return False


def someone_elses(piece: str) -> bool:
    """``piece`` (normalised) is a wish for someone else or a plan the user considered and rejected
    (see the module doc)."""
    if _WISH_FOR_OTHER.search(piece):
        return True
    if _NEW_VALUE.search(piece):
        return False
    return bool((_CONSIDERED_EN.search(piece) and _REJECTED_EN.search(piece))
                or (_CONSIDERED_ZH.search(piece) and _REJECTED_ZH.search(piece)))


def without_others(piece: str) -> str:
    """``piece`` (as stored) without what is someone else's: when its first sub-clause has a person
    outside the household as subject and does not speak of the user, that sub-clause and those after it
    up to the first that speaks of the user ("my flatmate's the one who's gluten free, i'll eat anything":
    "i'll eat anything"); ``""`` when none does; ``piece`` itself otherwise."""
    subs = [sub for sub in _SUBCLAUSE.split(piece) if sub.strip()]
    if not subs or not _outsider_only(normalise(subs[0])):
        return piece
    rest = subs[1:]
    while rest and not _USER_AFTER.search(normalise(rest[0])):
        rest = rest[1:]
    return ("，" if has_cjk(piece) else ", ").join(sub.strip() for sub in rest)


def _denied(sub: str) -> bool:
    s = sub.strip()
    if _CORRECTION.search(s) or _REPORTED.search(s) or _DISOWNED.search(s):
        return True
    if _NO_LONGER.search(s):
        return False  # "i'm not a student anymore", "我不是学生了": a change, the update judge's to read
    m = _DENIED_EN.search(s)
    if m and m.group(1) not in _NOT_IDENTITY_EN:
        return True
    m = _DENIED_ZH.search(s)
    return bool(m and not m.group(1).startswith(_NOT_IDENTITY_ZH))


def without_denials(piece: str) -> str:
    """``piece`` (as stored) without its sub-clauses that deny an identity or correct the assistant;
    ``""`` when nothing else is left; ``piece`` itself when none does."""
    subs = _SUBCLAUSE.split(_CJK_PAUSE.sub("\\1，\\2", piece))  # "我不是医生 我是开网约车的": two
    kept = [sub.strip() for sub in subs if sub.strip() and not _denied(normalise(sub))]
    if len(kept) == len([sub for sub in subs if sub.strip()]):
        return piece
    kept = [sub for sub in kept if not _FILLER.search(normalise(sub))]  # "no no, i'm not vegan, ...": "no no"
    return ("，" if has_cjk(piece) else ", ").join(kept)


# a claim the user takes back as a joke right after it ("i'm a professional couch potato lmao. jk i'm a
# line cook", "我是亿万富翁 开玩笑的"): what precedes the marker is no memory, nor is the marker part of
# what follows
_JOKE_MARK = re.compile(r"^[\s,.!。，！~]*(?:(?:lol|lmao|haha+|哈哈+)[\s,.!。，！~]*)*"
                        r"(?:(?:jk|j/k|just kidding|just joking|kidding)\b|"
                        r"开玩笑(?:的|啦|呢)?|开个玩笑|逗你(?:的|玩的?)?)")


def taken_back(piece: str, message: str) -> bool:
    """``piece`` (as stored) is followed in ``message`` by a marker that takes it back as a joke."""
    probe = piece.strip()[-24:]
    at = message.find(probe) if probe else -1
    return at >= 0 and bool(_JOKE_MARK.search(message[at + len(probe):]))


def without_joke_mark(piece: str) -> str:
    """``piece`` without a leading joke marker ("jk i'm a line cook at a diner" -> "i'm a line cook …")."""
    m = _JOKE_MARK.search(piece)
    return piece[m.end():].strip() if m and m.end() < len(piece) else piece


def mocking(before: str) -> bool:
    """The sentence text before a claim agrees mockingly (with a sarcasm marker in the sentence)."""
    return bool(_MOCK_AGREE.search(before))


def outsider_statement(text: str) -> bool:
    """``text`` opens with a person outside the household as its subject and never speaks of the user
    (the corpus builder's relabelling uses the same line as the rules)."""
    first = _SUBCLAUSE.split(text, maxsplit=1)[0]
    return _outsider_only(normalise(first)) and not _USER_AFTER.search(normalise(text)[len(first):])
