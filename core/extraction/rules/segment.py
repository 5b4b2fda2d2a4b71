"""Splitting a user message into sentences and clauses, and tidying clause text for content.

A *sentence* ends at 。！？!?；; a newline, an ellipsis, or a full stop followed by a space.
A *clause* is a piece of a sentence between commas, colons, dashes (" - " too), tildes, emoji and the
spaces chat puts between two Chinese characters; a 顿号 (、) between two statements of five characters or
more ("…在苏州一家工厂当质检员、平时爱滑冰、腰椎间盘突出不能久坐", never "苹果、香蕉"); before a list
number ("1) i'm a welder 2) i've got …"); and where a long stretch typed with no punctuation at all starts
a new statement (``runon``). Nothing inside brackets is split. Every clause keeps its span in the original
message so contiguous clauses can be joined back with the user's own punctuation.
"""

from __future__ import annotations

import itertools
import unicodedata
from dataclasses import dataclass

from core.extraction.rules.runon import VERB_EN as _VERB_EN
from core.extraction.rules.runon import runon_breaks
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

_EMOJI = re.compile(
    "[\U0001f000-\U0001faff\U00002600-\U000027bf\U00002b00-\U00002bff\U0000fe0f\U0000200d"
    "\U000023e9-\U000023fa\U0001f1e6-\U0001f1ff]+"
)
_HARD = set("。！？!?；;\n…")
_SOFT = set("，,：:—～~")
_OPEN = set("(（「『《【[“")
_CLOSE = set(")）」』》】]”")
_ABBREVIATIONS = {"etc", "e.g", "i.e", "mr", "mrs", "ms", "dr", "vs", "st", "approx", "no", "jr", "sr"}
_CJK = re.compile(r"[\u3400-\u9fff]")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Clause:
    """One clause of the user message."""

    index: int
    sentence: int
    start: int
    end: int
    text: str  # original text, emoji removed, whitespace collapsed, outer punctuation stripped
    norm: str  # NFKC + lowercase, for matching
    had_emoji: bool
    terminator: str = ""  # the boundary character after the clause ("" at the end of the message)


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def normalise(text: str) -> str:
    """NFKC + lowercase + collapsed whitespace: the form every pattern is matched against."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip().lower()


def strip_emoji(text: str) -> str:
    return _EMOJI.sub(" ", text)


def _is_sentence_stop(text: str, i: int) -> bool:
    """``.`` at ``i`` ends a sentence: followed by space/end/CJK, not a decimal or abbreviation."""
    nxt = text[i + 1] if i + 1 < len(text) else ""
    if nxt and not (nxt.isspace() or _CJK.match(nxt) or nxt in "\"'”)）"):
        return False
    j = i - 1
    while j >= 0 and (text[j].isalpha() or text[j] == "."):
        j -= 1
    word = text[j + 1:i].lower()
    return word not in _ABBREVIATIONS


def _is_soft(text: str, i: int) -> bool:
    ch = text[i]
    if ch not in _SOFT:
        return False
    prev = text[i - 1] if i > 0 else ""
    nxt = text[i + 1] if i + 1 < len(text) else ""
    # 7:30, 22~29, 1,000 are not boundaries
    return not (ch in ":~～," and prev.isdigit() and nxt.isdigit())


def _cjk_space(text: str, i: int) -> bool:
    """A space between two Chinese characters is a pause in chat ("我不是医生 我是开网约车的")."""
    return (text[i] == " " and 0 < i < len(text) - 1 and bool(_CJK.match(text[i - 1]))
            and bool(_CJK.match(text[i + 1])))


def _spaced_dash(text: str, i: int) -> bool:
    """A hyphen with a space on each side is a dash ("i work from home anyway - i'm a translator")."""
    return text[i] == "-" and 0 < i < len(text) - 1 and text[i - 1] == " " and text[i + 1] == " "


def _in_word(text: str, i: int) -> bool:
    """A half-width ``;`` between two letters with no space is part of a token ("tl;dr"), no boundary."""
    return (text[i] == ";" and 0 < i < len(text) - 1 and text[i - 1].isascii() and text[i - 1].isalpha()
            and text[i + 1].isascii() and text[i + 1].isalpha())


_JOINT = re.compile(r" (?:but|and i|and i'm|and im|and i've|and ive|and i'd|and please|and pls|"
                    # a rule for the assistant told as the consequence of a fact ("i work nights so if you
                    # ever book me anything, …"): its condition starts a clause of its own
                    r"so (?:if|when|whenever) (?:you|u)) ",
                    re.IGNORECASE)
_PAIR_SUBJECT = re.compile(r"\b(?:my|our|me) [\w-]+$|\b[A-Z][a-z]+$")
# a name after a preposition is an object, not half of a pair subject ("… a high school in Porto and I'm …")
_OBJECT_NAME = re.compile(r"\b(?:in|at|to|from|for|near|of|on|by|about|outside|around|with) [A-Z][a-z]+$")


# "… and honestly my happy place is …", "… and also i'm …": connectors between "and" and the next subject
_JOINT_CONNECTORS = frozenset({"also", "honestly", "tbh", "ngl", "actually", "btw", "plus", "oh", "really",
                               "then"})
_JOINT_WORD = re.compile(r"[a-z']+")
MIN_JOINT_WORDS = 3  # words before an "and my …" / "and also i …" joint (never "me and my wife are …")


def _subject_joint(message: str, start: int, i: int) -> bool:
    """`` and `` before a statement of its own that the plain joints do not take: connectors then a
    first-person subject ("… in bristol and honestly i'm …", "… and also i volunteer …"), or "my"/"our"
    with a verb within three words ("… a locksmith in bristol and my passion is restoring clocks";
    never "i love my dog and my cat", "my wife and my son are …": a pair subject)."""
    if message[i:i + 5].lower() != " and ":
        return False
    before = message[start:i]
    if len(_JOINT_WORD.findall(before.lower())) < MIN_JOINT_WORDS or (
            _PAIR_SUBJECT.search(before) and not _OBJECT_NAME.search(before)):
        return False
    words = _JOINT_WORD.findall(message[i + 5:i + 80].lower())
    k = 0
    while k < len(words) and words[k] in _JOINT_CONNECTORS:
        k += 1
    if k >= len(words):
        return False
    if words[k] in {"my", "our"}:
        return any(w in _VERB_EN for w in words[k + 2:k + 4])
    return k > 0 and words[k] in {"i", "i'm", "im", "i've", "ive", "i'd", "we", "we're"}


def _english_joint(message: str, start: int, i: int) -> bool:
    """`` but `` / `` and I `` between two English statements (not "my wife and I ..."). A pair subject
    takes the plain "I" ("Sarah and I moved"), never a contraction ("… in Porto and I'm learning …"),
    and is no object of a preposition."""
    m = _JOINT.match(message[i:i + 19])  # a bounded window: the longest joint is 19 characters
    if not m:
        return _subject_joint(message, start, i)
    joint = m.group(0).lower()
    if not joint.startswith(" and") or joint.strip() != "and i":
        return True
    before = message[start:i]
    return not (_PAIR_SUBJECT.search(before) and not _OBJECT_NAME.search(before))


_LIST_NUMBER = re.compile(r"(?:[1-9][0-9]?[)）]|[①-⑩])\s*")
_ENUM_PIECE = re.compile(r"[^，,。！？!?；;：:\n…~～、\s]+")
MIN_ENUM_PIECE = 5  # characters on each side of a 、 that separates two statements


def _list_number(text: str, i: int) -> int:
    """The length of a list number starting at ``i`` ("2) ", "②"), after a space or at the start; else 0."""
    if i > 0 and not text[i - 1].isspace():
        return 0
    m = _LIST_NUMBER.match(text[i:i + 4])
    return m.end() if m else 0


def _enumeration_breaks(message: str) -> set[int]:
    """Positions of the 、 that separate two statements: the piece on each side (to the next mark of
    punctuation, space or 、) five characters or more."""
    out: set[int] = set()
    pieces = [(m.start(), m.end()) for m in _ENUM_PIECE.finditer(message)]
    for (a_start, a_end), (b_start, b_end) in itertools.pairwise(pieces):
        if b_start == a_end + 1 and message[a_end] == "、" and a_end - a_start >= MIN_ENUM_PIECE \
                and b_end - b_start >= MIN_ENUM_PIECE:
            out.add(a_end)
    return out


def split_clauses(message: str, max_clauses: int | None = None) -> list[Clause]:
    """The clauses of ``message`` in order (empty pieces dropped), at most ``max_clauses``."""
    clauses: list[Clause] = []
    sentence = 0
    depth = 0
    start = 0
    pending_sentence_break = False
    runon = runon_breaks(message)
    enumeration = _enumeration_breaks(message) if "、" in message else set()

    def flush(end: int, skip: int = 1) -> None:
        nonlocal start
        raw = message[start:end]
        had_emoji = bool(_EMOJI.search(raw))
        text = tidy(raw)
        if text:
            lead = len(raw) - len(raw.lstrip())
            terminator = message[end] if end < len(message) else ""
            clauses.append(Clause(len(clauses), sentence, start + lead, end, text, normalise(text), had_emoji,
                                  terminator))
        start = end + skip

    i = 0
    n = len(message)
    while i < n:
        if max_clauses is not None and len(clauses) >= max_clauses:
            return clauses
        ch = message[i]
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE and depth > 0:
            depth -= 1
        if ch == "\n":
            depth = 0
        boundary_hard = ((ch in _HARD and not _in_word(message, i))
                         or (ch == "." and _is_sentence_stop(message, i)))
        if depth == 0 and boundary_hard:
            flush(i)
            pending_sentence_break = True
        elif depth == 0 and (_is_soft(message, i) or _EMOJI.match(ch) or _cjk_space(message, i)
                             or _spaced_dash(message, i)):
            flush(i)
        elif depth == 0 and ch == " " and i > start and _english_joint(message, start, i):
            flush(i)  # "I used to live in Boston but now I'm in Seattle": a new clause
        elif depth == 0 and (i in runon or i in enumeration):
            flush(i, 0 if ch not in " 、" else 1)  # a run-on stretch's next statement (``runon``)
        elif depth == 0 and (number := _list_number(message, i)):
            flush(i, number)  # "1) i'm a welder in pittsburgh 2) i've got …": the number is no content
            i += number
            continue
        if pending_sentence_break:
            sentence += 1
            pending_sentence_break = False
        i += 1
    flush(n)
    return clauses[:max_clauses] if max_clauses is not None else clauses


_EDGE_PUNCT = " \t\r\n,，。.!！?？;；:：、~～—-–…\"'“”‘’"
_TRAIL_FILLERS = re.compile(
    r"(?:\s*(?:hhh+|h{2,}|哈哈+|嘿嘿+|嘻嘻+|呵呵+|lol+|lmao|haha+|tbh|ngl|xd|呜呜+|"
    r"哈|啦|呀|嘛|哦|噢|喔|哟|捏|"
    r"\(笑\)|\[笑\]))+\s*$",
    re.IGNORECASE,
)
# one leading filler word and what separates it from the rest: punctuation, spaces, or nothing
# when a Chinese character follows (group "cjk" is that character, not part of the filler)
_LEAD_FILLER = re.compile(
    r"(?:emm+|em+|额|呃|嗯嗯|嗯|哦|噢|哎|唉|诶|欸|好吧|好的|那么|然后|还有|另外|"
    r"对了|其实|话说|顺便说一下|顺便|而且|"
    r"不过|但是|但|就是|总之|反正|跟你说个事|跟你说|说一下|ok|okay|so|also|and|but|anyway|anyways|btw|"
    r"by the way|oh|well|yeah|yes|hi|hey|hello|lol|haha|plus|actually|honestly|fyi|ps|real talk)"
    r"(?:\s*[,，:：!！~～]\s*|\s+|(?P<cjk>[\u4e00-\u9fff]))|"
    # a correction or update announced before the statement ("更正一下，…", "Quick update: …")
    r"(?:更正一下|纠正一下|更新一下|补充一下|说明一下|先说一下|quick update|small update|update|"
    r"correction|quick correction|one more thing)\s*[,，:：!！]\s*",
    re.IGNORECASE,
)


def _strip_lead_fillers(text: str) -> str:
    """``text`` without its run of leading fillers (as many as follow each other from the start)."""
    pos = 0
    while True:
        # a short window: RE2's binding pays O(pos) to start a match at pos, and a filler with its
        # separator is short (a match reaching the window's end is redone on the whole rest)
        window = text[pos:pos + 48]
        m = _LEAD_FILLER.match(window)
        if m is not None and m.end() == len(window) and pos + len(window) < len(text):
            window = text[pos:]
            m = _LEAD_FILLER.match(window)
        if m is None:
            return text[pos:]
        pos += m.start("cjk") if m.start("cjk") != -1 else m.end()


def tidy(raw: str) -> str:
    """Clause text for content: emoji removed, whitespace collapsed, edge punctuation stripped."""
    text = _SPACES.sub(" ", strip_emoji(raw)).strip(_EDGE_PUNCT)
    return text


def clean_content(text: str) -> str:
    """Leading filler words and trailing laughter/particles removed from a content string."""
    out = _SPACES.sub(" ", strip_emoji(text)).strip(_EDGE_PUNCT)
    for _ in range(3):
        before = out
        out = _strip_lead_fillers(out).strip(_EDGE_PUNCT)
        out = _TRAIL_FILLERS.sub("", out).strip(_EDGE_PUNCT)
        if out == before:
            break
    return out


def join_clauses(message: str, clauses: list[Clause], zh: bool) -> str:
    """The clauses' text in the user's own words: contiguous clauses keep the original
    punctuation between them, gaps become a separator."""
    ordered = sorted({c.index: c for c in clauses}.values(), key=lambda c: c.index)
    sep = "；" if zh else "; "
    out = ""
    prev: Clause | None = None
    for clause in ordered:
        if prev is None:
            out = clause.text
        elif clause.index == prev.index + 1 and clause.sentence == prev.sentence:
            between = strip_emoji(message[prev.end:clause.start]).strip()
            if not between or between in {"~", "～"}:
                between = "，" if zh else ","
            if not zh and between.startswith(("—", "-", "–")):
                between = " " + between
            out += between + ("" if zh else " ") + clause.text
        elif clause.index == prev.index + 1:
            between = strip_emoji(message[prev.end:clause.start]).strip() or ("。" if zh else ".")
            out += between + ("" if zh else " ") + clause.text
        else:
            out += sep + clause.text
        prev = clause
    return clean_content(out)
