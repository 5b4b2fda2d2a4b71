"""Run-on chat (issue 24): where a long stretch typed with no punctuation at all starts a new statement.

"hi im kwame i'm a civil servant in accra i play the saxophone at church on sundays and i cant eat pork",
"我家有只边牧超级聪明我喜欢周末去爬岳麓山": several statements, each about another thing, with nothing
between them. ``runon_breaks`` gives the positions (in the message) where ``segment.split_clauses`` cuts
such a stretch, so each statement is read, typed and stored on its own.

Only a *long* stretch is cut (``MIN_WORDS_EN`` words / ``MIN_CJK`` Chinese characters between two marks of
punctuation): a short one is one statement ("i love the book i read"). A cut comes before a first-person
subject that starts a statement: "i", "i'm", "im", "we" (English), "my"/"our" only when a verb follows
within three words ("my wife does dental hygiene", "my only hobby rn is …"; never "i love my dog"), "我"
or a relative ("老婆", "儿子", … in Chinese); never after a word that takes a clause or an object
("i think i …", "the one that i …", "to my …", "跟我…", "让我…"), nor after a determiner and its noun
("the book i read"), nor in the main clause of a condition ("if i ever moved there i'd …",
"要是…我就…"). Connectors before the subject ("and", "honestly", "oh", "对了") go with the new
statement. Each piece keeps at least ``MIN_PIECE_EN`` words / ``MIN_PIECE_CJK`` characters.
Pure functions, linear time.
"""

from __future__ import annotations

import itertools

from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

MIN_WORDS_EN = 20
MIN_PIECE_EN = 3
MIN_CJK = 16
MIN_PIECE_CJK = 5

# punctuation, emoji and newlines end a stretch (a stretch with its own punctuation is not run-on)
_STRETCH = re.compile(r"[^,，.。!！?？;；:：、\n…~～\-—()（）\[\]\"“”\U0001f000-\U0001faff\u2600-\u27bf]+")
_WORD = re.compile(r"[A-Za-z0-9']+")
_SUBJECT_EN = {"i", "i'm", "im", "i've", "ive", "i'd", "we", "we're", "we've"}
_POSSESSIVE_EN = {"my", "our"}
# a verb within three words after "my"/"our" makes it a subject ("my son plays …")
VERB_EN = {"is", "are", "was", "were", "has", "have", "had", "does", "do", "did", "works", "worked", "lives",
            "lived", "loves", "likes", "hates", "plays", "teaches", "runs", "got", "gets", "says", "said",
            "makes", "keeps", "thinks", "wants", "needs", "can", "can't", "cant", "will", "won't", "just",
            "also", "still", "always", "never", "rn"}
# words after which a first-person word is not a new statement (it is an object, or its clause is)
_NO_BREAK_AFTER_EN = {
    "that", "which", "who", "whom", "what", "when", "where", "why", "how", "if", "because", "bc", "cause",
    "cuz", "coz", "since", "as", "than", "until", "till", "before", "after", "while", "whenever", "wherever",
    "unless", "though", "although", "whether", "think", "thought", "know", "knew", "guess", "hope", "wish",
    "feel", "felt", "say", "said", "mean", "believe", "suppose", "swear", "bet", "like", "realized",
    "realised", "noticed", "decided", "sure", "glad", "afraid", "so", "or", "nor", "the", "a", "an",
    "ensure", "make", "makes", "made", "let", "lets", "help", "helps", "see", "saw", "find", "found",
    "remember", "forget", "heard", "hear", "told", "tell", "show", "showed", "means", "worried", "seems",
    "to", "for", "with", "of", "at", "in", "on", "from", "about", "by", "into", "over", "under", "near",
    "all", "everything", "something", "anything", "thing", "things", "way", "time", "one", "day", "place",
}
_DETERMINERS_EN = {"the", "a", "an", "this", "that", "these", "those", "every", "any", "some", "my", "your",
                   "his", "her", "our", "their", "no", "each", "which", "what"}
_PREPOSITIONS_EN = {"in", "at", "on", "for", "from", "with", "near", "outside", "by", "of", "to", "as"}
_COPULAS_EN = {"i'm", "im", "am", "was", "i've", "ive", "been", "be", "are"}
# a piece that opens a condition or a reason: the subject after it starts its main clause, not a new statement
_SUBORDINATORS_EN = {"if", "when", "whenever", "because", "bc", "cause", "cuz", "since", "although", "though",
                     "unless", "once", "while", "before", "after", "until", "till", "whether"}
_SUBORDINATORS_ZH = re.compile(r"如果|要是|假如|假设|万一|虽然|因为|只要|除非|等到|的话")
# connectors that start the new statement with its subject ("… twins who are 6 | and honestly my only …")
_CONNECTORS_EN = {"and", "but", "also", "plus", "honestly", "oh", "btw", "anyway", "anyways", "tbh", "ngl",
                  "actually", "then", "now", "ok", "okay", "lol", "haha"}
# characters after which 我 is an object or inside a phrase ("让我", "跟我说", "觉得我", "我的")
_NO_BREAK_BEFORE_WO = set("让叫给跟和与被把对帮说得觉想像的是等在向替为比要请教问诉陪带找令使由将连同及或")
_CONNECTORS_ZH = ("对了", "还有", "而且", "然后", "另外", "其实", "不过", "但是", "可是", "所以", "反正")
_CJK = re.compile(r"[\u3400-\u9fff]")
# a relative as the subject of the next statement ("…教书快十年了老婆是护士")
_KIN_ZH = ("老婆", "老公", "媳妇", "女朋友", "男朋友", "儿子", "女儿", "爸妈", "爸爸", "妈妈", "孩子")


def runon_breaks(message: str) -> set[int]:
    """Positions in ``message`` where a run-on stretch starts a new statement (see the module doc): for
    English the index of the space before the new statement, for Chinese the index of its first
    character."""
    out: set[int] = set()
    for m in _STRETCH.finditer(message):
        start, text = m.start(), m.group(0)
        if len(_CJK.findall(text)) >= MIN_CJK:
            out.update(start + i for i in _breaks_zh(text))
        elif len(_WORD.findall(text)) >= MIN_WORDS_EN and text.isascii():
            out.update(start + i for i in _breaks_en(text))
    return out


def _breaks_en(text: str) -> list[int]:
    words = [(w.start(), w.group(0).lower()) for w in _WORD.finditer(text)]
    cuts: list[int] = []  # word positions where a new statement starts
    for j in range(1, len(words)):
        word = words[j][1]
        if word in _POSSESSIVE_EN:
            if not any(w in VERB_EN for _, w in words[j + 2:j + 4]):
                continue
        elif word not in _SUBJECT_EN:
            continue
        k = j
        while k > 0 and words[k - 1][1] in _CONNECTORS_EN:
            k -= 1  # "and honestly my …": the connectors open the new statement
        if k == 0 or words[k - 1][1] in _NO_BREAK_AFTER_EN:
            continue
        if k < j and words[k][1] == "and" and word not in _POSSESSIVE_EN \
                and any(w in _POSSESSIVE_EN for _, w in words[max(0, k - 3):k]):
            continue  # "my wife and i …", "a project in my company and I need …": one subject, or one clause
        if k == j and word not in _POSSESSIVE_EN and _relative(words, k):
            continue  # "the long summer holidays i spent …": a relative clause of the noun before it
        cuts.append(k)
    subordinators = list(itertools.accumulate((w in _SUBORDINATORS_EN for _, w in words), initial=0))
    kept: list[int] = []
    last = 0
    for n, k in enumerate(cuts):
        nxt = cuts[n + 1] if n + 1 < len(cuts) else len(words)
        if subordinators[k] > subordinators[last]:
            continue  # "if i ever moved to tallinn i'd have to …": the main clause of a condition
        if k - last >= MIN_PIECE_EN and nxt - k >= MIN_PIECE_EN and (not kept or k > kept[-1]):
            kept.append(k)
            last = k
    if kept and len(words) - kept[-1] < MIN_PIECE_EN:
        kept.pop()
    return [words[k][0] - 1 for k in kept if words[k][0] > 0 and text[words[k][0] - 1] == " "]


def _relative(words: list[tuple[int, str]], k: int) -> bool:
    """The subject at ``k`` follows a noun phrase it may be a relative clause of: a determiner at most
    four words back with no preposition after it ("the book i read", "the long summer holidays i spent"),
    unless that noun phrase is what the user is ("i'm a nurse i have two cats")."""
    for d in range(k - 1, max(-1, k - 5), -1):
        if words[d][1] in _PREPOSITIONS_EN:
            return False
        if words[d][1] in _DETERMINERS_EN:
            return not (d > 0 and words[d - 1][1] in _COPULAS_EN)
    return False


def _breaks_zh(text: str) -> list[int]:
    cjk = list(itertools.accumulate((bool(_CJK.match(ch)) for ch in text), initial=0))  # linear time
    starts = {m.start() for m in _SUBORDINATORS_ZH.finditer(text)}
    subordinators = list(itertools.accumulate((i in starts for i in range(len(text))), initial=0))
    cuts: list[int] = []
    last = 0
    for i, ch in enumerate(text):
        if i == 0 or not (ch == "我" or text.startswith(_KIN_ZH, i)):
            continue
        at = i
        for lead in _CONNECTORS_ZH:
            if text[max(0, i - len(lead)):i] == lead:
                at = i - len(lead)
                break
        before = text[at - 1] if at > 0 else ""
        if at == i and before in _NO_BREAK_BEFORE_WO:
            continue
        if subordinators[at] > subordinators[last]:
            continue  # "要是明天下雨我就不去了": the main clause of a condition
        before_n, after_n = cjk[at] - cjk[last], cjk[len(text)] - cjk[at]
        if before_n >= MIN_PIECE_CJK and after_n >= MIN_PIECE_CJK:
            cuts.append(at)
            last = at
    return cuts
