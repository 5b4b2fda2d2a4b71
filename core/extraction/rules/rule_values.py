"""A standing rule's value told again: the sentence names the rule's value and another of the same kind.

"还是换回简体吧，繁体看着累" after "以后给我回消息用繁体字", "ok spanish practice is
over, english again please" after "always reply to me in spanish", "150 is too tight tbh, 400 is fine"
after "keep replies under 150 words", "五部太多了挑花眼，以后就三部吧" after "…一次给五部": a rule's
new value told with no word of change (``core.extraction.pairs.has_cue``) and read by the update-intent
model under its bar (0.38-0.59 against 0.62), so the update judge never read them and the old rule stayed
(issue 24: "a changed instruction value keeps the old value").

``restated_rules`` says which of a message's sentences tell such a change, from the values alone: the
sentence names a value the live rule holds *and* a different value of the same kind (a count, a language or
script, a unit system, a programming language), so a request of the moment that names only the new value
("just this once answer in english", "推荐三部喜剧片") or a remark naming only the old one ("繁体字真好看")
is never one. The caller adds the classifier's reading (the sentence typed a constraint: a rule, not the
user's own news, "my essay was 300 words, the limit was 100"); the pair model still decides which memory, if
any, the sentence supersedes. Pure; deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.extraction.candidates import ExistingMemory
from core.extraction.rules import patterns
from core.extraction.rules.segment import normalise
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

RULE_VALUE_GATE_ON = True
"""The update judge also reads a sentence without a change word that restates a live rule's value and the
classifier types a rule (``core.extraction.rules.judge.UpdateJudge.gated``); off: the update-intent model
alone gates such sentences (main before issue 24's session 26)."""

# named values of one kind: canonical value -> the words that name it (lower case)
_NAMED: dict[str, dict[str, tuple[str, ...]]] = {
    "language": {
        "en": ("english", "英文", "英语"), "zh": ("chinese", "mandarin", "中文", "汉语", "普通话"),
        "yue": ("cantonese", "粤语"), "es": ("spanish", "西班牙语"), "fr": ("french", "法语"),
        "de": ("german", "德语"), "it": ("italian", "意大利语"), "pt": ("portuguese", "葡萄牙语"),
        "ja": ("japanese", "日语", "日文"), "ko": ("korean", "韩语", "韩文"), "nl": ("dutch", "荷兰语"),
        "ru": ("russian", "俄语"), "ar": ("arabic", "阿拉伯语"),
    },
    "script": {"simplified": ("简体", "simplified"), "traditional": ("繁体", "traditional")},
    "temperature": {"c": ("celsius", "摄氏"), "f": ("fahrenheit", "华氏")},
    "distance": {"km": ("km", "kilometres", "kilometers", "公里"), "mi": ("miles", "英里")},
    "system": {"metric": ("metric", "公制"), "imperial": ("imperial", "英制")},
    "code": {
        "python": ("python",), "javascript": ("javascript",), "typescript": ("typescript",),
        "java": ("java",), "rust": ("rust",), "golang": ("golang",), "kotlin": ("kotlin",),
        "swift": ("swift",), "ruby": ("ruby",), "csharp": ("c#",), "cpp": ("c++",),
    },
}
_EN_COUNT = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
             "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "fifty": 50,
             "hundred": 100}
_ZH_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_NUMBER = re.compile(r"(?P<d>\d+(?:\.\d+)?)|\b(?P<w>" + "|".join(_EN_COUNT) + r")\b|"
                     r"(?P<z>[一二两三四五六七八九十百]+)(?:[部本个条句段字首份种家篇点项张页]|个字)")
_QUESTION = re.compile(r"[?？]\s*$|吗\s*$")
# the sentence is about this time only ("just this once", "这次"): an exception, not the rule's new value
_THIS_TIME = re.compile(r"\b(?:this (?:once|time|one)|just (?:for )?(?:this|now)|for now|right now)\b|"
                        r"这次|这回|这一次|本次|先这样|暂时")


def this_time(text: str) -> bool:
    """The sentence is about this time only ("just this once", "这次") or a time window ("this week"): an
    exception, not a new value."""
    norm = normalise(text)
    return bool(_THIS_TIME.search(norm) or patterns.TIME_HARD.search(norm))


def _zh_number(text: str) -> int | None:
    if text == "十":
        return 10
    if text.startswith("十") and len(text) == 2 and text[1] in _ZH_DIGIT:
        return 10 + _ZH_DIGIT[text[1]]
    if len(text) == 1 and text in _ZH_DIGIT:
        return _ZH_DIGIT[text]
    if len(text) == 2 and text[0] in _ZH_DIGIT and text[1] == "十":
        return _ZH_DIGIT[text[0]] * 10
    if len(text) == 3 and text[0] in _ZH_DIGIT and text[1] == "十" and text[2] in _ZH_DIGIT:
        return _ZH_DIGIT[text[0]] * 10 + _ZH_DIGIT[text[2]]
    if len(text) == 2 and text[0] in _ZH_DIGIT and text[1] == "百":
        return _ZH_DIGIT[text[0]] * 100
    return None


def values(text: str) -> dict[str, set[str]]:
    """The values ``text`` names, by kind: ``count`` (numbers, as digits) and the named kinds above."""
    norm = normalise(text).lower()
    out: dict[str, set[str]] = {}
    for m in _NUMBER.finditer(norm):
        if m.group("d"):
            n: float | int | None = float(m.group("d"))
        elif m.group("w"):
            n = _EN_COUNT[m.group("w")]
        else:
            n = _zh_number(m.group("z"))
        if n is not None:
            out.setdefault("count", set()).add(str(int(n)) if float(n).is_integer() else str(n))
    for kind, named in _NAMED.items():
        for value, names in named.items():
            if any(_names(norm, name) for name in names):
                out.setdefault(kind, set()).add(value)
    return out


def _names(norm: str, name: str) -> bool:
    if name.isascii() and name[0].isalpha() and name[-1].isalpha():
        return re.search(rf"\b{re.escape(name)}\b", norm) is not None
    return name in norm


def restates(sentence: str, rule: str) -> bool:
    """``sentence`` names a value ``rule`` holds and another value of the same kind the rule does not: the
    old value dismissed beside the new one. Never a question nor a sentence scoped to this time."""
    norm = normalise(sentence).lower()
    if _QUESTION.search(sentence) or _THIS_TIME.search(norm) or patterns.TIME_HARD.search(norm):
        return False
    said, held = values(sentence), values(rule)
    for kind, olds in held.items():
        new = said.get(kind, set())
        if new & olds and new - olds:
            return True
    return False


def restated_rules(sentences: Iterable[str], live: Iterable[ExistingMemory]) -> list[str]:
    """The ``sentences`` that restate a value of one of the ``live`` rules (``restates``)."""
    rules = [m.content for m in live if m.memory_type == "constraint" and m.content.strip()]
    if not rules:
        return []
    return [s for s in sentences if any(restates(s, r) for r in rules)]
