"""Cutting a user message into passages, and the noise rule that keeps greetings out.

Contracts:
- ``cut_passages(text, max_chars)`` returns the message's passages in order: whitespace-normalised
  text cut on sentence boundaries (``。！？!?.;；`` and line breaks), consecutive sentences packed while
  they fit ``max_chars``; a sentence longer than ``max_chars`` is cut at the last space or comma before
  the limit (or hard at the limit). Every passage is non-empty and at most ``max_chars`` long; together
  they hold every non-space character of the input, in order (sentences after a Chinese sentence
  end are joined without a space).
- ``index_text(passage)`` is what the index embeds: the passage without closing punctuation.
- ``is_episode_noise(text)`` is true for a message that is only a greeting, thanks, an
  acknowledgement or a farewell (Chinese and English, emoji and punctuation ignored), for one with
  fewer than two letters or CJK characters, and for the memory store's noise content
  (``core.filters.is_noise_content``: tool lists, weather snapshots, system settings, ...).
"""

from __future__ import annotations

import unicodedata

from core.filters import is_noise_content
from core.text import regex as re  # linear time (RE2): these patterns run over user text

_CJK_END = frozenset("。！？；")
_HARD_END = frozenset("。！？!?；;\n")
_SOFT_BREAK = re.compile(r"[\s,，、]")
_WORDS = re.compile(r"[A-Za-z]+|[\u4e00-\u9fff]")
_SMALL_TALK = re.compile(
    r"^(?:(?:hi|hey|hello|hiya|yo|morning|good (?:morning|afternoon|evening|night)|gm|gn|thanks?(?: you)?"
    r"(?: (?:so|very) much)?|thx|ty|cheers|ok(?:ay)?|k|sure|cool|great|nice|awesome|got it|i see|sounds good"
    r"|alright|right|yes|yeah|yep|no|nope|nah|lol|haha+|hah|bye|goodbye|see (?:you|ya)(?: later)?|later"
    r"|good ?bye|you'?re welcome|np|no problem|(?:that'?s )?(?:great|perfect|fine)|will do|ok thanks?"
    r"|thanks? again|appreciate it|much appreciated|"
    r"你好|您好|嗨|哈喽|早上好|早安|晚安|晚上好|下午好|谢谢|谢谢你|谢谢您|多谢|感谢|好的|好|嗯+|哦+|噢|行|可以|收到|明白"
    r"|知道了|了解|好吧|对|是的|没错|哈+|呵呵|拜拜|再见|回头见|不客气|没事|没问题|辛苦了)[\s,，.。!！~～?？]*)+$",
    re.IGNORECASE,
)


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    # symbols (emoji and the like) say nothing about what happened
    return "".join(ch for ch in text if not unicodedata.category(ch).startswith("S")).strip()


def is_episode_noise(text: str) -> bool:
    """True when the message is not worth an episode (see the module docstring)."""
    clean = _clean(text)
    if len(_WORDS.findall(clean)) < 2 and len(clean) < 4:
        return True
    if len(clean) <= 80 and _SMALL_TALK.match(" ".join(clean.split())):
        return True
    return is_noise_content(text)


def _split_long(sentence: str, max_chars: int) -> list[str]:
    out: list[str] = []
    rest = sentence
    while len(rest) > max_chars:
        head = rest[:max_chars]
        cut = max((m.end() for m in _SOFT_BREAK.finditer(head)), default=0)
        if cut < max_chars // 2:
            cut = max_chars
        out.append(rest[:cut].strip())
        rest = rest[cut:].strip()
    if rest:
        out.append(rest)
    return [p for p in out if p]


def _sentences(text: str) -> list[str]:
    """``text`` cut after each sentence end: ``。！？!?；;``, a line break, or a ``.`` before a space."""
    out: list[str] = []
    start = 0
    for i, ch in enumerate(text):
        if ch in _HARD_END or (ch == "." and i + 1 < len(text) and text[i + 1].isspace()):
            out.append(text[start:i + 1])
            start = i + 1
    out.append(text[start:])
    return out


def cut_passages(text: str, max_chars: int = 400) -> list[str]:
    """The passages of ``text`` in order (see the module docstring); ``[]`` for blank text."""
    if max_chars < 20:
        raise ValueError("max_chars must be >= 20")
    sentences: list[str] = []
    for raw in _sentences(text):
        sentence = " ".join(raw.split())
        if sentence:
            sentences.extend(_split_long(sentence, max_chars))
    passages: list[str] = []
    current = ""
    for sentence in sentences:
        if not current:
            current = sentence
        elif len(current) + 1 + len(sentence) <= max_chars:
            current = f"{current}{'' if current[-1] in _CJK_END else ' '}{sentence}"
        else:
            passages.append(current)
            current = sentence
    if current:
        passages.append(current)
    return passages


_TRAILING = " .。!！?？~～…"


def index_text(passage: str) -> str:
    """The text an episode's vector is computed from: the passage without its closing punctuation, so a
    one-clause message meets the vector the classifier or dedup already computed for that clause
    (``core.embedding.cache``); the stored passage keeps its punctuation."""
    return passage.rstrip(_TRAILING) or passage
